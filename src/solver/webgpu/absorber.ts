/**
 * The CPML absorber of the `webgpu` backend, applied inside the bulk passes: where a cell of
 * component c lies in an absorber slab along one of its curl's two derivative axes d, the
 * bulk update also steps that slab's ψ (cpml.ts: ψ ← b·ψ + (c/step)·ΔF, ΔF the difference the
 * curl already took) and adds its correction to the updated value, in axis order x, y, z,
 * after the curl: the reference backend's sums in its order (bulk update, then one slab pass
 * per slab in axis order).
 *
 * ψ lives only in the slabs: per slab four arrays over its nodes (E pair 0, E pair 1, H pair
 * 0, H pair 1; pair 0 targets component (d+2) mod 3, pair 1 component (d+1) mod 3, as in
 * cpml.ts createCpmlSlabs), slab after slab behind the small tables in one "aux" buffer per
 * field set, so that the fused E update binds eight storage buffers (six fields, the indices,
 * aux), the core WebGPU limit.
 *
 * Bytes this moves per absorber cell and half step: ψ of two components read and written
 * (16 B); the slab passes it replaces also re-read and re-wrote the two targets and re-read
 * two sources (a further 24–28 B) and cost six dispatches per half step.
 */
import type { YeeLayout } from "../grid.js";
import type { TableOffsets } from "./tables.js";

/** One absorber slab: axis, node range a0…a1 along it, strides and size of its local arrays. */
export interface AbsorberSlab {
  axis: number;
  /** On the axis's low face (nodes 0…a1) or its high face (a0…n). */
  low: boolean;
  a0: number;
  a1: number;
  /** Local strides along x and y (z is 1): the padded grid's with the axis cut to a1 − a0 + 1. */
  strides: [number, number];
  /** Nodes of the slab (one ψ array's length). */
  size: number;
  /** Offset (f32 words) of its first ψ array in the aux buffer. */
  psi: number;
}

/** The absorber's slabs and the ψ words they take. */
export interface AbsorberPlan {
  slabs: AbsorberSlab[];
  /** ψ words of every slab (four arrays each). */
  psiWords: number;
}

/** Absorber cells on the low and high face of each axis. */
export type AbsorberLayers = readonly { lo: number; hi: number }[];

/** The slabs of an absorber of `layers` on `layout`, their ψ placed from word `start` on. */
export function planAbsorber(
  layout: YeeLayout,
  layers: AbsorberLayers,
  start: number,
): AbsorberPlan {
  const padded = layout.padded;
  const slabs: AbsorberSlab[] = [];
  let at = start;
  for (let a = 0; a < 3; a++) {
    const faces: [number, number, boolean][] = [];
    if (layers[a].lo > 0) faces.push([0, layers[a].lo, true]);
    if (layers[a].hi > 0) faces.push([layout.n[a] - layers[a].hi, layout.n[a], false]);
    for (const [a0, a1, low] of faces) {
      const dims = [padded[0], padded[1], padded[2]];
      dims[a] = a1 - a0 + 1;
      const size = dims[0] * dims[1] * dims[2];
      slabs.push({ axis: a, low, a0, a1, strides: [dims[1] * dims[2], dims[2]], size, psi: at });
      at += 4 * size;
    }
  }
  return { slabs, psiWords: at - start };
}

/** ψ bytes of an absorber (for the memory estimate). */
export function absorberBytes(layout: YeeLayout, layers: AbsorberLayers): number {
  return 4 * planAbsorber(layout, layers, 0).psiWords;
}

/** Node-and-half-step visits of the absorber's cells per time step, for the byte count. */
export function absorberNodes(plan: AbsorberPlan): number {
  return plan.slabs.reduce((sum, s) => sum + s.size, 0);
}

/** What one component's update needs to know to apply the absorber (absorberCorrections). */
export interface CorrectionTerm {
  /** The derivative axis and the WGSL name of the raw difference ΔF along it. */
  axis: number;
  diff: string;
  /** +1 where the difference enters the curl with a plus sign (axis c+1), −1 for c+2. */
  sign: 1 | -1;
}

const COORD = ["i", "j", "k"] as const;

/** The WGSL statement that keeps ψ's new value `w` at aux index `at`. */
export type PsiStore = (at: string, w: string) => string;

/**
 * WGSL statements adding the absorber's corrections to `v`, the updated value of component
 * `comp` (0–2) of H or E, for its curl's two derivative axes in x, y, z order. `scale` is the
 * WGSL expression the correction is multiplied by for a plus-sign term (E: cb; H: −dt/μ0).
 * ψ is read from `aux` and kept by `psiStore(at, w)` (default: back into `aux`; the fused
 * step, fused-step.ts, keeps it in the other copy).
 */
export function absorberCorrections(
  plan: AbsorberPlan,
  tables: TableOffsets,
  kind: "H" | "E",
  comp: number,
  terms: readonly CorrectionTerm[],
  scale: string,
  psiStore: PsiStore = (at, w) => `aux[${at}] = ${w};`,
): string {
  const out: string[] = [];
  for (const term of [...terms].sort((x, y) => x.axis - y.axis)) {
    const slabs = plan.slabs.filter((s) => s.axis === term.axis);
    if (slabs.length === 0) continue;
    // Pair 0 targets component (d+2) mod 3, pair 1 component (d+1) mod 3; E's pairs come first.
    const pair = comp === (term.axis + 2) % 3 ? 0 : 1;
    const array = (kind === "E" ? 0 : 2) + pair;
    const x = COORD[term.axis];
    const b = kind === "E" ? tables.bNode[term.axis] : tables.bHalf[term.axis];
    const ct = kind === "E" ? tables.ctNode[term.axis] : tables.ctHalf[term.axis];
    const branches = slabs.map((s) => {
      const test = s.low ? `${x} <= ${s.a1}i` : `${x} >= ${s.a0}i`;
      const local = COORD.map((name, a) =>
        a === term.axis ? `u32(${name} - ${s.a0}i)` : `u32(${name} + 1)`,
      );
      const q = `${local[0]} * ${s.strides[0]}u + ${local[1]} * ${s.strides[1]}u + ${local[2]}`;
      return `if (${test}) {
      let ct = aux[${ct}u + u32(${x})];
      if (ct != 0.0) {
        let at = ${s.psi + array * s.size}u + ${q};
        let w = aux[${b}u + u32(${x})] * aux[at] + ct * ${term.diff};
        ${psiStore("at", "w")}
        v = v + ${term.sign === 1 ? "" : "-"}(${scale}) * w;
      }
    }`;
    });
    // Separate tests, not else-if: on a grid thin enough for two slabs to share a node, both
    // apply there, as the reference backend's slab passes do.
    out.push(...branches.map((b) => `    ${b}`));
  }
  return out.join("\n");
}
