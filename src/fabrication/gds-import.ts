/**
 * Import of GDS II layers as simulation structures: a request's `type: "gds"` entry is
 * replaced, on submission, by one polyslab per merged polygon of each mapped layer, so the
 * stored job holds only polyslabs and a worker needs nothing but the job record.
 *
 * Each layer's polygons are merged first (geometry/merge.ts): abutting or overlapping shapes
 * become one outline, and "keyhole" polygons (a hole joined to its outline by a zero-width
 * cut, as GDS II writers store holes) become an outline with a hole. Painting abutting
 * polygons separately would double-count their shared boundary cells in the smoothing (two
 * half-filled cubes paint 3/4 of the material, not all of it).
 *
 * Coordinates: the reader converts the file's database units to integer nanometres (a file
 * with a sub-nanometre database unit is rounded to 1 nm, with a warning); here they become
 * metres, plus the structure's `offset`.
 */
import type { FieldError } from "../errors.js";
import type { GdsStructureSpec } from "../schema/simulation.js";
import { MAX_POLYSLAB_VERTICES, type PolySlabSpec } from "../solver/index.js";
import type { GdsLayout } from "./gds/reader.js";
import { mergePolygons } from "./geometry/merge.js";
import { ringArea2, type Ring } from "./geometry/polygon.js";

/** One merged polygon: its outline and holes, integer nm, first vertex not repeated. */
export interface ImportedPolygon {
  outline: Ring;
  holes: Ring[];
}

export interface ImportedLayers {
  /** Merged polygons per requested layer key "L/D" (absent: no shapes on it). */
  layers: Record<string, ImportedPolygon[]>;
  /** Every layer key of the flattened cell(s), for messages. */
  available: string[];
  warnings: string[];
}

/** Layer key "layer/datatype" as the reader names it. */
export function layerKey(layer: number, datatype = 0): string {
  return `${layer}/${datatype}`;
}

function crossingInside(ring: ArrayLike<number>, x: number, y: number): boolean {
  const n = ring.length >> 1;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const yi = ring[2 * i + 1]!;
    const yj = ring[2 * j + 1]!;
    if (yi > y !== yj > y) {
      const xc = ring[2 * i]! + ((y - yi) * (ring[2 * j]! - ring[2 * i]!)) / (yj - yi);
      if (x < xc) inside = !inside;
    }
  }
  return inside;
}

/**
 * Merges the requested layers of a flattened layout into outlines with holes. Merged loops
 * have the interior on their right: outlines run clockwise (negative area), holes
 * counter-clockwise. Outlines of one merged polygon that touch at a corner are kept apart (each
 * its own polyslab), and each hole goes with the outline that contains it.
 */
export function mergeLayers(layout: GdsLayout, keys: readonly string[]): ImportedLayers {
  const layers: Record<string, ImportedPolygon[]> = {};
  for (const key of new Set(keys)) {
    const rings = layout.layers.get(key);
    if (!rings || rings.length === 0) continue;
    layers[key] = polygonsOfLoops(mergePolygons(rings).loops);
  }
  return { layers, available: [...layout.layers.keys()], warnings: layout.warnings };
}

/**
 * Merged loops (interior on the right: outlines clockwise, holes counter-clockwise) as
 * polygons: every outline its own, each hole with the innermost outline around it.
 */
export function polygonsOfLoops(loops: readonly Ring[]): ImportedPolygon[] {
  const outlines: Ring[] = [];
  const holes: Ring[] = [];
  for (const loop of loops) (ringArea2(loop) < 0 ? outlines : holes).push(loop);
  // Smallest outline first, so that a hole goes to the innermost outline around it.
  outlines.sort((a, b) => Math.abs(ringArea2(a)) - Math.abs(ringArea2(b)));
  const polygons: ImportedPolygon[] = outlines.map((outline) => ({ outline, holes: [] }));
  for (const hole of holes) {
    // A point just inside the hole's first edge, off the vertex (which an outline may touch).
    const x = (hole[0]! + hole[2]!) / 2;
    const y = (hole[1]! + hole[3]!) / 2;
    const owner = polygons.find((p) => crossingInside(p.outline, x, y));
    (owner ?? polygons[polygons.length - 1])?.holes.push(hole);
  }
  return polygons;
}

const NM = 1e-9;

function toMetres(ring: Ring, dx: number, dy: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < ring.length; i += 2) out.push([ring[i]! * NM + dx, ring[i + 1]! * NM + dy]);
  return out;
}

/**
 * The polyslabs a gds structure expands to (layers in the order given), or the field errors
 * that refuse it. `path` names the structure (e.g. "structures[2]"); `maxPolyslabs` bounds the
 * expansion (the request's structure limit less the other structures).
 */
export function polyslabsFromGds(
  s: GdsStructureSpec,
  imported: ImportedLayers,
  path: string,
  maxPolyslabs: number,
): { structures: PolySlabSpec[] } | { errors: FieldError[] } {
  const errs: FieldError[] = [];
  const out: PolySlabSpec[] = [];
  const [dx, dy] = s.offset ?? [0, 0];
  s.layers.forEach((l, j) => {
    const key = layerKey(l.layer, l.datatype);
    const polygons = imported.layers[key];
    if (!polygons || polygons.length === 0) {
      const have = imported.available.length > 0 ? imported.available.join(", ") : "none";
      errs.push({
        path: `${path}.layers[${j}]`,
        message: `the layout has no shapes on layer ${key} (its layers: ${have})`,
      });
      return;
    }
    for (const p of polygons) {
      const vertices = (p.outline.length + p.holes.reduce((n, h) => n + h.length, 0)) >> 1;
      if (vertices > MAX_POLYSLAB_VERTICES) {
        errs.push({
          path: `${path}.layers[${j}]`,
          message: `a merged polygon on layer ${key} has ${vertices} vertices (holes included); at most ${MAX_POLYSLAB_VERTICES} are allowed per polygon`,
        });
        return;
      }
      out.push({
        type: "polyslab",
        vertices: toMetres(p.outline, dx, dy),
        ...(p.holes.length > 0 ? { holes: p.holes.map((h) => toMetres(h, dx, dy)) } : {}),
        z_min: l.z_min,
        z_max: l.z_max,
        sidewall_angle_deg: l.sidewall_angle_deg ?? 0,
        material: l.material,
      });
    }
  });
  if (errs.length === 0 && out.length > maxPolyslabs) {
    errs.push({
      path,
      message: `the mapped layers hold ${out.length} merged polygons; at most ${maxPolyslabs} fit in this request (1000 structures in all)`,
    });
  }
  return errs.length > 0 ? { errors: errs } : { structures: out };
}
