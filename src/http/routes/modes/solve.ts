import {
  ModesRequestSchema,
  ModesResponseSchema,
  validateModesRequest,
} from "../../../schema/modes.js";
import type { ApiError } from "../../../errors.js";
import { errors } from "../../../errors.js";
import { hangUpSignal } from "../../hang-up.js";
import { MODE_THREAD_ERRORS } from "../../../modes/service.js";
import { UnprocessableBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { V1_ERRORS, bodyErrors } from "../../openapi-operation.js";
import { EXAMPLE_MODES_REQUEST, EXAMPLE_MODES_RESPONSE } from "../../openapi-examples.js";

export function solveModesRoute(app: App, { modes, config }: RouteDeps): void {
  app.post(
    "/v1/modes",
    {
      schema: {
        operationId: "solveModes",
        summary: "Solve a plane's waveguide modes",
        description:
          "Paints the plane of a simulation's domain and structures as a run would (the same grid and sub-cell averaging) and returns its modes at each wavelength: n_eff, k_eff, TE fraction, optionally the group index and the fields. Synchronous; planes of up to 40 000 grid cells.",
        tags: ["modes"],
        security: [{ bearerAuth: [] }],
        body: ModesRequestSchema,
        response: { 200: ModesResponseSchema, 422: UnprocessableBody, ...errorResponses },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            tooManyCellsExample(),
            MODE_THREAD_ERRORS.timedOut(config.modes),
            MODE_THREAD_ERRORS.busy(),
            ...V1_ERRORS,
          ],
          headers: { 503: ["Retry-After"] },
          success: { 200: { description: "The plane and its modes." } },
          examples: { ModesRequest: EXAMPLE_MODES_REQUEST, ModesResponse: EXAMPLE_MODES_RESPONSE },
        }),
      },
    },
    async (req, reply) => {
      // A caller that hangs up before the answer stops its solve (the slot is freed at once).
      return modes.solve(callerOf(req).accountId, req.body, hangUpSignal(reply));
    },
  );
}

/** The 422 of a plane over the cell limit, as the checks word it (the example at 5 nm). */
function tooManyCellsExample(): ApiError {
  const domain = { ...EXAMPLE_MODES_REQUEST.domain, resolution: 5e-9 };
  const outcome = validateModesRequest({ ...EXAMPLE_MODES_REQUEST, domain });
  if (outcome.ok) throw new Error("the oversized modes example passed its checks");
  return errors.validation(outcome.errors);
}
