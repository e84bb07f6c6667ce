/**
 * The GDS II stream as a sequence of checked records (records.ts has the format): each record's
 * length, data type and payload size are checked as it is read, records are counted against
 * the file's limit, and payloads are decoded only through the checks here. Also the errors
 * that name a record, shared by everything that reads records.
 */

import { GdsError } from "./errors.js";
import { decodeReal8 } from "./real8.js";
import { DataType, EXPECTED_DATA_TYPE, Rec, recordName } from "./records.js";

export interface RecordView {
  type: number;
  dataType: number;
  offset: number;
  /** Payload start and length in bytes. */
  start: number;
  length: number;
}

/** Reads records one after another from the start of `bytes`. */
export class RecordReader {
  private readonly view: DataView;
  private pos = 0;
  private records = 0;

  constructor(
    private readonly bytes: Uint8Array,
    /** Records the file may have; one more is a {@link GdsError}. */
    private readonly maxRecords: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The next record, checked (see {@link checkDataType}); throws at the end of the bytes. */
  next(): RecordView {
    const { bytes, pos } = this;
    if (pos + 4 > bytes.length) {
      throw new GdsError(
        "truncated",
        `The file ends at byte ${bytes.length} inside a record header (expected more records before ENDLIB).`,
        pos,
      );
    }
    const length = this.view.getUint16(pos);
    const type = bytes[pos + 2]!;
    const dataType = bytes[pos + 3]!;
    if (length < 4 || length % 2 !== 0) {
      throw new GdsError(
        "bad_record_length",
        `The ${recordName(type)} record at byte ${pos} has length ${length}; a record length is even and at least 4.`,
        pos,
      );
    }
    if (pos + length > bytes.length) {
      throw new GdsError(
        "truncated",
        `The ${recordName(type)} record at byte ${pos} needs ${length} bytes but the file ends after ${bytes.length - pos}.`,
        pos,
      );
    }
    this.records += 1;
    if (this.records > this.maxRecords) {
      throw new GdsError(
        "limit_exceeded",
        `The file has more than ${this.maxRecords} records, the limit.`,
        pos,
      );
    }
    const rec: RecordView = { type, dataType, offset: pos, start: pos + 4, length: length - 4 };
    checkDataType(rec);
    this.pos += length;
    return rec;
  }

  /** The payload as text, trailing NUL padding removed. */
  ascii(rec: RecordView): string {
    const bytes = this.bytes;
    let end = rec.start + rec.length;
    while (end > rec.start && bytes[end - 1] === 0) end -= 1;
    let s = "";
    for (let i = rec.start; i < end; i += 1) s += String.fromCharCode(bytes[i]!);
    return s;
  }

  /** The payload's `index`-th 2-byte integer. */
  int16(rec: RecordView, index = 0): number {
    if (rec.length < 2 * (index + 1)) throw badLength(rec, `${index + 1} 2-byte integers`);
    return this.view.getInt16(rec.start + 2 * index);
  }

  /** A payload of exactly one 4-byte integer. */
  int32(rec: RecordView): number {
    if (rec.length !== 4) throw badLength(rec, "one 4-byte integer");
    return this.view.getInt32(rec.start);
  }

  /** A payload of exactly one 2-byte bit array. */
  bits(rec: RecordView): number {
    if (rec.length !== 2) throw badLength(rec, "one 2-byte bit array");
    return this.view.getUint16(rec.start);
  }

  /** A payload of exactly `count` 8-byte reals (`expected` names them for the error). */
  reals(rec: RecordView, count: number, expected: string): number[] {
    if (rec.length !== 8 * count) throw badLength(rec, expected);
    return Array.from({ length: count }, (_, i) => decodeReal8(this.bytes, rec.start + 8 * i));
  }

  /** An XY payload: x0, y0, x1, y1, … in database units. */
  points(rec: RecordView): Float64Array {
    const n = rec.length / 4;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i += 1) out[i] = this.view.getInt32(rec.start + 4 * i);
    return out;
  }
}

