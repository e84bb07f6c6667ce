/**
 * The library's dispersive materials through the public solver, one run over a band each,
 * against analytic spectra (docs/validation.md, issue 14's bounds):
 *  - a Si3N4 slab's T(λ) over 1.3–1.7 µm every 20 nm against the Airy formula with the
 *    library's published n(λ) at each wavelength: within 0.5 % of the incident power;
 *  - a 100 nm gold film's reflectance over 0.6–1.6 µm against the transfer-matrix method with
 *    the same material model: within 1 %;
 *  - a 40 nm TiN film's R and T over 0.45–1.55 µm (across its ε = 0 crossing at 0.49 µm) against
 *    the transfer-matrix method with the same model: within 1 %; and at one wavelength, 0.45 µm,
 *    where Re ε > 0, still stepped with its poles.
 * Periodic cross-sections one cell wide: 1-D problems. On every backend (testing/backends.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { multilayer } from "../analytic/tmm.js";
import type { BackendName } from "../backend.js";
import { referenceStepsAsWasm, forEachBackend, leftOutOn, runOn } from "../testing/backends.js";
import { refractiveIndexAt } from "../materials.js";
import { airySlab, fluxPlane, lineSpec, slab } from "../testing/index.js";
import type { WavelengthRange } from "../types.js";

/**
 * The gold film at 1 nm cells runs 100 000 steps (the cap); a software GPU adapter takes 1–3 ms
 * a step whatever the grid (docs/validation.md lists the exceptions). On a GPU it runs.
 */
const GOLD_TOO_SLOW = {
  webgpu: "the gold film runs 100 000 steps: 268 s on the software adapter here",
  reference: referenceStepsAsWasm("17 s"),
};
/** The TiN film on a software adapter; the Lorentz slab (ade.test.ts) checks the ADE there. */
const TIN_TOO_SLOW = {
  webgpu: "29 s on the software adapter here; the Lorentz slab (ade.test.ts) runs the ADE on it",
};

/** R and T of a free-standing film of a library material by the transfer-matrix method. */
/** R and T of a free-standing film of index n + ik by the transfer-matrix method. */
function filmTmm(n: { n: number; k: number }, thicknessM: number, wavelengthM: number) {
  return multilayer({
    wavelengthM,
    incidentIndex: 1,
    layers: [{ index: { re: n.n, im: n.k }, thicknessM }],
    substrateIndex: 1,
  });
}

const wavelengthsOf = (band: WavelengthRange) =>
  Array.from(
    { length: band.points },
    (_, i) => band.start + ((band.stop - band.start) * i) / (band.points - 1),
  );

async function spectrum(
  backend: BackendName,
  material: string,
  thicknessM: number,
  stepM: number,
  sourceM: number,
  band: WavelengthRange,
  threshold = 1e-9,
) {
  const length = 2e-6;
  const spec = lineSpec({
    axis: 2,
    wavelengthM: sourceM,
    stepM,
    lengthM: length,
    structures: [slab(2, -thicknessM / 2, thicknessM / 2, material)],
    monitors: [fluxPlane("R", 2, -0.8e-6, band), fluxPlane("T", 2, 0.8e-6, band)],
    threshold,
  });
  const result = await runOn(backend, spec);
  const flux = (name: string) => result.fluxMonitors.find((f) => f.name === name)!.flux;
  return { R: flux("R"), T: flux("T"), result };
}

/** docs/validation.md, "Every check on every backend". */
const SI3N4_TOO_SLOW = {
  webgpu:
    "62 s on the software adapter here; the dispersive Lorentz slab (dispersion/ade) and the TiN film run on it",
};

