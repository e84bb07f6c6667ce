/**
 * Extending a layout's labelled guide ends through the absorber (a gds structure's
 * `ports.extension`). In a layout the guide ends at its port label; an S-parameter run needs
 * the guide to go on through the port's plane and the absorber to the domain's edge, or its
 * end face reflects. gdsfactory's simulation plugins extend the ports before simulating; so
 * does this, on the merged outlines (gds-import.ts) before they become polyslabs.
 *
 * Each end gets a rectangle as wide as its end face (the port's edge), running straight
 * outward, and the rectangles are merged into the waveguide layer's polygons
 * (geometry/merge.ts), not added as polyslabs of their own: two abutting polyslabs of one
 * material smooth their shared face twice (each paints the face's cells half full, the second
 * over the first, so those cells get 3/4 of the core's contrast: ε 3.25 for a core of 4 in 1,
 * measured with buildMedium, where one continuous guide gives 4). Merged, the end face is no
 * edge at all, so the guide's permittivity, its smoothing and a sidewall angle run on through
 * the join as if the guide had been drawn long. Manhattan coordinates merge exactly, so the
 * join moves nothing.
 *
 * The solver extrudes a polyslab that reaches a face of the region of interest through the
 * absorber beyond it (solver/geometry.ts); the default extension reaches past the outermost
 * absorber cell anyway, so it does not lean on that, and works on any boundary.
 */
import type { FieldError } from "../errors.js";
import {
  DEFAULTS,
  GDS_PORT_EXTENSION_BEYOND_DOMAIN_M,
  type GdsStructureSpec,
  type SimulationRequest,
} from "../schema/simulation.js";
import { mergePolygons } from "./geometry/merge.js";
import { rectangleRing, ringsBox, type BoxNm, type Ring } from "./geometry/polygon.js";
import { layerKey, polygonsOfLoops, type ImportedLayers } from "./gds-import.js";
import type { PortEnd } from "./gds-ports.js";

const NM = 1e-9;

/** The merge's coordinates are int32; a rectangle's far end is held inside them. */
const INT32_MAX = 2 ** 31 - 1;

type DomainRequest = SimulationRequest["domain"];

/** One end's extension: the rectangle beyond its end face, integer nm. */
export interface PortExtension {
  name: string;
  lengthNm: number;
  ring: Ring;
}

/**
 * How far (nm) the end must run outward to pass the domain's outermost cell, absorber
 * included, by GDS_PORT_EXTENSION_BEYOND_DOMAIN_M; 0 when it is already past. `offset` is the
 * structure's (metres).
 */
export function reachBeyondDomainNm(
  end: PortEnd,
  offset: readonly [number, number],
  domain: DomainRequest,
): number {
  const axis = end.direction.endsWith("x") ? 0 : 1;
  // "+x": the device lies at larger x, so its end runs out towards −x.
  const outward = end.direction.startsWith("+") ? -1 : 1;
  const faceNm = axis === 0 ? end.x1 : end.y1;
  const faceM = faceNm * NM + offset[axis];
  const boundary = domain.boundary_conditions?.[axis] ?? DEFAULTS.domain.boundary_conditions[axis];
  const absorberM =
    boundary === "pml" ? (domain.pml_layers ?? DEFAULTS.domain.pml_layers) * domain.resolution : 0;
  // The region of interest is size/2 either side of the origin, moved out by less than a step
  // where planGrid rounds it to whole cells; the absorber's cells are at most `resolution` long.
  const edgeM = domain.size[axis] / 2 + domain.resolution + absorberM;
  const reachM = edgeM + GDS_PORT_EXTENSION_BEYOND_DOMAIN_M - outward * faceM;
  // Whole nm, up (less a hair, so that 2.36e-6 / 1e-9 = 2360.0000000000005 is 2360).
  return Math.max(0, Math.ceil(reachM / NM - 1e-6));
}

/**
 * The rectangle continuing `end` outward by `lengthNm`: the end face is one of its sides, so
 * the two share that edge exactly. Its far side is held within the int32 coordinates.
 */
export function extensionRectangle(end: PortEnd, lengthNm: number): Ring {
  const clamp = (v: number) => Math.max(-INT32_MAX, Math.min(INT32_MAX, v));
  const [ylo, yhi] = [Math.min(end.y1, end.y2), Math.max(end.y1, end.y2)];
  const [xlo, xhi] = [Math.min(end.x1, end.x2), Math.max(end.x1, end.x2)];
  switch (end.direction) {
    case "+x":
      return rectangleRing(clamp(end.x1 - lengthNm), ylo, end.x1, yhi);
    case "-x":
      return rectangleRing(end.x1, ylo, clamp(end.x1 + lengthNm), yhi);
    case "+y":
      return rectangleRing(xlo, clamp(end.y1 - lengthNm), xhi, end.y1);
    case "-y":
      return rectangleRing(xlo, end.y1, xhi, clamp(end.y1 + lengthNm));
  }
}

