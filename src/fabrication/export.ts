/**
 * Export of a simulation's structures as GDS II: the structures are cut by a horizontal plane,
 * the cuts drawn on the GDS layer their material maps to, coordinates in the job's frame (the
 * domain is centred on the origin) snapped to a grid, database unit 1 nm (DESIGN.md §9).
 *
 * - Cut plane: by default each structure is cut at the centre of its own z extent (so every
 *   structure appears, whatever its height); with `zUm`, all are cut at that z and structures
 *   the plane misses are skipped (listed). A plane touching a face counts as cutting.
 * - Boxes give rectangles; spheres give circles of radius √(r² − (z − zc)²); z-axis cylinders
 *   give circles, x- and y-axis cylinders give rectangles (their cut by a horizontal plane);
 *   polyslabs give their outline at the cut plane (offset inward by the sidewall angle from
 *   the bottom outline); a polyslab with holes is skipped (GDS II cannot hold holes).
 * - Circles are inscribed polygons whose chords deviate from the circle by at most
 *   `maxSagittaNm` (default half the grid step, at least 0.5 nm) before snapping; each vertex is
 *   then snapped to the grid, moving it by at most half a grid step per axis.
 * - Materials without a mapping are left out and listed; a shape thinner than the grid after
 *   snapping is skipped and listed.
 * - A shape reaching past what GDS II's 32-bit coordinates hold (±2.147 m in 1 nm units; an
 *   "infinite" guide or cladding drawn 10 m long) is cut to the domain (`domainHalfUm`) and
 *   listed in `clipped`, or, with no domain given, skipped and listed: never wrapped.
 * - `bbox_um` is [xmin, ymin, xmax, ymax] of everything exported, µm; `bounding_box_um` is its
 *   [width, height].
 */

import { findMaterial, polySlabOutlineAt, type StructureSpec } from "../solver/index.js";
import { compareLayerKeys } from "./drc/run.js";
import { writeGds } from "./gds/writer.js";
import { circleRing, snap } from "./geometry/circle.js";
import { mergePolygons } from "./geometry/merge.js";
import { clipHalfPoints } from "./geometry/split.js";
import { ringsBox, type Ring } from "./geometry/polygon.js";

export type ExportStructure = StructureSpec;

export interface GdsLayerTarget {
  layer: number;
  datatype: number;
}

export interface ExportOptions {
  structures: readonly ExportStructure[];
  /** Material name (canonical or alias, any case) → GDS layer. */
  layerMapping: Readonly<Record<string, GdsLayerTarget>>;
  /** Grid the coordinates snap to, whole nanometres ≥ 1. */
  gridResolutionNm: number;
  /** Cut plane height in µm; default: the centre of each structure's z extent. */
  zUm?: number;
  /** Top cell name, e.g. JOB_<first 8 of the job id>. */
  cellName: string;
  /** Largest chord-to-arc gap of circle polygons before snapping, nm. */
  maxSagittaNm?: number;
  /** Stamp for the file's BGNLIB/BGNSTR (default now). */
  modified?: Date;
  /** The domain's half extents along x and y (µm, centred on the origin), to cut huge shapes to. */
  domainHalfUm?: [number, number];
}

export interface ExportedLayer {
  layer: number;
  datatype: number;
  /** "layer/datatype". */
  key: string;
  /** Materials drawn on this layer. */
  materials: string[];
  /** Elements written on this layer. */
  polygon_count: number;
  /** Shapes after merging overlaps and abutments. */
  merged_polygon_count: number;
}

