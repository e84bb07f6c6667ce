/**
 * Grids one cell thick (wasm/thin.ts, wasm/relabel.ts) against the reference backend, which
 * steps them with the full three-dimensional update and keeps every ghost: the wasm backend's
 * invariant-axis kernel (no derivative terms along the thin axis, no ghosts kept up across
 * it, only the polarisation the source drives), its whole-grid passes on one thread and its
 * plane sweep on several must give the same monitor phasors, fluxes, fields and energy.
 * Cases: a y-thin cross-section with PML, a TFSF plane wave, a lossy box and a dispersive
 * (ADE) box, field and flux monitors (a flux plane normal to the thin axis reads the ghosts
 * the path no longer fills, through the remapped streams), in both polarisations; oblique
 * incidence in the cross-section's plane (complex fields, a Bloch phase along x, none along
 * the thin axis); an x-thin grid; z-thin grids, stored with their axes relabelled; and the
 * grids it must decline — thin along y or z with a Bloch phase along that axis (the fields
 * vary along it) — which run the general path.
 * Tolerance as in agreement.test.ts: float32 rounding, 1e-5 of the largest value compared.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withUserMaterials } from "../dispersion/user.js";
import { runWithMaterials } from "../run.js";
import { FdtdSimulation, type InternalRunOptions } from "../simulation.js";
import { constantMaterials } from "../testing/index.js";
import type { Boundary, SimulationSpec, Vec3 } from "../types.js";
import { fieldEnergy } from "../yee.js";
import type { FastEngine } from "./engine.js";

const WAVELENGTH = 1e-6;
const STEP = WAVELENGTH / 16;
const TOLERANCE = 1e-5;
const materials = withUserMaterials(constantMaterials({ lossy: { re: 3, im: 0.2 } }), {
  glass: {
    permittivity: 2,
    poles: [{ type: "lorentz", delta_eps: 1.5, omega0: 3.8e15, gamma: 1e14 }],
  },
});

interface Case {
  name: string;
  boundaries: [Boundary, Boundary, Boundary];
  direction: Vec3;
  polarization: "te" | "tm";
  cells: Vec3;
  /** Which axes the wasm engine must treat as invariant. */
  invariant: [boolean, boolean, boolean];
  /** Which components it must update (Ex … Hz): the polarisation the source drives. */
  stepped: boolean[];
  /** A mesh override refines the middle of the two long axes to a third of the step. */
  graded?: boolean;
}

const ALL = [true, true, true, true, true, true];
/** {Ey, Hx, Hz} and {Ex, Ez, Hy}: TE and TM with respect to y. */
const TE_Y = [false, true, false, true, false, true];
const TM_Y = [true, false, true, false, true, false];

const Y_THIN: Case = {
  name: "y-thin cross-section, pml x and z, +z",
  boundaries: ["pml", "periodic", "pml"],
  direction: [0, 0, 1],
  polarization: "te",
  cells: [26, 1, 30],
  invariant: [false, true, false],
  stepped: TE_Y,
};

