/**
 * Error answers shared by the /v1/fabrication routes (their bodies' schemas are in
 * src/schema/fabrication.ts).
 */
import { ErrorBody } from "../../schemas.js";

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
