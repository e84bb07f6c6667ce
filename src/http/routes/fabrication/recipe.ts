import { errors } from "../../../errors.js";
import { jobLayers } from "../../../fabrication/job-layers.js";
import type { SimulationSpec } from "../../../solver/index.js";
import { errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { RecipeRequestSchema, RecipeResponseSchema } from "../../../schema/fabrication.js";
import { FABRICATION_BUSY, GDS_INVALID, fabricationErrors } from "./schemas.js";
import { JOB_ID_ERRORS, V1_ERRORS, bodyErrors } from "../../openapi-operation.js";
import { hangUpSignal } from "../../hang-up.js";

export function recipeRoute(app: App, { fabrication, jobs, config }: RouteDeps): void {
  app.post(
    "/v1/fabrication/recipe",
    {
      schema: {
        operationId: "makeRecipe",
        summary: "Generate a process recipe",
        description:
          "An ordered process flow for the layers a layout uses in a PDK: starting wafer, depositions, and per layer resist, lithography (mask layers and tone), develop, etch (depth from the kit's stack) or lift-off metal, strip; then cladding and planarisation. Give `gds_url` (a stored file) or `job_id` (the job's materials, mapped by `layer_mapping` or else to the kit layer patterning that material). Layers the kit cannot make are left out with a warning.",
        tags: ["fabrication"],
        security: [{ bearerAuth: [] }],
        body: RecipeRequestSchema,
        response: {
          200: RecipeResponseSchema,
          ...fabricationErrors,
          ...errorResponses,
        },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            errors.validation([{ path: "body", message: "give gds_url or job_id" }]),
            errors.gdsNotFound(),
            ...JOB_ID_ERRORS,
            GDS_INVALID,
            FABRICATION_BUSY,
            ...V1_ERRORS,
          ],
          success: { 200: { description: "The ordered process flow, with warnings." } },
        }),
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { gds_url, job_id, layer_mapping, pdk, options } = req.body;
      if ((gds_url === undefined) === (job_id === undefined)) {
        throw errors.validation([
          { path: "body", message: "give exactly one of gds_url and job_id" },
        ]);
      }
      if (gds_url !== undefined) {
        const source = { gdsUrl: gds_url };
        return fabrication.recipe(caller.accountId, source, pdk, options, hangUpSignal(reply));
      }
      const job = await jobs.getOwnJob(caller.accountId, job_id!, caller.reads);
      const spec = JSON.parse(job.specJson) as SimulationSpec;
      const kit = fabrication.pdks().find((p) => p.name === pdk.toLowerCase());
      const placed = jobLayers(spec, layer_mapping, kit);
      const recipe = await fabrication.recipe(caller.accountId, placed, pdk, options);
      return { ...recipe, warnings: [...placed.warnings, ...recipe.warnings] };
    },
  );
}
