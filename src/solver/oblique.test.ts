/**
 * Oblique incidence (Bloch-periodic, complex fields) and the CPML.
 *
 * - Fresnel: 45° on a half-space of n = 2 (it continues through the absorber), te and tm,
 *   at 60 cells per wavelength in the dielectric. Reference: r_s = (cos θ − n cos θt)/(cos θ +
 *   n cos θt), r_p = (n cos θ − cos θt)/(n cos θ + cos θt); the reflected field is the whole
 *   field upstream of the TFSF plane.
 * - CPML: in vacuum everything upstream of the source plane is the absorber's reflection.
 *   The auxiliary line that feeds the TFSF plane has a thick absorber of its own, so the
 *   main grid's reflection is not cancelled by an identical one in the incident field.
 *
 * Every check runs on every backend (testing/backends.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planeWaveGeometry } from "./sources/plane-wave.js";
import type { BackendName } from "./backend.js";
import { forEachBackend, runOn } from "./testing/backends.js";
import { abs2, constantMaterials, lineSpec, phasor, pointMonitor, slab } from "./testing/index.js";
import type { FieldComponent, SolverResult, Vec3 } from "./types.js";

const WAVELENGTH = 1e-6;
const LENGTH = 2e-6;
const materials = constantMaterials({ glass: 4 });

function reflectedPower(result: SolverResult): number {
  const d = result.monitors[0].data;
  return abs2(phasor(d.Ex)) + abs2(phasor(d.Ey)) + abs2(phasor(d.Ez));
}

async function reflectance(
  backend: BackendName,
  opts: {
    pol: "te" | "tm";
    angleDeg: number;
    step: number;
    halfSpace: boolean;
  },
): Promise<number> {
  const th = (opts.angleDeg * Math.PI) / 180;
  const direction: Vec3 = [Math.sin(th), 0, Math.cos(th)];
  const spec = lineSpec({
    axis: 2,
    wavelengthM: WAVELENGTH,
    stepM: opts.step,
    lengthM: LENGTH,
    polarization: opts.pol,
    direction,
    amplitude: 1,
    structures: opts.halfSpace ? [slab(2, 0, 10, "glass")] : [],
    monitors: [
      pointMonitor("r", 2, -LENGTH / 2 + opts.step / 2, ["Ex", "Ey", "Ez"]),
      // Downstream: holds the incident wave, so the convergence test (relative to all
      // monitors) has a meaningful scale even when the reflection is at the noise level.
      pointMonitor("t", 2, LENGTH / 4, ["Ex", "Ey", "Ez"]),
    ],
    threshold: 1e-7,
    checkEvery: 500,
  });
  const result = await runOn(backend, spec, materials);
  assert.equal(result.report.converged, true, "converged");
  return reflectedPower(result);
}

/** docs/validation.md, "Every check on every backend". */
const HALF_SPACE_TOO_SLOW = {
  webgpu:
    "22 s on the software adapter here; flux.test.ts's Fresnel check runs on the reference and wasm backends, webgpu/agreement.test.ts checks the WGSL kernels against the reference backend (Bloch about x, y, z)",
};

describe("oblique incidence at 45° on a dielectric half-space (n = 2)", () => {
  forEachBackend((backend) => {
    const n = 2;
    const c = Math.cos(Math.PI / 4);
    const ct = Math.sqrt(1 - 0.5 / (n * n));
    const fresnel = {
      te: ((c - n * ct) / (c + n * ct)) ** 2,
      tm: ((n * c - ct) / (n * c + ct)) ** 2,
    };
    for (const pol of ["te", "tm"] as const) {
      it(`${pol}: reflectance within 1 % of Fresnel (${fresnel[pol].toFixed(5)})`, async (t) => {
        const R = await reflectance(backend, {
          pol,
          angleDeg: 45,
          step: WAVELENGTH / (n * 60),
          halfSpace: true,
        });
        t.diagnostic(
          `R ${R.toFixed(5)}, ${((R / fresnel[pol] - 1) * 100).toFixed(3)} % from Fresnel`,
        );
        assert.ok(Math.abs(R / fresnel[pol] - 1) < 0.01, `R ${R} vs Fresnel ${fresnel[pol]}`);
      });
    }
  }, HALF_SPACE_TOO_SLOW);
});

