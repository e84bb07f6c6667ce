/**
 * What the backend agreement tests (wasm/agreement.test.ts, webgpu/agreement.test.ts) share: the
 * materials (a dispersive sphere, a constant lossy slab and, in some cases, a PEC plate), the
 * plane-wave problem each case
 * builds, and the comparisons of monitor phasors and stored fields against the reference
 * backend, as the largest difference relative to the largest value compared.
 */
import assert from "node:assert/strict";
import { withUserMaterials } from "../dispersion/user.js";
import type { FieldSet } from "../fields.js";
import type { YeeLayout } from "../grid.js";
import type {
  Boundary,
  MonitorResult,
  SimulationSpec,
  StructureSpec,
  Symmetry,
  Vec3,
} from "../types.js";
import { constantMaterials } from "./index.js";

export const AGREEMENT_WAVELENGTH = 1e-6;
export const AGREEMENT_STEP = AGREEMENT_WAVELENGTH / 16;

/**
 * The sphere is dispersive (a Lorentz and a weak Drude pole: the ADE pass on every backend);
 * the slab a constant lossy dielectric; the plate (`pecPlate`) the library's PEC.
 */
export const AGREEMENT_MATERIALS = withUserMaterials(
  constantMaterials({ lossy: { re: 3, im: 0.2 } }),
  {
    glass: {
      permittivity: 2,
      poles: [
        { type: "lorentz", delta_eps: 1.5, omega0: 3.8e15, gamma: 1e14 },
        { type: "drude", omega_p: 1.5e15, gamma: 1e14 },
      ],
    },
  },
);

export interface AgreementCase {
  name: string;
  boundaries: [Boundary, Boundary, Boundary];
  direction: Vec3;
  polarization: "te" | "tm";
  /** Region of interest in cells (of the base step). */
  cells: Vec3;
  /**
   * Refine the grid to a third of the step around the sphere (and its slab) along these axes
   * (a graded grid, grid.ts), else a uniform grid.
   */
  refine?: [boolean, boolean, boolean];
  /** domain.symmetry (the grid then holds the half at ≥ 0 of those axes). */
  symmetry?: [Symmetry, Symmetry, Symmetry];
  /**
   * A PEC plate 1.5 cells thick in front of the sphere, over the half of the cross-section at
   * u ≥ 0 (u the axis after the propagation axis): the conductor's cells (E held at zero), its
   * staircase faces and edge, and the wave diffracted around it.
   */
  pecPlate?: boolean;
}

/**
 * Cases with mirror walls (domain.symmetry; the grid holds the half at ≥ 0 of those axes): pmc
 * across the sweep axis x, pec along y and along z, one of them graded.
 */
export const MIRROR_CASES: AgreementCase[] = [
  {
    name: "+z, pmc mirror on x and pec mirror on y (te: E ∥ y), pml",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [8, 8, 20],
    symmetry: ["pmc", "pec", "none"],
  },
  {
    name: "+y, graded, pmc mirror on x and pec mirror on z (tm: E ∥ z), pml",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 1, 0],
    polarization: "tm",
    cells: [8, 20, 8],
    refine: [true, true, true],
    symmetry: ["pmc", "none", "pec"],
  },
];

/** Monitor planes' distances from the centre along the propagation axis, in cells. */
export interface AgreementMonitors {
  transmitted: number;
  reflected: number;
}

/**
 * A plane wave along the case's direction through a smoothed dispersive sphere at the centre
 * and a lossy slab across the transverse faces (through the absorber), with a multi-wavelength
 * plane monitor behind them and a point monitor in front.
 */
export function agreementSpec(
  c: AgreementCase,
  steps: number,
  at: AgreementMonitors,
): SimulationSpec {
  const step = AGREEMENT_STEP;
  const size = c.cells.map((n) => n * step) as Vec3;
  const a = c.direction.map(Math.abs).indexOf(Math.max(...c.direction.map(Math.abs)));
  const along = (v: number, across: number): Vec3 => {
    const out: Vec3 = [across, across, across];
    out[a] = v;
    return out;
  };
  const sign = Math.sign(c.direction[a]);
  const wavelength = AGREEMENT_WAVELENGTH;
  return {
    solver: "fdtd",
    domain: {
      size,
      resolution: step,
      boundary_conditions: c.boundaries,
      pml_layers: 6,
      ...(c.symmetry ? { symmetry: c.symmetry } : {}),
      ...(c.refine
        ? {
            mesh_overrides: [
              {
                center: along(sign * step, 0),
                size: along(8 * step, 6 * step),
                resolution: c.refine.map((r) => (r ? step / 3 : step)) as Vec3,
              },
            ],
          }
        : {}),
    },
    source: {
      source_type: "plane_wave",
      wavelength,
      polarization: c.polarization,
      direction: c.direction,
      amplitude: 1,
    },
    structures: [
      { type: "sphere", center: [0, 0, 0], radius: 3 * step, material: "glass" },
      {
        type: "box",
        center: along(sign * 4 * step, 0),
        size: along(2.5 * step, 10),
        material: "lossy",
      },
      ...(c.pecPlate ? [pecPlate(a, sign, size)] : []),
    ],
    monitors: [
      {
        name: "transmitted",
        monitor_type: "field",
        center: along(sign * at.transmitted * step, 0),
        size: along(0, 1),
        components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"],
        wavelengths: [0.95 * wavelength, wavelength, 1.1 * wavelength],
      },
      {
        name: "reflected",
        monitor_type: "field",
        center: along(-sign * at.reflected * step, 0),
        size: [0, 0, 0],
        components: ["Ex", "Ey", "Ez"],
      },
    ],
    fdtd_settings: {
      time_steps: steps,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 100,
    },
  };
}

