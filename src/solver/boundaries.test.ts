/**
 * Boundaries across the beam. A plane wave between pec walls normal to its E and pmc walls
 * normal to its H is an exact solution (a parallel-plate TEM wave), so it must read |E| = A
 * everywhere; with pml across it is truncated, and the result says so. On every backend
 * (testing/backends.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { forEachBackend, runOn } from "./testing/backends.js";
import { constantMaterials } from "./testing/index.js";
import type { Boundary, SimulationSpec } from "./types.js";

const WAVELENGTH = 1e-6;

function beam(bc: [Boundary, Boundary, Boundary], pol: "te" | "tm", step: number): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [5 * step, 4 * step, 1.5e-6],
      resolution: step,
      boundary_conditions: bc,
      pml_layers: 12,
    },
    source: {
      source_type: "plane_wave",
      wavelength: WAVELENGTH,
      polarization: pol,
      direction: [0, 0, 1],
      amplitude: 1,
    },
    structures: [],
    monitors: [
      {
        name: "plane",
        monitor_type: "field",
        center: [0, 0, 0.3e-6],
        size: [1, 1, 0],
        components: ["Ex", "Ey", "Ez"],
      },
    ],
    fdtd_settings: {
      time_steps: 20000,
      courant_factor: 0.99,
      convergence_threshold: 1e-7,
      check_every_n: 200,
    },
  };
}

describe("pec and pmc walls across the beam", () => {
  forEachBackend((backend) => {
    for (const [bc, pol, comp] of [
      [["pmc", "pec", "pml"], "te", "Ey"],
      [["pec", "pmc", "pml"], "tm", "Ex"],
    ] as const) {
      it(`${bc.join("/")} with ${pol}: an exact parallel-plate wave, |${comp}| = A within 0.1 % over the section`, async () => {
        const result = await runOn(
          backend,
          beam([...bc], pol, WAVELENGTH / 40),
          constantMaterials({}),
        );
        const m = result.monitors[0];
        assert.deepEqual(m.shape, [1, 5, 4, 1]);
        const data = m.data[comp]!;
        for (let i = 0; i < data.length / 2; i++) {
          const amp = Math.hypot(data[2 * i], data[2 * i + 1]);
          assert.ok(Math.abs(amp - 1) < 1e-3, `sample ${i}: ${amp}`);
        }
        assert.deepEqual(result.report.notes, []);
      });
    }
  });
});

describe("pml across the beam", () => {
  forEachBackend((backend) => {
    it("runs in 3-D, stays near A at the centre, and notes the truncation", async (t) => {
      const step = WAVELENGTH / 12;
      const spec = beam(["pml", "pml", "pml"], "te", step);
      spec.domain.size = [1.5e-6, 1.5e-6, 1e-6];
      spec.domain.pml_layers = 6;
      spec.monitors[0].size = [0, 0, 0];
      spec.fdtd_settings.convergence_threshold = 1e-4;
      const result = await runOn(backend, spec, constantMaterials({}));
      const d = result.monitors[0].data.Ey!;
      const amp = Math.hypot(d[0], d[1]);
      t.diagnostic(`|Ey| at the centre ${amp.toFixed(4)}`);
      assert.ok(amp > 0.8 && amp < 1.2, `|Ey| at the centre ${amp}`);
      assert.ok(result.report.notes.some((n) => /truncated by the pml boundaries along x/.test(n)));
      assert.ok(result.report.notes.some((n) => /along y/.test(n)));
    });
  });
});
