/** Request and response schemas shared by the /v1/fabrication routes. */
import Type from "typebox";
import { ErrorBody } from "../../schemas.js";

const Layer = Type.Integer({ minimum: 0, maximum: 32767 });

export const LayerMappingSchema = Type.Record(
  Type.String({ minLength: 1, maxLength: 64 }),
  Type.Object({ layer: Layer, datatype: Layer }, { additionalProperties: false }),
  {
    maxProperties: 64,
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

export const fabricationErrors = {
  400: { ...ErrorBody, description: "Malformed JSON." },
  415: { ...ErrorBody, description: "Wrong Content-Type." },
  422: {
    ...ErrorBody,
    description:
      "The request is not valid (error_code validation_error, with errors), the GDS file cannot be read (gds_invalid, with its reason) or is too large to check (layout_too_large).",
  },
  503: { ...ErrorBody, description: "All fabrication checks are busy; see Retry-After." },
};
