/**
 * The parse of a GDS II file into its structures (cells), one pass over the records: each
 * cell's polygons in the file's database units (BOUNDARY, BOX, and PATH outlined by path.ts)
 * its text labels (TEXT: layer, texttype, string and position; gdsfactory and SiEPIC mark ports
 * with them) and its references (SREF, AREF) with their transformation, unflattened. NODE,
 * properties, element flags and library bookkeeping records are read and skipped; anything
 * else is refused with an error naming the record (see reader.ts for what is supported).
 */

import { GdsError } from "./errors.js";
import { pathOutline } from "./path.js";
import {
  RecordReader,
  badLength,
  unexpected,
  unexpectedOrUnsupported,
  type RecordView,
} from "./record-reader.js";
import {
  Rec,
  STRANS_ABSOLUTE_ANGLE,
  STRANS_ABSOLUTE_MAG,
  STRANS_REFLECT_X,
  recordName,
} from "./records.js";

export interface CellRef {
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

/** A TEXT element: its string at a point (database units), on layer/texttype. */
export interface CellLabel {
  layer: number;
  texttype: number;
  text: string;
  x: number;
  y: number;
}

export interface CellDef {
  name: string;
  offset: number;
  /** Polygons in the file's database units. */
  polygons: Array<{ layer: string; ring: Float64Array }>;
  labels: CellLabel[];
  refs: CellRef[];
  ownPoints: number;
}

/** The library as parsed: its cells by name and in file order, and what was skipped. */
export interface Parsed {
  libraryName: string;
  dbuUserUnits: number;
  dbuMetres: number;
  cells: Map<string, CellDef>;
  order: string[];
  elementCount: number;
  /** TEXT elements in the file (before flattening). */
  textCount: number;
  nodeCount: number;
  absoluteWidthPaths: number;
}

/** Parses the file's records (at most `maxRecords`) and structures (at most `maxCells`). */
export function parseGds(
  bytes: Uint8Array,
  limits: { maxRecords: number; maxCells: number },
): Parsed {
  return new GdsParser(new RecordReader(bytes, limits.maxRecords), limits.maxCells).parse();
}

/** Element records that are kept, each at most once per element. */
const ELEMENT_FIELDS = new Set<number>([
  Rec.LAYER,
  Rec.DATATYPE,
  Rec.BOXTYPE,
  Rec.TEXTTYPE,
  Rec.NODETYPE,
  Rec.XY,
  Rec.WIDTH,
  Rec.PATHTYPE,
  Rec.BGNEXTN,
  Rec.ENDEXTN,
  Rec.SNAME,
  Rec.STRANS,
  Rec.MAG,
  Rec.ANGLE,
  Rec.COLROW,
  Rec.PRESENTATION,
  Rec.STRING,
]);

/** Element records read and ignored: flags, plex numbers and properties. */
const ELEMENT_IGNORED = new Set<number>([Rec.ELFLAGS, Rec.PLEX, Rec.PROPATTR, Rec.PROPVALUE]);

/** An element's records by record type (ENDEL excluded). */
type ElementRecords = Map<number, RecordView>;

/** The parse's state: the library read so far. */
class GdsParser {
  private libraryName = "";
  private dbuUserUnits = NaN;
  private dbuMetres = NaN;
  private readonly cells = new Map<string, CellDef>();
  private readonly order: string[] = [];
  private elementCount = 0;
  private textCount = 0;
  private nodeCount = 0;
  private absoluteWidthPaths = 0;
  private sawBgnlib = false;

  constructor(
    private readonly r: RecordReader,
    private readonly maxCells: number,
  ) {}

  parse(): Parsed {
    const first = this.r.next();
    if (first.type !== Rec.HEADER) {
      throw new GdsError(
        "not_gds",
        `Not a GDS II file: it must start with a HEADER record, found ${recordName(first.type)}.`,
        0,
      );
    }
    for (;;) {
      const rec = this.r.next();
      if (rec.type === Rec.ENDLIB) return this.endLibrary(rec);
      this.libraryRecord(rec);
    }
  }

