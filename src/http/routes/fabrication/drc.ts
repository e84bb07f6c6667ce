import { errors } from "../../../errors.js";
import { DrcRequestSchema, DrcResponseSchema } from "../../../schema/fabrication.js";
import { errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { FABRICATION_BUSY, GDS_INVALID, LAYOUT_TOO_LARGE, fabricationErrors } from "./schemas.js";
import { V1_ERRORS, bodyErrors } from "../../openapi-operation.js";
import { hangUpSignal } from "../../hang-up.js";

export function drcRoute(app: App, { fabrication, config }: RouteDeps): void {
  app.post(
    "/v1/fabrication/drc",
    {
      schema: {
        operationId: "runDrc",
        summary: "Run a design-rule check",
        description:
          "Checks a stored GDS II file against a PDK's per-layer rules; rules in the request override the kit's on every layer that is not a marker layer. Each layer is merged first; min_feature is KLayout's width check (projection metric), min_spacing its space check (Euclidean metric: corner-to-corner distances count, notches included), both strictly less-than; min_radius checks arcs and bends (centre-line radius). One violation per offending edge pair, as KLayout reports them; location is the centre of the pair's box in µm.",
        tags: ["fabrication"],
        security: [{ bearerAuth: [] }],
        body: DrcRequestSchema,
        response: {
          200: DrcResponseSchema,
          ...fabricationErrors,
          ...errorResponses,
        },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            errors.validation([{ path: "pdk", message: "is not a known process design kit" }]),
            errors.gdsNotFound(),
            GDS_INVALID,
            LAYOUT_TOO_LARGE,
            FABRICATION_BUSY,
            ...V1_ERRORS,
          ],
          success: { 200: { description: "Whether the layout passes, and every violation." } },
        }),
      },
    },
    async (req, reply) =>
      fabrication.drc(
        callerOf(req).accountId,
        req.body.gds_url,
        req.body.pdk,
        req.body.rules,
        hangUpSignal(reply),
      ),
  );
}
