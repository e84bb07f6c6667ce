/**
 * A dielectric sphere's differential scattering cross-section from a far-field monitor against
 * the Mie series (docs/validation.md, far-field monitors): the sphere of n = 2, r = 0.2 µm
 * (the Mie tests' dielectric case) under the plane wave along +z polarised along y, a
 * far-field box and a flux box 4 cells outside it, the far field's radiant intensity U(θ, φ)
 * (the scattered field's: the run removes the incident one) over the incident irradiance the
 * flux box reports, dσ/dΩ = U / I_inc, next to mieDifferentialCrossSection's.
 *
 *   node --import tsx scripts/validation/far-field-mie.ts [step_nm] [base_nm] [backend]
 *
 * With `base_nm` (larger than `step_nm`) the grid has that step and a mesh override refines it
 * to `step_nm` over the sphere and both boxes. `backend` (`reference`, `wasm`, `webgpu`) runs
 * on that backend and fails rather than fall back; without it the run takes what `auto` picks.
 * Prints, per wavelength, a markdown table over θ = 0–180° in the E-plane (φ = 90°, the plane
 * of E and the propagation direction) and the H-plane (φ = 0°): dσ/dΩ, Mie's, the error
 * relative to Mie at that angle and relative to Mie's peak (θ = 0); then ∫ dσ/dΩ dΩ over a
 * 5° grid against the flux box's C_sca and Mie's. The test suite runs the 10 nm case
 * (src/solver/far-field-mie.test.ts); this script is for finer grids.
 */
import { mieDifferentialCrossSection, mieSphere } from "../../src/solver/analytic/mie.js";
import { integrateOverSphere } from "../../src/solver/far-field.js";
import type { BackendName } from "../../src/solver/backend-names.js";
import { describeAdapter, initSolverBackend } from "../../src/solver/index.js";
import { mieSpec, type MieCaseSpec } from "../../src/solver/testing/mie-case.js";
import { runOn } from "../../src/solver/testing/run-on.js";

const SPHERE: MieCaseSpec = {
  material: "n2",
  index: 2,
  radiusM: 0.2e-6,
  band: { start: 0.5e-6, stop: 0.8e-6, points: 3 },
  stepNm: 10,
};
const WAVELENGTHS_M = [0.5e-6, 0.6e-6, 0.8e-6];
const THETA_DEG = Array.from({ length: 19 }, (_, i) => 10 * i);
const DEG = Math.PI / 180;

const stepNm = Number(process.argv[2] ?? 10);
const baseNm = Number(process.argv[3] ?? stepNm);
const backend = await initSolverBackend((process.argv[4] as BackendName | undefined) ?? "auto");
const ranOn = backend.adapter
  ? `${backend.name} (${describeAdapter(backend.adapter)})`
  : backend.name;

const spec = mieSpec(SPHERE, stepNm * 1e-9, baseNm * 1e-9);
const box = spec.monitors[0]!;
box.wavelengths = WAVELENGTHS_M;
spec.monitors.push(
  {
    name: "planes",
    monitor_type: "far_field",
    center: box.center,
    size: box.size,
    wavelengths: WAVELENGTHS_M,
    theta_deg: THETA_DEG,
    phi_deg: [0, 90],
  },
  {
    name: "sphere",
    monitor_type: "far_field",
    center: box.center,
    size: box.size,
    wavelengths: WAVELENGTHS_M,
    theta_deg: { start: 0, stop: 180, points: 37 },
    phi_deg: { start: 0, stop: 355, points: 72 },
  },
);
const started = performance.now();
const result = await runOn(backend.name, spec);
const seconds = (performance.now() - started) / 1000;
const grid = baseNm > stepNm ? `${baseNm} nm grid refined to ${stepNm} nm` : `${stepNm} nm grid`;
const report = result.report;
console.log(
  `# n = 2, r = 0.2 µm, ${grid}: ${report.grid.join(" × ")} cells, ${report.stepsRun} steps, ` +
    `${seconds.toFixed(0)} s on ${ranOn}\n`,
);

const flux = result.fluxMonitors.find((f) => f.name === "box")!;
const planes = result.farFieldMonitors.find((f) => f.name === "planes")!;
const sphere = result.farFieldMonitors.find((f) => f.name === "sphere")!;
const pct = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(100 * v).toFixed(2)}`;
let worstPeak = 0;
WAVELENGTHS_M.forEach((wavelengthM, w) => {
  const irradiance = flux.incidentIntensityWPerM2![w]!;
  const mie = mieSphere(SPHERE.radiusM, wavelengthM, 2);
  // The wave's E is along y: φ = 90° is the E-plane, φ measured from E is φ − 90°.
  const mieAt = (phiFromE: number) =>
    mieDifferentialCrossSection(
      SPHERE.radiusM,
      wavelengthM,
      2,
      THETA_DEG.map((t) => ({ thetaRad: t * DEG, phiRad: phiFromE })),
    );
  const exact = { E: mieAt(0), H: mieAt(-Math.PI / 2) };
  const peak = exact.E[0]!;
  const fdtd = (p: number) =>
    THETA_DEG.map(
      (_, t) => planes.radiantIntensity[(w * THETA_DEG.length + t) * 2 + p]! / irradiance,
    );
  const got = { E: fdtd(1), H: fdtd(0) };
  console.log(
    `## λ = ${(wavelengthM * 1e6).toFixed(2)} µm, x = ${mie.sizeParameter.toFixed(3)}: ` +
      `dσ/dΩ in 10⁻¹⁵ m²/sr, errors in % of Mie at the angle / of Mie's peak\n`,
  );
  console.log("| θ (°) | E-plane | Mie | error | of peak | H-plane | Mie | error | of peak |");
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  THETA_DEG.forEach((theta, t) => {
    const cells = (["E", "H"] as const).map((plane) => {
      const [g, e] = [got[plane][t]!, exact[plane][t]!];
      worstPeak = Math.max(worstPeak, Math.abs(g - e) / peak);
      return `${(g * 1e15).toFixed(3)} | ${(e * 1e15).toFixed(3)} | ${pct(g / e - 1)} | ${pct((g - e) / peak)}`;
    });
    console.log(`| ${theta} | ${cells.join(" | ")} |`);
  });
  const n = sphere.thetaDeg.length * sphere.phiDeg.length;
  const total =
    integrateOverSphere(
      sphere.radiantIntensity.subarray(w * n, (w + 1) * n),
      sphere.thetaDeg.map((t) => t * DEG),
      sphere.phiDeg.map((p) => p * DEG),
    ) / irradiance;
  console.log(
    `\n∫ dσ/dΩ dΩ = ${(total * 1e15).toFixed(2)}e-15 m²: ${pct(total / flux.crossSections!.scattering[w]! - 1)} % ` +
      `from the flux box's C_sca, ${pct(total / mie.cScaM2 - 1)} % from Mie's\n`,
  );
});
console.log(`worst error over both planes and every wavelength: ${pct(worstPeak)} % of the peak`);