/**
 * Refuses 4-byte reals, a data type the record type never has, and a payload that is not a
 * whole number of its items (XY: of (x, y) pairs).
 */
function checkDataType(rec: RecordView): void {
  const expected = EXPECTED_DATA_TYPE[rec.type];
  if (rec.dataType === DataType.real4) {
    throw new GdsError(
      "unsupported_record",
      `The ${recordName(rec.type)} record at byte ${rec.offset} uses 4-byte reals, which GDS II files do not use in practice and this reader does not support.`,
      rec.offset,
    );
  }
  if (expected !== undefined && rec.dataType !== expected) {
    throw new GdsError(
      "bad_data_type",
      `The ${recordName(rec.type)} record at byte ${rec.offset} has data type ${rec.dataType}; expected ${expected}.`,
      rec.offset,
    );
  }
  const size =
    rec.dataType === DataType.int16 || rec.dataType === DataType.bitArray
      ? 2
      : rec.dataType === DataType.int32
        ? 4
        : rec.dataType === DataType.real8
          ? 8
          : 1;
  if (rec.dataType === DataType.none && rec.length !== 0 && expected === DataType.none) {
    throw badLength(rec, "no data");
  }
  if (rec.length % size !== 0) throw badLength(rec, `a whole number of ${size}-byte items`);
  if (rec.type === Rec.XY && rec.length % 8 !== 0) throw badLength(rec, "whole (x, y) pairs");
}

export function badLength(rec: RecordView, expected: string): GdsError {
  return new GdsError(
    "bad_record_length",
    `The ${recordName(rec.type)} record at byte ${rec.offset} has ${rec.length} data bytes; expected ${expected}.`,
    rec.offset,
  );
}

export function unexpected(rec: RecordView, where: string): GdsError {
  return new GdsError(
    "unexpected_record",
    `Unexpected ${recordName(rec.type)} record at byte ${rec.offset} ${where}.`,
    rec.offset,
  );
}

/** Records valid in GDS II but not handled here get "unsupported"; misplaced ones "unexpected". */
const KNOWN_ELSEWHERE = new Set<number>([
  Rec.HEADER,
  Rec.BGNLIB,
  Rec.LIBNAME,
  Rec.UNITS,
  Rec.ENDLIB,
  Rec.BGNSTR,
  Rec.STRNAME,
  Rec.ENDSTR,
  Rec.BOUNDARY,
  Rec.PATH,
  Rec.SREF,
  Rec.AREF,
  Rec.TEXT,
  Rec.LAYER,
  Rec.DATATYPE,
  Rec.WIDTH,
  Rec.XY,
  Rec.ENDEL,
  Rec.SNAME,
  Rec.COLROW,
  Rec.NODE,
  Rec.TEXTTYPE,
  Rec.PRESENTATION,
  Rec.STRING,
  Rec.STRANS,
  Rec.MAG,
  Rec.ANGLE,
  Rec.REFLIBS,
  Rec.FONTS,
  Rec.PATHTYPE,
  Rec.GENERATIONS,
  Rec.ATTRTABLE,
  Rec.ELFLAGS,
  Rec.NODETYPE,
  Rec.PROPATTR,
  Rec.PROPVALUE,
  Rec.BOX,
  Rec.BOXTYPE,
  Rec.PLEX,
  Rec.BGNEXTN,
  Rec.ENDEXTN,
  Rec.STRCLASS,
  Rec.FORMAT,
  Rec.MASK,
  Rec.ENDMASKS,
  Rec.LIBDIRSIZE,
  Rec.SRFNAME,
  Rec.LIBSECUR,
]);

export function unexpectedOrUnsupported(rec: RecordView, where: string): GdsError {
  if (KNOWN_ELSEWHERE.has(rec.type)) return unexpected(rec, where);
  return new GdsError(
    "unsupported_record",
    `The ${recordName(rec.type)} record at byte ${rec.offset} is not supported by this reader (supported: BOUNDARY, BOX, PATH, SREF, AREF, TEXT; NODE is ignored).`,
    rec.offset,
  );
}
