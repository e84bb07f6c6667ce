/**
 * A record-level GDS II builder for tests: hierarchies, references, paths and deliberately
 * broken files that our one-cell writer never produces. Records are written as the format
 * manual describes them; nothing here is used by the service.
 */

import { encodeReal8 } from "../gds/real8.js";
import { DataType, Rec } from "../gds/records.js";

export class GdsBuilder {
  private chunks: number[] = [];

  /** Appends a raw record with an explicit length field (for malformed-file tests). */
  raw(length: number, record: number, dataType: number, payload: number[] = []): this {
    this.chunks.push((length >> 8) & 0xff, length & 0xff, record, dataType, ...payload);
    return this;
  }

  record(record: number, dataType: number, payload: number[] = []): this {
    return this.raw(4 + payload.length, record, dataType, payload);
  }

  none(record: number): this {
    return this.record(record, DataType.none);
  }

  int16(record: number, ...values: number[]): this {
    const p: number[] = [];
    for (const v of values) p.push((v >> 8) & 0xff, v & 0xff);
    return this.record(record, DataType.int16, p);
  }

  bits(record: number, value: number): this {
    return this.record(record, DataType.bitArray, [(value >> 8) & 0xff, value & 0xff]);
  }

  int32(record: number, ...values: number[]): this {
    const p: number[] = [];
    for (const v of values)
      p.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
    return this.record(record, DataType.int32, p);
  }

  real8(record: number, ...values: number[]): this {
    const p: number[] = [];
    const buf = new Uint8Array(8);
    for (const v of values) {
      encodeReal8(v, buf, 0);
      p.push(...buf);
    }
    return this.record(record, DataType.real8, p);
  }

  ascii(record: number, text: string): this {
    const p = [...text].map((c) => c.charCodeAt(0));
    if (p.length % 2) p.push(0);
    return this.record(record, DataType.ascii, p);
  }

  /** HEADER, BGNLIB, LIBNAME, UNITS (database unit `dbuM` metres, user unit 1 µm). */
  begin(dbuM = 1e-9): this {
    const stamp = [2026, 1, 1, 0, 0, 0];
    return this.int16(Rec.HEADER, 600)
      .int16(Rec.BGNLIB, ...stamp, ...stamp)
      .ascii(Rec.LIBNAME, "TEST")
      .real8(Rec.UNITS, dbuM / 1e-6, dbuM);
  }

  cell(name: string, body: (b: this) => void): this {
    const stamp = [2026, 1, 1, 0, 0, 0];
    this.int16(Rec.BGNSTR, ...stamp, ...stamp).ascii(Rec.STRNAME, name);
    body(this);
    return this.none(Rec.ENDSTR);
  }

  boundary(layer: number, datatype: number, ring: number[]): this {
    return this.none(Rec.BOUNDARY)
      .int16(Rec.LAYER, layer)
      .int16(Rec.DATATYPE, datatype)
      .int32(Rec.XY, ...ring, ring[0]!, ring[1]!)
      .none(Rec.ENDEL);
  }

  box(layer: number, datatype: number, x0: number, y0: number, x1: number, y1: number): this {
    return this.none(Rec.BOX)
      .int16(Rec.LAYER, layer)
      .int16(Rec.BOXTYPE, datatype)
      .int32(Rec.XY, x0, y0, x1, y0, x1, y1, x0, y1, x0, y0)
      .none(Rec.ENDEL);
  }

  path(
    layer: number,
    points: number[],
    width: number,
    pathType = 0,
    extensions?: [number, number],
  ): this {
    this.none(Rec.PATH).int16(Rec.LAYER, layer).int16(Rec.DATATYPE, 0);
    this.int16(Rec.PATHTYPE, pathType).int32(Rec.WIDTH, width);
    if (extensions) this.int32(Rec.BGNEXTN, extensions[0]).int32(Rec.ENDEXTN, extensions[1]);
    return this.int32(Rec.XY, ...points).none(Rec.ENDEL);
  }

  text(layer: number, x: number, y: number, text: string, texttype = 0): this {
    return this.none(Rec.TEXT)
      .int16(Rec.LAYER, layer)
      .int16(Rec.TEXTTYPE, texttype)
      .int32(Rec.XY, x, y)
      .ascii(Rec.STRING, text)
      .none(Rec.ENDEL);
  }

  private strans(reflect: boolean, mag: number, angle: number): this {
    if (!reflect && mag === 1 && angle === 0) return this;
    this.bits(Rec.STRANS, reflect ? 0x8000 : 0);
    if (mag !== 1) this.real8(Rec.MAG, mag);
    if (angle !== 0) this.real8(Rec.ANGLE, angle);
    return this;
  }

  sref(
    name: string,
    x: number,
    y: number,
    opts: { reflect?: boolean; mag?: number; angle?: number } = {},
  ): this {
    this.none(Rec.SREF).ascii(Rec.SNAME, name);
    this.strans(opts.reflect ?? false, opts.mag ?? 1, opts.angle ?? 0);
    return this.int32(Rec.XY, x, y).none(Rec.ENDEL);
  }

  /** AREF with `columns` × `rows` placements stepping (dxCol, dyCol) and (dxRow, dyRow). */
  aref(
    name: string,
    columns: number,
    rows: number,
    origin: [number, number],
    colStep: [number, number],
    rowStep: [number, number],
    opts: { reflect?: boolean; mag?: number; angle?: number } = {},
  ): this {
    this.none(Rec.AREF).ascii(Rec.SNAME, name);
    this.strans(opts.reflect ?? false, opts.mag ?? 1, opts.angle ?? 0);
    this.int16(Rec.COLROW, columns, rows);
    const [x, y] = origin;
    return this.int32(
      Rec.XY,
      x,
      y,
      x + columns * colStep[0],
      y + columns * colStep[1],
      x + rows * rowStep[0],
      y + rows * rowStep[1],
    ).none(Rec.ENDEL);
  }

  end(): Uint8Array {
    this.none(Rec.ENDLIB);
    return Uint8Array.from(this.chunks);
  }

  bytes(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}
