import { errors } from "../../../errors.js";
import { ExportGdsRequestSchema, ExportGdsResponseSchema } from "../../../schema/fabrication.js";
import { errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { fabricationErrors } from "./schemas.js";
import { JOB_ID_ERRORS, V1_ERRORS, bodyErrors } from "../../openapi-operation.js";

export function exportGdsRoute(app: App, { jobs, fabrication, config }: RouteDeps): void {
  app.post(
    "/v1/fabrication/export-gds",
    {
      schema: {
        operationId: "exportGds",
        summary: "Export a job's geometry as GDS II",
        description:
          "Cuts the job's structures with a horizontal plane (default: each at the centre of its own z extent; `z_um` picks one height for all) in the job's frame, snaps coordinates to `grid_resolution_nm` (database unit 1 nm, user unit 1 µm) and stores the file. Boxes become rectangles, spheres and z-cylinders circles (inscribed polygons within half a grid step), x/y-cylinders rectangles. Materials without a mapping are left out and listed; a mapping that maps none of the job's materials is a 422. The job need not have run: its request holds the geometry. `bounding_box_um` is [width, height] of everything exported; `bbox_um` is [xmin, ymin, xmax, ymax].",
        tags: ["fabrication"],
        security: [{ bearerAuth: [] }],
        body: ExportGdsRequestSchema,
        response: {
          200: ExportGdsResponseSchema,
          ...fabricationErrors,
          ...errorResponses,
        },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            errors.validation([
              { path: "layer_mapping", message: "maps none of the job's materials (Si, SiO2)" },
            ]),
            ...JOB_ID_ERRORS,
            ...V1_ERRORS,
          ],
          success: { 200: { description: "The stored GDS II file and what it holds." } },
        }),
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const job = await jobs.getOwnJob(caller.accountId, req.body.job_id, caller.reads);
      return fabrication.exportJob(caller.accountId, job.jobId, job.specJson, {
        layerMapping: req.body.layer_mapping,
        gridResolutionNm: req.body.grid_resolution_nm,
        zUm: req.body.z_um,
      });
    },
  );
}
