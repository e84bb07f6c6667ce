import Type from "typebox";
import { MATERIALS } from "../../../solver/materials.js";
import { errorResponses } from "../../schemas.js";
import type { App, RouteDeps } from "../../types.js";

export function listMaterials(app: App, _deps: RouteDeps): void {
  const body = {
    materials: [...MATERIALS.values()].map((m) => ({
      name: m.name,
      aliases: m.aliases,
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
          "The material library: names usable in structures, models, references and valid wavelength ranges (metres).",
        tags: ["materials"],
        security: [{ bearerAuth: [] }],
        response: {
          200: Type.Object(
            {
              materials: Type.Array(
                Type.Object(
                  {
                    name: Type.String(),
                    aliases: Type.Array(Type.String()),
                    model: Type.String(),
                    reference: Type.String(),
                    valid_range_m: Type.Array(Type.Number(), {
                      description: "Shortest and longest valid vacuum wavelength in metres.",
                    }),
                  },
                  { title: "Material", description: "One entry of the material library." },
                ),
              ),
            },
            { title: "MaterialList", description: "The material library." },
          ),
          ...errorResponses,
        },
      },
    },
    async () => body,
  );
}
