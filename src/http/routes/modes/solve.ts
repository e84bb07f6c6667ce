import { ModesRequestSchema, ModesResponseSchema } from "../../../schema/modes.js";
import { errors } from "../../../errors.js";
import { ValidationErrorBody, errorResponses } from "../../schemas.js";
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
        response: { 200: ModesResponseSchema, 422: ValidationErrorBody, ...errorResponses },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            errors.validation([
              {
                path: "plane.size",
                message:
                  "the plane covers 240 × 300 = 72000 grid cells; at most 40000 are solved per request: make the plane smaller or the grid coarser",
              },
            ]),
            errors.modesTooLarge(
              `The solve did not finish within ${config.modes.timeoutSeconds} s; make the plane smaller or the grid coarser.`,
            ),
            errors.modesBusy(5),
            ...V1_ERRORS,
          ],
          headers: { 503: ["Retry-After"] },
          success: { 200: { description: "The plane and its modes." } },
          examples: { ModesRequest: EXAMPLE_MODES_REQUEST, ModesResponse: EXAMPLE_MODES_RESPONSE },
        }),
      },
    },
    async (req) => modes.solve(callerOf(req).accountId, req.body),
  );
}
