/**
 * Request and response bodies of the /v1/fabrication routes as JSON schemas: the routes
 * validate, serialise and document with them (src/http/routes/fabrication/), and the SDK's
 * types are derived from them (src/client/types.ts), as for the job routes in responses.ts.
 * The kits and recipe steps are described loosely here (additional properties) and typed in
 * the SDK from the library's own interfaces (src/fabrication/pdks.ts, recipe.ts).
 */
import Type, { type Static } from "typebox";

const Layer = Type.Integer({ minimum: 0, maximum: 32767 });

export const LayerMappingSchema = Type.Record(
  Type.String({ minLength: 1, maxLength: 64 }),
  Type.Object({ layer: Layer, datatype: Layer }, { additionalProperties: false }),
  {
    maxProperties: 64,
    // A record's key schema is not kept in the JSON schema it generates (only its values').
    propertyNames: { minLength: 1, maxLength: 64 },
    description: "Material name (as in the job's structures or /v1/materials) → GDS layer.",
  },
);

export const GdsUrlSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    "A gds_url this service issued to your account (from export-gds or an upload); it is resolved to the stored file, even after the address expired, and never fetched.",
});

/** A stored file's summary, common to export and upload answers. */
export const StoredGdsFields = {
  gds_url: Type.String({ description: "Signed download address of the GDS II file." }),
  expires_at: Type.String({ description: "When the address stops serving downloads (ISO 8601)." }),
  layers: Type.Array(Type.Integer(), { description: "GDS layer numbers in the file." }),
  bounding_box_um: Type.Array(Type.Number(), {
    description: "[width, height] in µm of everything in the file.",
  }),
  bbox_um: Type.Unsafe<number[] | null>({
    type: ["array", "null"],
    items: { type: "number" },
    description: "[xmin, ymin, xmax, ymax] in µm (null for an empty layout).",
  }),
  polygon_count: Type.Integer({ description: "Polygons (BOUNDARY/BOX elements) in the file." }),
};

// ---------------------------------------------------------------- export-gds

export const ExportGdsRequestSchema = Type.Object(
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
);

export const ExportGdsResponseSchema = Type.Object({
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
  clipped: Type.Array(Type.Object({ index: Type.Integer(), reason: Type.String() }), {
    description:
      "Structures reaching past what GDS II holds (±2.147 m in 1 nm units: an 'infinite' guide drawn 10 m long), exported cut to the domain.",
  }),
  grid_resolution_nm: Type.Number(),
  max_sagitta_nm: Type.Number(),
  cut_plane_um: Type.Unsafe<number | null>({ type: ["number", "null"] }),
});

// ---------------------------------------------------------------- upload

export const UploadGdsResponseSchema = Type.Object({
  ...StoredGdsFields,
  layer_keys: Type.Array(Type.String({ description: '"layer/datatype"' })),
  cells: Type.Array(Type.String()),
  top_cells: Type.Array(Type.String()),
  warnings: Type.Array(Type.String()),
});

// ---------------------------------------------------------------- drc

const Rule = (description: string) =>
  Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e7, description }));

const Edge = Type.Array(Type.Integer(), { description: "[x1, y1, x2, y2] in nm" });

export const DrcRulesSchema = Type.Object(
  {
    min_feature_nm: Rule("Smallest width (nm)."),
    min_spacing_nm: Rule("Smallest spacing (nm)."),
    min_radius_nm: Rule("Smallest bend radius (nm)."),
  },
  { additionalProperties: false },
);

export const DrcRequestSchema = Type.Object(
  {
    gds_url: GdsUrlSchema,
    pdk: Type.String({
      maxLength: 64,
      description: "A name from GET /v1/fabrication/pdks.",
    }),
    rules: Type.Optional(DrcRulesSchema),
  },
  { additionalProperties: false },
);

export const DrcResponseSchema = Type.Object({
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
});

// ---------------------------------------------------------------- pdks

export const PdkListSchema = Type.Object({
  pdks: Type.Array(Type.Object({}, { additionalProperties: true })),
});

// ---------------------------------------------------------------- recipe

export const RecipeOptionsSchema = Type.Object(
  {
    cladding: Type.Optional(Type.Boolean()),
    planarise: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const RecipeRequestSchema = Type.Object(
  {
    gds_url: Type.Optional(GdsUrlSchema),
    job_id: Type.Optional(Type.String({ maxLength: 64 })),
    layer_mapping: Type.Optional(LayerMappingSchema),
    pdk: Type.String({ maxLength: 64 }),
    options: Type.Optional(RecipeOptionsSchema),
  },
  { additionalProperties: false },
);

export const RecipeResponseSchema = Type.Object({
  pdk: Type.String(),
  pdk_title: Type.String(),
  layers_used: Type.Array(Type.String()),
  steps: Type.Array(Type.Object({}, { additionalProperties: true })),
  warnings: Type.Array(Type.String()),
  illustrative: Type.Boolean(),
});

export type LayerMapping = Static<typeof LayerMappingSchema>;
export type ExportGdsRequest = Static<typeof ExportGdsRequestSchema>;
export type ExportGdsResponse = Static<typeof ExportGdsResponseSchema>;
export type UploadGdsResponse = Static<typeof UploadGdsResponseSchema>;
export type DrcRules = Static<typeof DrcRulesSchema>;
export type DrcRequest = Static<typeof DrcRequestSchema>;
export type DrcResponse = Static<typeof DrcResponseSchema>;
export type RecipeRequest = Static<typeof RecipeRequestSchema>;
export type RecipeResponse = Static<typeof RecipeResponseSchema>;