/**
 * AgreementCase.pecPlate: from −6.25 to −4.75 cells along the propagation axis (upstream), the
 * half u ≥ 0 of the cross-section (to its face, or through the absorber), all of v.
 */
function pecPlate(axis: number, sign: number, size: Vec3): StructureSpec {
  const u = (axis + 1) % 3;
  const center: Vec3 = [0, 0, 0];
  const extent: Vec3 = [...size];
  center[axis] = -sign * 5.5 * AGREEMENT_STEP;
  extent[axis] = 1.5 * AGREEMENT_STEP;
  center[u] = size[u] / 4;
  extent[u] = size[u] / 2;
  return { type: "box", center, size: extent, material: "PEC" };
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

export function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/**
 * The largest difference between two runs' monitor data, relative to each monitor's largest
 * value (`perMonitor`) or to each component's own (`perComponent`); asserts every component
 * the reference recorded is there and no monitor is all zero.
 */
export function worstMonitorDifference(
  ref: readonly MonitorResult[],
  other: readonly MonitorResult[],
  scaleBy: "perMonitor" | "perComponent" = "perMonitor",
): number {
  let worst = 0;
  for (let m = 0; m < ref.length; m++) {
    const entries = Object.entries(ref[m].data);
    const scale = Math.max(...entries.map(([, data]) => maxAbs(data)));
    assert.ok(scale > 0, `monitor ${ref[m].name} is all zero`);
    for (const [comp, data] of entries) {
      const theirs = other[m].data[comp as keyof MonitorResult["data"]];
      assert.ok(theirs, `${ref[m].name}: ${comp} missing`);
      const d = maxDiff(data, theirs);
      worst = Math.max(worst, d / (scaleBy === "perMonitor" ? scale : maxAbs(data)));
    }
  }
  return worst;
}

/**
 * The largest difference between two runs' stored field values (ghosts included, every field
 * set), relative to each component's largest reference value. With `layout`, the values no
 * update or monitor reads are left out: ghosts along two axes, one of them the low (−1) one
 * (boundaries.ts: the in-plane copies never fill them). Which copy wrote them last depends on
 * which physical axis is stored as x (wasm/relabel.ts), so two backends storing a grid
 * differently differ there.
 */
export function worstFieldDifference(
  ref: readonly FieldSet[],
  other: readonly FieldSet[],
  layout?: YeeLayout,
): number {
  assert.equal(other.length, ref.length);
  const read = layout ? readValues(layout) : null;
  const pick = (a: Float32Array) => (read ? a.filter((_, p) => read[p] === 1) : a);
  let worst = 0;
  for (let set = 0; set < ref.length; set++) {
    for (let comp = 0; comp < 6; comp++) {
      const a = pick(ref[set].c[comp]);
      worst = Math.max(worst, maxDiff(a, pick(other[set].c[comp])) / maxAbs(a));
    }
  }
  return worst;
}

/** 1 per padded cell that some update or monitor reads, 0 for an unread corner ghost. */
function readValues(layout: YeeLayout): Uint8Array {
  const padded = layout.padded;
  const out = new Uint8Array(layout.paddedCells);
  const at = [0, 0, 0];
  for (let p = 0; p < out.length; p++) {
    at[0] = Math.floor(p / (padded[1] * padded[2]));
    at[1] = Math.floor(p / padded[2]) % padded[1];
    at[2] = p % padded[2];
    const ghosts = at.filter((v, a) => v === 0 || v === padded[a] - 1).length;
    out[p] = ghosts >= 2 && at.includes(0) ? 0 : 1;
  }
  return out;
}
