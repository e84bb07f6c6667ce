import Type from "typebox";
import { errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { GdsUrlSchema, fabricationErrors } from "./schemas.js";

const Rule = (description: string) =>
  Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e7, description }));

const Edge = Type.Array(Type.Integer(), { description: "[x1, y1, x2, y2] in nm" });

export function drcRoute(app: App, { fabrication }: RouteDeps): void {
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
        body: Type.Object(
          {
            gds_url: GdsUrlSchema,
            pdk: Type.String({
              maxLength: 64,
              description: "A name from GET /v1/fabrication/pdks.",
            }),
            rules: Type.Optional(
              Type.Object(
                {
                  min_feature_nm: Rule("Smallest width (nm)."),
                  min_spacing_nm: Rule("Smallest spacing (nm)."),
                  min_radius_nm: Rule("Smallest bend radius (nm)."),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            passed: Type.Boolean(),
            violations: Type.Array(
              Type.Object({
                rule: Type.Enum(["min_feature", "min_spacing", "min_radius"]),
                severity: Type.Enum(["error", "warning"]),
                location: Type.Array(Type.Number(), { description: "[x, y] in µm" }),
                actual_nm: Type.Number(),
                required_nm: Type.Number(),
                layer: Type.String({ description: '"layer/datatype"' }),
                edges_nm: Type.Array(Edge, { description: "The two edges KLayout would report." }),
              }),
            ),
            summary: Type.String(),
            summary_details: Type.Object({}, { additionalProperties: true }),
          }),
          ...fabricationErrors,
          ...errorResponses,
        },
      },
    },
    async (req) =>
      fabrication.drc(callerOf(req).accountId, req.body.gds_url, req.body.pdk, req.body.rules),
  );
}
