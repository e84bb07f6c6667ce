/**
 * The Gaussian beam against the exact propagation of the profile it injects (beam-profile.ts):
 * the second-moment width of |E|² at the focus and one Rayleigh range past it, the peak |E| at
 * the focus (the normalisation), and a 45° beam's centroid along its direction. Mirror planes
 * through the beam's axis cut the grid (te along z: E ∥ y, odd about y = 0, even about x = 0).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { runWithMaterials } from "../run.js";
import { constantMaterials } from "../testing/index.js";
import type {
  GaussianBeamSpec,
  MonitorResult,
  MonitorSpec,
  SimulationSpec,
  Vec3,
} from "../types.js";
import { beamFields, beamWidth, rayleighRange, type GaussianBeam } from "./beam-profile.js";

function beamRun(
  source: GaussianBeamSpec,
  size: Vec3,
  stepM: number,
  monitors: MonitorSpec[],
  symmetry: SimulationSpec["domain"]["symmetry"],
): Promise<MonitorResult[]> {
  const spec: SimulationSpec = {
    solver: "fdtd",
    domain: {
      size,
      resolution: stepM,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 12,
      symmetry,
    },
    source,
    structures: [],
    monitors,
    fdtd_settings: {
      time_steps: 20000,
      courant_factor: 0.99,
      convergence_threshold: 1e-5,
      check_every_n: 200,
    },
  };
  return runWithMaterials(spec, constantMaterials({}), { backend: "wasm" }).then((r) => r.monitors);
}

/** |E|² per sample of a plane monitor normal to z (one wavelength), with the sample's x, y. */
function intensity(m: MonitorResult): { x: number; y: number; i: number }[] {
  const out: { x: number; y: number; i: number }[] = [];
  const ny = m.y.length;
  m.x.forEach((x, a) => {
    m.y.forEach((y, b) => {
      let i = 0;
      for (const c of ["Ex", "Ey", "Ez"] as const) {
        const d = m.data[c]!;
        i += d[2 * (a * ny + b)]! ** 2 + d[2 * (a * ny + b) + 1]! ** 2;
      }
      out.push({ x, y, i });
    });
  });
  return out;
}

/** √(2⟨ρ²⟩) of |E|² about (x0, 0), and the centroid's x. */
function moments(samples: { x: number; y: number; i: number }[]): { width: number; x: number } {
  let total = 0;
  let mx = 0;
  for (const s of samples) {
    total += s.i;
    mx += s.i * s.x;
  }
  const x = mx / total;
  let r2 = 0;
  for (const s of samples) r2 += s.i * ((s.x - x) ** 2 + s.y ** 2);
  return { width: Math.sqrt((2 * r2) / total), x };
}

const plane = (name: string, z: number, half: number): MonitorSpec => ({
  name,
  monitor_type: "field",
  center: [0, 0, z],
  size: [2 * half, 2 * half, 0],
  components: ["Ex", "Ey", "Ez"],
});

it("Gaussian beam (w0 = 1.5 µm at 1.55 µm): widths at the focus and at z_R within 1 % of the exact beam, peak |E| = amplitude", async () => {
  const [lambda, w0, h] = [1.55e-6, 1.5e-6, 1.55e-6 / 20];
  const beam: GaussianBeam = {
    direction: [0, 0, 1],
    focus: [0, 0, 0],
    waistRadius: w0,
    wavelength: lambda,
    index: 1,
    polarization: "te",
    amplitude: 2,
  };
  const zR = rayleighRange(beam);
  const half = 3 * w0;
  const source: GaussianBeamSpec = {
    source_type: "gaussian_beam",
    wavelength: lambda,
    center: [0, 0, -0.8e-6],
    size: [2 * half, 2 * half, 0],
    direction: [0, 0, 1],
    polarization: "te",
    waist_radius: w0,
    waist_distance: 0.8e-6,
    amplitude: 2,
  };
  const monitors = await beamRun(
    source,
    [2 * half, 2 * half, 2 * (zR + 0.6e-6)],
    h,
    [plane("focus", 0, half - 2 * h), plane("zR", zR, half - 2 * h)],
    ["pmc", "pec", "none"],
  );
  const focus = intensity(monitors[0]!);
  const far = intensity(monitors[1]!);
  const cases: [string, number, { x: number; y: number; i: number }[]][] = [
    ["focus", 0, focus],
    ["z_R", zR, far],
  ];
  for (const [name, s, samples] of cases) {
    const exact = beamWidth(beam, s).radiusM;
    const got = moments(samples).width;
    assert.ok(Math.abs(got / exact - 1) < 0.01, `width at ${name}: ${got} vs exact ${exact}`);
  }
  // The samples nearest the axis sit half a cell off it: |E| = A·exp(−ρ²/w0²) there.
  const peak = Math.sqrt(Math.max(...focus.map((f) => f.i)));
  const expected = 2 * Math.exp(-(2 * (h / 2) ** 2) / w0 ** 2);
  assert.ok(Math.abs(peak / expected - 1) < 0.02, `peak |E| ${peak} vs ${expected}`);
});

it("Gaussian beam at 45°: its centroid follows its direction within one cell per 10 µm", async () => {
  const [lambda, w0, h] = [1e-6, 1e-6, 1e-6 / 12];
  // Injected on z = −0.75 µm at x = −0.75 µm along (1, 0, 1), focused at the origin: the
  // axis is x = z. The plane is 7 µm wide, so it holds the oblique footprint whole.
  const source: GaussianBeamSpec = {
    source_type: "gaussian_beam",
    wavelength: lambda,
    center: [-0.75e-6, 0, -0.75e-6],
    size: [7e-6, 5e-6, 0],
    direction: [1, 0, 1],
    polarization: "te",
    waist_radius: w0,
    waist_distance: 0.75e-6 * Math.SQRT2,
    amplitude: 1,
  };
  const at = [0, 1.5e-6];
  const monitors = await beamRun(
    source,
    [9e-6, 5e-6, 4.5e-6],
    h,
    at.map((z, i) => ({
      name: `z${i}`,
      monitor_type: "field",
      center: [z, 0, z],
      size: [4.5e-6, 4.5e-6, 0],
      components: ["Ex", "Ey", "Ez"],
    })),
    ["none", "pec", "none"],
  );
  // The exact beam's centroid on the same samples (a tilted cut sees a skewed spot).
  const beam: GaussianBeam = {
    direction: [Math.SQRT1_2, 0, Math.SQRT1_2],
    focus: [0, 0, 0],
    waistRadius: w0,
    wavelength: lambda,
    index: 1,
    polarization: "te",
    amplitude: 1,
  };
  monitors.forEach((m) => {
    const samples = intensity(m);
    const points = new Float64Array(samples.flatMap((p) => [p.x, p.y, m.z[0]!]));
    const { e } = beamFields(beam, points);
    const exact = samples.map((p, q) => ({
      ...p,
      i: Array.from(e.subarray(6 * q, 6 * q + 6)).reduce((sum, v) => sum + v * v, 0),
    }));
    const [got, want] = [moments(samples).x, moments(exact).x];
    const travelled = Math.SQRT2 * (m.z[0]! + 0.75e-6);
    const allowed = Math.max(1, travelled / 10e-6) * h;
    assert.ok(
      Math.abs(got - want) < allowed,
      `centroid at z = ${m.z[0]}: x = ${got}, exact ${want}, allowed ±${allowed}`,
    );
  });
});