  /** A record at library level, other than ENDLIB. */
  private libraryRecord(rec: RecordView): void {
    switch (rec.type) {
      case Rec.BGNLIB:
        this.sawBgnlib = true;
        break;
      case Rec.LIBNAME:
        this.libraryName = this.r.ascii(rec);
        break;
      case Rec.UNITS:
        this.units(rec);
        break;
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
      case Rec.BGNSTR:
        if (!this.sawBgnlib || Number.isNaN(this.dbuMetres)) {
          throw unexpected(rec, "before BGNLIB and UNITS");
        }
        this.addCell(this.structure(rec), rec);
        break;
      default:
        throw unexpectedOrUnsupported(rec, "at library level");
    }
  }

  private units(rec: RecordView): void {
    const [dbuUserUnits, dbuMetres] = this.r.reals(rec, 2, "two 8-byte reals");
    this.dbuUserUnits = dbuUserUnits!;
    this.dbuMetres = dbuMetres!;
    if (!(dbuMetres! > 1e-15 && dbuMetres! < 1e-3) || !(dbuUserUnits! > 0)) {
      throw new GdsError(
        "bad_value",
        `UNITS at byte ${rec.offset} gives a database unit of ${dbuMetres} m (${dbuUserUnits} user units); expected a positive unit between 1 fm and 1 mm.`,
        rec.offset,
      );
    }
  }

  private addCell(cell: CellDef, bgn: RecordView): void {
    if (this.cells.has(cell.name)) {
      throw new GdsError(
        "duplicate_cell",
        `Structure "${cell.name}" is defined twice (again at byte ${cell.offset}).`,
        cell.offset,
      );
    }
    this.cells.set(cell.name, cell);
    this.order.push(cell.name);
    if (this.cells.size > this.maxCells) {
      throw new GdsError(
        "limit_exceeded",
        `The file defines more than ${this.maxCells} structures, the limit.`,
        bgn.offset,
      );
    }
  }

  private endLibrary(rec: RecordView): Parsed {
    if (Number.isNaN(this.dbuMetres)) {
      throw new GdsError("bad_value", "The file has no UNITS record.", rec.offset);
    }
    // Bytes after ENDLIB (tape-block padding) are ignored.
    return {
      libraryName: this.libraryName,
      dbuUserUnits: this.dbuUserUnits,
      dbuMetres: this.dbuMetres,
      cells: this.cells,
      order: this.order,
      elementCount: this.elementCount,
      textCount: this.textCount,
      nodeCount: this.nodeCount,
      absoluteWidthPaths: this.absoluteWidthPaths,
    };
  }

  /** A structure, from its STRNAME (after BGNSTR) up to ENDSTR. */
  private structure(bgn: RecordView): CellDef {
    const nameRec = this.r.next();
    if (nameRec.type !== Rec.STRNAME) throw unexpected(nameRec, "after BGNSTR (expected STRNAME)");
    const name = this.r.ascii(nameRec);
    if (name.length === 0) {
      throw new GdsError(
        "bad_value",
        `STRNAME at byte ${nameRec.offset} is empty.`,
        nameRec.offset,
      );
    }
    const cell: CellDef = {
      name,
      offset: bgn.offset,
      polygons: [],
      labels: [],
      refs: [],
      ownPoints: 0,
    };
    for (;;) {
      const rec = this.r.next();
      switch (rec.type) {
        case Rec.ENDSTR:
          return cell;
        case Rec.STRCLASS:
          break;
        case Rec.BOUNDARY:
        case Rec.BOX:
        case Rec.PATH:
          this.shape(rec, cell);
          this.elementCount += 1;
          break;
        case Rec.SREF:
        case Rec.AREF:
          cell.refs.push(this.reference(rec));
          break;
        case Rec.TEXT:
          cell.labels.push(this.label(rec));
          this.textCount += 1;
          break;
        case Rec.NODE:
          this.elementRecords(rec);
          this.nodeCount += 1;
          break;
        default:
          throw unexpectedOrUnsupported(rec, `in structure "${name}"`);
      }
    }
  }

