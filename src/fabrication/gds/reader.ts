/**
 * GDS II reader for untrusted files: parses the stream, checks every record, and flattens the
 * hierarchy into polygons per (layer, datatype) in integer nanometres.
 *
 * Handles what KLayout, gdstk and gdsfactory write: BOUNDARY, BOX, PATH (WIDTH; PATHTYPE 0, 1, 2
 * and 4 with BGNEXTN/ENDEXTN; see path.ts), SREF and AREF with STRANS reflection, MAG and ANGLE
 * (flattened); TEXT, NODE, properties, element flags and library-level bookkeeping records are
 * read and ignored. Anything else (TEXTNODE, real4 data, unknown record numbers…) is refused with
 * an error naming the record.
 *
 * Bounded time and memory: the parse is one pass over the bytes (at most `maxRecords` records);
 * before flattening, the number of polygons and points every cell expands to is computed from
 * the hierarchy (saturating arithmetic), cycles and undefined cells are found by a depth-first
 * search no deeper than `maxDepth`, and flattening starts only when the totals are within
 * `maxPolygons` and `maxPoints`. Every failure is a {@link GdsError}.
 *
 * Units: coordinates are converted from the file's database unit to 1 nm. A file whose
 * database unit is not a whole number of nanometres (e.g. 0.1 nm) is rounded to 1 nm, with a
 * warning. Transformed coordinates (rotations that are not multiples of 90°, magnifications)
 * are rounded to the nearest nanometre, as KLayout rounds them to its database unit.
 */

import type { BoxNm, Ring } from "../geometry/polygon.js";
import { GdsError } from "./errors.js";
import { pathOutline } from "./path.js";
import { decodeReal8 } from "./real8.js";
import {
  DataType,
  EXPECTED_DATA_TYPE,
  Rec,
  STRANS_ABSOLUTE_ANGLE,
  STRANS_ABSOLUTE_MAG,
  STRANS_REFLECT_X,
  recordName,
} from "./records.js";

export interface GdsReadLimits {
  /** Records in the file (default 20 000 000, about 80–400 MB of GDS). */
  maxRecords: number;
  /** Structures (cells) defined (default 100 000). */
  maxCells: number;
  /** Levels of references below a top cell (default 64). */
  maxDepth: number;
  /** Polygons after flattening, all layers (default 2 000 000). */
  maxPolygons: number;
  /** Vertices after flattening, all layers (default 20 000 000: 160 MB as int32 pairs). */
  maxPoints: number;
}

export const DEFAULT_GDS_LIMITS: Readonly<GdsReadLimits> = Object.freeze({
  maxRecords: 20_000_000,
  maxCells: 100_000,
  maxDepth: 64,
  maxPolygons: 2_000_000,
  maxPoints: 20_000_000,
});

export interface GdsReadOptions {
  limits?: Partial<GdsReadLimits>;
  /** Flatten only this cell; default: every top cell (cells no other cell references). */
  topCell?: string;
}

export interface GdsLayout {
  libraryName: string;
  /** Database unit of the file in metres (UNITS' second value). */
  dbuMetres: number;
  /** Database unit in user units (UNITS' first value). */
  dbuUserUnits: number;
  /** Every structure name, in file order. */
  cells: string[];
  /** The cells that were flattened. */
  topCells: string[];
  /** Flattened polygons per layer key "L/D", vertices in integer nm (either orientation). */
  layers: Map<string, Ring[]>;
  /** BOUNDARY, BOX and PATH elements in the file (before flattening). */
  elementCount: number;
  /** Polygons after flattening. */
  polygonCount: number;
  /** Vertices after flattening. */
  pointCount: number;
  /** Box of all flattened polygons in nm, null when there are none. */
  bboxNm: BoxNm | null;
  /** Things the caller may want to know (ignored TEXT elements, unit rounding, …). */
  warnings: string[];
}

/** An affine transformation x' = a·x + b·y + tx, y' = c·x + d·y + ty (database units). */
interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  tx: number;
  ty: number;
}

interface CellRef {
  target: string;
  offset: number;
  /** Child-to-parent linear part (reflection, magnification, rotation). */
  a: number;
  b: number;
  c: number;
  d: number;
  /** Placements in the parent: origin plus column/row steps. */
  x: number;
  y: number;
  columns: number;
  rows: number;
  colDx: number;
  colDy: number;
  rowDx: number;
  rowDy: number;
}