export interface ExportResult {
  bytes: Uint8Array;
  layers: ExportedLayer[];
  /** [width, height] of everything exported, µm. */
  bounding_box_um: [number, number];
  /** [xmin, ymin, xmax, ymax] of everything exported, µm; null when nothing was exported. */
  bbox_um: [number, number, number, number] | null;
  /** BOUNDARY elements written. */
  polygon_count: number;
  merged_polygon_count: number;
  /** Materials of the structures that have no mapping (left out). */
  unmapped_materials: string[];
  /** Structures not exported, by index, with the reason. */
  skipped: Array<{ index: number; reason: string }>;
  /** Structures exported cut to the domain, by index, with the reason. */
  clipped: Array<{ index: number; reason: string }>;
  grid_resolution_nm: number;
  max_sagitta_nm: number;
  /** The cut plane used: a number (µm) or "centre of each structure". */
  cut_plane: number | "structure_centre";
}

/** Invalid export input; `path` names the field (for a 422 with `errors`). */
export class ExportInputError extends Error {
  override name = "ExportInputError";
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const M_TO_NM = 1e9;

function canonicalMaterial(name: string): string {
  return findMaterial(name)?.name ?? name.trim().toLowerCase();
}

/** Exports the structures' cut as GDS II. Throws {@link ExportInputError} for bad options. */
export function exportGds(options: ExportOptions): ExportResult {
  const grid = checkedGrid(options);
  const sagitta = options.maxSagittaNm ?? Math.max(0.5, grid / 2);
  const mapping = checkedLayerMapping(options.layerMapping);
  const { byLayer, unmapped, skipped, clipped } = cutStructures(options, mapping, grid, sagitta);
  if (
    options.structures.length > 0 &&
    options.structures.every((st) => unmapped.has(st.material))
  ) {
    // Every structure left out: a misspelt mapping, not a wish for an empty layout.
    throw new ExportInputError(
      "layer_mapping",
      `maps none of the job's materials (${[...unmapped].sort().join(", ")})`,
    );
  }

  const keys = [...byLayer.keys()].sort(compareLayerKeys);
  const cuts = keys.map((k) => byLayer.get(k)!);
  const written = writeGds({
    cellName: options.cellName,
    modified: options.modified,
    layers: cuts.map((c) => ({
      layer: c.target.layer,
      datatype: c.target.datatype,
      polygons: c.rings,
    })),
  });
  const layers = keys.map((k, li) => exportedLayer(k, cuts[li]!, written.elementsPerLayer[li]!));
  const box = ringsBox(cuts.flatMap((c) => c.rings));
  const um = (nm: number): number => nm / 1000;
  const bbox: [number, number, number, number] | null = box
    ? [um(box[0]), um(box[1]), um(box[2]), um(box[3])]
    : null;
  return {
    bytes: written.bytes,
    layers,
    bounding_box_um: box ? [um(box[2] - box[0]), um(box[3] - box[1])] : [0, 0],
    bbox_um: bbox,
    polygon_count: written.elementCount,
    merged_polygon_count: layers.reduce((sum, l) => sum + l.merged_polygon_count, 0),
    unmapped_materials: [...unmapped].sort(),
    skipped,
    clipped,
    grid_resolution_nm: grid,
    max_sagitta_nm: sagitta,
    cut_plane: options.zUm ?? "structure_centre",
  };
}

/** The grid step, after checking it and the cut plane's height. */
function checkedGrid(options: ExportOptions): number {
  const grid = options.gridResolutionNm;
  if (!Number.isInteger(grid) || grid < 1 || grid > 10_000) {
    throw new ExportInputError(
      "grid_resolution_nm",
      "must be a whole number of nanometres between 1 and 10000",
    );
  }
  if (options.zUm !== undefined && !Number.isFinite(options.zUm)) {
    throw new ExportInputError("z_um", "must be a finite number");
  }
  return grid;
}

interface MappedMaterial {
  target: GdsLayerTarget;
  /** The material as the mapping spells it. */
  name: string;
}

/** The layer mapping by canonical material name, after checking every layer number. */
function checkedLayerMapping(
  layerMapping: ExportOptions["layerMapping"],
): Map<string, MappedMaterial> {
  const mapping = new Map<string, MappedMaterial>();
  for (const [material, target] of Object.entries(layerMapping)) {
    for (const [field, v] of [
      ["layer", target.layer],
      ["datatype", target.datatype],
    ] as const) {
      if (!Number.isInteger(v) || v < 0 || v > 32767) {
        throw new ExportInputError(
          `layer_mapping.${material}.${field}`,
          "must be an integer in 0…32767",
        );
      }
    }
    mapping.set(canonicalMaterial(material), { target, name: material });
  }
  return mapping;
}

/** The cuts drawn on one GDS layer. */
interface LayerCuts {
  target: GdsLayerTarget;
  rings: Ring[];
  materials: Set<string>;
}

/** Cuts every mapped structure and sorts the cuts by layer; lists what was left out, and why. */
function cutStructures(
  options: ExportOptions,
  mapping: ReadonlyMap<string, MappedMaterial>,
  grid: number,
  sagitta: number,
): {
  byLayer: Map<string, LayerCuts>;
  unmapped: Set<string>;
  skipped: Array<{ index: number; reason: string }>;
  clipped: Array<{ index: number; reason: string }>;
} {
  const zCutNm = options.zUm === undefined ? undefined : options.zUm * 1000;
  const byLayer = new Map<string, LayerCuts>();
  const unmapped = new Set<string>();
  const skipped: Array<{ index: number; reason: string }> = [];
  const clipped: Array<{ index: number; reason: string }> = [];
  const s = (vNm: number): number => snap(vNm, grid);

  options.structures.forEach((structure, index) => {
    const mapped = mapping.get(canonicalMaterial(structure.material));
    if (!mapped) {
      unmapped.add(structure.material);
      return;
    }
    const cut = cutStructure(structure, zCutNm, sagitta, grid, s);
    const fitted = typeof cut === "string" ? cut : fitToGds(cut, options.domainHalfUm, s);
    if (typeof fitted === "string") {
      skipped.push({ index, reason: fitted });
      return;
    }
    if (fitted.clipped) clipped.push({ index, reason: fitted.clipped });
    const key = `${mapped.target.layer}/${mapped.target.datatype}`;
    let entry = byLayer.get(key);
    if (!entry) {
      entry = { target: mapped.target, rings: [], materials: new Set() };
      byLayer.set(key, entry);
    }
    entry.rings.push(fitted.ring);
    entry.materials.add(structure.material);
  });
  return { byLayer, unmapped, skipped, clipped };
}

/** The largest coordinate a GDS II XY record holds (signed 32-bit, here in nm). */
const GDS_LIMIT_NM = 2 ** 31 - 1;
const PAST_GDS = "reaches past what GDS II holds (±2.147 m in 1 nm units)";

/**
 * A cut as the file's ring: as it is where GDS II holds it, else cut to the domain (snapped
 * to the grid by `s`), else the reason it is left out.
 */
function fitToGds(
  cut: number[],
  domainHalfUm: [number, number] | undefined,
  s: (vNm: number) => number,
): { ring: Ring; clipped: string | null } | string {
  if (cut.every((v) => Math.abs(v) <= GDS_LIMIT_NM)) {
    return { ring: Int32Array.from(cut), clipped: null };
  }

  if (!domainHalfUm) return PAST_GDS;
  const [hx, hy] = domainHalfUm.map((h) => s(h * 1000)) as [number, number];
  let ring = cut;
  for (const [axis, edge, upper] of [
    [0, -hx, true],
    [0, hx, false],
    [1, -hy, true],
    [1, hy, false],
  ] as const) {
    ring = clipHalfPoints(ring, axis, edge, upper, s);
  }
  if (ring.length < 6) return `${PAST_GDS}, and misses the domain`;
  const extent = `±${hx / 1000} × ±${hy / 1000} µm`;
  return { ring: Int32Array.from(ring), clipped: `${PAST_GDS}: cut to the domain, ${extent}` };
}

/** A layer's line in the result; `written` is the number of elements the writer wrote on it. */
function exportedLayer(key: string, cuts: LayerCuts, written: number): ExportedLayer {
  return {
    layer: cuts.target.layer,
    datatype: cuts.target.datatype,
    key,
    materials: [...cuts.materials].sort(),
    polygon_count: written,
    merged_polygon_count: mergePolygons(cuts.rings).polygonCount,
  };
}

/** The structure's cut as a flat ring in nm (not yet fitted to GDS II), or why it has none. */
function cutStructure(
  st: ExportStructure,
  zCutNm: number | undefined,
  sagitta: number,
  grid: number,
  s: (v: number) => number,
): number[] | string {
  const rect = (cx: number, cy: number, hx: number, hy: number): number[] | string => {
    const x0 = s(cx - hx);
    const x1 = s(cx + hx);
    const y0 = s(cy - hy);
    const y1 = s(cy + hy);
    if (x0 === x1 || y0 === y1) return `thinner than the ${grid} nm grid after snapping`;
    return [x0, y0, x1, y0, x1, y1, x0, y1];
  };
  const circle = (cx: number, cy: number, r: number): number[] | string => {
    // Its polygon is built in 32 bits: a circle past them is left out, not cut.
    if (Math.max(Math.abs(cx), Math.abs(cy)) + r > GDS_LIMIT_NM) {
      return PAST_GDS;
    }
    const ring = circleRing(cx, cy, r, sagitta, grid);
    return ring.length >= 6 ? Array.from(ring) : `smaller than the ${grid} nm grid after snapping`;
  };
  /** Distance of the plane from the extent's centre, or null when it misses [lo, hi]. */
  const offset = (loNm: number, hiNm: number): number | null => {
    const z = zCutNm ?? (loNm + hiNm) / 2;
    if (z < loNm || z > hiNm) return null;
    return z - (loNm + hiNm) / 2;
  };
  const missed = `not cut by the plane z = ${zCutNm === undefined ? "" : zCutNm / 1000} µm`;

  if (st.type === "polyslab") {
    if (offset(st.z_min * M_TO_NM, st.z_max * M_TO_NM) === null) return missed;
    if (st.holes && st.holes.length > 0) return "has holes, which GDS II cannot represent";
    const zM = (zCutNm ?? ((st.z_min + st.z_max) * M_TO_NM) / 2) / M_TO_NM;
    const out: number[] = [];
    for (const [x, y] of polySlabOutlineAt(st, zM)) {
      const px = s(x * M_TO_NM);
      const py = s(y * M_TO_NM);
      const n = out.length;
      if (n >= 2 && out[n - 2] === px && out[n - 1] === py) continue;
      out.push(px, py);
    }
    return out.length >= 6 ? out : `fewer than 3 distinct vertices after snapping`;
  }
  const [cx, cy, cz] = st.center.map((v) => v * M_TO_NM) as [number, number, number];
  if (st.type === "box") {
    const [sx, sy, sz] = st.size.map((v) => v * M_TO_NM) as [number, number, number];
    if (offset(cz - sz / 2, cz + sz / 2) === null) return missed;
    return rect(cx, cy, sx / 2, sy / 2);
  }
  const r = st.radius * M_TO_NM;
  if (st.type === "sphere") {
    const dz = offset(cz - r, cz + r);
    if (dz === null) return missed;
    const rc = Math.sqrt(Math.max(0, r * r - dz * dz));
    return rc > 0 ? circle(cx, cy, rc) : "touched by the plane at a single point";
  }
  const h = st.height * M_TO_NM;
  if (st.axis === "z") {
    if (offset(cz - h / 2, cz + h / 2) === null) return missed;
    return circle(cx, cy, r);
  }
  // Axis along x or y: the horizontal plane cuts a rectangle of half-width √(r² − dz²).
  const dz = offset(cz - r, cz + r);
  if (dz === null) return missed;
  const half = Math.sqrt(Math.max(0, r * r - dz * dz));
  if (half === 0) return "touched by the plane along a line";
  return st.axis === "x" ? rect(cx, cy, h / 2, half) : rect(cx, cy, half, h / 2);
}
