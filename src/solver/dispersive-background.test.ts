/**
 * Sources and projections in a background stepped with its dispersion (poles): what they
 * compute from the medium must be its ε at their wavelength, not the ε∞ of its model
 * (entry-permittivity.ts). The background here is a Lorentz medium, ε = 1 + 1.1·ω0²/(ω0² − ω²)
 * with ω0 at 0.3 µm: ε∞ = 1, ε(1 µm) = 2.209, ε(1.55 µm) = 2.151.
 *
 * - A 2-D Gaussian beam's profile is the beam of that medium: the power through a plane
 *   downstream is the beam's own within 1.5 % (0.993; computed for ε∞, 1.036: not a beam of the medium,
 *   and the TFSF plane launches it both ways).
 * - A far-field projection uses the medium's k = n(λ)·2π/λ: moving a line source by d along x
 *   turns E at φ = 0° by e^{−ik·d}, and its background permittivity is ε(λ) at every λ.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import { permittivity, type PoleModel } from "./dispersion/model.js";
import { runWithMaterials } from "./run.js";
import { crossSectionSpec, poleMaterials } from "./testing/index.js";
import type { SimulationSpec, StructureSpec } from "./types.js";

const LORENTZ: PoleModel = {
  epsInf: 1,
  sigma: 0,
  poles: [
    {
      kind: "lorentz",
      deltaEps: 1.1,
      omega0: (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / 0.3e-6,
      gamma: 0,
    },
  ],
};
const MATERIALS = poleMaterials({ lorentz: LORENTZ });
const BACKGROUND: StructureSpec[] = [
  { type: "box", center: [0, 0, 0], size: [1, 1, 1], material: "lorentz" },
];
const epsAt = (wavelength: number) =>
  permittivity(LORENTZ, (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / wavelength).re;

function beamSpec(): SimulationSpec {
  const [lambda, w0] = [1.55e-6, 1.5e-6];
  const h = lambda / 40;
  return crossSectionSpec({
    stepM: h,
    widthM: 10e-6,
    heightM: 6e-6,
    source: {
      source_type: "gaussian_beam",
      wavelength: lambda,
      center: [0, 0, -2e-6],
      size: [9e-6, 0, 0],
      direction: [0, 0, 1],
      polarization: "te",
      waist_radius: w0,
      waist_distance: 2e-6,
      amplitude: 1,
    },
    structures: BACKGROUND,
    monitors: [
      {
        name: "power",
        monitor_type: "flux",
        center: [0, 0, 2e-6],
        size: [10e-6, h, 0],
        wavelengths: [lambda],
      },
    ],
  });
}

const H = 1e-6 / 30;
const BAND = [0.95e-6, 1e-6, 1.05e-6];

function lineSpec(x: number): SimulationSpec {
  return crossSectionSpec({
    stepM: H,
    widthM: 1.2e-6,
    heightM: 1.2e-6,
    source: {
      source_type: "point_dipole",
      wavelength: 1e-6,
      center: [x, 0, 0],
      polarization: "Ey",
      amplitude: 1e-8,
    },
    structures: BACKGROUND,
    monitors: [
      {
        name: "far",
        monitor_type: "far_field",
        center: [0, 0, 0],
        size: [0.8e-6, H, 0.8e-6],
        wavelengths: BAND,
        theta_deg: [90],
        phi_deg: [0],
      },
    ],
  });
}

describe("a background stepped with its dispersion", () => {
  it("a 2-D Gaussian beam in it carries its own power through a plane downstream", async () => {
    const r = await runWithMaterials(beamSpec(), MATERIALS, { backend: "wasm" });
    const ratio = r.fluxMonitors[0]!.flux[0]!;
    assert.ok(Math.abs(ratio - 1) < 0.015, `power over the beam's: ${ratio}`);
  });

  it("a far-field projection in it uses k = n(λ)·2π/λ: a line moved by d turns E by e^{−ik·d}", async () => {
    const d = 3 * H;
    const [at0, moved] = await Promise.all(
      [0, d].map((x) => runWithMaterials(lineSpec(x), MATERIALS, { backend: "wasm" })),
    );
    const [a, b] = [at0.farFieldMonitors[0]!, moved.farFieldMonitors[0]!];
    for (const [w, wl] of BAND.entries()) {
      assert.ok(Math.abs(a.backgroundEps[w]! / epsAt(wl) - 1) < 1e-12, `ε at ${wl}`);
      // E_θ at θ = 90°, φ = 0° (E along −z there is E_θ; the moment is along y: E_φ).
      const [ar, ai, br, bi] = [
        a.ePhi[2 * w]!,
        a.ePhi[2 * w + 1]!,
        b.ePhi[2 * w]!,
        b.ePhi[2 * w + 1]!,
      ];
      const turn = Math.atan2(bi * ar - br * ai, br * ar + bi * ai);
      const expected = (-2 * Math.PI * Math.sqrt(epsAt(wl)) * d) / wl;
      assert.ok(
        Math.abs(turn - expected) < 0.03,
        `λ ${wl}: turned ${turn} rad, e^{−ik·d} ${expected}`,
      );
      assert.ok(Math.abs(Math.hypot(br, bi) / Math.hypot(ar, ai) - 1) < 0.03, `λ ${wl}: |E| moved`);
    }
  });
});
