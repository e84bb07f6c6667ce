/**
 * Reading a simulation request from a JSON file and validating it locally with exactly the
 * server's code and default limits, so mistakes are reported before anything is sent.
 */
import type { FieldError, SimulationRequest } from "../client/index.js";
import { loadConfig } from "../config.js";
import { validateRequestSchema, validateSimulationRequest } from "../schema/validate.js";
import type { RunEstimate } from "../solver/index.js";
import { readInputFile } from "./input-file.js";
import { CliError, EXIT, InvalidRequestError } from "./output.js";

export interface LoadedSimulation {
  request: SimulationRequest;
  /**
   * The local estimate (grid, cells, memory) of the validated request; absent when only the
   * server can finish the checks (ports from a layout's labels).
   */
  estimate?: RunEstimate;
}

/** The parsed JSON of a simulation file, unchecked. */
export async function readSimulationJson(path: string): Promise<unknown> {
  // A byte-order mark (editors on Windows write one) is no part of the JSON.
  const text = (await readInputFile(path)).toString("utf8").replace(/^\uFEFF/, "");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${path} is not valid JSON: ${(err as Error).message}`, EXIT.invalid);
  }
}

export async function loadSimulationFile(path: string): Promise<LoadedSimulation> {
  const outcome = checkSimulationLocally(await readSimulationJson(path));
  if ("errors" in outcome) throw new InvalidRequestError(path, outcome.errors);
  return outcome;
}

/**
 * A request checked as the server would check it, with the limits of a default server: the
 * request (and its estimate), or the problems found.
 */
export function checkSimulationLocally(body: unknown): LoadedSimulation | { errors: FieldError[] } {
  // The default limits of a server with no EMSIM_* settings: the same bounds the embedded
  // default enforces. A server configured with larger limits may accept more
  // (--skip-validation leaves the checks to it).
  // gds structures name a file stored on the server, which resolves them on submission.
  const outcome = validateSimulationRequest(body, loadConfig({}).limits, { unresolvedGds: "skip" });
  if (outcome.ok) return { request: outcome.request, estimate: outcome.estimate };
  // A gds structure's `ports` become ports on the server, from the file's labels: the checks of
  // ports cannot run here (a ports source may have none yet), so they are left to the server.
  if (validateRequestSchema(body) && body.structures?.some((s) => s.type === "gds" && s.ports)) {
    const left = outcome.errors.filter((e) => !PORT_CHECK_PATH.test(e.path));
    return left.length === 0 ? { request: body } : { errors: left };
  }
  return { errors: outcome.errors };
}

/** The paths of the checks that need the request's whole list of ports. */
const PORT_CHECK_PATH = /^(ports\b|source\.(run_ports|port_symmetries)\b)/;