interface CellDef {
  name: string;
  offset: number;
  /** Polygons in the file's database units. */
  polygons: Array<{ layer: string; ring: Float64Array }>;
  refs: CellRef[];
  ownPoints: number;
}

interface RecordView {
  type: number;
  dataType: number;
  offset: number;
  /** Payload start and length in bytes. */
  start: number;
  length: number;
}

/** Reads and flattens a GDS II file. Throws {@link GdsError} for anything it cannot accept. */
export function readGds(bytes: Uint8Array, options: GdsReadOptions = {}): GdsLayout {
  const limits: GdsReadLimits = { ...DEFAULT_GDS_LIMITS, ...options.limits };
  const parsed = parse(bytes, limits);
  return flatten(parsed, limits, options.topCell);
}

interface Parsed {
  libraryName: string;
  dbuUserUnits: number;
  dbuMetres: number;
  cells: Map<string, CellDef>;
  order: string[];
  elementCount: number;
  textCount: number;
  nodeCount: number;
  absoluteWidthPaths: number;
}

// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
function parse(bytes: Uint8Array, limits: GdsReadLimits): Parsed {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  let records = 0;

  const next = (): RecordView => {
    if (pos + 4 > bytes.length) {
      throw new GdsError(
        "truncated",
        `The file ends at byte ${bytes.length} inside a record header (expected more records before ENDLIB).`,
        pos,
      );
    }
    const length = view.getUint16(pos);
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
    records += 1;
    if (records > limits.maxRecords) {
      throw new GdsError(
        "limit_exceeded",
        `The file has more than ${limits.maxRecords} records, the limit.`,
        pos,
      );
    }
    const rec: RecordView = { type, dataType, offset: pos, start: pos + 4, length: length - 4 };
    checkDataType(rec);
    pos += length;
    return rec;
  };

  const first = next();
  if (first.type !== Rec.HEADER) {
    throw new GdsError(
      "not_gds",
      `Not a GDS II file: it must start with a HEADER record, found ${recordName(first.type)}.`,
      0,
    );
  }
  let libraryName = "";
  let dbuUserUnits = NaN;
  let dbuMetres = NaN;
  const cells = new Map<string, CellDef>();
  const order: string[] = [];
  let elementCount = 0;
  let textCount = 0;
  let nodeCount = 0;
  let absoluteWidthPaths = 0;
  let sawBgnlib = false;

  for (;;) {
    const rec = next();
    switch (rec.type) {
      case Rec.BGNLIB:
        sawBgnlib = true;
        break;
      case Rec.LIBNAME:
        libraryName = ascii(bytes, rec);
        break;
      case Rec.UNITS: {
        if (rec.length !== 16) throw badLength(rec, "two 8-byte reals");
        dbuUserUnits = decodeReal8(bytes, rec.start);
        dbuMetres = decodeReal8(bytes, rec.start + 8);
        if (!(dbuMetres > 1e-15 && dbuMetres < 1e-3) || !(dbuUserUnits > 0)) {
          throw new GdsError(
            "bad_value",
            `UNITS at byte ${rec.offset} gives a database unit of ${dbuMetres} m (${dbuUserUnits} user units); expected a positive unit between 1 fm and 1 mm.`,
            rec.offset,
          );
        }
        break;
      }
      case Rec.LIBDIRSIZE:
      case Rec.SRFNAME:
      case Rec.LIBSECUR:
      case Rec.REFLIBS:
      case Rec.FONTS:
      case Rec.ATTRTABLE:
      case Rec.GENERATIONS:
      case Rec.FORMAT:
      case Rec.MASK:
      case Rec.ENDMASKS:
        // Library bookkeeping with no geometry.
        break;
      case Rec.BGNSTR: {
        if (!sawBgnlib || Number.isNaN(dbuMetres)) {
          throw unexpected(rec, "before BGNLIB and UNITS");
        }
        const cell = parseStructure(rec);
        if (cells.has(cell.name)) {
          throw new GdsError(
            "duplicate_cell",
            `Structure "${cell.name}" is defined twice (again at byte ${cell.offset}).`,
            cell.offset,
          );
        }
        cells.set(cell.name, cell);
        order.push(cell.name);
        if (cells.size > limits.maxCells) {
          throw new GdsError(
            "limit_exceeded",
            `The file defines more than ${limits.maxCells} structures, the limit.`,
            rec.offset,
          );
        }
        break;
      }
      case Rec.ENDLIB:
        if (Number.isNaN(dbuMetres)) {
          throw new GdsError("bad_value", "The file has no UNITS record.", rec.offset);
        }
        // Bytes after ENDLIB (tape-block padding) are ignored.
        return {
          libraryName,
          dbuUserUnits,
          dbuMetres,
          cells,
          order,
          elementCount,
          textCount,
          nodeCount,
          absoluteWidthPaths,
        };
      default:
        throw unexpectedOrUnsupported(rec, "at library level");
    }
  }

  function parseStructure(bgn: RecordView): CellDef {
    const nameRec = next();
    if (nameRec.type !== Rec.STRNAME) throw unexpected(nameRec, "after BGNSTR (expected STRNAME)");
    const name = ascii(bytes, nameRec);
    if (name.length === 0) {
      throw new GdsError(
        "bad_value",
        `STRNAME at byte ${nameRec.offset} is empty.`,
        nameRec.offset,
      );
    }
    const cell: CellDef = { name, offset: bgn.offset, polygons: [], refs: [], ownPoints: 0 };
    for (;;) {
      const rec = next();
      switch (rec.type) {
        case Rec.ENDSTR:
          return cell;
        case Rec.STRCLASS:
          break;
        case Rec.BOUNDARY:
        case Rec.BOX:
        case Rec.PATH:
          parseShape(rec, cell);
          elementCount += 1;
          break;
        case Rec.SREF:
        case Rec.AREF:
          cell.refs.push(parseRef(rec));
          break;
        case Rec.TEXT:
          skipElement(rec);
          textCount += 1;
          break;
        case Rec.NODE:
          skipElement(rec);
          nodeCount += 1;
          break;
        default:
          throw unexpectedOrUnsupported(rec, `in structure "${name}"`);
      }
    }
  }

  /** Reads an element's records up to ENDEL into a map by record type. */
  function elementRecords(head: RecordView): Map<number, RecordView> {
    const found = new Map<number, RecordView>();
    for (;;) {
      const rec = next();
      if (rec.type === Rec.ENDEL) return found;
      switch (rec.type) {
        case Rec.ELFLAGS:
        case Rec.PLEX:
        case Rec.PROPATTR:
        case Rec.PROPVALUE:
          break;
        case Rec.LAYER:
        case Rec.DATATYPE:
        case Rec.BOXTYPE:
        case Rec.TEXTTYPE:
        case Rec.NODETYPE:
        case Rec.XY:
        case Rec.WIDTH:
        case Rec.PATHTYPE:
        case Rec.BGNEXTN:
        case Rec.ENDEXTN:
        case Rec.SNAME:
        case Rec.STRANS:
        case Rec.MAG:
        case Rec.ANGLE:
        case Rec.COLROW:
        case Rec.PRESENTATION:
        case Rec.STRING:
          if (found.has(rec.type)) {
            throw unexpected(
              rec,
              `(a second one in the ${recordName(head.type)} element at byte ${head.offset})`,
            );
          }
          found.set(rec.type, rec);
          break;
        default:
          throw unexpectedOrUnsupported(
            rec,
            `inside the ${recordName(head.type)} element at byte ${head.offset}`,
          );
      }
    }
  }

  function skipElement(head: RecordView): void {
    elementRecords(head);
  }

  function require(found: Map<number, RecordView>, type: number, head: RecordView): RecordView {
    const rec = found.get(type);
    if (!rec) {
      throw new GdsError(
        "bad_value",
        `The ${recordName(head.type)} element at byte ${head.offset} has no ${recordName(type)} record.`,
        head.offset,
      );
    }
    return rec;
  }

  function int16(rec: RecordView, index = 0): number {
    if (rec.length < 2 * (index + 1)) throw badLength(rec, `${index + 1} 2-byte integers`);
    return view.getInt16(rec.start + 2 * index);
  }

  function int32(rec: RecordView): number {
    if (rec.length !== 4) throw badLength(rec, "one 4-byte integer");
    return view.getInt32(rec.start);
  }

  function layerKey(found: Map<number, RecordView>, head: RecordView, typeRecord: number): string {
    const layer = int16(require(found, Rec.LAYER, head));
    const datatype = int16(require(found, typeRecord, head));
    if (layer < 0 || datatype < 0) {
      throw new GdsError(
        "bad_value",
        `The ${recordName(head.type)} element at byte ${head.offset} is on layer ${layer}/${datatype}; layer numbers are 0…32767.`,
        head.offset,
      );
    }
    return `${layer}/${datatype}`;
  }

  function points(rec: RecordView): Float64Array {
    const n = rec.length / 4;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i += 1) out[i] = view.getInt32(rec.start + 4 * i);
    return out;
  }

  function parseShape(head: RecordView, cell: CellDef): void {
    const found = elementRecords(head);
    const xyRec = require(found, Rec.XY, head);
    const xy = points(xyRec);
    const count = xy.length / 2;
    if (head.type === Rec.BOUNDARY) {
      const layer = layerKey(found, head, Rec.DATATYPE);
      if (count < 4) {
        throw new GdsError(
          "bad_value",
          `The BOUNDARY element at byte ${head.offset} has ${count} points; a boundary needs at least 4 (3 vertices and the closing point).`,
          head.offset,
        );
      }
      // The closing point repeats the first; some writers omit it.
      const closed = xy[0] === xy[2 * count - 2] && xy[1] === xy[2 * count - 1];
      const ring = closed ? xy.subarray(0, 2 * count - 2) : xy;
      cell.polygons.push({ layer, ring });
      cell.ownPoints += ring.length / 2;
    } else if (head.type === Rec.BOX) {
      const layer = layerKey(found, head, Rec.BOXTYPE);
      if (count !== 5) {
        throw new GdsError(
          "bad_value",
          `The BOX element at byte ${head.offset} has ${count} points; a box has 5.`,
          head.offset,
        );
      }
      // A BOX is the rectangle spanned by its points (KLayout reads it the same way).
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (let i = 0; i < 5; i += 1) {
        x0 = Math.min(x0, xy[2 * i]!);
        x1 = Math.max(x1, xy[2 * i]!);
        y0 = Math.min(y0, xy[2 * i + 1]!);
        y1 = Math.max(y1, xy[2 * i + 1]!);
      }
      if (x0 < x1 && y0 < y1) {
        cell.polygons.push({ layer, ring: Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1) });
        cell.ownPoints += 4;
      }
    } else {
      const layer = layerKey(found, head, Rec.DATATYPE);
      const widthRec = found.get(Rec.WIDTH);
      const width = widthRec ? int32(widthRec) : 0;
      if (width < 0) absoluteWidthPaths += 1;
      const typeRec = found.get(Rec.PATHTYPE);
      const pathType = typeRec ? int16(typeRec) : 0;
      if (![0, 1, 2, 4].includes(pathType)) {
        throw new GdsError(
          "bad_value",
          `The PATH element at byte ${head.offset} has PATHTYPE ${pathType}; supported are 0, 1, 2 and 4.`,
          head.offset,
        );
      }
      if (count < 1) {
        throw new GdsError(
          "bad_value",
          `The PATH element at byte ${head.offset} has no points.`,
          head.offset,
        );
      }
      const bgn = found.get(Rec.BGNEXTN);
      const end = found.get(Rec.ENDEXTN);
      const outline = pathOutline({
        points: xy,
        width,
        pathType,
        beginExtension: pathType === 4 && bgn ? int32(bgn) : 0,
        endExtension: pathType === 4 && end ? int32(end) : 0,
      });
      if (outline) {
        // Round to the database grid as KLayout does when it turns a path into a polygon.
        for (let i = 0; i < outline.length; i += 1) outline[i] = Math.round(outline[i]!);
        cell.polygons.push({ layer, ring: outline });
        cell.ownPoints += outline.length / 2;
      }
    }
  }

  // eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
  function parseRef(head: RecordView): CellRef {
    const found = elementRecords(head);
    const target = ascii(bytes, require(found, Rec.SNAME, head));
    const xy = points(require(found, Rec.XY, head));
    let reflect = false;
    let mag = 1;
    let angle = 0;
    const strans = found.get(Rec.STRANS);
    if (strans) {
      if (strans.length !== 2) throw badLength(strans, "one 2-byte bit array");
      const flags = view.getUint16(strans.start);
      if (flags & (STRANS_ABSOLUTE_MAG | STRANS_ABSOLUTE_ANGLE)) {
        throw new GdsError(
          "unsupported_record",
          `The STRANS record at byte ${strans.offset} sets absolute magnification or angle, which this reader does not support.`,
          strans.offset,
        );
      }
      reflect = (flags & STRANS_REFLECT_X) !== 0;
      const magRec = found.get(Rec.MAG);
      if (magRec) {
        if (magRec.length !== 8) throw badLength(magRec, "one 8-byte real");
        mag = decodeReal8(bytes, magRec.start);
      }
      const angleRec = found.get(Rec.ANGLE);
      if (angleRec) {
        if (angleRec.length !== 8) throw badLength(angleRec, "one 8-byte real");
        angle = decodeReal8(bytes, angleRec.start);
      }
    } else if (found.has(Rec.MAG) || found.has(Rec.ANGLE)) {
      const rec = found.get(Rec.MAG) ?? found.get(Rec.ANGLE)!;
      throw unexpected(rec, "without a preceding STRANS");
    }
    if (!(mag > 0 && mag < 1e6) || !Number.isFinite(angle)) {
      throw new GdsError(
        "bad_value",
        `The ${recordName(head.type)} at byte ${head.offset} has magnification ${mag} and angle ${angle}; magnification must be in (0, 10⁶).`,
        head.offset,
      );
    }
    const [cos, sin] = rotation(angle);
    // Reflect about x (y → −y), then magnify, then rotate: M = R·S·F.
    const f = reflect ? -1 : 1;
    const ref: CellRef = {
      target,
      offset: head.offset,
      a: mag * cos,
      b: -mag * sin * f,
      c: mag * sin,
      d: mag * cos * f,
      x: 0,
      y: 0,
      columns: 1,
      rows: 1,
      colDx: 0,
      colDy: 0,
      rowDx: 0,
      rowDy: 0,
    };
    if (head.type === Rec.SREF) {
      if (xy.length !== 2) {
        throw new GdsError(
          "bad_value",
          `The SREF at byte ${head.offset} has ${xy.length / 2} points; it needs 1.`,
          head.offset,
        );
      }
      ref.x = xy[0]!;
      ref.y = xy[1]!;
    } else {
      const colrow = require(found, Rec.COLROW, head);
      if (colrow.length !== 4) throw badLength(colrow, "two 2-byte integers");
      const columns = int16(colrow, 0);
      const rows = int16(colrow, 1);
      if (columns < 1 || rows < 1) {
        throw new GdsError(
          "bad_value",
          `The AREF at byte ${head.offset} has ${columns} columns and ${rows} rows; both must be at least 1.`,
          head.offset,
        );
      }
      if (xy.length !== 6) {
        throw new GdsError(
          "bad_value",
          `The AREF at byte ${head.offset} has ${xy.length / 2} points; it needs 3.`,
          head.offset,
        );
      }
      ref.x = xy[0]!;
      ref.y = xy[1]!;
      ref.columns = columns;
      ref.rows = rows;
      // The displacement points are in the parent's frame: step = (P − origin) / count.
      ref.colDx = (xy[2]! - xy[0]!) / columns;
      ref.colDy = (xy[3]! - xy[1]!) / columns;
      ref.rowDx = (xy[4]! - xy[0]!) / rows;
      ref.rowDy = (xy[5]! - xy[1]!) / rows;
    }
    return ref;
  }
}

