/**
 * GDS II stream format record types and data types (Calma GDS II Stream Format Manual,
 * release 6.0, 1987; the record table is also in shared/NOTES.md). Each record is a big-endian
 * uint16 length (the 4-byte header included, always even), a uint8 record type and a uint8
 * data type, then the payload.
 */

export const DataType = {
  none: 0,
  bitArray: 1,
  int16: 2,
  int32: 3,
  real4: 4,
  real8: 5,
  ascii: 6,
} as const;

/** Record type numbers (the first byte of the 2-byte record/data type word). */
export const Rec = {
  HEADER: 0x00,
  BGNLIB: 0x01,
  LIBNAME: 0x02,
  UNITS: 0x03,
  ENDLIB: 0x04,
  BGNSTR: 0x05,
  STRNAME: 0x06,
  ENDSTR: 0x07,
  BOUNDARY: 0x08,
  PATH: 0x09,
  SREF: 0x0a,
  AREF: 0x0b,
  TEXT: 0x0c,
  LAYER: 0x0d,
  DATATYPE: 0x0e,
  WIDTH: 0x0f,
  XY: 0x10,
  ENDEL: 0x11,
  SNAME: 0x12,
  COLROW: 0x13,
  TEXTNODE: 0x14,
  NODE: 0x15,
  TEXTTYPE: 0x16,
  PRESENTATION: 0x17,
  SPACING: 0x18,
  STRING: 0x19,
  STRANS: 0x1a,
  MAG: 0x1b,
  ANGLE: 0x1c,
  UINTEGER: 0x1d,
  USTRING: 0x1e,
  REFLIBS: 0x1f,
  FONTS: 0x20,
  PATHTYPE: 0x21,
  GENERATIONS: 0x22,
  ATTRTABLE: 0x23,
  STYPTABLE: 0x24,
  STRTYPE: 0x25,
  ELFLAGS: 0x26,
  ELKEY: 0x27,
  LINKTYPE: 0x28,
  LINKKEYS: 0x29,
  NODETYPE: 0x2a,
  PROPATTR: 0x2b,
  PROPVALUE: 0x2c,
  BOX: 0x2d,
  BOXTYPE: 0x2e,
  PLEX: 0x2f,
  BGNEXTN: 0x30,
  ENDEXTN: 0x31,
  TAPENUM: 0x32,
  TAPECODE: 0x33,
  STRCLASS: 0x34,
  RESERVED: 0x35,
  FORMAT: 0x36,
  MASK: 0x37,
  ENDMASKS: 0x38,
  LIBDIRSIZE: 0x39,
  SRFNAME: 0x3a,
  LIBSECUR: 0x3b,
} as const;

const NAMES: string[] = [];
for (const [name, code] of Object.entries(Rec)) NAMES[code] = name;

/** The record's name for messages, e.g. "XY (0x10)", or "unknown record 0x5a". */
export function recordName(recordType: number): string {
  const hex = `0x${recordType.toString(16).padStart(2, "0")}`;
  const name = NAMES[recordType];
  return name === undefined ? `unknown record ${hex}` : `${name} (${hex})`;
}

/**
 * The data type each record must carry, per the format manual. Records not listed here are
 * checked by the reader where it uses them (or rejected as unsupported).
 */
export const EXPECTED_DATA_TYPE: Partial<Record<number, number>> = {
  [Rec.HEADER]: DataType.int16,
  [Rec.BGNLIB]: DataType.int16,
  [Rec.LIBNAME]: DataType.ascii,
  [Rec.UNITS]: DataType.real8,
  [Rec.ENDLIB]: DataType.none,
  [Rec.BGNSTR]: DataType.int16,
  [Rec.STRNAME]: DataType.ascii,
  [Rec.ENDSTR]: DataType.none,
  [Rec.BOUNDARY]: DataType.none,
  [Rec.PATH]: DataType.none,
  [Rec.SREF]: DataType.none,
  [Rec.AREF]: DataType.none,
  [Rec.TEXT]: DataType.none,
  [Rec.LAYER]: DataType.int16,
  [Rec.DATATYPE]: DataType.int16,
  [Rec.WIDTH]: DataType.int32,
  [Rec.XY]: DataType.int32,
  [Rec.ENDEL]: DataType.none,
  [Rec.SNAME]: DataType.ascii,
  [Rec.COLROW]: DataType.int16,
  [Rec.NODE]: DataType.none,
  [Rec.TEXTTYPE]: DataType.int16,
  [Rec.PRESENTATION]: DataType.bitArray,
  [Rec.STRING]: DataType.ascii,
  [Rec.STRANS]: DataType.bitArray,
  [Rec.MAG]: DataType.real8,
  [Rec.ANGLE]: DataType.real8,
  [Rec.PATHTYPE]: DataType.int16,
  [Rec.NODETYPE]: DataType.int16,
  [Rec.PROPATTR]: DataType.int16,
  [Rec.PROPVALUE]: DataType.ascii,
  [Rec.BOX]: DataType.none,
  [Rec.BOXTYPE]: DataType.int16,
  [Rec.BGNEXTN]: DataType.int32,
  [Rec.ENDEXTN]: DataType.int32,
};

/** GDS II STRANS flag bits. */
export const STRANS_REFLECT_X = 0x8000;
export const STRANS_ABSOLUTE_MAG = 0x0004;
export const STRANS_ABSOLUTE_ANGLE = 0x0002;

/** Most points one XY record can hold (16-bit record length, 8 bytes a point, 4-byte header). */
export const MAX_XY_POINTS = Math.floor((0xffff - 4) / 8);