describe("CPML reflection with the default 12 layers (20 cells per wavelength)", () => {
  forEachBackend((backend) => {
    for (const [angle, limitDb] of [
      [0, -40],
      [45, -30],
    ] as const) {
      for (const pol of ["te", "tm"] as const) {
        it(`${angle}° ${pol}: below ${limitDb} dB`, async (t) => {
          const R = await reflectance(backend, {
            pol,
            angleDeg: angle,
            step: WAVELENGTH / 20,
            halfSpace: false,
          });
          const db = 10 * Math.log10(R);
          t.diagnostic(`reflection ${db.toFixed(1)} dB`);
          assert.ok(db < limitDb, `${db.toFixed(1)} dB`);
        });
      }
    }
  });
});

/** docs/validation.md, "Every check on every backend". */
const OBLIQUE_TOO_SLOW = {
  webgpu:
    "six 3-D runs: 21 s on the software adapter here; webgpu/agreement.test.ts checks the WGSL kernels against the reference backend (oblique about x, y, z)",
};

describe("oblique plane waves in vacuum read A·p̂·e^{ik·r}", () => {
  forEachBackend((backend) => {
    const cases: [string, Vec3][] = [
      ["30° in x–z", [0.5, 0, Math.sqrt(3) / 2]],
      ["3-D oblique, backwards along z", [0.3, 0.4, -Math.sqrt(0.75)]],
      ["x dominant, tilted towards z", [0.9, 0, 0.3]],
    ];
    for (const [name, direction] of cases) {
      for (const pol of ["te", "tm"] as const) {
        it(`${name}, ${pol}: amplitude within 0.1 %, phase within 0.5°, E ⟂ k`, async (t) => {
          const step = WAVELENGTH / 40;
          const g = planeWaveGeometry({
            source_type: "plane_wave",
            wavelength: WAVELENGTH,
            polarization: pol,
            direction,
            amplitude: 1,
          });
          const size: Vec3 = [0, 0, 0];
          size[g.axis] = 1.5 * WAVELENGTH;
          const spec = lineSpec({
            axis: g.axis,
            wavelengthM: WAVELENGTH,
            stepM: step,
            lengthM: 2.5 * WAVELENGTH,
            polarization: pol,
            direction,
            amplitude: 1,
            monitors: [
              {
                name: "line",
                monitor_type: "field",
                center: [0, 0, 0],
                size,
                components: ["Ex", "Ey", "Ez"],
              },
            ],
            threshold: 1e-6,
            checkEvery: 500,
          });
          const result = await runOn(backend, spec, materials);
          const m = result.monitors[0];
          const k = (2 * Math.PI) / WAVELENGTH;
          const count = [m.x, m.y, m.z][g.axis].length;
          let worstAmp = 0;
          let worstPhase = 0;
          for (let i = 0; i < count; i++) {
            const r = [
              m.x[g.axis === 0 ? i : 0],
              m.y[g.axis === 1 ? i : 0],
              m.z[g.axis === 2 ? i : 0],
            ];
            const kr = k * (g.direction[0] * r[0] + g.direction[1] * r[1] + g.direction[2] * r[2]);
            (["Ex", "Ey", "Ez"] as FieldComponent[]).forEach((c, ci) => {
              const p = g.polarization[ci];
              const data = m.data[c]!;
              const [re, im] = [data[2 * i], data[2 * i + 1]];
              if (Math.abs(p) < 1e-3) {
                worstAmp = Math.max(worstAmp, Math.hypot(re, im));
                return;
              }
              const er = (re * Math.cos(kr) + im * Math.sin(kr)) / p;
              const ei = (im * Math.cos(kr) - re * Math.sin(kr)) / p;
              worstAmp = Math.max(worstAmp, Math.abs(Math.hypot(er, ei) - 1) * Math.abs(p));
              worstPhase = Math.max(worstPhase, Math.abs((Math.atan2(ei, er) * 180) / Math.PI));
            });
          }
          t.diagnostic(
            `max amplitude error ${worstAmp.toExponential(2)} A, max phase error ${worstPhase.toFixed(3)}°`,
          );
          assert.ok(worstAmp < 1e-3, `amplitude error ${worstAmp}`);
          assert.ok(worstPhase < 0.5, `phase error ${worstPhase}°`);
        });
      }
    }
  }, OBLIQUE_TOO_SLOW);
});
