/**
 * Multi-wavelength monitors: a Fabry–Pérot spectrum and the group velocity of a pulse.
 *
 * - Fabry–Pérot: a 3 µm slab of n = 2 in vacuum transmits fully at λ_m = 2nd/m (1714.29,
 *   1500, 1333.33 nm for m = 7, 8, 9). 64 wavelengths equally spaced in frequency over
 *   1.3–1.75 µm; peaks located by a parabola through the three samples around each maximum
 *   (the same finder on the exact Airy curve is off by < 0.03 nm). 100 cells per wavelength at
 *   1.55 µm in the slab: the Yee phase error (k·dz)²(1 − S²)/24 ≈ 1.6e-4 shifts peaks by
 *   ≈ 0.25 nm, inside the 0.5 nm tolerance.
 * - Group velocity: in a non-dispersive dielectric n_g = n. Two monitors inside a half-space
 *   record E at λ0·(1 + i·1 %)⁻¹, i = −2…2; v_g = Δz / (dφ/dω) with φ the phase of E(z2)/E(z1).
 *   Compared with c/n (no grid dispersion, 0.1 %) and with the Yee scheme's own group velocity
 *   v_g = (c/n)·cos(k·dz/2)/cos(ω·dt/2), where sin(k·dz/2)/dz = n·sin(ω·dt/2)/(c·dt) (0.02 %).
 * Both on every backend (testing/backends.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SPEED_OF_LIGHT_M_PER_S as C } from "./constants.js";
import { forEachBackend, runOn } from "./testing/backends.js";
import {
  airySlabReflectance,
  constantMaterials,
  lineSpec,
  pointMonitor,
  slab,
} from "./testing/index.js";

const LAMBDA0 = 1.55e-6;
const N = 2;
const materials = constantMaterials({ glass: N * N });

/** Wavelengths of local maxima, refined by a parabola in frequency through 3 samples. */
function peakWavelengths(wavelengths: number[], values: number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < values.length - 1; i++) {
    if (!(values[i] > values[i - 1] && values[i] >= values[i + 1])) continue;
    const [fa, fb] = [1 / wavelengths[i - 1], 1 / wavelengths[i]];
    const [ya, yb, yc] = [values[i - 1], values[i], values[i + 1]];
    const shift = ((fb - fa) * (ya - yc)) / (2 * (ya - 2 * yb + yc));
    out.push(1 / (fb + shift));
  }
  return out;
}

/** docs/validation.md, "Every check on every backend". */
const SPECTRA_TOO_SLOW = {
  webgpu:
    "21 s on the software adapter here; webgpu/agreement.test.ts checks the WGSL kernels against the reference backend (3-wavelength monitors) and flux.test.ts's lossless slab over a band runs on it",
};

