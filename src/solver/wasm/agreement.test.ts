/**
 * The fast kernel (WASM SIMD, shared memory, slabs over threads) against the reference
 * kernel on small 3-D problems that between them use every boundary kind, both signs of
 * every propagation axis, oblique (complex Bloch) incidence with the TFSF plane normal to x,
 * y and z, lossy and smoothed materials that cross the absorber, a dispersive sphere (the ADE
 * pass: JavaScript on the reference backend, WebAssembly in the fast kernel), a PEC plate
 * (its cells' E held at zero through the same coefficient table), and multi-wavelength
 * monitors. The reference works in float64 arithmetic on float32 storage, the fast kernel in
 * float32 throughout, so they agree to float32 rounding accumulated over the run: the bound
 * below is 1e-5 of the largest value compared, where a wrong sign, index or phase anywhere
 * gives differences of order 1.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runWithMaterials } from "../run.js";
import { FdtdSimulation, type InternalRunOptions } from "../simulation.js";
import {
  AGREEMENT_MATERIALS as materials,
  agreementSpec,
  worstFieldDifference,
  worstMonitorDifference,
  MIRROR_CASES,
  type AgreementCase,
} from "../testing/agreement.js";
import { fieldEnergy } from "../yee.js";

const TOLERANCE = 1e-5;

const CASES: AgreementCase[] = [
  {
    name: "+z, graded along x, y and z (mesh override), pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [10, 8, 24],
    refine: [true, true, true],
  },
  {
    name: "oblique about x (Bloch along y and z), graded along x",
    boundaries: ["pml", "periodic", "periodic"],
    direction: [1, 0.25, -0.2],
    polarization: "tm",
    cells: [24, 8, 7],
    refine: [true, false, false],
  },
  {
    name: "+z, pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [10, 8, 24],
  },
  {
    name: "−x, periodic y, pmc z",
    boundaries: ["pml", "periodic", "pmc"],
    direction: [-1, 0, 0],
    polarization: "tm",
    cells: [24, 7, 9],
  },
  {
    name: "+y, pec x, periodic z",
    boundaries: ["pec", "pml", "periodic"],
    direction: [0, 1, 0],
    polarization: "te",
    cells: [9, 24, 8],
  },
  {
    name: "oblique about z (Bloch along x and y)",
    boundaries: ["periodic", "periodic", "pml"],
    direction: [0.3, 0.2, 1],
    polarization: "tm",
    cells: [16, 9, 24],
  },
  {
    name: "oblique about −x (Bloch along y and z)",
    boundaries: ["pml", "periodic", "periodic"],
    direction: [-1, 0.25, -0.2],
    polarization: "te",
    cells: [24, 8, 7],
  },
  {
    name: "+y between pmc walls along x, periodic z",
    boundaries: ["pmc", "pml", "periodic"],
    direction: [0, 1, 0],
    polarization: "tm",
    cells: [12, 24, 8],
  },
  {
    name: "oblique about y (Bloch along x and z), pmc-free",
    boundaries: ["periodic", "pml", "periodic"],
    direction: [0.2, 1, 0.3],
    polarization: "tm",
    cells: [15, 24, 9],
  },
  ...MIRROR_CASES,
  {
    name: "+z, graded along x, y and z, a PEC plate over half the section, pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [10, 8, 24],
    refine: [true, true, true],
    pecPlate: true,
  },
  {
    name: "oblique about z (Bloch along x and y), a PEC plate over half the section",
    boundaries: ["periodic", "periodic", "pml"],
    direction: [0.3, 0.2, 1],
    polarization: "tm",
    cells: [16, 9, 24],
    pecPlate: true,
  },
];

/** The monitors 7 cells behind the centre and 9 in front. */
const spec = (c: AgreementCase, steps: number) =>
  agreementSpec(c, steps, { transmitted: 7, reflected: 9 });

const FAST_VARIANTS: { label: string; options: InternalRunOptions }[] = [
  { label: "1 thread", options: { backend: "wasm", threads: 1 } },
  { label: "3 threads", options: { backend: "wasm", threads: 3, minCellsPerThread: 0 } },
];