describe("dispersive library materials against analytic spectra", () => {
  forEachBackend((backend) => {
    it(
      "Si3N4 slab, 1.3–1.7 µm every 20 nm in one run: T within 0.5 % of Airy with n(λ)",
      leftOutOn(backend, SI3N4_TOO_SLOW),
      async (t) => {
        const band = { start: 1.3e-6, stop: 1.7e-6, points: 21 };
        const thickness = 0.8e-6;
        const { T, R, result } = await spectrum(backend, "Si3N4", thickness, 10e-9, 1.5e-6, band);
        assert.equal(result.materials.find((m) => m.name === "Si3N4")?.timeDomain, "poles");
        // No note may say the band saw one ε (the note written before dispersion was).
        assert.ok(!result.report.notes.some((n) => /dispersion|source wavelength/.test(n)));
        let worst = 0;
        wavelengthsOf(band).forEach((w, i) => {
          const n = refractiveIndexAt("Si3N4", w);
          const airy = airySlab({ re: n.n, im: n.k }, thickness, w);
          worst = Math.max(worst, Math.abs(T[i] - airy.T), Math.abs(R[i] - airy.R));
        });
        t.diagnostic(`worst |ΔT|, |ΔR| against Airy: ${worst.toExponential(2)}`);
        assert.ok(worst <= 0.005, `worst |ΔT|, |ΔR| ${worst}`);
        // The fringes move with n(λ): a constant index at 1.5 µm would miss by far more.
        let constant = 0;
        const n0 = refractiveIndexAt("Si3N4", 1.5e-6).n;
        wavelengthsOf(band).forEach((w, i) => {
          constant = Math.max(
            constant,
            Math.abs(T[i] - airySlab({ re: n0, im: 0 }, thickness, w).T),
          );
        });
        t.diagnostic(`with n fixed at 1.5 µm instead: ${constant.toExponential(2)}`);
        assert.ok(constant > 2 * worst, `dispersion must matter here (${constant} vs ${worst})`);
      },
    );

    it(
      "100 nm gold film, 0.6–1.6 µm in one run: R within 1 % of the transfer-matrix result",
      leftOutOn(backend, GOLD_TOO_SLOW),
      async (t) => {
        const band = { start: 0.6e-6, stop: 1.6e-6, points: 11 };
        const thickness = 100e-9;
        const { R, T, result } = await spectrum(backend, "Au", thickness, 1e-9, 0.9e-6, band);
        assert.equal(result.materials.find((m) => m.name === "Au")?.timeDomain, "poles");
        let worst = 0;
        wavelengthsOf(band).forEach((w, i) => {
          const tmm = filmTmm(refractiveIndexAt("Au", w), thickness, w);
          worst = Math.max(worst, Math.abs(R[i] - tmm.R), Math.abs(T[i] - tmm.T));
          assert.ok(Math.abs(R[i] - tmm.R) <= 0.01, `R ${R[i]} vs ${tmm.R} at ${w}`);
          assert.ok(Math.abs(T[i] - tmm.T) <= 0.01, `T ${T[i]} vs ${tmm.T} at ${w}`);
        });
        t.diagnostic(
          `worst |ΔR|, |ΔT| against the transfer-matrix method: ${worst.toExponential(2)}`,
        );
      },
    );

    it(
      "40 nm TiN film, 0.45–1.55 µm in one run: R and T within 1 % of the transfer-matrix result",
      leftOutOn(backend, TIN_TOO_SLOW),
      async (t) => {
        // 2 nm cells: the skin depth λ/(4πk) is 12–16 nm over the band. Threshold 1e-7: R and T
        // move by under 1e-5 after that (18 000 steps rather than the 100 000-step cap).
        const band = { start: 0.45e-6, stop: 1.55e-6, points: 12 };
        const thickness = 40e-9;
        const { R, T, result } = await spectrum(
          backend,
          "TiN",
          thickness,
          2e-9,
          0.75e-6,
          band,
          1e-7,
        );
        assert.equal(result.materials.find((m) => m.name === "TiN")?.timeDomain, "poles");
        let worst = 0;
        let constant = 0;
        const n0 = refractiveIndexAt("TiN", 0.75e-6);
        wavelengthsOf(band).forEach((w, i) => {
          const tmm = filmTmm(refractiveIndexAt("TiN", w), thickness, w);
          worst = Math.max(worst, Math.abs(R[i] - tmm.R), Math.abs(T[i] - tmm.T));
          // The film as a constant ε (its value at the source wavelength) instead of its poles.
          const fixed = filmTmm(n0, thickness, w);
          constant = Math.max(constant, Math.abs(R[i] - fixed.R));
        });
        t.diagnostic(
          `worst |ΔR|, |ΔT| against the transfer-matrix method: ${worst.toExponential(2)}`,
        );
        t.diagnostic(`with ε fixed at 0.75 µm instead: ${constant.toExponential(2)}`);
        assert.ok(worst <= 0.01, `worst |ΔR|, |ΔT| ${worst}`);
        assert.ok(constant > 0.1, `dispersion must matter here (${constant})`);

        // One wavelength, 0.45 µm, where Re ε = +1.6: a metal all the same (a Drude pole), so
        // stepped with its poles, not as a constant.
        const single = await spectrum(
          backend,
          "TiN",
          thickness,
          2e-9,
          0.45e-6,
          {
            start: 0.45e-6,
            stop: 0.45e-6,
            points: 1,
          },
          1e-7,
        );
        const info = single.result.materials.find((m) => m.name === "TiN")!;
        assert.ok(info.timeDomain === "poles", info.timeDomain);
        assert.ok(info.permittivity[0] > 1, `Re ε(0.45 µm) = ${info.permittivity[0]}`);
        const tmm = filmTmm(refractiveIndexAt("TiN", 0.45e-6), thickness, 0.45e-6);
        assert.ok(Math.abs(single.R[0] - tmm.R) <= 0.01, `R ${single.R[0]} vs ${tmm.R}`);
        assert.ok(Math.abs(single.T[0] - tmm.T) <= 0.01, `T ${single.T[0]} vs ${tmm.T}`);
      },
    );
  });
});
