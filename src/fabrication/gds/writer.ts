/**
 * GDS II writer: one library, one top cell, polygons on (layer, datatype) pairs, database unit
 * 1 nm and user unit 1 µm (UNITS 1e-3, 1e-9; DESIGN.md §9). Coordinates are integer
 * nanometres. Record layout per the GDS II Stream Format Manual 6.0 (shared/NOTES.md).
 *
 * Polygons become BOUNDARY elements; with `rectanglesAsBox`, axis-aligned rectangles become BOX
 * elements instead (KLayout and gdstk read both as the same shape). `labels` become TEXT
 * elements (LAYER, TEXTTYPE, XY of one point, STRING), as gdsfactory writes its port labels.
 *
 * Large polygons are cut into pieces along vertical or horizontal lines (geometry/split.ts).
 * The format allows 8 191 points an XY record (16-bit length), but a record longer than
 * 0x7FFF bytes makes KLayout 0.28 warn ("Record length larger than 0x8000 encountered:
 * interpreting as unsigned") and older readers take the length as signed. So by default a
 * BOUNDARY holds at most 4 094 vertices (4 095 points, a 32 764-byte XY record); pass
 * `maxVertices` up to 8 190 for the format's own limit.
 */

import { dropRepeatedVertices, type Ring } from "../geometry/polygon.js";
import { splitRing } from "../geometry/split.js";
import { encodeReal8 } from "./real8.js";
import { DataType, MAX_XY_POINTS, Rec } from "./records.js";

export interface GdsLayerPolygons {
  /** GDS layer number, 0 … 32 767. */
  layer: number;
  /** GDS datatype, 0 … 32 767. */
  datatype: number;
  /** Rings [x0, y0, x1, y1, …] in integer nm, first vertex not repeated, either orientation. */
  polygons: readonly ArrayLike<number>[];
}

/** A text label: `text` at (x, y) in integer nm on layer/texttype. */
export interface GdsTextLabel {
  /** GDS layer number, 0 … 32 767. */
  layer: number;
  /** GDS texttype, 0 … 32 767. */
  texttype: number;
  /** 1–512 printable ASCII characters (the format's longest STRING). */
  text: string;
  x: number;
  y: number;
}

export interface GdsWriteOptions {
  /** LIBNAME, default "EMSIM". */
  libraryName?: string;
  /** The top cell's name (STRNAME). */
  cellName: string;
  layers: readonly GdsLayerPolygons[];
  /** TEXT elements, written after the polygons (default none). */
  labels?: readonly GdsTextLabel[];
  /** Modification/access time stamped into BGNLIB and BGNSTR; default now. */
  modified?: Date;
  /** Write axis-aligned rectangles as BOX elements (default false: BOUNDARY). */
  rectanglesAsBox?: boolean;
  /** Most vertices of one BOUNDARY (default 4 094; at most 8 190); larger polygons are cut. */
  maxVertices?: number;
}

export interface GdsWriteResult {
  bytes: Uint8Array;
  /** Elements written (BOUNDARY + BOX), after splitting large polygons. */
  elementCount: number;
  /** Elements written per entry of `layers`, in the same order. */
  elementsPerLayer: number[];
  /** Input polygons skipped because they had fewer than 3 distinct vertices. */
  skippedDegenerate: number;
}

/** The most vertices a BOUNDARY can have (one XY point is the repeated first vertex). */
export const MAX_BOUNDARY_VERTICES = MAX_XY_POINTS - 1;
/** Default: XY records stay below 0x8000 bytes, which every reader takes the same way. */
export const DEFAULT_BOUNDARY_VERTICES = Math.floor((0x7fff - 4) / 8) - 1;

const NAME_PATTERN = /^[\x21-\x7e]{1,126}$/;

/** Writes a one-cell GDS II library. Throws RangeError for invalid names, layers or coordinates. */
export function writeGds(options: GdsWriteOptions): GdsWriteResult {
  const libraryName = options.libraryName ?? "EMSIM";
  for (const [what, name] of [
    ["library name", libraryName],
    ["cell name", options.cellName],
  ] as const) {
    if (!NAME_PATTERN.test(name)) {
      throw new RangeError(`${what} must be 1–126 printable ASCII characters without spaces`);
    }
  }
  const w = new RecordWriter();
  const stamp = timeStamp(options.modified ?? new Date());
  w.int16(Rec.HEADER, [600]);
  w.int16(Rec.BGNLIB, [...stamp, ...stamp]);
  w.ascii(Rec.LIBNAME, libraryName);
  w.real8(Rec.UNITS, [1e-3, 1e-9]);
  w.int16(Rec.BGNSTR, [...stamp, ...stamp]);
  w.ascii(Rec.STRNAME, options.cellName);

  const maxVertices = options.maxVertices ?? DEFAULT_BOUNDARY_VERTICES;
  if (!Number.isInteger(maxVertices) || maxVertices < 8 || maxVertices > MAX_BOUNDARY_VERTICES) {
    throw new RangeError(`maxVertices must be an integer in 8…${MAX_BOUNDARY_VERTICES}`);
  }
  let elementCount = 0;
  let skippedDegenerate = 0;
  const elementsPerLayer: number[] = [];
  for (const layer of options.layers) {
    const before = elementCount;
    checkLayerNumber("layer", layer.layer);
    checkLayerNumber("datatype", layer.datatype);
    for (const input of layer.polygons) {
      const ring = dropRepeatedVertices(toInt32Ring(input));
      if (ring.length < 6) {
        skippedDegenerate += 1;
        continue;
      }
      if (options.rectanglesAsBox && isAxisAlignedRectangle(ring)) {
        w.none(Rec.BOX);
        w.int16(Rec.LAYER, [layer.layer]);
        w.int16(Rec.BOXTYPE, [layer.datatype]);
        w.xy(ring);
        w.none(Rec.ENDEL);
        elementCount += 1;
        continue;
      }
      for (const piece of splitRing(ring, maxVertices)) {
        w.none(Rec.BOUNDARY);
        w.int16(Rec.LAYER, [layer.layer]);
        w.int16(Rec.DATATYPE, [layer.datatype]);
        w.xy(piece);
        w.none(Rec.ENDEL);
        elementCount += 1;
      }
    }
    elementsPerLayer.push(elementCount - before);
  }
  for (const label of options.labels ?? []) writeLabel(w, label);
  w.none(Rec.ENDSTR);
  w.none(Rec.ENDLIB);
  return { bytes: w.finish(), elementCount, elementsPerLayer, skippedDegenerate };
}

