/**
 * The set-up preview's service layer (no HTTP): a preview request's simulation checked as a
 * submission is — its schema, its gds structures resolved, the solver's checks and the
 * deployment's limits, each error named under `simulation.` as the body has it — then its planes
 * painted (response.ts). It never queues anything.
 *
 * What the preview needs of other services comes in as functions (the route hands them in):
 * the fabrication service's gds resolution for the caller, and the job service's validation
 * with its estimate (JobService.check), which sits beside this module in the layers.
 */
import { ApiError, errors, type FieldError } from "../errors.js";
import { asSent, errorAsSent, fieldErrorsAsSent } from "../fabrication/gds-resolve.js";
import { formatAjvErrors } from "../schema/ajv-errors.js";
import type { PreviewRequest, PreviewResponse } from "../schema/preview.js";
import type { Estimate } from "../schema/responses.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { validateRequestSchema } from "../schema/validate.js";
import type { SimulationSpec } from "../solver/index.js";
import { setupPreview } from "./response.js";

export interface PreviewDeps {
  /** The request with its gds structures resolved for the caller (FabricationService). */
  resolveGds(request: SimulationRequest): Promise<SimulationRequest>;
  /** Submission's validation: the spec with its defaults and the estimate, or the 422. */
  check(request: SimulationRequest): { spec: SimulationSpec; estimate: Estimate };
}

/** A 422 about the simulation, its paths put under `simulation.`; any other error as it is. */
export function underSimulation<E>(err: E): E | ApiError {
  if (!(err instanceof ApiError) || err.code !== "validation_error") return err;
  const fieldErrors = (err.extra.errors as FieldError[]).map((e) => ({
    ...e,
    path: `simulation.${e.path}`,
  }));
  const first = fieldErrors[0];
  const detail = first ? err.detail.replace(/^[^:]*:/, `${first.path}:`) : err.detail;
  return new ApiError(422, err.code, detail, { ...err.extra, errors: fieldErrors });
}

/**
 * The preview of a request's simulation on its planes (POST /v1/simulations/preview).
 * @throws the API's coded errors: 422 for the simulation (as submission's, under
 *   `simulation.`) or a plane outside the grid
 */
export async function previewSimulation(
  body: PreviewRequest,
  deps: PreviewDeps,
): Promise<PreviewResponse> {
  const simulation: unknown = body.simulation;
  if (!validateRequestSchema(simulation)) {
    throw underSimulation(errors.validation(formatAjvErrors(validateRequestSchema.errors)));
  }
  let checked: ReturnType<PreviewDeps["check"]>;
  let resolved: SimulationRequest | undefined;
  try {
    resolved = await deps.resolveGds(simulation);
    checked = deps.check(resolved);
  } catch (err) {
    throw underSimulation(resolved ? errorAsSent(err, resolved) : err);
  }
  return { ...namedAsSent(setupPreview(checked.spec, body), resolved), estimate: checked.estimate };
}

/** The preview's object names and warnings with the request's structures named as sent. */
export function namedAsSent<P extends Omit<PreviewResponse, "estimate">>(
  preview: P,
  resolved: SimulationRequest,
): P {
  return {
    ...preview,
    planes: preview.planes.map((p) => ({
      ...p,
      objects: p.objects.map((o) => ({ ...o, name: asSent(o.name, resolved, true) })),
    })),
    warnings: fieldErrorsAsSent(preview.warnings, resolved),
  };
}
