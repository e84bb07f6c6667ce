/**
 * Test planes: a symmetric slab (invariant along u: one periodic cell; layered along v) with
 * faces on grid nodes and the FDTD's averaging there (arithmetic for the tangential E_u, E_w
 * on the face node; E_v at cell centres is never cut), and a rectangular strip in a cladding.
 */
import type { ModeAxis, PlanePermittivity } from "./operator.js";
import type { SolvedMode } from "./solved-mode.js";

export interface SlabCase {
  axes: [ModeAxis, ModeAxis];
  eps: PlanePermittivity;
}

function uniformNodes(lo: number, step: number, cells: number): Float64Array {
  return Float64Array.from({ length: cells + 1 }, (_, i) => lo + i * step);
}

/**
 * A slab of permittivity `core` (complex allowed) and thickness `thicknessM` centred at v = 0
 * in `clad`, on a v axis of ±halfM with step `stepM` (the faces must fall on nodes).
 */
export function slabCase(opts: {
  core: { re: number; im?: number };
  clad: number;
  thicknessM: number;
  halfM: number;
  stepM: number;
  boundary?: ModeAxis["boundary"];
  pmlCells?: number;
}): SlabCase {
  const { core, clad, thicknessM, halfM, stepM } = opts;
  const nv = Math.round((2 * halfM) / stepM);
  const nodesV = uniformNodes(-halfM, stepM, nv);
  const half = thicknessM / 2;
  const onFace = (y: number) => Math.abs(Math.abs(y) - half) < stepM * 1e-6;
  const at = (y: number, centre: boolean): [number, number] => {
    if (!centre && onFace(y)) return [(core.re + clad) / 2, (core.im ?? 0) / 2];
    return Math.abs(y) < half ? [core.re, core.im ?? 0] : [clad, 0];
  };
  const make = (centre: boolean) => {
    const re = new Float64Array(nv);
    const im = new Float64Array(nv);
    for (let j = 0; j < nv; j++) {
      const y = centre ? (nodesV[j] + nodesV[j + 1]) / 2 : nodesV[j];
      [re[j], im[j]] = at(y, centre);
    }
    return { re, im };
  };
  const boundary = opts.boundary ?? "pec";
  const pml = opts.pmlCells ?? 0;
  return {
    axes: [
      { nodesM: uniformNodes(0, stepM, 1), boundary: "periodic" },
      { nodesM: nodesV, boundary, pmlLo: pml, pmlHi: pml },
    ],
    eps: { uu: make(false), vv: make(true), ww: make(false) },
  };
}

/**
 * A rectangular core (widthM along u, heightM along v, centred) in a cladding on a uniform
 * grid of `nu` × `nv` cells of `stepM`, ε sampled at each component's position (staircase,
 * with the arithmetic mean on a face through a sample point).
 */
export function stripCase(opts: {
  core: number;
  clad: number;
  widthM: number;
  heightM: number;
  nu: number;
  nv: number;
  stepM: number;
  mirrorU?: "pec" | "pmc";
}): SlabCase {
  const { nu, nv, stepM } = opts;
  const mirrored = opts.mirrorU !== undefined;
  const nodesU = uniformNodes(mirrored ? 0 : (-nu * stepM) / 2, stepM, nu);
  const nodesV = uniformNodes((-nv * stepM) / 2, stepM, nv);
  const inside = (x: number, halfW: number) =>
    Math.abs(x) < halfW - 1e-12 ? 1 : Math.abs(Math.abs(x) - halfW) <= 1e-12 ? 0.5 : 0;
  const make = (su: number, sv: number) => {
    const re = new Float64Array(nu * nv);
    for (let i = 0; i < nu; i++) {
      for (let j = 0; j < nv; j++) {
        const f =
          inside(nodesU[i] + su * stepM, opts.widthM / 2) *
          inside(nodesV[j] + sv * stepM, opts.heightM / 2);
        re[i * nv + j] = opts.clad + f * (opts.core - opts.clad);
      }
    }
    return { re };
  };
  return {
    axes: [
      { nodesM: nodesU, boundary: "pec", mirror: opts.mirrorU ?? "none" },
      { nodesM: nodesV, boundary: "pec" },
    ],
    eps: { uu: make(0.5, 0), vv: make(0, 0.5), ww: make(0, 0) },
  };
}

/** Every number of every mode of a solve (n_eff, fields …), for tests that compare exactly. */
export function everyModeNumber(modes: readonly (readonly SolvedMode[])[]): number[] {
  return modes
    .flat()
    .flatMap((m) => [
      m.wavelength_m,
      m.mode_index,
      m.n_eff,
      m.k_eff,
      m.te_fraction,
      m.group_index ?? -1,
      ...Object.values(m.fields).flatMap((c: { re: Float64Array; im: Float64Array }) => [
        ...c.re,
        ...c.im,
      ]),
    ]);
}

/** A 500 × 220 nm strip of ε 12 in ε 2.1 on a 40 × 30 plane of 40 nm cells (quick tests). */
export const coarseSiWire = (): SlabCase =>
  stripCase({
    core: 12,
    clad: 2.1,
    widthM: 0.5e-6,
    heightM: 0.22e-6,
    nu: 40,
    nv: 30,
    stepM: 40e-9,
  });
