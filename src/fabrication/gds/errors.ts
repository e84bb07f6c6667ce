/**
 * The one error class of the GDS II reader. Uploaded files are untrusted: every way a file can
 * be malformed, unsupported or too large ends in a GdsError whose message is written for the
 * `detail` of an HTTP 422 answer (what is wrong, where in the file, and the limit when one was
 * hit), and whose `reason` is a stable machine-readable code.
 */

export type GdsErrorReason =
  /** The file ends inside a record, or before ENDLIB. */
  | "truncated"
  /** A record length below 4, odd, or not a whole number of data items. */
  | "bad_record_length"
  /** A record carries a data type its record type never has. */
  | "bad_data_type"
  /** A record that is valid GDS II but that the reader does not handle (named in the message). */
  | "unsupported_record"
  /** A record out of place (e.g. XY outside an element, BGNSTR inside a structure). */
  | "unexpected_record"
  /** A value out of range: a layer number, a path width, units, an array count, a point count. */
  | "bad_value"
  /** A reference to a structure the file does not define. */
  | "undefined_cell"
  /** Structures that reference themselves, directly or through others. */
  | "reference_cycle"
  /** A structure defined twice. */
  | "duplicate_cell"
  /** A coordinate outside the 32-bit range after transformation. */
  | "coordinate_overflow"
  /** Too many records, cells, polygons or points, or too deep a hierarchy. */
  | "limit_exceeded"
  /** The bytes do not start like a GDS II stream. */
  | "not_gds";

export class GdsError extends Error {
  override name = "GdsError";
  constructor(
    readonly reason: GdsErrorReason,
    message: string,
    /** Byte offset of the record at fault, when there is one. */
    readonly offset?: number,
  ) {
    super(message);
  }
}
