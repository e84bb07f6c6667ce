import Type from "typebox";
import { errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { LayerMappingSchema, StoredGdsFields, fabricationErrors } from "./schemas.js";

export function exportGdsRoute(app: App, { jobs, fabrication }: RouteDeps): void {
  app.post(
    "/v1/fabrication/export-gds",
    {
      schema: {
        operationId: "exportGds",
        summary: "Export a job's geometry as GDS II",
        description:
          "Cuts the job's structures with a horizontal plane (default: each at the centre of its own z extent; `z_um` picks one height for all) in the job's frame, snaps coordinates to `grid_resolution_nm` (database unit 1 nm, user unit 1 µm) and stores the file. Boxes become rectangles, spheres and z-cylinders circles (inscribed polygons within half a grid step), x/y-cylinders rectangles. Materials without a mapping are left out and listed. `bounding_box_um` is [width, height] of everything exported; `bbox_um` is [xmin, ymin, xmax, ymax].",
        tags: ["fabrication"],
        security: [{ bearerAuth: [] }],
        body: Type.Object(
          {
            job_id: Type.String({ maxLength: 64 }),
            layer_mapping: LayerMappingSchema,
            grid_resolution_nm: Type.Number({
              minimum: 1,
              maximum: 10000,
              description: "Grid the coordinates snap to: a whole number of nanometres.",
            }),
            z_um: Type.Optional(
              Type.Number({ minimum: -1e6, maximum: 1e6, description: "Cut plane height, µm." }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            ...StoredGdsFields,
            layer_details: Type.Array(
              Type.Object({
                layer: Type.Integer(),
                datatype: Type.Integer(),
                key: Type.String(),
                materials: Type.Array(Type.String()),
                polygon_count: Type.Integer(),
                merged_polygon_count: Type.Integer(),
              }),
            ),
            merged_polygon_count: Type.Integer(),
            unmapped_materials: Type.Array(Type.String()),
            skipped: Type.Array(Type.Object({ index: Type.Integer(), reason: Type.String() })),
            grid_resolution_nm: Type.Number(),
            max_sagitta_nm: Type.Number(),
            cut_plane_um: Type.Unsafe<number | null>({ type: ["number", "null"] }),
          }),
          ...fabricationErrors,
          ...errorResponses,
        },
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
