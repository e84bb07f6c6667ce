import { PdkListSchema } from "../../../schema/fabrication.js";
import { errorResponses } from "../../schemas.js";
import type { App, RouteDeps } from "../../types.js";
import { V1_ERRORS } from "../../openapi-operation.js";

export function listPdksRoute(app: App, { fabrication }: RouteDeps): void {
  const body = { pdks: [...fabrication.pdks()] };
  app.get(
    "/v1/fabrication/pdks",
    {
      schema: {
        operationId: "listPdks",
        summary: "List process design kits",
        description:
          "Open process design kits: layer maps, layer stacks (materials, thicknesses in nm), per-layer design rules, cross-sections, how each layer is made, their public sources, and which numbers are illustrative (foundry rules are often under NDA).",
        tags: ["fabrication"],
        security: [{ bearerAuth: [] }],
        response: {
          200: PdkListSchema,
          ...errorResponses,
        },
        openapi: () => ({
          errors: V1_ERRORS,
          success: { 200: { description: "The process design kits." } },
        }),
      },
    },
    async () => body,
  );
}