  /** Reads an element's records up to ENDEL into a map by record type. */
  private elementRecords(head: RecordView): ElementRecords {
    const found: ElementRecords = new Map();
    for (;;) {
      const rec = this.r.next();
      if (rec.type === Rec.ENDEL) return found;
      if (ELEMENT_IGNORED.has(rec.type)) continue;
      if (!ELEMENT_FIELDS.has(rec.type)) {
        throw unexpectedOrUnsupported(
          rec,
          `inside the ${recordName(head.type)} element at byte ${head.offset}`,
        );
      }
      if (found.has(rec.type)) {
        throw unexpected(
          rec,
          `(a second one in the ${recordName(head.type)} element at byte ${head.offset})`,
        );
      }
      found.set(rec.type, rec);
    }
  }

  /** A BOUNDARY, BOX or PATH element: adds its polygon (if it has an area) to the cell. */
  private shape(head: RecordView, cell: CellDef): void {
    const found = this.elementRecords(head);
    const xy = this.r.points(requireRecord(found, Rec.XY, head));
    let polygon: { layer: string; ring: Float64Array } | null;
    if (head.type === Rec.BOUNDARY) polygon = this.boundary(head, found, xy);
    else if (head.type === Rec.BOX) polygon = this.box(head, found, xy);
    else polygon = this.path(head, found, xy);
    if (polygon) {
      cell.polygons.push(polygon);
      cell.ownPoints += polygon.ring.length / 2;
    }
  }

  private boundary(
    head: RecordView,
    found: ElementRecords,
    xy: Float64Array,
  ): { layer: string; ring: Float64Array } {
    const layer = this.layerKey(found, head, Rec.DATATYPE);
    const count = xy.length / 2;
    if (count < 4) {
      throw new GdsError(
        "bad_value",
        `The BOUNDARY element at byte ${head.offset} has ${count} points; a boundary needs at least 4 (3 vertices and the closing point).`,
        head.offset,
      );
    }
    // The closing point repeats the first; some writers omit it.
    const closed = xy[0] === xy[2 * count - 2] && xy[1] === xy[2 * count - 1];
    return { layer, ring: closed ? xy.subarray(0, 2 * count - 2) : xy };
  }

  /** A BOX is the rectangle spanned by its points (KLayout reads it the same way). */
  private box(
    head: RecordView,
    found: ElementRecords,
    xy: Float64Array,
  ): { layer: string; ring: Float64Array } | null {
    const layer = this.layerKey(found, head, Rec.BOXTYPE);
    const count = xy.length / 2;
    if (count !== 5) {
      throw new GdsError(
        "bad_value",
        `The BOX element at byte ${head.offset} has ${count} points; a box has 5.`,
        head.offset,
      );
    }
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
    if (!(x0 < x1 && y0 < y1)) return null;
    return { layer, ring: Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1) };
  }

