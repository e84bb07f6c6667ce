/**
 * Graded grids (mesh overrides, grid.ts) against physics:
 *  - A dielectric slab (n = 2, 0.3 µm, λ = 1 µm) refined from 25 to 5 nm over the slab: T
 *    equals the exact solution of the non-uniform Yee equations (testing discreteGradedSlabRT)
 *    within 1e-4, which checks every coefficient the grading touches (inverse steps, TFSF,
 *    flux weights), and is closer to Airy than the uniform 25 nm grid. R comes from total
 *    minus incident, and the incident wave's own reflection off the grading (about −53 dB
 *    here) counts as incident, so R + T = 1 within 1e-3, not 1e-5.
 *  - A flux plane in vacuum reads 1 in coarse and in fine cells alike (each plane is
 *    normalised by the incident flux computed at its own node).
 *  - A closed PEC cavity graded along every axis keeps its energy (the volume-weighted sum
 *    the leapfrog conserves) for 4000 steps at the time step of its shortest cells, S = 1.
 * Every check runs on every backend where it is cheap (1-D problems).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MU0, EPS0 } from "./constants.js";
import { cellStepM, dualStepM } from "./grid.js";
import { FdtdSimulation } from "./simulation.js";
import {
  airySlabReflectance,
  constantMaterials,
  discreteGradedSlabRT,
  fluxPlane,
  lineSpec,
  slab,
} from "./testing/index.js";
import { forEachBackend, runOn } from "./testing/backends.js";
import { noisyCavity } from "./testing/cavity.js";
import type { DomainSpec, SimulationSpec } from "./types.js";

const WAVELENGTH = 1e-6;
const LENGTH = 3e-6;
const THICKNESS = 0.3e-6;
const COARSE = 25e-9;
const FINE = 5e-9;
const materials = constantMaterials({ glass: 4 });

/** The slab with R and T flux planes 4 cells inside the faces, refined over the slab or not. */
function slabSpec(refined: boolean): SimulationSpec {
  const spec = lineSpec({
    axis: 2,
    wavelengthM: WAVELENGTH,
    stepM: COARSE,
    lengthM: LENGTH,
    structures: [slab(2, 0, THICKNESS, "glass")],
    monitors: [
      fluxPlane("R", 2, -LENGTH / 2 + 4 * COARSE),
      fluxPlane("T", 2, LENGTH / 2 - 4 * COARSE),
    ],
    threshold: 1e-8,
  });
  if (refined) {
    spec.domain.mesh_overrides = [
      { center: [0, 0, 0.15e-6], size: [0, 0, 0.5e-6], resolution: [COARSE, COARSE, FINE] },
    ];
  }
  return spec;
}