describe("multi-wavelength monitors", () => {
  forEachBackend((backend) => {
    it("Fabry–Pérot transmission peaks within 0.5 nm and FSR within 1 % of theory", async (t) => {
      const d = 3e-6;
      const step = LAMBDA0 / (N * 100);
      const length = d + 1.2e-6;
      const fLo = 1 / 1.75e-6;
      const fHi = 1 / 1.3e-6;
      const wavelengths = Array.from({ length: 64 }, (_, i) => 1 / (fLo + ((fHi - fLo) * i) / 63));
      const spec = lineSpec({
        axis: 2,
        wavelengthM: LAMBDA0,
        stepM: step,
        lengthM: length,
        structures: [slab(2, -d / 2, d / 2, "glass")],
        monitors: [pointMonitor("t", 2, length / 2 - step / 2, ["Ey"], wavelengths)],
        threshold: 1e-7,
        checkEvery: 1000,
      });
      const result = await runOn(backend, spec, materials);
      const m = result.monitors[0];
      assert.deepEqual(m.shape, [64, 1, 1, 1]);
      assert.deepEqual(m.wavelengthsM, wavelengths);
      const data = m.data.Ey!;
      const T = wavelengths.map((_, i) => data[2 * i] ** 2 + data[2 * i + 1] ** 2);
      // The whole spectrum follows Airy.
      wavelengths.forEach((w, i) => {
        const airyT = 1 - airySlabReflectance(N, d, w);
        assert.ok(Math.abs(T[i] - airyT) < 0.005, `T(${w}) = ${T[i]} vs ${airyT}`);
      });
      const peaks = peakWavelengths(wavelengths, T); // ascending frequency: 1714, 1500, 1333 nm
      const theory = [7, 8, 9].map((order) => (2 * N * d) / order);
      assert.equal(peaks.length, 3, `peaks ${peaks}`);
      t.diagnostic(
        `peaks ${peaks.map((p, i) => `${(p * 1e9).toFixed(3)} nm (theory ${(theory[i] * 1e9).toFixed(3)})`).join(", ")}; FSR ${((peaks[0] - peaks[1]) * 1e9).toFixed(3)} / ${((peaks[1] - peaks[2]) * 1e9).toFixed(3)} nm (theory ${((theory[0] - theory[1]) * 1e9).toFixed(3)} / ${((theory[1] - theory[2]) * 1e9).toFixed(3)})`,
      );
      peaks.forEach((p, i) => {
        assert.ok(Math.abs(p - theory[i]) < 0.5e-9, `peak ${p * 1e9} nm vs ${theory[i] * 1e9} nm`);
      });
      for (let i = 0; i < 2; i++) {
        const fsr = peaks[i] - peaks[i + 1];
        const fsrTheory = theory[i] - theory[i + 1];
        assert.ok(Math.abs(fsr / fsrTheory - 1) < 0.01, `FSR ${fsr} vs ${fsrTheory}`);
      }
    });

    it("group velocity in a dielectric within 0.1 % of c/n (and 0.02 % of the Yee prediction)", async (t) => {
      const step = LAMBDA0 / (N * 100);
      const wavelengths = [-2, -1, 0, 1, 2].map((i) => LAMBDA0 / (1 + i * 0.01));
      const spec = lineSpec({
        axis: 2,
        wavelengthM: LAMBDA0,
        stepM: step,
        lengthM: 4e-6,
        structures: [slab(2, 0, 10, "glass")], // a half-space, through the absorber
        monitors: [
          pointMonitor("a", 2, 0.5e-6, ["Ey"], wavelengths),
          pointMonitor("b", 2, 1.5e-6, ["Ey"], wavelengths),
        ],
        threshold: 1e-7,
        checkEvery: 500,
      });
      const result = await runOn(backend, spec, materials);
      const [A, B] = result.monitors;
      const dz = B.z[0] - A.z[0];
      const omega = A.frequenciesHz.map((f) => 2 * Math.PI * f);
      const phase = wavelengths.map((_, i) => {
        const [ar, ai] = [A.data.Ey![2 * i], A.data.Ey![2 * i + 1]];
        const [br, bi] = [B.data.Ey![2 * i], B.data.Ey![2 * i + 1]];
        const p = Math.atan2(bi * ar - br * ai, br * ar + bi * ai);
        const estimate = ((N * omega[i]) / C) * dz; // unwrap with the expected k·Δz
        return p + 2 * Math.PI * Math.round((estimate - p) / (2 * Math.PI));
      });
      // Fourth-order central difference of φ(ω) at ω0 (the samples are equally spaced in ω).
      const h = omega[3] - omega[2];
      const dPhi = (8 * (phase[3] - phase[1]) - (phase[4] - phase[0])) / (12 * h);
      const vg = dz / dPhi;
      assert.ok(Math.abs(vg / (C / N) - 1) < 1e-3, `v_g ${vg} vs c/n ${C / N}`);
      const S = 0.99 / Math.sqrt(3);
      const dt = (S * step) / C;
      const k = (2 * Math.asin((N * Math.sin((omega[2] * dt) / 2)) / S)) / step;
      const vgYee = ((C / N) * Math.cos((k * step) / 2)) / Math.cos((omega[2] * dt) / 2);
      t.diagnostic(
        `v_g ${(vg / (C / N) - 1) * 100 >= 0 ? "+" : ""}${((vg / (C / N) - 1) * 100).toFixed(4)} % from c/n, ${((vg / vgYee - 1) * 100).toFixed(4)} % from the Yee prediction`,
      );
      assert.ok(Math.abs(vg / vgYee - 1) < 2e-4, `v_g ${vg} vs Yee ${vgYee}`);
    });
  }, SPECTRA_TOO_SLOW);
});
