/**
 * GDS II reader for untrusted files: parses the stream, checks every record, and flattens the
 * hierarchy into polygons per (layer, datatype) in integer nanometres.
 *
 * Handles what KLayout, gdstk and gdsfactory write: BOUNDARY, BOX, PATH (WIDTH; PATHTYPE 0, 1, 2
 * and 4 with BGNEXTN/ENDEXTN; see path.ts), SREF and AREF with STRANS reflection, MAG and ANGLE
 * (flattened); TEXT as labels (a string at a point, flattened like the polygons: gds-ports.ts
 * turns port labels into ports); NODE, properties, element flags and library-level bookkeeping
 * records are read and ignored. Anything else (TEXTNODE, real4 data, unknown record numbers…) is
 * refused with an error naming the record.
 *
 * Bounded time and memory: the parse is one pass over the bytes (at most `maxRecords` records);
 * before flattening, the number of polygons and points every cell expands to is computed from
 * the hierarchy (saturating arithmetic), cycles and undefined cells are found by a depth-first
 * search no deeper than `maxDepth`, and flattening starts only when the totals are within
 * `maxPolygons`, `maxPoints` and `maxLabels` (an array of a cell with one label multiplies
 * labels as it multiplies shapes). Every failure is a {@link GdsError}.
 *
 * Units: coordinates are converted from the file's database unit to 1 nm. A file whose
 * database unit is not a whole number of nanometres (e.g. 0.1 nm) is rounded to 1 nm, with a
 * warning. Transformed coordinates (rotations that are not multiples of 90°, magnifications)
 * are rounded to the nearest nanometre, as KLayout rounds them to its database unit.
 *
 * record-reader.ts reads and checks the records, parse.ts turns them into structures; this file
 * checks the hierarchy and flattens it.
 */

import type { BoxNm, Ring } from "../geometry/polygon.js";
import { GdsError } from "./errors.js";
import { parseGds, type CellDef, type CellLabel, type Parsed } from "./parse.js";

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
  /**
   * TEXT labels after flattening (default 100 000). A real layout has a few per cell; each one
   * keeps its string (up to 64 KiB in a hostile file), so they get a bound of their own.
   */
  maxLabels: number;
}

