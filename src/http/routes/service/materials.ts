import { MATERIALS, materialKind } from "../../../solver/index.js";
import { MaterialListSchema, errorResponses } from "../../schemas.js";
import type { App, RouteDeps } from "../../types.js";
import { V1_ERRORS } from "../../openapi-operation.js";

export function listMaterials(app: App, _deps: RouteDeps): void {
  const body = {
    materials: [...MATERIALS.values()].map((m) => ({
      name: m.name,
      aliases: m.aliases,
      kind: materialKind(m),
      model: m.model,
      reference: m.reference,
      valid_range_m: m.validRangeM,
    })),
  };
  app.get(
    "/v1/materials",
    {
      schema: {
        operationId: "listMaterials",
        summary: "List materials",
        description:
          "The material library: names usable in structures, what each is (a dielectric, a metal, or PEC, the perfect electric conductor), models, references and valid wavelength ranges (metres).",
        tags: ["materials"],
        security: [{ bearerAuth: [] }],
        response: {
          200: MaterialListSchema,
          ...errorResponses,
        },
        openapi: () => ({
          errors: V1_ERRORS,
          success: { 200: { description: "The material library." } },
          examples: { MaterialList: { materials: body.materials.slice(0, 2) } },
        }),
      },
    },
    async () => body,
  );
}
