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
import type { TableOffsets } from "./shaders.js";

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

/** A component's absorber code in two parts: loads (hoisted before the updates) and updates. */
export interface AbsorberCode {
  loads: string[];
  updates: string;
}

const COORD = ["i", "j", "k"] as const;
const AXIS_NAMES = ["x", "y", "z"] as const;

/**
 * WGSL loads of the CPML profiles b and c/step at the thread's node along each axis with slabs
 * (`bx`, `ctx`, …; H's at half positions, E's at nodes), for every thread: unconditional, so
 * they are in flight with the field loads. Indices past an axis's profile read the next table's
 * words, which no update uses (only nodes in a slab do).
 */
export function absorberProfileLoads(
  plan: AbsorberPlan,
  tables: TableOffsets,
  kind: "H" | "E",
): string[] {
  const lines: string[] = [];
  for (let d = 0; d < 3; d++) {
    if (!plan.slabs.some((s) => s.axis === d)) continue;
    const b = kind === "E" ? tables.bNode[d] : tables.bHalf[d];
    const ct = kind === "E" ? tables.ctNode[d] : tables.ctHalf[d];
    lines.push(`  let b${AXIS_NAMES[d]} = aux[${b}u + u32(${COORD[d]})];`);
    lines.push(`  let ct${AXIS_NAMES[d]} = aux[${ct}u + u32(${COORD[d]})];`);
  }
  return lines;
}

/**
 * The absorber's code for component `comp` (0–2) of H or E: per derivative axis with slabs and
 * per slab, a load of ψ (from word 0, a table word, where the node is not in the slab: every
 * thread loads, and the loads are in flight with the field loads) and the update that steps ψ
 * and adds its correction to `v`, the component's updated value, in x, y, z order. `scale` is
 * the WGSL expression a plus-sign term's correction is multiplied by (E: cb; H: −dt/μ0).
 */
export function absorberCorrections(
  plan: AbsorberPlan,
  kind: "H" | "E",
  comp: number,
  terms: readonly CorrectionTerm[],
  scale: string,
): AbsorberCode {
  const loads: string[] = [];
  const updates: string[] = [];
  for (const term of [...terms].sort((x, y) => x.axis - y.axis)) {
    // Pair 0 targets component (d+2) mod 3, pair 1 component (d+1) mod 3; E's pairs come first.
    const pair = comp === (term.axis + 2) % 3 ? 0 : 1;
    const array = (kind === "E" ? 0 : 2) + pair;
    const x = COORD[term.axis];
    const name = AXIS_NAMES[term.axis];
    plan.slabs.forEach((s, n) => {
      if (s.axis !== term.axis) return;
      const test = s.low ? `${x} <= ${s.a1}i` : `${x} >= ${s.a0}i`;
      const local = COORD.map((c, a) =>
        a === term.axis ? `u32(${c} - ${s.a0}i)` : `u32(${c} + 1)`,
      );
      const q = `${local[0]} * ${s.strides[0]}u + ${local[1]} * ${s.strides[1]}u + ${local[2]}`;
      const at = `psiAt${comp}_${n}`;
      loads.push(`  let ${at} = select(0u, ${s.psi + array * s.size}u + ${q}, ${test});`);
      loads.push(`  let psi${comp}_${n} = aux[${at}];`);
      // Separate tests, not else-if: on a grid thin enough for two slabs to share a node, both
      // apply there, as the reference backend's slab passes do.
      updates.push(`    if (${test} && ct${name} != 0.0) {
      let w = b${name} * psi${comp}_${n} + ct${name} * ${term.diff};
      aux[${at}] = w;
      v = v + ${term.sign === 1 ? "" : "-"}(${scale}) * w;
    }`);
    });
  }
  return { loads, updates: updates.join("\n") };
}
