/**
 * The far field of a 2-D cross-section (far-field-cross-section.ts) against a line source's
 * analytic pattern: a row of point dipoles H apart (periodic, one cell thick along y) radiates
 * in vacuum, per period, P = η0·k0·(I·ℓ)²/(8H) for a moment along the row and half that across
 * it (dipole-vacuum-power.ts). Along the row the line's pattern is isotropic in the x–z
 * plane, U = P/(2π) W/rad; across it (along x) it is U = (P/π)·cos²θ (zero along ±x), so
 * that ∫U dφ over the plane is P either way. The flux box around the same source reads the
 * same power, and √ρ·E is the line's, phase included.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ETA0 } from "./constants.js";
import { checkSimulation } from "./entry-points.js";
import { inCrossSectionPlane } from "./far-field-cross-section.js";
import { runWithMaterials } from "./run.js";
import { constantMaterials, crossSectionSpec } from "./testing/index.js";
import type {
  FarFieldMonitorSpec,
  FieldComponent,
  SolverResult,
  SimulationSpec,
  Vec3,
} from "./types.js";

const H = 1e-6 / 30;
const BAND = [0.9e-6, 1e-6, 1.1e-6];
const MOMENT = 1e-8;
const THETA = Array.from({ length: 37 }, (_, i) => 5 * i);

function spec(
  polarization: FieldComponent,
  far: Partial<FarFieldMonitorSpec> = {},
): SimulationSpec {
  const box = { center: [0, 0, 0] as Vec3, size: [0.6e-6, H, 0.6e-6] as Vec3, wavelengths: BAND };
  return crossSectionSpec({
    stepM: H,
    widthM: 1e-6,
    heightM: 1e-6,
    source: {
      source_type: "point_dipole",
      wavelength: 1e-6,
      center: [0, 0, 0],
      polarization,
      amplitude: MOMENT,
    },
    monitors: [
      { name: "box", monitor_type: "flux", ...box },
      {
        name: "far",
        monitor_type: "far_field",
        ...box,
        theta_deg: THETA,
        phi_deg: [0, 180],
        ...far,
      },
    ],
  });
}

/** The row's power per period in vacuum: along the row, or across it (half). */
const rowPower = (wavelength: number, along: boolean) =>
  (ETA0 * ((2 * Math.PI) / wavelength) * MOMENT ** 2) / (8 * H) / (along ? 1 : 2);

/** ∫U dφ over the x–z plane from the φ = 0° and 180° halves (trapezoids in θ). */
function planePower(u: Float64Array, w: number): number {
  const n = THETA.length;
  const step = (5 * Math.PI) / 180;
  let sum = 0;
  for (const p of [0, 1]) {
    for (let t = 0; t + 1 < n; t++) {
      sum += (step * (u[(w * n + t) * 2 + p]! + u[(w * n + t + 1) * 2 + p]!)) / 2;
    }
  }
  return sum;
}

async function run(s: SimulationSpec): Promise<SolverResult> {
  return runWithMaterials(s, constantMaterials({}), { backend: "wasm" });
}