describe("graded grids (mesh overrides)", () => {
  const airyT = 1 - airySlabReflectance(2, THICKNESS, WAVELENGTH);

  forEachBackend((backend) => {
    it("a slab refined from 25 to 5 nm: T as the graded Yee equations give it within 1e-4, closer to Airy than at 25 nm", async (t) => {
      const spec = slabSpec(true);
      const sim = new FdtdSimulation(spec, materials);
      const { layout, medium } = sim.model;
      assert.ok(!sim.plan.uniform);
      const eps: number[] = [];
      for (let k = 0; k <= layout.n[2]; k++) {
        eps.push(medium.epsEff[medium.index[1][layout.index(0, 0, k)]]);
      }
      const exact = discreteGradedSlabRT(
        eps,
        sim.plan.axes[2].nodesM,
        sim.plan.dtSeconds,
        WAVELENGTH,
      );
      const result = await runOn(backend, spec, materials);
      const [R, T] = result.fluxMonitors.map((m) => m.flux[0]);
      const coarse = await runOn(backend, slabSpec(false), materials);
      const coarseT = coarse.fluxMonitors[1].flux[0];
      t.diagnostic(
        `T ${T.toFixed(6)}: graded Yee ${exact.T.toFixed(6)}, Airy ${airyT.toFixed(6)} ` +
          `(uniform 25 nm: ${coarseT.toFixed(6)}); R + T − 1 = ${(R + T - 1).toExponential(2)}`,
      );
      assert.ok(Math.abs(T - exact.T) < 1e-4, `T ${T} vs ${exact.T}`);
      assert.ok(
        Math.abs(T - airyT) < 0.5 * Math.abs(coarseT - airyT),
        `graded ${T}, uniform ${coarseT}, Airy ${airyT}`,
      );
      assert.ok(Math.abs(R - exact.R) < 1e-3, `R ${R} vs ${exact.R}`);
      assert.ok(Math.abs(R + T - 1) < 1e-3, `R + T = ${R + T}`);
    });

    it("a flux plane in vacuum reads 1 in coarse and in fine cells", async () => {
      const spec = lineSpec({
        axis: 2,
        wavelengthM: WAVELENGTH,
        stepM: COARSE,
        lengthM: LENGTH,
        monitors: [
          fluxPlane("before", 2, -0.6e-6),
          fluxPlane("inside", 2, 0.1e-6),
          fluxPlane("after", 2, 0.9e-6),
        ],
        threshold: 1e-8,
      });
      spec.domain.mesh_overrides = [
        { center: [0, 0, 0], size: [0, 0, 0.4e-6], resolution: [COARSE, COARSE, FINE] },
      ];
      const result = await runOn(backend, spec, materials);
      for (const m of result.fluxMonitors) {
        assert.equal(m.quantity, "transmittance");
        assert.ok(Math.abs(m.flux[0] - 1) < 1e-5, `${m.name}: ${m.flux[0]}`);
      }
    });
  });

  it("a closed PEC cavity graded along every axis keeps its energy at the shortest cells' time step", (t) => {
    const domain: DomainSpec = {
      size: [400e-9, 300e-9, 350e-9],
      resolution: 50e-9,
      boundary_conditions: ["pec", "pec", "pec"],
      pml_layers: 0,
      mesh_overrides: [
        { center: [20e-9, -10e-9, 0], size: [80e-9, 60e-9, 100e-9], resolution: 10e-9 },
      ],
      max_step_ratio: 1.3,
    };
    const { plan, layout, grid, step: leapfrog } = noisyCavity(domain, 1);
    const n = plan.axes.map((ax) => ax.cells);
    // ε0·E²·(dual volume) + μ0·H²·(primal volume): what the leapfrog conserves on this grid.
    const [ax, ay, az] = plan.axes;
    const length = (axis: number, i: number, half: boolean) =>
      half ? cellStepM(plan.axes[axis], i) : dualStepM(plan.axes[axis], i);
    const energy = () => {
      let sum = 0;
      for (let c = 0; c < 6; c++) {
        const f = grid.re.c[c];
        const along = c % 3;
        const scale = c < 3 ? EPS0 : MU0;
        for (let i = 0; i < ax.cells; i++) {
          for (let j = 0; j < ay.cells; j++) {
            for (let k = 0; k < az.cells; k++) {
              const v = f[layout.index(i, j, k)];
              if (v === 0) continue;
              // E_c sits in a cell along c and on nodes across; H_c the other way round.
              const half = (a: number) => (c < 3 ? a === along : a !== along);
              const volume = length(0, i, half(0)) * length(1, j, half(1)) * length(2, k, half(2));
              sum += scale * v * v * volume;
            }
          }
        }
      }
      return sum;
    };
    const energies: number[] = [];
    for (let step = 0; step < 4000; step++) {
      leapfrog();
      if (step >= 10 && step % 40 === 0) energies.push(energy());
    }
    const early = energies.slice(0, 12).reduce((a, b) => a + b) / 12;
    const late = energies.slice(-12).reduce((a, b) => a + b) / 12;
    const max = Math.max(...energies);
    const min = Math.min(...energies);
    t.diagnostic(
      `${n.join(" × ")} cells, steps ${(ax.minStepM * 1e9).toFixed(1)}–${(ax.maxStepM * 1e9).toFixed(1)} nm along x; ` +
        `late/early ${(late / early).toFixed(6)}, max/min ${(max / min).toFixed(4)}`,
    );
    assert.ok(late / early < 1.01, `energy drift ${late / early}`);
    assert.ok(max / min < 2, `energy range ${min}…${max}`);
  });
});