function checkLayerNumber(what: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > 32767) {
    throw new RangeError(`${what} must be an integer in 0…32767, got ${v}`);
  }
}

const LABEL_PATTERN = /^[\x20-\x7e]{1,512}$/;

function writeLabel(w: RecordWriter, label: GdsTextLabel): void {
  checkLayerNumber("label layer", label.layer);
  checkLayerNumber("texttype", label.texttype);
  if (!LABEL_PATTERN.test(label.text)) {
    throw new RangeError("a label's text must be 1–512 printable ASCII characters");
  }
  const [x, y] = toInt32Ring([label.x, label.y]);
  w.none(Rec.TEXT);
  w.int16(Rec.LAYER, [label.layer]);
  w.int16(Rec.TEXTTYPE, [label.texttype]);
  w.point(x!, y!);
  w.ascii(Rec.STRING, label.text);
  w.none(Rec.ENDEL);
}

function toInt32Ring(input: ArrayLike<number>): Ring {
  if (input.length % 2 !== 0) throw new RangeError("a ring needs an even number of coordinates");
  if (input instanceof Int32Array) return input;
  const ring = new Int32Array(input.length);
  for (let i = 0; i < input.length; i += 1) {
    const v = input[i]!;
    if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647) {
      throw new RangeError(`coordinate ${v} is not a 32-bit integer number of nanometres`);
    }
    ring[i] = v;
  }
  return ring;
}

function isAxisAlignedRectangle(r: Ring): boolean {
  if (r.length !== 8) return false;
  const xs = new Set([r[0], r[2], r[4], r[6]]);
  const ys = new Set([r[1], r[3], r[5], r[7]]);
  if (xs.size !== 2 || ys.size !== 2) return false;
  for (let i = 0; i < 4; i += 1) {
    const j = (i + 1) % 4;
    if (r[2 * i] !== r[2 * j] && r[2 * i + 1] !== r[2 * j + 1]) return false;
  }
  return true;
}

function timeStamp(d: Date): number[] {
  return [
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
  ];
}

/** Appends big-endian records to a growing buffer. */
class RecordWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  private at = 0;

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + bytes) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  private header(record: number, dataType: number, payload: number): void {
    this.reserve(4 + payload);
    this.view.setUint16(this.at, 4 + payload);
    this.buf[this.at + 2] = record;
    this.buf[this.at + 3] = dataType;
    this.at += 4;
  }

  none(record: number): void {
    this.header(record, DataType.none, 0);
  }

  int16(record: number, values: readonly number[]): void {
    this.header(record, DataType.int16, 2 * values.length);
    for (const v of values) {
      this.view.setInt16(this.at, v);
      this.at += 2;
    }
  }

  real8(record: number, values: readonly number[]): void {
    this.header(record, DataType.real8, 8 * values.length);
    for (const v of values) {
      encodeReal8(v, this.buf, this.at);
      this.at += 8;
    }
  }

  ascii(record: number, text: string): void {
    const padded = text.length % 2 === 0 ? text.length : text.length + 1;
    this.header(record, DataType.ascii, padded);
    for (let i = 0; i < text.length; i += 1) this.buf[this.at + i] = text.charCodeAt(i);
    if (padded > text.length) this.buf[this.at + text.length] = 0;
    this.at += padded;
  }

  /** XY of one point (a TEXT's position). */
  point(x: number, y: number): void {
    this.header(Rec.XY, DataType.int32, 8);
    this.view.setInt32(this.at, x);
    this.view.setInt32(this.at + 4, y);
    this.at += 8;
  }

  /** XY of a closed ring: the first point is repeated at the end. */
  xy(ring: Ring): void {
    const points = ring.length / 2 + 1;
    this.header(Rec.XY, DataType.int32, 8 * points);
    for (let i = 0; i < ring.length; i += 1) {
      this.view.setInt32(this.at, ring[i]!);
      this.at += 4;
    }
    this.view.setInt32(this.at, ring[0]!);
    this.view.setInt32(this.at + 4, ring[1]!);
    this.at += 8;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.at);
  }
}