export const DEFAULT_GDS_LIMITS: Readonly<GdsReadLimits> = Object.freeze({
  maxRecords: 20_000_000,
  maxCells: 100_000,
  maxDepth: 64,
  maxPolygons: 2_000_000,
  maxPoints: 20_000_000,
  maxLabels: 100_000,
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
  /** Flattened TEXT labels, positions in integer nm (rounded as the vertices are), in file order. */
  labels: GdsLabel[];
  /** BOUNDARY, BOX and PATH elements in the file (before flattening). */
  elementCount: number;
  /** Polygons after flattening. */
  polygonCount: number;
  /** Vertices after flattening. */
  pointCount: number;
  /** Box of all flattened polygons in nm, null when there are none. */
  bboxNm: BoxNm | null;
  /** Things the caller may want to know (labels not drawn, unit rounding, …). */
  warnings: string[];
}

/** A TEXT element after flattening: its string at (x, y) in integer nm, on layer/texttype. */
export interface GdsLabel {
  layer: number;
  texttype: number;
  text: string;
  x: number;
  y: number;
}

/** Reads and flattens a GDS II file. Throws {@link GdsError} for anything it cannot accept. */
export function readGds(bytes: Uint8Array, options: GdsReadOptions = {}): GdsLayout {
  const limits: GdsReadLimits = { ...DEFAULT_GDS_LIMITS, ...options.limits };
  const parsed = parseGds(bytes, limits);
  return flatten(parsed, limits, options.topCell);
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

interface Totals {
  polygons: number;
  points: number;
  labels: number;
  /** Longest chain of references below the cell. */
  height: number;
}

/** The hierarchy below the top cells as polygons in nm, once its size is known to be within the limits. */
function flatten(p: Parsed, limits: GdsReadLimits, topCell: string | undefined): GdsLayout {
  const tops = topCells(p, topCell);
  const totals = checkedTotals(p, limits, tops);
  const warnings: string[] = [];
  const nmPerDbu = nanometresPerDbu(p.dbuMetres, warnings);
  warnings.push(...skippedElementWarnings(p));
  const flat = new FlatLayers(p.cells, totals, nmPerDbu);
  for (const top of tops) flat.place(top, { a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0 });
  return {
    libraryName: p.libraryName,
    dbuMetres: p.dbuMetres,
    dbuUserUnits: p.dbuUserUnits,
    cells: p.order,
    topCells: tops,
    layers: flat.layers,
    labels: flat.labels,
    elementCount: p.elementCount,
    polygonCount: flat.polygonCount,
    pointCount: flat.pointCount,
    bboxNm: flat.bbox(),
    warnings,
  };
}

/**
 * The cells to flatten: `topCell`, or else every cell no other cell references. Checks first
 * that every referenced cell is defined.
 */
function topCells(p: Parsed, topCell: string | undefined): string[] {
  const referenced = new Set<string>();
  for (const name of p.order) {
    for (const ref of p.cells.get(name)!.refs) {
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
  if (topCell !== undefined) {
    if (!p.cells.has(topCell)) {
      throw new GdsError("undefined_cell", `The file has no structure named "${topCell}".`);
    }
    return [topCell];
  }
  const tops = p.order.filter((n) => !referenced.has(n));
  // Every cell is referenced: there must be a cycle; the search in CellTotals names it.
  if (tops.length === 0 && p.order.length > 0) return [p.order[0]!];
  return tops;
}

/**
 * What each cell expands to, after checking that flattening the top cells stays within the
 * polygon and point limits, and that no cell (reached from the tops or not) is in a cycle or
 * too deep a hierarchy.
 */
function checkedTotals(p: Parsed, limits: GdsReadLimits, tops: string[]): Map<string, Totals> {
  const cellTotals = new CellTotals(p.cells, limits);
  let polygonTotal = 0;
  let pointTotal = 0;
  let labelTotal = 0;
  for (const t of tops) {
    const r = cellTotals.of(t, 0, []);
    polygonTotal += r.polygons;
    pointTotal += r.points;
    labelTotal += r.labels;
  }
  // Cells no top cell reaches are not flattened, but a cycle among them still makes the file
  // invalid (KLayout refuses such files too).
  for (const name of p.order) cellTotals.of(name, 0, []);
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
  if (labelTotal > limits.maxLabels) {
    throw new GdsError(
      "limit_exceeded",
      `Flattening would give more than ${limits.maxLabels} TEXT labels, the limit.`,
    );
  }
  return cellTotals.totals;
}

/**
 * Polygons, points and height of each cell once flattened, by a depth-first search with
 * colours (the cells on the current path), memoised per cell. Totals saturate just above the
 * limits: only "more than the limit" matters, and doubles stay finite this way.
 */
class CellTotals {
  readonly totals = new Map<string, Totals>();
  private readonly onPath = new Set<string>();

  constructor(
    private readonly cells: ReadonlyMap<string, CellDef>,
    private readonly limits: GdsReadLimits,
  ) {}

  /** The totals of cell `name`, reached at `depth` along `path` (the cells above it). */
  of(name: string, depth: number, path: string[]): Totals {
    const done = this.totals.get(name);
    if (done) return done;
    if (this.onPath.has(name)) {
      const cycle = [...path.slice(path.indexOf(name)), name].join(" → ");
      throw new GdsError(
        "reference_cycle",
        `Structures reference each other in a cycle: ${cycle}.`,
      );
    }
    if (depth > this.limits.maxDepth) {
      throw new GdsError(
        "limit_exceeded",
        `The hierarchy is deeper than ${this.limits.maxDepth} levels (at "${name}" via ${path.slice(-3).join(" → ")}).`,
      );
    }
    this.onPath.add(name);
    path.push(name);
    const result = this.sum(this.cells.get(name)!, depth, path);
    path.pop();
    this.onPath.delete(name);
    // A cell first reached from the middle of a chain is memoised; its height catches a chain
    // that only becomes too deep when reached again from higher up.
    if (result.height > this.limits.maxDepth) {
      throw new GdsError(
        "limit_exceeded",
        `The hierarchy below "${name}" is ${result.height} levels deep; the limit is ${this.limits.maxDepth}.`,
      );
    }
    this.totals.set(name, result);
    return result;
  }

  /** The cell's own shapes plus every placement of the cells it references, saturated. */
  private sum(cell: CellDef, depth: number, path: string[]): Totals {
    let polygons = cell.polygons.length;
    let points = cell.ownPoints;
    let labels = cell.labels.length;
    let height = 0;
    for (const ref of cell.refs) {
      const t = this.of(ref.target, depth + 1, path);
      const n = ref.columns * ref.rows;
      polygons += n * t.polygons;
      points += n * t.points;
      labels += n * t.labels;
      height = Math.max(height, t.height + 1);
    }
    return {
      polygons: Math.min(polygons, this.limits.maxPolygons + 1),
      points: Math.min(points, this.limits.maxPoints + 1),
      labels: Math.min(labels, this.limits.maxLabels + 1),
      height,
    };
  }
}

/** Nanometres per database unit; rounded coordinates get a warning when that is not whole. */
function nanometresPerDbu(dbuMetres: number, warnings: string[]): number {
  // 1e-10 / 1e-9 is 0.09999999999999999 in doubles: keep 12 significant digits, which every
  // database unit written as a decimal number of metres has.
  const scale = Number((dbuMetres / 1e-9).toPrecision(12));
  const integralScale =
    Math.abs(scale - Math.round(scale)) < 1e-9 * scale && Math.round(scale) >= 1;
  if (!integralScale) {
    warnings.push(
      `The file's database unit is ${dbuMetres * 1e9} nm; coordinates were rounded to 1 nm.`,
    );
  }
  return integralScale ? Math.round(scale) : scale;
}

/** Warnings for the elements that were read but not drawn, or drawn other than written. */
function skippedElementWarnings(p: Parsed): string[] {
  const warnings: string[] = [];
  // Labels are kept (GdsLayout.labels) but never drawn; only a gds structure's `ports` uses them.
  if (p.textCount > 0) {
    warnings.push(
      `${p.textCount} TEXT element(s) read as labels, not drawn (a gds structure's ports can use them).`,
    );
  }
  if (p.nodeCount > 0) warnings.push(`${p.nodeCount} NODE element(s) ignored.`);
  if (p.absoluteWidthPaths > 0) {
    warnings.push(
      `${p.absoluteWidthPaths} PATH element(s) with absolute (negative) width were scaled like ordinary widths.`,
    );
  }
  return warnings;
}

/**
 * The flattened polygons per layer and the labels, in nm, as cells are placed, with the
 * polygons' count and box.
 */
class FlatLayers {
  readonly layers = new Map<string, Ring[]>();
  readonly labels: GdsLabel[] = [];
  polygonCount = 0;
  pointCount = 0;
  private xmin = Infinity;
  private ymin = Infinity;
  private xmax = -Infinity;
  private ymax = -Infinity;

  constructor(
    private readonly cells: ReadonlyMap<string, CellDef>,
    private readonly totals: ReadonlyMap<string, Totals>,
    private readonly nmPerDbu: number,
  ) {}

  /** Draws cell `name` and everything below it, transformed by `t` into the top cell's frame. */
  place(name: string, t: Affine): void {
    const cell = this.cells.get(name)!;
    for (const poly of cell.polygons) this.emit(poly.layer, poly.ring, t);
    for (const label of cell.labels) this.emitLabel(label, t);
    for (const ref of cell.refs) {
      const below = this.totals.get(ref.target)!;
      if (below.polygons === 0 && below.labels === 0) continue;
      for (let r = 0; r < ref.rows; r += 1) {
        for (let c = 0; c < ref.columns; c += 1) {
          const ox = ref.x + c * ref.colDx + r * ref.rowDx;
          const oy = ref.y + c * ref.colDy + r * ref.rowDy;
          this.place(ref.target, {
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
  }

  bbox(): BoxNm | null {
    return this.xmin === Infinity ? null : [this.xmin, this.ymin, this.xmax, this.ymax];
  }

  /** Adds one label, its point transformed and rounded exactly as a polygon's vertex is. */
  private emitLabel(label: CellLabel, t: Affine): void {
    const x = Math.round((t.a * label.x + t.b * label.y + t.tx) * this.nmPerDbu);
    const y = Math.round((t.c * label.x + t.d * label.y + t.ty) * this.nmPerDbu);
    if (!(Math.abs(x) <= 2147483647 && Math.abs(y) <= 2147483647)) {
      throw overflow(`A ${label.layer}/${label.texttype} label is`, x, y);
    }
    // `| 0` turns a rotation's −0 into 0 (the polygons' Int32Arrays do the same).
    this.labels.push({
      layer: label.layer,
      texttype: label.texttype,
      text: label.text,
      x: x | 0,
      y: y | 0,
    });
  }

  /** Adds one polygon, its vertices transformed by `t` and rounded to the nanometre. */
  private emit(layer: string, ring: Float64Array, t: Affine): void {
    const out = new Int32Array(ring.length);
    for (let i = 0; i < ring.length; i += 2) {
      const x = ring[i]!;
      const y = ring[i + 1]!;
      const fx = Math.round((t.a * x + t.b * y + t.tx) * this.nmPerDbu);
      const fy = Math.round((t.c * x + t.d * y + t.ty) * this.nmPerDbu);
      if (!(Math.abs(fx) <= 2147483647 && Math.abs(fy) <= 2147483647)) {
        throw overflow(`A ${layer} polygon has a vertex`, fx, fy);
      }
      out[i] = fx;
      out[i + 1] = fy;
      if (fx < this.xmin) this.xmin = fx;
      if (fx > this.xmax) this.xmax = fx;
      if (fy < this.ymin) this.ymin = fy;
      if (fy > this.ymax) this.ymax = fy;
    }
    let list = this.layers.get(layer);
    if (!list) {
      list = [];
      this.layers.set(layer, list);
    }
    list.push(out);
    this.polygonCount += 1;
    this.pointCount += ring.length / 2;
  }
}

function overflow(what: string, x: number, y: number): GdsError {
  return new GdsError(
    "coordinate_overflow",
    `${what} at (${x}, ${y}) nm after flattening, outside the 32-bit coordinate range.`,
  );
}
