/**
 * The mode source in a straight slab waveguide, as a cross-section one cell thick (a 2-D
 * problem: the slab invariant along y, periodic there): the power through a plane downstream
 * is the 1 W the source puts into its mode at every wavelength of 1.5–1.6 µm, the power
 * upstream (the mode leaking backwards through the source's plane) is below −40 dB, and the
 * same holds for the mode sent along −z and for the second mode.
 *
 * Measured (wasm, 25 nm): downstream 0.9953–0.9971 W, upstream 1.2e-7 at 1.55 µm and at most
 * 3.7e-5 at the band's edges (it grows as (λ − λ0)²: 1.5e-4 at ±0.1 µm). The 0.4 % below 1 W
 * is the flux monitor's, not the source's: it averages H from the two half planes around its
 * node plane, which reads a wave e^{iβz} as cos(βh/2) of its power (0.9956 for n_eff ≈ 1.85
 * here); a source sending 1 % more or less, or leaking −30 dB, fails. The mode monitors
 * (mode-results.ts) read |a₊|² = 0.99998–1.00000 of the source's mode downstream (bound
 * 1e-4: they undo the half-cell average of H for each mode), at most 7.5e-6 coming back
 * upstream (−51 dB), and nothing in the other mode (of the other parity).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runWithMaterials } from "../run.js";
import { constantMaterials } from "../testing/index.js";
import type {
  AxisDirection,
  FluxMonitorResult,
  ModeMonitorResult,
  SimulationSpec,
} from "../types.js";

const BAND = { start: 1.5e-6, stop: 1.6e-6, points: 5 };
const twoModes = { num_modes: 2, target_neff: null, filter_pol: null };

/**
 * An n = 2 slab 0.6 µm wide (along x) along z in n = 1.45 (cross-section one cell thick), its
 * mode 0 (or `modeIndex`) injected at z = ∓1.5 µm along `direction`, with `monitors`.
 */
function slabSpec(
  direction: AxisDirection,
  monitors: SimulationSpec["monitors"],
  { modeIndex = 0, timeSteps = 40000 } = {},
): SimulationSpec {
  const s = direction[0] === "+" ? 1 : -1;
  return {
    solver: "fdtd",
    domain: {
      size: [3.6e-6, 0.025e-6, 5e-6],
      resolution: 0.025e-6,
      boundary_conditions: ["pml", "periodic", "pml"],
      pml_layers: 12,
    },
    source: {
      source_type: "mode",
      wavelength: 1.55e-6,
      center: [0, 0, -1.5e-6 * s],
      size: [3e-6, 1, 0],
      direction,
      mode_index: modeIndex,
      mode_spec: { num_modes: modeIndex + 1, target_neff: null, filter_pol: null },
    },
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
      { type: "box", center: [0, 0, 0], size: [0.6e-6, 10, 10], material: "core" },
    ],
    monitors,
    fdtd_settings: {
      time_steps: timeSteps,
      courant_factor: 0.99,
      convergence_threshold: 1e-7,
      check_every_n: 500,
    },
  };
}

const slabMaterials = () => constantMaterials({ core: 4, clad: 1.45 ** 2 });

/** The slab's run with flux and mode monitors downstream and upstream of the source. */
function slabRun(
  direction: AxisDirection,
  modeIndex = 0,
): Promise<{ fluxes: FluxMonitorResult[]; modes: ModeMonitorResult[] }> {
  const s = direction[0] === "+" ? 1 : -1;
  const flux = (name: string, z: number) => ({
    name,
    monitor_type: "flux" as const,
    center: [0, 0, z] as [number, number, number],
    size: [3.4e-6, 1, 0] as [number, number, number],
    wavelengths: BAND,
  });
  const spec = slabSpec(
    direction,
    [
      flux("down", 1.5e-6 * s),
      flux("up", -2e-6 * s),
      { ...flux("down_modes", 1.5e-6 * s), monitor_type: "mode", mode_spec: twoModes },
      { ...flux("up_modes", -2e-6 * s), monitor_type: "mode", mode_spec: twoModes },
    ],
    { modeIndex },
  );
  return runWithMaterials(spec, slabMaterials(), { backend: "wasm" }).then((r) => ({
    fluxes: r.fluxMonitors,
    modes: r.modeMonitors ?? [],
  }));
}

const flux = (m: FluxMonitorResult) => Array.from(m.flux as ArrayLike<number>);