describe("the far field of a 2-D cross-section", () => {
  it("a row of dipoles along the row radiates P/(2π) W/rad in every direction of the plane", async () => {
    const r = await run(spec("Ey"));
    const far = r.farFieldMonitors[0]!;
    assert.equal(far.crossSectionAxis, 1);
    for (const [w, wl] of BAND.entries()) {
      const expected = rowPower(wl, true) / (2 * Math.PI);
      for (let d = 0; d < 2 * THETA.length; d++) {
        const ratio = far.radiantIntensity[w * 2 * THETA.length + d]! / expected;
        assert.ok(Math.abs(ratio - 1) < 0.02, `λ ${wl}, direction ${d}: U/U_line = ${ratio}`);
      }
      const box = r.fluxMonitors[0]!.powerW![w]!;
      const integral = planePower(far.radiantIntensity, w);
      assert.ok(Math.abs(integral / box - 1) < 0.01, `λ ${wl}: ∫U dφ ${integral} W, box ${box} W`);
    }
    // √ρ·E at ρ = 1 m, phase included: the line current I = m/H radiates
    // E_y = −(k·η0·I/4)·H₀⁽¹⁾(kρ) → −(k·η0·I/4)·√(2/(πkρ))·e^{i(kρ − π/4)}, which is E_φ at
    // φ = 0° and −E_φ at 180° (φ̂ = ±ŷ there).
    for (const [w, wl] of BAND.entries()) {
      const k = (2 * Math.PI) / wl;
      const size = ((k * ETA0 * MOMENT) / (4 * H)) * Math.sqrt(2 / (Math.PI * k));
      for (let d = 0; d < 2 * THETA.length; d++) {
        const along = d % 2 === 0 ? 1 : -1;
        const o = 2 * (w * 2 * THETA.length + d);
        const [re, im] = [along * far.ePhi[o]!, along * far.ePhi[o + 1]!];
        const turn = Math.atan2(im, re) - Math.atan2(size * Math.SQRT1_2, -size * Math.SQRT1_2);
        assert.ok(
          Math.abs(Math.hypot(re, im) / size - 1) < 0.02,
          `λ ${wl}, ${d}: |E| ${Math.hypot(re, im)}`,
        );
        assert.ok(
          Math.abs(Math.atan2(Math.sin(turn), Math.cos(turn))) < 0.02,
          `λ ${wl}, ${d}: phase off by ${turn}`,
        );
      }
    }
    // U = L·(|E_θ|² + |E_φ|²)/(2η0) per period L = H.
    far.radiantIntensity.forEach((u, d) => {
      const e2 =
        far.eTheta[2 * d]! ** 2 +
        far.eTheta[2 * d + 1]! ** 2 +
        far.ePhi[2 * d]! ** 2 +
        far.ePhi[2 * d + 1]! ** 2;
      assert.ok(Math.abs((H * e2) / (2 * ETA0) / u - 1) < 1e-9, `direction ${d}`);
    });
  });

  it("a row of dipoles across it (along x) radiates (P/π)·cos²θ, none along ±x", async () => {
    const r = await run(spec("Ex"));
    const far = r.farFieldMonitors[0]!;
    for (const [w, wl] of BAND.entries()) {
      const peak = rowPower(wl, false) / Math.PI;
      THETA.forEach((theta, t) => {
        const expected = peak * Math.cos((theta * Math.PI) / 180) ** 2;
        for (const p of [0, 1]) {
          const u = far.radiantIntensity[(w * THETA.length + t) * 2 + p]!;
          assert.ok(
            Math.abs(u - expected) < 0.02 * peak,
            `λ ${wl}, θ ${theta}°: ${u} vs ${expected}`,
          );
        }
      });
      const box = r.fluxMonitors[0]!.powerW![w]!;
      const integral = planePower(far.radiantIntensity, w);
      assert.ok(Math.abs(integral / box - 1) < 0.01, `λ ${wl}: ∫U dφ ${integral} W, box ${box} W`);
    }
  });

  it("thin along z, the pattern lies in the x–y plane (θ = 90°): a row along z reads P/(2π) all round", async () => {
    const s = spec("Ez");
    s.domain.size = [1e-6, 1e-6, H];
    s.domain.boundary_conditions = ["pml", "pml", "periodic"];
    const phiDeg = Array.from({ length: 72 }, (_, i) => 5 * i);
    s.monitors = s.monitors.map((m) => ({
      ...m,
      size: [0.6e-6, 0.6e-6, H],
      ...(m.monitor_type === "far_field" ? { theta_deg: [90], phi_deg: phiDeg } : {}),
    }));
    assert.deepEqual(checkSimulation(s), []);
    const far = (await run(s)).farFieldMonitors[0]!;
    assert.equal(far.crossSectionAxis, 2);
    for (const [w, wl] of BAND.entries()) {
      const expected = rowPower(wl, true) / (2 * Math.PI);
      for (let p = 0; p < phiDeg.length; p++) {
        const ratio = far.radiantIntensity[w * phiDeg.length + p]! / expected;
        assert.ok(Math.abs(ratio - 1) < 0.02, `λ ${wl}, φ ${phiDeg[p]}°: U/U_line = ${ratio}`);
      }
    }
  });

  it("refuses directions off the plane, a surface that does not span the period, and a conical plane wave", () => {
    const paths = (s: SimulationSpec) => checkSimulation(s).map((p) => `${p.path}: ${p.message}`);
    assert.deepEqual(paths(spec("Ey")), []);
    const off = paths(spec("Ey", { phi_deg: [0, 90] }));
    assert.equal(off.length, 1);
    assert.match(
      off[0]!,
      /^monitors\[1\]\.phi_deg: .*φ = 0° or 180° \(the x–z plane\).*\(5°, 90°\)/,
    );
    const flat = paths(spec("Ey", { size: [0.6e-6, 0, 0.6e-6] }));
    assert.match(flat.join("\n"), /^monitors\[1\]\.size\[1\]: .*spans the period along y/);
    const conical = spec("Ey");
    conical.source = {
      source_type: "plane_wave",
      wavelength: 1e-6,
      polarization: "te",
      direction: [0, 0.3, 1],
      amplitude: 1,
    };
    conical.monitors = conical.monitors.slice(1);
    assert.match(paths(conical).join("\n"), /monitors\[0\]\.monitor_type: .*component along y/);
    // In a metal (gold: Re ε < 0 at 1 µm) or a conductor no wave carries the far field.
    for (const material of ["Au", "PEC", "SiO2"]) {
      const inside = spec("Ey");
      inside.structures = [{ type: "box", center: [0, 0, 0], size: [5, 5, 5], material }];
      const found = paths(inside).filter((p) => p.startsWith("monitors[1].center"));
      assert.equal(found.length, material === "SiO2" ? 0 : 1, `${material}: ${found}`);
    }
  });

  it("takes a direction as in the plane by θ = 90° (thin z) or by φ (thin x, y), the poles in both", () => {
    assert.ok(inCrossSectionPlane(2, 90, 37));
    assert.ok(!inCrossSectionPlane(2, 89, 0));
    assert.ok(inCrossSectionPlane(1, 30, 180) && inCrossSectionPlane(1, 30, -180));
    assert.ok(!inCrossSectionPlane(1, 30, 90));
    assert.ok(inCrossSectionPlane(0, 120, 270) && !inCrossSectionPlane(0, 120, 0));
    assert.ok(inCrossSectionPlane(0, 0, 0) && inCrossSectionPlane(1, 180, 45));
  });
});
