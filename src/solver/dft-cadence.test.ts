/**
 * The monitors' DFT sampled every k-th step (dft-cadence.ts): the interval chosen, and
 * phasors equal to the every-step DFT to the float32 noise floor of the time series (which
 * decimation folds in k − 1 more times), while sampling beyond Nyquist is wrong by O(1).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import { runWithMaterials } from "./run.js";
import { FdtdSimulation } from "./simulation.js";
import { pulseFor } from "./sources/pulse.js";
import { constantMaterials, lineSpec, pointMonitor, slab } from "./testing/index.js";
import { dftSampleInterval } from "./dft-cadence.js";

const WAVELENGTH = 1e-6;

describe("DFT sampling interval", () => {
  it("samples as far apart as Nyquist allows for the pulse's band, dividing check_every_n", () => {
    const pulse = pulseFor(WAVELENGTH, [WAVELENGTH]);
    const dt = (0.99 * (WAVELENGTH / 20)) / (SPEED_OF_LIGHT_M_PER_S * Math.sqrt(3));
    // Sampling rate 2π/(k·dt) above ω_max + ω0 + 9.6/τ (aliases beyond the envelope's 1e-10).
    const nyquistOk = (k: number, omegaMax: number, p = pulse) =>
      (2 * Math.PI) / (k * dt) >= omegaMax + p.omega0 + 9.6 / p.tau;
    const k = dftSampleInterval(pulse, [pulse.omega0], dt, 200);
    assert.ok(k >= 8 && 200 % k === 0 && nyquistOk(k, pulse.omega0), `k = ${k}`);
    assert.equal(k % 4, 0, "a multiple of the fast kernel's steps per sweep");
    // Shorter wavelengths among the monitors sample more often.
    const wide = [0.7, 1, 1.4].map((f) => f * WAVELENGTH);
    const widePulse = pulseFor(WAVELENGTH, wide);
    const omegas = wide.map((w) => (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / w);
    const kWide = dftSampleInterval(widePulse, omegas, dt, 200);
    assert.ok(kWide <= k && nyquistOk(kWide, Math.max(...omegas), widePulse), `k ${kWide}`);
    assert.ok(!nyquistOk(2 * k, pulse.omega0), "twice the interval would alias");
    // A prime check interval leaves only k = 1; never more than the check interval.
    assert.equal(dftSampleInterval(pulse, [pulse.omega0], dt, 97), 1);
    assert.ok(dftSampleInterval(pulse, [pulse.omega0], dt / 10, 6) <= 6);
  });

  it("gives the every-step phasors to 2e-6 of their peak on a slab, at three wavelengths", async (t) => {
    const spec = lineSpec({
      axis: 2,
      wavelengthM: WAVELENGTH,
      stepM: WAVELENGTH / 24,
      lengthM: 3 * WAVELENGTH,
      structures: [slab(2, -0.25e-6, 0.3e-6, "glass")],
      monitors: [
        pointMonitor("r", 2, -1.2e-6, ["Ey", "Hx"], [0.9e-6, 1e-6, 1.15e-6]),
        pointMonitor("t", 2, 1.2e-6, ["Ey", "Hx"], [0.9e-6, 1e-6, 1.15e-6]),
      ],
      threshold: 0,
      timeSteps: 3000,
      checkEvery: 200,
    });
    const materials = constantMaterials({ glass: 2.5 });
    const k = new FdtdSimulation(spec, materials).dftEvery;
    assert.ok(k > 5, `k = ${k}`);
    const every = await runWithMaterials(spec, materials, { dftEvery: 1 });
    const sampled = await runWithMaterials(spec, materials);
    let worst = 0;
    for (let m = 0; m < 2; m++) {
      for (const comp of ["Ey", "Hx"] as const) {
        const a = every.monitors[m].data[comp]!;
        const b = sampled.monitors[m].data[comp]!;
        let peak = 0;
        for (const v of a) peak = Math.max(peak, Math.abs(v));
        for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / peak);
      }
    }
    t.diagnostic(`k = ${k}: largest difference ${worst.toExponential(2)} of the peak`);
    assert.ok(worst < 2e-6, `${worst}`);
    // Sampling at twice the carrier frequency folds ω0 onto itself: errors of order 1.
    const sim = new FdtdSimulation(spec, materials);
    const kAlias = Math.round(Math.PI / (sim.source.pulse.omega0 * sim.plan.dtSeconds));
    const aliased = await runWithMaterials(spec, materials, { dftEvery: kAlias });
    const a = every.monitors[1].data.Ey!;
    const b = aliased.monitors[1].data.Ey!;
    assert.ok(Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) > 1e-2 * Math.hypot(a[0], a[1]));
  });
});
