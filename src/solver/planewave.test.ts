/**
 * Plane wave in vacuum: the monitors must read E = A·p̂·e^{ik·r} with the exact k (the
 * normalisation makes the phase zero at the origin). Grid: 60 cells per wavelength, where the
 * Yee scheme's own phase error at S = 0.99 is (k·dx)²(1 − S²/3)/24 ≈ 3.1e-4 rad/rad, i.e.
 * 0.33° over 3 wavelengths; a solver with a wrong sign, a wrong normalisation or a leaky source
 * fails the 0.1 % / 0.5° tolerances by far. On every backend (testing/backends.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planeWaveGeometry } from "./sources/plane-wave.js";
import { forEachBackend, runOn } from "./testing/backends.js";
import { constantMaterials, lineSpec } from "./testing/index.js";
import type { FieldComponent, PlaneWaveSpec, Vec3 } from "./types.js";

const WAVELENGTH = 1e-6;
const STEP = WAVELENGTH / 60;

/** docs/validation.md, "Every check on every backend". */
const VACUUM_TOO_SLOW = {
  webgpu:
    "ten 3-D runs: 47 s on the software adapter here; webgpu/agreement.test.ts checks the WGSL kernels against the reference backend",
};

describe("plane wave in vacuum", () => {
  forEachBackend((backend) => {
    for (const axis of [0, 1, 2]) {
      for (const pol of ["te", "tm"] as const) {
        for (const sign of [1, -1]) {
          if (sign < 0 && pol === "tm") continue; // one backward case per axis is enough
          const name = `${sign > 0 ? "+" : "−"}${"xyz"[axis]} ${pol}`;
          it(`${name}: |E| = A within 0.1 %, phase k·r within 0.5° over 3 wavelengths`, async (t) => {
            const direction: Vec3 = [0, 0, 0];
            direction[axis] = sign;
            const size: Vec3 = [0, 0, 0];
            size[axis] = 3 * WAVELENGTH;
            const amplitude = 2.5;
            const spec = lineSpec({
              axis,
              wavelengthM: WAVELENGTH,
              stepM: STEP,
              lengthM: 4 * WAVELENGTH,
              polarization: pol,
              direction,
              amplitude,
              monitors: [
                {
                  name: "line",
                  monitor_type: "field",
                  center: [0, 0, 0],
                  size,
                  components: ["Ex", "Ey", "Ez"],
                },
              ],
            });
            const result = await runOn(backend, spec, constantMaterials({}));
            assert.equal(result.report.converged, true);
            const m = result.monitors[0];
            const coords = [m.x, m.y, m.z][axis];
            assert.ok(coords.length >= 180, "the line spans 3 wavelengths");
            const p = planeWaveGeometry(spec.source as PlaneWaveSpec).polarization;
            const k = (2 * Math.PI) / WAVELENGTH;
            let worstAmp = 0;
            let worstPhaseDeg = 0;
            let worstCross = 0;
            (["Ex", "Ey", "Ez"] as FieldComponent[]).forEach((c, ci) => {
              const data = m.data[c]!;
              for (let i = 0; i < coords.length; i++) {
                const re = data[2 * i];
                const im = data[2 * i + 1];
                if (p[ci] === 0) {
                  worstCross = Math.max(worstCross, Math.hypot(re, im) / amplitude);
                  continue;
                }
                // E / (A·p_c·e^{ikr}) should be 1.
                const phase = k * sign * coords[i];
                const er = (re * Math.cos(phase) + im * Math.sin(phase)) / (amplitude * p[ci]);
                const ei = (im * Math.cos(phase) - re * Math.sin(phase)) / (amplitude * p[ci]);
                worstAmp = Math.max(worstAmp, Math.abs(Math.hypot(er, ei) - 1));
                worstPhaseDeg = Math.max(
                  worstPhaseDeg,
                  Math.abs((Math.atan2(ei, er) * 180) / Math.PI),
                );
              }
            });
            t.diagnostic(
              `max amplitude error ${worstAmp.toExponential(2)}, max phase error ${worstPhaseDeg.toFixed(3)}°, cross-polarised ${worstCross.toExponential(1)}`,
            );
            assert.ok(worstAmp < 1e-3, `amplitude error ${worstAmp}`);
            assert.ok(worstPhaseDeg < 0.5, `phase error ${worstPhaseDeg}°`);
            assert.ok(worstCross < 1e-4, `cross-polarised field ${worstCross}`);
          });
        }
      }
    }
  }, VACUUM_TOO_SLOW);
});
