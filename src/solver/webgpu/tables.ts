/**
 * The small tables of the `webgpu` backend, at the head of each field set's aux buffer: per
 * axis the inverse steps (κ folded in) at half positions and nodes, per material ca, cb and
 * ε, per axis the CPML profiles b and c/step at nodes and half positions, in float32. The
 * shaders find them at the offsets TableOffsets gives, written into the WGSL as constants.
 */
import type { SteppingProblem } from "../backend.js";

/** Offsets (in f32 words) of the small tables in the tables buffer. */
export interface TableOffsets {
  /** Per axis: dt/μ0 · 1/(κ·step) at half positions, index = i + 1 (padded). */
  chHalf: [number, number, number];
  /** Per axis: 1/(κ·step) at nodes, index = i + 1 (padded). */
  invNode: [number, number, number];
  ca: number;
  cb: number;
  eps: number;
  /** Per axis, CPML b and c/step at nodes (index i) and at half positions (index i). */
  bNode: [number, number, number];
  ctNode: [number, number, number];
  bHalf: [number, number, number];
  ctHalf: [number, number, number];
  /** Words in all. */
  length: number;
}

/** The tables (f32) and their offsets. */
export function buildTables(problem: SteppingProblem): {
  data: Float32Array;
  offsets: TableOffsets;
} {
  const { kernelGrid: kg, profiles, medium } = problem;
  const parts: ArrayLike<number>[] = [];
  let at = 0;
  const push = (values: ArrayLike<number>) => {
    const start = at;
    parts.push(values);
    at += values.length;
    return start;
  };
  const ch = kg.hCoefficient;
  const axes = [0, 1, 2] as const;
  const triple = (f: (a: number) => ArrayLike<number>) =>
    axes.map((a) => push(f(a))) as [number, number, number];
  const chHalf = triple((a) => kg.invStepHalf[a].map((v) => ch * v));
  const invNode = triple((a) => kg.invStepNode[a]);
  const ca = push(medium.ca);
  const cb = push(medium.cb);
  const eps = push(medium.epsEff);
  const bNode = triple((a) => profiles[a].bNode);
  const ctNode = triple((a) => profiles[a].cOverStepNode);
  const bHalf = triple((a) => profiles[a].bHalf);
  const ctHalf = triple((a) => profiles[a].cOverStepHalf);
  const data = new Float32Array(at);
  let o = 0;
  for (const p of parts) {
    data.set(p, o);
    o += p.length;
  }
  return {
    data,
    offsets: { chHalf, invNode, ca, cb, eps, bNode, ctNode, bHalf, ctHalf, length: at },
  };
}