const CASES: Case[] = [
  Y_THIN,
  {
    ...Y_THIN,
    name: "y-thin cross-section, tm, −z",
    direction: [0, 0, -1],
    polarization: "tm",
    stepped: TM_Y,
  },
  {
    name: "y-thin, oblique in the x–z plane (Bloch along x)",
    boundaries: ["periodic", "periodic", "pml"],
    direction: [0.35, 0, 1],
    polarization: "tm",
    cells: [22, 1, 30],
    invariant: [false, true, false],
    stepped: TM_Y,
  },
  {
    name: "x-thin cross-section, pml y and z, +z",
    boundaries: ["periodic", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "tm",
    cells: [1, 24, 30],
    invariant: [true, false, false],
    stepped: [true, false, false, false, true, true],
  },
  {
    name: "declined: y-thin with a Bloch phase along y",
    boundaries: ["pml", "periodic", "pml"],
    direction: [0, 0.3, 1],
    polarization: "te",
    cells: [24, 1, 30],
    invariant: [false, false, false],
    stepped: ALL,
  },
  {
    name: "z-thin cross-section (stored relabelled), +x",
    boundaries: ["pml", "pml", "periodic"],
    direction: [1, 0, 0],
    polarization: "te",
    cells: [30, 22, 1],
    invariant: [false, false, true],
    // {Ex, Ey, Hz}: TM with respect to z (E along y, in the plane of the cross-section).
    stepped: [true, true, false, false, false, true],
  },
  {
    name: "z-thin cross-section graded along x and y (mesh override), relabelled, +x",
    boundaries: ["pml", "pml", "periodic"],
    direction: [1, 0, 0],
    polarization: "tm",
    cells: [30, 22, 1],
    invariant: [false, false, true],
    // p-polarised with the plane of incidence holding z: E along z, {Ez, Hx, Hy}.
    stepped: [false, false, true, true, true, false],
    graded: true,
  },
  {
    name: "z-thin, oblique in the x–y plane (Bloch along x), relabelled",
    boundaries: ["periodic", "pml", "periodic"],
    direction: [0.3, 1, 0],
    polarization: "tm",
    cells: [22, 30, 1],
    invariant: [false, false, true],
    // p-polarised with the plane of incidence holding z: E along z, {Ez, Hx, Hy}.
    stepped: [false, false, true, true, true, false],
  },
  {
    name: "declined: z-thin with a Bloch phase along z",
    boundaries: ["pml", "pml", "periodic"],
    direction: [1, 0, 0.3],
    polarization: "te",
    cells: [30, 22, 1],
    invariant: [false, false, false],
    stepped: ALL,
  },
];

function spec(c: Case, steps: number): SimulationSpec {
  const size = c.cells.map((n) => n * STEP) as Vec3;
  const a = c.direction.map(Math.abs).indexOf(Math.max(...c.direction.map(Math.abs)));
  const sign = Math.sign(c.direction[a]);
  const along = (v: number, across: number): Vec3 => {
    const out: Vec3 = [across, across, across];
    out[a] = v;
    return out;
  };
  // The other long axis (for a box that stops inside the grid along it).
  const b = [0, 1, 2].find((x) => x !== a && c.cells[x] > 1)!;
  const boxSize = along(2.5 * STEP, 10);
  boxSize[b] = 6 * STEP;
  const normalToThin: Vec3 = [1, 1, 1];
  const thin = c.cells.findIndex((n) => n === 1);
  normalToThin[thin] = 0;
  return {
    solver: "fdtd",
    domain: {
      size,
      resolution: STEP,
      boundary_conditions: c.boundaries,
      pml_layers: 6,
      ...(c.graded
        ? {
            mesh_overrides: [
              {
                center: [0, 0, 0],
                size: c.cells.map((n) => (n === 1 ? 0 : 6 * STEP)) as Vec3,
                resolution: c.cells.map((n) => (n === 1 ? STEP : STEP / 3)) as Vec3,
              },
            ],
          }
        : {}),
    },
    source: {
      source_type: "plane_wave",
      wavelength: WAVELENGTH,
      polarization: c.polarization,
      direction: c.direction,
      amplitude: 1,
    },
    structures: [
      // A lossy slab across the grid (a material interface the plane wave crosses) and a
      // dispersive box that ends inside it (interfaces along both long axes).
      {
        type: "box",
        center: along(sign * 4 * STEP, 0),
        size: along(2.5 * STEP, 10),
        material: "lossy",
      },
      { type: "box", center: along(-sign * 1 * STEP, STEP), size: boxSize, material: "glass" },
    ],
    monitors: [
      {
        name: "plane",
        monitor_type: "field",
        center: [0, 0, 0],
        size: c.cells.map((n) => (n === 1 ? 0 : (n - 2) * STEP)) as Vec3,
        components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"],
        wavelengths: [0.95 * WAVELENGTH, WAVELENGTH, 1.1 * WAVELENGTH],
      },
      {
        name: "transmitted",
        monitor_type: "flux",
        center: along(sign * 8 * STEP, 0),
        size: along(0, 1),
        wavelengths: [0.95 * WAVELENGTH, WAVELENGTH],
      },
      {
        name: "across-thin",
        monitor_type: "flux",
        center: [0, 0, 0],
        size: normalToThin,
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

function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

const VARIANTS: { label: string; options: InternalRunOptions; whole: boolean }[] = [
  { label: "1 thread", options: { backend: "wasm", threads: 1 }, whole: true },
  {
    label: "2 threads",
    options: { backend: "wasm", threads: 2, minCellsPerThread: 0 },
    whole: false,
  },
];

describe("grids one cell thick: the wasm backend's thin path agrees with the reference", () => {
  for (const c of CASES) {
    it(`${c.name}: monitors and fluxes within ${TOLERANCE} relative`, async (t) => {
      // A graded grid's time step follows its cells a third of the step.
      const s = spec(c, c.graded ? 1500 : 500);
      const ref = await runWithMaterials(s, materials, { backend: "reference" });
      for (const v of VARIANTS) {
        const threads = c.cells[0] === 1 ? 1 : v.label === "1 thread" ? 1 : 2;
        const fast = await runWithMaterials(s, materials, v.options);
        assert.equal(fast.report.threads, threads);
        let worst = 0;
        for (let m = 0; m < ref.monitors.length; m++) {
          const entries = Object.entries(ref.monitors[m].data);
          const scale = Math.max(...entries.map(([, d]) => maxAbs(d)));
          assert.ok(scale > 0, `monitor ${ref.monitors[m].name} is all zero`);
          for (const [comp, data] of entries) {
            const other = fast.monitors[m].data[comp as keyof (typeof ref.monitors)[0]["data"]]!;
            for (let i = 0; i < data.length; i++) {
              worst = Math.max(worst, Math.abs(data[i] - other[i]) / scale);
            }
          }
        }
        // Transmitted flux: a physical quantity (compared to its own size); the flux through
        // a plane normal to the thin axis is zero up to round-off on both paths.
        const flux = (r: typeof ref, name: string) =>
          r.fluxMonitors.find((f) => f.name === name)!.flux;
        const fr = flux(ref, "transmitted");
        const ff = flux(fast, "transmitted");
        assert.ok(maxAbs(fr) > 0.05, `transmitted flux ${fr.join(", ")}`);
        for (let i = 0; i < fr.length; i++) {
          worst = Math.max(worst, Math.abs(fr[i] - ff[i]) / maxAbs(fr));
        }
        if (c.invariant.includes(true)) {
          assert.ok(maxAbs(flux(ref, "across-thin")) < 1e-6, `${flux(ref, "across-thin")}`);
          assert.ok(maxAbs(flux(fast, "across-thin")) < 1e-6, `${flux(fast, "across-thin")}`);
        } else {
          const a = flux(ref, "across-thin");
          const b = flux(fast, "across-thin");
          for (let i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - b[i]) / maxAbs(fr));
          }
        }
        t.diagnostic(`${v.label}: largest difference ${worst.toExponential(2)} of the peak`);
        assert.ok(worst < TOLERANCE, `${v.label}: ${worst}`);
      }
    });
  }

  it("fields of the real cells, energy and the path taken, after 120 steps", async (t) => {
    for (const c of CASES) {
      const steps = c.graded ? 360 : 120;
      const s = spec(c, steps);
      const ref = new FdtdSimulation(s, materials, { backend: "reference", dftEvery: 4 });
      await ref.prepare();
      for (let n = 0; n < steps; n++) ref.step();
      const sets = await ref.fields();
      const layout = ref.model.layout;
      const thinAxis = c.invariant.indexOf(true);
      for (const v of VARIANTS) {
        const fast = new FdtdSimulation(s, materials, { ...v.options, dftEvery: 4 });
        await fast.prepare();
        try {
          while (fast.stepIndex < steps) fast.step(steps);
          // The engine, or the relabelling wrapper of a z-thin grid (both in physical labels).
          const engine = fast.stepper as unknown as Pick<
            FastEngine,
            "invariant" | "stepped" | "wholeGrid"
          >;
          assert.deepEqual(engine.invariant, c.invariant, c.name);
          assert.deepEqual(engine.stepped, c.stepped, c.name);
          const single = fast.threads === 1;
          assert.equal(engine.wholeGrid, single && thinAxis >= 0, c.name);
          const fastSets = await fast.fields();
          let worst = 0;
          // Every stored value but the ghosts across the thin axis (those are filled when
          // read, from this step's values; checked through the energy below).
          const [sx, sy] = layout.strides;
          for (let set = 0; set < sets.length; set++) {
            const scale = Math.max(...sets[set].c.map(maxAbs));
            for (let comp = 0; comp < 6; comp++) {
              const a = sets[set].c[comp];
              const b = fastSets[set].c[comp];
              for (let p = 0; p < layout.paddedCells; p++) {
                const i = Math.floor(p / sx) - 1;
                const j = Math.floor((p % sx) / sy) - 1;
                const k = (p % sy) - 1;
                const coord = [i, j, k];
                if (thinAxis >= 0 && coord[thinAxis] !== 0) continue;
                worst = Math.max(worst, Math.abs(a[p] - b[p]) / scale);
              }
            }
          }
          t.diagnostic(`${c.name}, ${v.label}: fields within ${worst.toExponential(2)}`);
          assert.ok(worst < 2 * TOLERANCE, `${c.name}, ${v.label}: ${worst}`);
          const eYee = fieldEnergy(fastSets, fast.model.medium);
          const eFast = await fast.energy();
          const eRef = await ref.energy();
          assert.ok(Math.abs(eFast / eYee - 1) < 1e-3, `energy ${eFast} vs ${eYee}`);
          // Against the reference's energy, which sums its ghosts too: where the grid is
          // periodic along a second axis, the corner ghost that the thin axis's copy takes from
          // that axis's ghost holds the previous step's value there and this step's here (the
          // engine's fillThinGhosts); on these small grids ghosts are a twentieth of the values.
          const periodicTwice = c.boundaries.filter((b) => b === "periodic").length > 1;
          const bound = periodicTwice && thinAxis >= 0 ? 1e-2 : 1e-3;
          assert.ok(Math.abs(eFast / eRef - 1) < bound, `energy ${eFast} vs reference ${eRef}`);
        } finally {
          fast.dispose();
        }
      }
    }
  });
});