/** cos and sin of an angle in degrees, exact at multiples of 90°. */
function rotation(angleDeg: number): [number, number] {
  const turns = ((angleDeg % 360) + 360) % 360;
  if (turns === 0) return [1, 0];
  if (turns === 90) return [0, 1];
  if (turns === 180) return [-1, 0];
  if (turns === 270) return [0, -1];
  const r = (turns * Math.PI) / 180;
  return [Math.cos(r), Math.sin(r)];
}

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

function badLength(rec: RecordView, expected: string): GdsError {
  return new GdsError(
    "bad_record_length",
    `The ${recordName(rec.type)} record at byte ${rec.offset} has ${rec.length} data bytes; expected ${expected}.`,
    rec.offset,
  );
}

function unexpected(rec: RecordView, where: string): GdsError {
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

function unexpectedOrUnsupported(rec: RecordView, where: string): GdsError {
  if (KNOWN_ELSEWHERE.has(rec.type)) return unexpected(rec, where);
  return new GdsError(
    "unsupported_record",
    `The ${recordName(rec.type)} record at byte ${rec.offset} is not supported by this reader (supported: BOUNDARY, BOX, PATH, SREF, AREF; TEXT and NODE are ignored).`,
    rec.offset,
  );
}

function ascii(bytes: Uint8Array, rec: RecordView): string {
  let end = rec.start + rec.length;
  while (end > rec.start && bytes[end - 1] === 0) end -= 1;
  let s = "";
  for (let i = rec.start; i < end; i += 1) s += String.fromCharCode(bytes[i]!);
  return s;
}

interface Totals {
  polygons: number;
  points: number;
  /** Longest chain of references below the cell. */
  height: number;
}

// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
function flatten(p: Parsed, limits: GdsReadLimits, topCell: string | undefined): GdsLayout {
  const warnings: string[] = [];
  const referenced = new Set<string>();
  for (const name of p.order) {
    const cell = p.cells.get(name)!;
    for (const ref of cell.refs) {
      if (!p.cells.has(ref.target)) {
        throw new GdsError(
          "undefined_cell",
          `Structure "${name}" references "${ref.target}" (at byte ${ref.offset}), which the file does not define.`,
          ref.offset,
        );
      }
      referenced.add(ref.target);
    }
  }
  let tops: string[];
  if (topCell !== undefined) {
    if (!p.cells.has(topCell)) {
      throw new GdsError("undefined_cell", `The file has no structure named "${topCell}".`);
    }
    tops = [topCell];
  } else {
    tops = p.order.filter((n) => !referenced.has(n));
    if (tops.length === 0 && p.order.length > 0) {
      // Every cell is referenced: there must be a cycle; the search below names it.
      tops = [p.order[0]!];
    }
  }

  // Depth-first search with colours: cycles, depth and saturating totals per cell.
  const totals = new Map<string, Totals>();
  const onPath = new Set<string>();
  const visit = (name: string, depth: number, path: string[]): Totals => {
    const done = totals.get(name);
    if (done) return done;
    if (onPath.has(name)) {
      const cycle = [...path.slice(path.indexOf(name)), name].join(" → ");
      throw new GdsError(
        "reference_cycle",
        `Structures reference each other in a cycle: ${cycle}.`,
      );
    }
    if (depth > limits.maxDepth) {
      throw new GdsError(
        "limit_exceeded",
        `The hierarchy is deeper than ${limits.maxDepth} levels (at "${name}" via ${path.slice(-3).join(" → ")}).`,
      );
    }
    onPath.add(name);
    path.push(name);
    const cell = p.cells.get(name)!;
    let polygons = cell.polygons.length;
    let points = cell.ownPoints;
    let height = 0;
    for (const ref of cell.refs) {
      const t = visit(ref.target, depth + 1, path);
      const n = ref.columns * ref.rows;
      polygons += n * t.polygons;
      points += n * t.points;
      height = Math.max(height, t.height + 1);
    }
    path.pop();
    onPath.delete(name);
    // A cell first reached from the middle of a chain is memoised; its height catches a chain
    // that only becomes too deep when reached again from higher up.
    if (height > limits.maxDepth) {
      throw new GdsError(
        "limit_exceeded",
        `The hierarchy below "${name}" is ${height} levels deep; the limit is ${limits.maxDepth}.`,
      );
    }
    // Saturate: only "more than the limit" matters, and doubles stay finite this way.
    const result = {
      polygons: Math.min(polygons, limits.maxPolygons + 1),
      points: Math.min(points, limits.maxPoints + 1),
      height,
    };
    totals.set(name, result);
    return result;
  };
  let polygonTotal = 0;
  let pointTotal = 0;
  for (const t of tops) {
    const r = visit(t, 0, []);
    polygonTotal += r.polygons;
    pointTotal += r.points;
  }
  // Cells no top cell reaches are not flattened, but a cycle among them still makes the file
  // invalid (KLayout refuses such files too).
  for (const name of p.order) visit(name, 0, []);
  if (polygonTotal > limits.maxPolygons) {
    throw new GdsError(
      "limit_exceeded",
      `Flattening would give more than ${limits.maxPolygons} polygons, the limit (arrays and references multiply the shapes of the cells they place).`,
    );
  }
  if (pointTotal > limits.maxPoints) {
    throw new GdsError(
      "limit_exceeded",
      `Flattening would give more than ${limits.maxPoints} vertices, the limit.`,
    );
  }

  // Database units to nanometres.
  // 1e-10 / 1e-9 is 0.09999999999999999 in doubles: keep 12 significant digits, which every
  // database unit written as a decimal number of metres has.
  const scale = Number((p.dbuMetres / 1e-9).toPrecision(12));
  const integralScale =
    Math.abs(scale - Math.round(scale)) < 1e-9 * scale && Math.round(scale) >= 1;
  const nmPerDbu = integralScale ? Math.round(scale) : scale;
  if (!integralScale) {
    warnings.push(
      `The file's database unit is ${p.dbuMetres * 1e9} nm; coordinates were rounded to 1 nm.`,
    );
  }
  if (p.textCount > 0) warnings.push(`${p.textCount} TEXT element(s) ignored.`);
  if (p.nodeCount > 0) warnings.push(`${p.nodeCount} NODE element(s) ignored.`);
  if (p.absoluteWidthPaths > 0) {
    warnings.push(
      `${p.absoluteWidthPaths} PATH element(s) with absolute (negative) width were scaled like ordinary widths.`,
    );
  }

  const layers = new Map<string, Ring[]>();
  let xmin = Infinity;
  let ymin = Infinity;
  let xmax = -Infinity;
  let ymax = -Infinity;
  let polygonCount = 0;
  let pointCount = 0;

  const emit = (layer: string, ring: Float64Array, t: Affine): void => {
    const out = new Int32Array(ring.length);
    for (let i = 0; i < ring.length; i += 2) {
      const x = ring[i]!;
      const y = ring[i + 1]!;
      const fx = Math.round((t.a * x + t.b * y + t.tx) * nmPerDbu);
      const fy = Math.round((t.c * x + t.d * y + t.ty) * nmPerDbu);
      if (!(Math.abs(fx) <= 2147483647 && Math.abs(fy) <= 2147483647)) {
        throw new GdsError(
          "coordinate_overflow",
          `A ${layer} polygon has a vertex at (${fx}, ${fy}) nm after flattening, outside the 32-bit coordinate range.`,
        );
      }
      out[i] = fx;
      out[i + 1] = fy;
      if (fx < xmin) xmin = fx;
      if (fx > xmax) xmax = fx;
      if (fy < ymin) ymin = fy;
      if (fy > ymax) ymax = fy;
    }
    let list = layers.get(layer);
    if (!list) {
      list = [];
      layers.set(layer, list);
    }
    list.push(out);
    polygonCount += 1;
    pointCount += ring.length / 2;
  };

  const place = (name: string, t: Affine): void => {
    const cell = p.cells.get(name)!;
    for (const poly of cell.polygons) emit(poly.layer, poly.ring, t);
    for (const ref of cell.refs) {
      if (totals.get(ref.target)!.polygons === 0) continue;
      for (let r = 0; r < ref.rows; r += 1) {
        for (let c = 0; c < ref.columns; c += 1) {
          const ox = ref.x + c * ref.colDx + r * ref.rowDx;
          const oy = ref.y + c * ref.colDy + r * ref.rowDy;
          place(ref.target, {
            a: t.a * ref.a + t.b * ref.c,
            b: t.a * ref.b + t.b * ref.d,
            c: t.c * ref.a + t.d * ref.c,
            d: t.c * ref.b + t.d * ref.d,
            tx: t.a * ox + t.b * oy + t.tx,
            ty: t.c * ox + t.d * oy + t.ty,
          });
        }
      }
    }
  };
  for (const top of tops) place(top, { a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0 });

  return {
    libraryName: p.libraryName,
    dbuMetres: p.dbuMetres,
    dbuUserUnits: p.dbuUserUnits,
    cells: p.order,
    topCells: tops,
    layers,
    elementCount: p.elementCount,
    polygonCount,
    pointCount,
    bboxNm: xmin === Infinity ? null : [xmin, ymin, xmax, ymax],
    warnings,
  };
}
