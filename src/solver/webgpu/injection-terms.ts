/**
 * The source's injection terms (sources/injection.ts) in the `webgpu` backend's bulk passes: a
 * term adds w·d to its component on its plane, d the step's drive value (re, im) and w the
 * term's complex weight per transverse cell. The bulk update of that component adds it to the
 * value it has just updated (curl, then CPML corrections), as the reference backend's separate
 * pass does after the bulk update: the same sums in the same order, with no pass of its own
 * (each cost a dispatch of a few µs per half step: 18 µs of a 128³ grid's 130 µs step on an
 * H200).
 *
 * The weights sit in the aux buffer of each field set behind the ψ arrays. Real runs: one
 * plane A = Re w per term, and the value gains A·re(d), one product added as the reference's
 * pass adds it (a form with a second, zero plane B·im(d) rounded differently: the vacuum flux
 * check's T − 1 on an H200 went from within 1e-5 to 1.2e-5). Bloch runs (two sets holding Re F
 * and Im F): planes A and B with the value gaining A·re(d) + B·im(d), A = Re w, B = −Im w in the
 * first set and A = Im w, B = Re w in the second, i.e. Re and Im of w·d. The drive values of a step come in a uniform
 * (group 1, one aligned slot per step of the batch, dynamic offset).
 */
import type { InjectionConfig, InjectionLayout } from "../sources/injection.js";

/** A term as the bulk passes see it. */
export interface GpuInjectionTerm {
  /** Component 0–5 (E then H), plane index along the config's axis, drive slot. */
  comp: number;
  plane: number;
  slot: number;
  /** Offset (f32 words in aux) of plane A; plane B (Bloch runs) follows at `weights + size`. */
  weights: number;
  size: number;
}

/** The terms of a run placed in aux from word `start` on (null: no source terms). */
export interface GpuInjection {
  axis: number;
  /** Two field sets (Bloch runs): planes A and B per term, else A alone. */
  complex: boolean;
  /** n + 2 along the second transverse axis (the weights' row length). */
  nv2: number;
  terms: GpuInjectionTerm[];
  /** Where the weight planes start in aux, and the words they take. */
  start: number;
  words: number;
}

/** Places a run's injection terms' weight planes in aux from word `start` on. */
export function planInjection(
  config: InjectionConfig | null | undefined,
  layout: InjectionLayout,
  start: number,
  complex: boolean,
): GpuInjection | null {
  if (!config) return null;
  const v = (config.axis + 2) % 3;
  let at = start;
  const terms = [...config.e, ...config.h].map((t) => {
    const size = t.wRe.length;
    const term = { comp: t.comp, plane: t.plane, slot: t.slot, weights: at, size };
    at += (complex ? 2 : 1) * size;
    return term;
  });
  const nv2 = layout.n[v] + 2;
  return { axis: config.axis, complex, nv2, terms, start, words: at - start };
}

/** Field set `set`'s weight planes (A, and B in Bloch runs): the aux words from plan.start on. */
export function injectionWeights(
  plan: GpuInjection,
  config: InjectionConfig,
  set: number,
): Float32Array {
  const out = new Float32Array(plan.words);
  [...config.e, ...config.h].forEach((t, n) => {
    const { size } = plan.terms[n];
    const at = plan.terms[n].weights - plan.start;
    for (let q = 0; q < size; q++) {
      const re = t.wRe[q];
      const im = t.wIm[q];
      out[at + q] = set === 0 ? re : im;
      if (plan.complex) out[at + size + q] = set === 0 ? -im : re;
    }
  });
  return out;
}

const COORD = ["i", "j", "k"] as const;

/** WGSL: the uniform holding a step's drive values (group 1, binding 0). */
export const DRIVE_UNIFORM = `struct Drive {
  d: array<vec4f, 2>,
}
@group(1) @binding(0) var<uniform> D: Drive;`;

/** Bytes of the drive uniform (DRIVE_UNIFORM): eight drive values. */
export const DRIVE_UNIFORM_BYTES = 32;

/**
 * WGSL statements adding the terms on component `comp` (0–5) to `v`, inside the component's
 * update (whose range test has already passed).
 */
export function injectionUpdates(plan: GpuInjection | null, comp: number): string {
  if (!plan) return "";
  const [a, u, w] = [0, 1, 2].map((d) => COORD[(plan.axis + d) % 3]);
  return plan.terms
    .filter((t) => t.comp === comp)
    .map((t) => {
      const drive = `D.d[${t.slot >> 1}]`;
      const [re, im] = t.slot % 2 === 0 ? ["x", "y"] : ["z", "w"];
      const gain = plan.complex
        ? `(aux[wAt] * ${drive}.${re} + aux[wAt + ${t.size}u] * ${drive}.${im})`
        : `aux[wAt] * ${drive}.${re}`;
      return `    if (${a} == ${t.plane}i) {
      let wAt = ${t.weights}u + u32(${u} + 1) * ${plan.nv2}u + u32(${w} + 1);
      v = v + ${gain};
    }`;
    })
    .join("\n");
}