/**
 * The extensions of a structure's labelled ends: `ports.extension` metres (rounded to whole
 * nm) or, by default, past the domain's outermost cell; never further than that (nothing
 * beyond is simulated). Ends already past it, and `extension: 0`, get none.
 */
export function portExtensions(
  s: GdsStructureSpec,
  ends: readonly PortEnd[],
  domain: DomainRequest,
): PortExtension[] {
  const requested = s.ports?.extension;
  if (requested === 0) return [];
  const wantedNm = requested === undefined ? Infinity : Math.max(1, Math.round(requested / NM));
  const out: PortExtension[] = [];
  for (const end of ends) {
    const lengthNm = Math.min(wantedNm, reachBeyondDomainNm(end, s.offset ?? [0, 0], domain));
    if (lengthNm > 0)
      out.push({ name: end.name, lengthNm, ring: extensionRectangle(end, lengthNm) });
  }
  return out;
}

/**
 * `imported` with the extensions merged into the polygons of the structure's waveguide layer
 * (`ports.waveguide_layer`), or the error that refuses an extension crossing a hole (the
 * merge takes outlines only; a hole that an extension would partly fill is not cut here).
 * Only the polygons an extension touches are merged again; the others are kept as they are.
 */
export function withPortExtensions(
  s: GdsStructureSpec,
  imported: ImportedLayers,
  extensions: readonly PortExtension[],
  path: string,
): { imported: ImportedLayers } | { errors: FieldError[] } {
  if (extensions.length === 0) return { imported };
  const guide = s.layers[s.ports?.waveguide_layer ?? 0]!;
  const key = layerKey(guide.layer, guide.datatype);
  const polygons = imported.layers[key] ?? [];
  const boxes = extensions.map((e) => ringsBox([e.ring])!);
  const touched: typeof polygons = [];
  const kept: typeof polygons = [];
  for (const p of polygons) {
    const box = ringsBox([p.outline]);
    (box && boxes.some((b) => boxesMeet(box, b)) ? touched : kept).push(p);
  }
  const errors: FieldError[] = [];
  for (const [i, e] of extensions.entries()) {
    const crossed = touched.some((p) => p.holes.some((h) => overlapArea(h, boxes[i]!) > 0.5));
    if (crossed) {
      errors.push({
        path: `${path}.ports.extension`,
        message: `the extension of the port ${JSON.stringify(e.name)} (${e.lengthNm / 1000} µm) crosses a hole of layer ${key}'s merged outline; give a shorter extension, or 0 and extend the guide with a structure of its own`,
      });
    }
  }
  if (errors.length > 0) return { errors };
  const merged = mergePolygons([
    ...touched.map((p) => p.outline),
    ...extensions.map((e) => e.ring),
  ]);
  const extended = polygonsOfLoops([...merged.loops, ...touched.flatMap((p) => p.holes)]);
  return {
    imported: { ...imported, layers: { ...imported.layers, [key]: [...kept, ...extended] } },
  };
}

/** Whether two closed boxes meet (touching counts: an extension abuts its guide). */
function boxesMeet(a: BoxNm, b: BoxNm): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/**
 * The area (nm²) of a ring's interior inside a box: the ring clipped by the box's four
 * half-planes (Sutherland–Hodgman, exact in area for any simple ring against a convex window).
 */
function overlapArea(ring: ArrayLike<number>, box: BoxNm): number {
  let pts: Array<[number, number]> = [];
  for (let i = 0; i < ring.length; i += 2) pts.push([ring[i]!, ring[i + 1]!]);
  const planes: Array<[0 | 1, number, 1 | -1]> = [
    [0, box[0], 1],
    [0, box[2], -1],
    [1, box[1], 1],
    [1, box[3], -1],
  ];
  for (const [axis, at, keep] of planes) {
    const inside = (p: [number, number]) => keep * (p[axis] - at) >= 0;
    const out: Array<[number, number]> = [];
    for (let i = 0; i < pts.length; i += 1) {
      const a = pts[i]!;
      const b = pts[(i + 1) % pts.length]!;
      if (inside(a)) out.push(a);
      if (inside(a) !== inside(b)) {
        const t = (at - a[axis]) / (b[axis] - a[axis]);
        out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
      }
    }
    pts = out;
    if (pts.length < 3) return 0;
  }
  let area2 = 0;
  for (let i = 0; i < pts.length; i += 1) {
    const [x1, y1] = pts[i]!;
    const [x2, y2] = pts[(i + 1) % pts.length]!;
    area2 += x1 * y2 - x2 * y1;
  }
  return Math.abs(area2) / 2;
}
