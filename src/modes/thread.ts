/**
 * The thread a mode solve runs in (service.ts): a plane of tens of thousands of cells takes
 * seconds of factorisation, which must not hold up the server's event loop. Each task is a
 * checked request; the answer is the endpoint's JSON (response.ts), built here so that only
 * the numbers asked for cross back.
 */
import { solveModesOf, type PlaneModesRequest } from "../solver/index.js";
import { serveTasks } from "../threads/task-threads.js";
import { modesResponse, type ModesResponse } from "./response.js";

export interface ModeTask {
  request: PlaneModesRequest;
  includeFields: boolean;
}

serveTasks<ModeTask, ModesResponse>((task) =>
  modesResponse(solveModesOf(task.request), task.includeFields),
);
