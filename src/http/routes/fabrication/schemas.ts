/**
 * Error answers shared by the /v1/fabrication routes (their bodies' schemas are in
 * src/schema/fabrication.ts), and the examples of them in the OpenAPI document.
 */
import { errors } from "../../../errors.js";
import { ErrorBody } from "../../schemas.js";

/** A GDS II file that cannot be read. */
export const GDS_INVALID = errors.gdsInvalid(
  "truncated",
  "the file ends inside a record (byte 4 096 of a 4 100-byte record).",
);
/** A layout too large to check. */
export const LAYOUT_TOO_LARGE = errors.fabricationTooLarge(
  "The layout has more than 10 000 000 points after flattening; split it or check it in parts.",
);
/** Every fabrication check is busy. */
export const FABRICATION_BUSY = errors.fabricationBusy(5);

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