describe("fast kernel agrees with the reference kernel", () => {
  for (const c of CASES) {
    it(`${c.name}: monitor phasors within ${TOLERANCE} relative`, async (t) => {
      const s = spec(c, 600);
      const ref = await runWithMaterials(s, materials, { backend: "reference" });
      assert.equal(ref.report.kernel, "reference");
      for (const v of FAST_VARIANTS) {
        const fast = await runWithMaterials(s, materials, v.options);
        assert.equal(fast.report.kernel, "wasm");
        assert.equal(fast.report.threads, v.label === "1 thread" ? 1 : 3);
        const worst = worstMonitorDifference(ref.monitors, fast.monitors);
        t.diagnostic(
          `${v.label}: largest difference ${worst.toExponential(2)} of the monitor peak`,
        );
        assert.ok(worst < TOLERANCE, `${v.label}: ${worst}`);
      }
    });
  }

  // Every stored value that is read, ghosts included (both backends fill them from
  // boundaries.ts's one description, x-plane copies after the plane's y/z ghosts); the energy,
  // which sums every stored value, is checked against fieldEnergy on the wasm backend's own
  // fields. Sweeps of 1, 2 and 4 time steps (temporal blocking, sweep.ts) on 1, 3 and 4 threads.
  it("every field value, both field sets, after 160 steps, in sweeps of 1–4 steps", async (t) => {
    // A graded case's time step follows its cells a third of the step: three times the steps
    // reach the same time.
    const stepsOf = (c: AgreementCase) => (c.refine ? 3 : 1) * 160;
    const variants: InternalRunOptions[] = [
      { threads: 1, stepsPerSweep: 4 },
      { threads: 3, minCellsPerThread: 0, stepsPerSweep: 2 },
      { threads: 4, minCellsPerThread: 0, stepsPerSweep: 1 },
    ];
    for (const c of [
      CASES[0],
      CASES[1],
      CASES[2],
      CASES[4],
      CASES[5],
      CASES[6],
      CASES[7],
      CASES[9],
      CASES[10],
      // The oblique PEC case; the graded one's cross-polarised Hy peaks at 1/150 of Hx, and
      // float32 rounding of the larger fields is 3e-5 of that peak (its monitors agree to 3e-7).
      CASES[12],
    ]) {
      const steps = stepsOf(c);
      const s = spec(c, steps);
      const ref = new FdtdSimulation(s, materials, { backend: "reference", dftEvery: 4 });
      await ref.prepare();
      for (let n = 0; n < steps; n++) ref.step();
      const sets = await ref.fields();
      for (const v of variants) {
        const fast = new FdtdSimulation(s, materials, { backend: "wasm", dftEvery: 4, ...v });
        await fast.prepare();
        try {
          let sweeps = 0;
          while (fast.stepIndex < steps) {
            fast.step(steps);
            sweeps++;
          }
          assert.equal(fast.threads, v.threads);
          const fastSets = await fast.fields();
          // The reference stores every grid as it is, the fast kernel one longest along x or
          // y with that axis as its rows (relabel.ts): their unread corner ghosts differ.
          const worst = worstFieldDifference(sets, fastSets, fast.model.layout);
          t.diagnostic(
            `${c.name}, ${v.threads} threads, ${sweeps} sweeps: largest field difference ` +
              `${worst.toExponential(2)} of the peak`,
          );
          assert.ok(worst < 2 * TOLERANCE, `${c.name}: ${worst}`);
          // The kernel weights E in cells outside the update range (periodic ghosts, which
          // fieldEnergy weights with the ε painted there) with the background ε: with two
          // periodic axes of 7–8 cells a third of the stored cells are ghosts, and once the
          // pulse has reached the lossy slab (ε = 3) in them the two sums part by up to 2e-3.
          const eYee = fieldEnergy(fastSets, fast.model.medium);
          const eFast = await fast.energy();
          const bound = c.boundaries.includes("periodic") ? 3e-3 : 1e-6;
          assert.ok(Math.abs(eFast / eYee - 1) < bound, `energy ${eFast} vs ${eYee}`);
        } finally {
          fast.dispose();
        }
      }
    }
  });
});
