/**
 * Dielectric slab at normal incidence (n = 2, 0.3 µm thick, λ = 1 µm, vacuum around).
 * References: the continuum Airy formula R = |r1(1 − e^{2iδ})/(1 − r1²e^{2iδ})|², δ = n·k0·d,
 * and the exact solution of the discretised (Yee) equations for the same permittivity per
 * node, which separates implementation errors from the scheme's own O((k·dz)²) error.
 * Every check runs on every backend (testing/backends.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BackendName } from "./backend.js";
import { FdtdSimulation } from "./simulation.js";
import { EPS0, SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import {
  abs2,
  airySlab,
  airySlabReflectance,
  constantMaterials,
  discreteSlabRT,
  lineSpec,
  phasor,
  pointMonitor,
  slab,
} from "./testing/index.js";
import { forEachBackend, runOn } from "./testing/backends.js";

const WAVELENGTH = 1e-6;
const N = 2;
const THICKNESS = 0.3e-6;
const LENGTH = 3e-6;
const materials = constantMaterials({ glass: N * N });
const fmtRel = (x: number, ref: number) => `${((x / ref - 1) * 100).toFixed(3)} %`;

function slabSpec(cellsPerWavelengthInMaterial: number) {
  const step = WAVELENGTH / (N * cellsPerWavelengthInMaterial);
  return lineSpec({
    axis: 2,
    wavelengthM: WAVELENGTH,
    stepM: step,
    lengthM: LENGTH,
    structures: [slab(2, 0, THICKNESS, "glass")],
    monitors: [
      // Upstream of the source plane only the reflected wave exists.
      pointMonitor("reflected", 2, -LENGTH / 2 + step / 2, ["Ey"]),
      pointMonitor("transmitted", 2, LENGTH / 2 - step / 2, ["Ey"]),
    ],
    threshold: 1e-8,
  });
}

async function measure(backend: BackendName, cellsPerWavelength: number) {
  const spec = slabSpec(cellsPerWavelength);
  const result = await runOn(backend, spec, materials);
  const R = abs2(phasor(result.monitors[0].data.Ey));
  const T = abs2(phasor(result.monitors[1].data.Ey));
  return { spec, R, T };
}

describe("dielectric slab at normal incidence", () => {
  const airyR = airySlabReflectance(N, THICKNESS, WAVELENGTH);

  forEachBackend((backend) => {
    it("R and T within 0.5 % (of the incident power) of Airy at 20 cells per wavelength; R + T = 1 within 0.2 %", async (t) => {
      const { spec, R, T } = await measure(backend, 20);
      t.diagnostic(
        `R ${R.toFixed(5)} (Airy ${airyR.toFixed(5)}, ${fmtRel(R, airyR)}), T ${T.toFixed(5)} (Airy ${(1 - airyR).toFixed(5)}, ${fmtRel(T, 1 - airyR)}), R + T − 1 = ${(R + T - 1).toExponential(2)}`,
      );
      assert.ok(Math.abs(R - airyR) < 0.005, `R ${R} vs Airy ${airyR}`);
      assert.ok(Math.abs(T - (1 - airyR)) < 0.005, `T ${T} vs Airy ${1 - airyR}`);
      assert.ok(Math.abs(R + T - 1) < 0.002, `R + T = ${R + T}`);

      // Against the Yee scheme's own exact answer the solver is exact to 1e-3 relative.
      const sim = new FdtdSimulation(spec, materials);
      const { layout, medium } = sim.model;
      const eps: number[] = [];
      for (let k = 0; k <= layout.n[2]; k++)
        eps.push(medium.epsEff[medium.index[1][layout.index(0, 0, k)]]);
      const discrete = discreteSlabRT(eps, spec.domain.resolution, 0.99 / Math.sqrt(3), WAVELENGTH);
      t.diagnostic(
        `against the discrete Yee solution: R ${fmtRel(R, discrete.R)}, T ${fmtRel(T, discrete.T)}`,
      );
      assert.ok(Math.abs(R / discrete.R - 1) < 1e-3, `R ${R} vs discrete ${discrete.R}`);
      assert.ok(Math.abs(T / discrete.T - 1) < 1e-3, `T ${T} vs discrete ${discrete.T}`);
    });

    it("the error against Airy falls at second order as the grid is refined", async (t) => {
      const errors: number[] = [];
      for (const cells of [20, 40, 80]) {
        const { T } = await measure(backend, cells);
        errors.push(Math.abs(T - (1 - airyR)));
      }
      const order1 = Math.log2(errors[0] / errors[1]);
      const order2 = Math.log2(errors[1] / errors[2]);
      t.diagnostic(
        `|T − Airy| at 20/40/80 cells: ${errors.map((e) => e.toExponential(2)).join(", ")}; orders ${order1.toFixed(2)}, ${order2.toFixed(2)}`,
      );
      assert.ok(
        order1 > 1.5 && order2 > 1.5,
        `observed orders ${order1}, ${order2} (errors ${errors})`,
      );
    });

    it("absorbing slab (ε = 4 + 0.4i as σ = ω0·ε0·Im ε): R and T within 0.5 % of Airy with complex n", async (t) => {
      const eps = { re: 4, im: 0.4 };
      const spec = slabSpec(40);
      const result = await runOn(backend, spec, constantMaterials({ glass: eps }));
      const R = abs2(phasor(result.monitors[0].data.Ey));
      const T = abs2(phasor(result.monitors[1].data.Ey));
      // n = √ε with Im n ≥ 0
      const mod = Math.hypot(eps.re, eps.im);
      const n = { re: Math.sqrt((mod + eps.re) / 2), im: Math.sqrt((mod - eps.re) / 2) };
      const airy = airySlab(n, THICKNESS, WAVELENGTH);
      t.diagnostic(
        `R ${R.toFixed(5)} (Airy ${airy.R.toFixed(5)}), T ${T.toFixed(5)} (Airy ${airy.T.toFixed(5)})`,
      );
      assert.ok(Math.abs(R - airy.R) < 0.005, `R ${R} vs ${airy.R}`);
      assert.ok(Math.abs(T - airy.T) < 0.005, `T ${T} vs ${airy.T}`);
      assert.ok(1 - R - T > 0.05, "the slab absorbs");
      const used = result.materials.find((m) => m.name === "glass")!;
      assert.ok(used.timeDomain === "constant", used.timeDomain);
      const omega0 = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / WAVELENGTH;
      assert.ok(Math.abs(used.conductivitySPerM / (omega0 * EPS0 * 0.4) - 1) < 1e-12);
    });
  });
});