for (const [direction, modeIndex] of [
  ["+z", 0],
  ["-z", 0],
  ["+z", 1],
] as const) {
  test(`mode ${modeIndex} along ${direction}: 1 W downstream within 1 % over 1.5–1.6 µm, under −40 dB upstream`, async () => {
    const { fluxes, modes } = await slabRun(direction, modeIndex);
    const [down, up] = fluxes;
    const sign = direction[0] === "+" ? 1 : -1;
    const forward = flux(down!).map((f) => f * sign);
    const backward = flux(up!).map((f) => -f * sign);
    for (const f of forward) assert.ok(Math.abs(f - 1) < 0.01, `forward ${forward.join(", ")}`);
    for (const b of backward) assert.ok(Math.abs(b) < 1e-4, `backward ${backward.join(", ")}`);
    // The mode monitors: downstream all of the power in the source's mode (|a|² = 1), none in
    // the other; upstream nothing coming back.
    const power = (amps: Float64Array, w: number, k: number) =>
      amps[2 * (w * 2 + k)]! ** 2 + amps[2 * (w * 2 + k) + 1]! ** 2;
    const [downModes, upModes] = modes;
    const [along, against] =
      sign > 0 ? [downModes!.forward, upModes!.backward] : [downModes!.backward, upModes!.forward];
    for (let w = 0; w < 5; w++) {
      assert.ok(
        Math.abs(power(along, w, modeIndex) - 1) < 2e-3,
        `|a|² ${power(along, w, modeIndex)}`,
      );
      assert.ok(
        power(along, w, 1 - modeIndex) < 1e-4,
        `other mode ${power(along, w, 1 - modeIndex)}`,
      );
      assert.ok(power(against, w, modeIndex) < 1e-4, `upstream ${power(against, w, modeIndex)}`);
    }
  });
}

test("a high-contrast slab's fourth mode (E in the plane): under −60 dB upstream over 1.5–1.6 µm", async () => {
  // Its n_eff moves by several per cent over the band: injecting the mode at λ0 alone, with
  // the same E/H ratio at every frequency, sent −34 dB of it back at the band's edges
  // (an outside probe); with the H terms' spectral factor (mode-impedance.ts) about −78 dB.
  const wavelengths = [1.5e-6, 1.525e-6, 1.55e-6, 1.575e-6, 1.6e-6];
  const modeSpec = { num_modes: 4, target_neff: null, filter_pol: null };
  const monitor = (name: string, z: number) => ({
    name,
    monitor_type: "mode" as const,
    center: [0, 0, z] as [number, number, number],
    size: [3e-6, 1, 0] as [number, number, number],
    wavelengths,
    mode_spec: modeSpec,
  });
  const base = slabSpec("+z", [monitor("down", 1.5e-6), monitor("up", -2e-6)], { modeIndex: 3 });
  const spec: SimulationSpec = {
    ...base,
    domain: { ...base.domain, size: [4e-6, 0.02e-6, 5e-6], resolution: 0.02e-6, pml_layers: 20 },
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
      { type: "box", center: [0, 0, 0], size: [0.48e-6, 10, 10], material: "core" },
    ],
  };
  const materials = constantMaterials({ core: 3.45 ** 2, clad: 1.45 ** 2 });
  const r = await runWithMaterials(spec, materials, { backend: "wasm" });
  const [down, up] = r.modeMonitors!;
  const power = (amps: Float64Array, w: number) =>
    amps[2 * (w * 4 + 3)]! ** 2 + amps[2 * (w * 4 + 3) + 1]! ** 2;
  // n_eff 3.23, 3.10, 2.52, 1.95 at 1.55 µm: the fourth is the second with E along x.
  assert.ok(Math.abs(down!.nEff[2 * 4 + 3]! - 1.954) < 0.01, `n_eff ${Array.from(down!.nEff)}`);
  for (let w = 0; w < wavelengths.length; w++) {
    assert.ok(Math.abs(power(down!.forward, w) - 1) < 1e-4, `|a|² ${power(down!.forward, w)}`);
    assert.ok(
      power(up!.backward, w) < 1e-6,
      `upstream ${power(up!.backward, w)} at ${wavelengths[w]}`,
    );
  }
});

test("a mode monitor's evanescent modes carry no power: no amplitudes for them, and a note", async () => {
  // A monitor two cells wide inside the core holds no guided mode: its second mode is past
  // cut-off (n_eff ≈ 0, k_eff ≈ 8), whose fields "for 1 W" read about 1e15 W of it (an outside
  // audit). Its amplitudes are NaN (null in the job record), and the run says why.
  const narrow = {
    name: "narrow",
    monitor_type: "mode" as const,
    center: [0, 0, 1.5e-6] as [number, number, number],
    size: [0.05e-6, 1, 0] as [number, number, number],
    wavelengths: [1.55e-6],
    mode_spec: twoModes,
  };
  const spec = slabSpec("+z", [narrow], { timeSteps: 1000 });
  const r = await runWithMaterials(spec, slabMaterials(), { backend: "wasm" });
  const m = r.modeMonitors![0]!;
  const evanescent = [0, 1].filter((k) => m.nEff[k]! < Math.abs(m.kEff[k]!));
  assert.ok(evanescent.length > 0, `n_eff ${Array.from(m.nEff)}, k_eff ${Array.from(m.kEff)}`);
  for (let k = 0; k < 2; k++) {
    const amps = [m.forward[2 * k], m.forward[2 * k + 1], m.backward[2 * k], m.backward[2 * k + 1]];
    if (evanescent.includes(k))
      assert.ok(amps.every(Number.isNaN), `mode ${k}: ${amps.join(", ")}`);
    else assert.ok(amps.every(Number.isFinite), `mode ${k}: ${amps.join(", ")}`);
  }
  const note = r.report.notes.find((n) => n.startsWith('mode monitor "narrow"'));
  assert.match(note ?? r.report.notes.join("\n"), /evanescent .*carries no power/);
});