  private path(
    head: RecordView,
    found: ElementRecords,
    xy: Float64Array,
  ): { layer: string; ring: Float64Array } | null {
    const layer = this.layerKey(found, head, Rec.DATATYPE);
    const widthRec = found.get(Rec.WIDTH);
    const width = widthRec ? this.r.int32(widthRec) : 0;
    if (width < 0) this.absoluteWidthPaths += 1;
    const typeRec = found.get(Rec.PATHTYPE);
    const pathType = typeRec ? this.r.int16(typeRec) : 0;
    if (![0, 1, 2, 4].includes(pathType)) {
      throw new GdsError(
        "bad_value",
        `The PATH element at byte ${head.offset} has PATHTYPE ${pathType}; supported are 0, 1, 2 and 4.`,
        head.offset,
      );
    }
    if (xy.length / 2 < 1) {
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
      beginExtension: pathType === 4 && bgn ? this.r.int32(bgn) : 0,
      endExtension: pathType === 4 && end ? this.r.int32(end) : 0,
    });
    if (!outline) return null;
    // Round to the database grid as KLayout does when it turns a path into a polygon.
    for (let i = 0; i < outline.length; i += 1) outline[i] = Math.round(outline[i]!);
    return { layer, ring: outline };
  }

  /**
   * A TEXT element: its layer, texttype, string and point. Presentation, orientation and
   * magnification only change how the text is drawn, not where it points, so they are not kept.
   */
  private label(head: RecordView): CellLabel {
    const found = this.elementRecords(head);
    const [layer, texttype] = this.layerNumbers(found, head, Rec.TEXTTYPE);
    const xy = this.r.points(requireRecord(found, Rec.XY, head));
    if (xy.length !== 2) {
      throw new GdsError(
        "bad_value",
        `The TEXT element at byte ${head.offset} has ${xy.length / 2} points; a text has 1.`,
        head.offset,
      );
    }
    const text = this.r.ascii(requireRecord(found, Rec.STRING, head));
    return { layer, texttype, text, x: xy[0]!, y: xy[1]! };
  }

  /** The element's layer key "L/D", its datatype read from `typeRecord`. */
  private layerKey(found: ElementRecords, head: RecordView, typeRecord: number): string {
    const [layer, datatype] = this.layerNumbers(found, head, typeRecord);
    return `${layer}/${datatype}`;
  }

  /** The element's layer and its datatype (or texttype, boxtype) read from `typeRecord`. */
  private layerNumbers(
    found: ElementRecords,
    head: RecordView,
    typeRecord: number,
  ): [number, number] {
    const layer = this.r.int16(requireRecord(found, Rec.LAYER, head));
    const datatype = this.r.int16(requireRecord(found, typeRecord, head));
    if (layer < 0 || datatype < 0) {
      throw new GdsError(
        "bad_value",
        `The ${recordName(head.type)} element at byte ${head.offset} is on layer ${layer}/${datatype}; layer numbers are 0…32767.`,
        head.offset,
      );
    }
    return [layer, datatype];
  }

  /** An SREF or AREF element. */
  private reference(head: RecordView): CellRef {
    const found = this.elementRecords(head);
    const target = this.r.ascii(requireRecord(found, Rec.SNAME, head));
    const xy = this.r.points(requireRecord(found, Rec.XY, head));
    const ref: CellRef = {
      target,
      offset: head.offset,
      ...this.linearPart(head, found),
      x: 0,
      y: 0,
      columns: 1,
      rows: 1,
      colDx: 0,
      colDy: 0,
      rowDx: 0,
      rowDy: 0,
    };
    if (head.type === Rec.SREF) this.singlePlacement(head, xy, ref);
    else this.arrayPlacements(head, found, xy, ref);
    return ref;
  }

  /** The reference's child-to-parent matrix from STRANS, MAG and ANGLE. */
  private linearPart(
    head: RecordView,
    found: ElementRecords,
  ): Pick<CellRef, "a" | "b" | "c" | "d"> {
    let reflect = false;
    let mag = 1;
    let angle = 0;
    const strans = found.get(Rec.STRANS);
    if (strans) {
      const flags = this.r.bits(strans);
      if (flags & (STRANS_ABSOLUTE_MAG | STRANS_ABSOLUTE_ANGLE)) {
        throw new GdsError(
          "unsupported_record",
          `The STRANS record at byte ${strans.offset} sets absolute magnification or angle, which this reader does not support.`,
          strans.offset,
        );
      }
      reflect = (flags & STRANS_REFLECT_X) !== 0;
      const magRec = found.get(Rec.MAG);
      if (magRec) mag = this.r.reals(magRec, 1, "one 8-byte real")[0]!;
      const angleRec = found.get(Rec.ANGLE);
      if (angleRec) angle = this.r.reals(angleRec, 1, "one 8-byte real")[0]!;
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
    return { a: mag * cos, b: -mag * sin * f, c: mag * sin, d: mag * cos * f };
  }

  /** An SREF's one placement. */
  private singlePlacement(head: RecordView, xy: Float64Array, ref: CellRef): void {
    if (xy.length !== 2) {
      throw new GdsError(
        "bad_value",
        `The SREF at byte ${head.offset} has ${xy.length / 2} points; it needs 1.`,
        head.offset,
      );
    }
    ref.x = xy[0]!;
    ref.y = xy[1]!;
  }

  /** An AREF's columns × rows placements. */
  private arrayPlacements(
    head: RecordView,
    found: ElementRecords,
    xy: Float64Array,
    ref: CellRef,
  ): void {
    const colrow = requireRecord(found, Rec.COLROW, head);
    if (colrow.length !== 4) throw badLength(colrow, "two 2-byte integers");
    const columns = this.r.int16(colrow, 0);
    const rows = this.r.int16(colrow, 1);
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
}

/** The element's record of `type`; an error naming the element when it has none. */
function requireRecord(found: ElementRecords, type: number, head: RecordView): RecordView {
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
