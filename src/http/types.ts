import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Config } from "../config.js";
import type { ModeService } from "../modes/service.js";
import type { FabricationService } from "../fabrication/service.js";
import type { JobService } from "../jobs/service.js";
import type { BatchService } from "../batches/service.js";
import type { ServiceMetrics } from "../metrics/registry.js";
import type { StorageBackend } from "../storage/types.js";
import type { Stores } from "../store/types.js";
import type { Caller } from "./plugins/auth.js";
import type { SolverAdapterReport } from "../schema/responses.js";
import type { BackendName } from "../solver/index.js";

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface RouteDeps {
  config: Config;
  stores: Stores;
  storage: StorageBackend;
  jobs: JobService;
  batches: BatchService;
  fabrication: FabricationService;
  modes: ModeService;
  metrics: ServiceMetrics;
  /** The solver backend this deployment runs (EMSIM_SOLVER_BACKEND resolved at start-up). */
  solver: SolverBackendInfo;
  /** Health of the embedded worker, when the server runs one. */
  workerRunning: () => boolean | null;
}

/** The solver backend and, for `webgpu`, its GPU adapter (/health, /metrics). */
export interface SolverBackendInfo {
  backend: BackendName;
  adapter: SolverAdapterReport | null;
}

/** The authenticated caller of a /v1 route (set by the auth hook). */
export function callerOf(req: { caller: Caller | null }): Caller {
  if (!req.caller) throw new Error("route reached without authentication");
  return req.caller;
}
