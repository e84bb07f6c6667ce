/**
 * A 3-D straight silicon wire (500 × 220 nm in silica, the guide) between two ports,
 * on a quarter of the grid (mirror planes x = 0, pec, and y = 0, pmc: the TE0 mode's E_x is
 * normal to x = 0 and even, tangential to y = 0 and even): |S21|² ≥ 0.995 and |S11|² ≤ 1e-4
 * at 1.5, 1.55 and 1.6 µm, the matrix reciprocal. The mode source and monitors solve their
 * planes with the run's mirror walls, so TE0 is the quarter's first mode. Measured (wasm,
 * 40 nm, 4 s for both runs): |S21|² 0.99963–0.99989, |S11|² ≤ 1.3e-6, |S12 − S21| ≤ 2e-8,
 * n_eff 2.4449 at 1.55 µm (MPB's converged value 2.4455).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runPorts } from "./ports.js";
import { runWithMaterials } from "./run.js";
import { constantMaterials } from "./testing/index.js";
import type { PortSpec, SimulationSpec } from "./types.js";

const modeSpec = { num_modes: 1, target_neff: null, filter_pol: null };
const port = (name: string, z: number, direction: "+z" | "-z"): PortSpec => ({
  name,
  center: [0, 0, z],
  size: [1.6e-6, 1.2e-6, 0],
  direction,
  mode_spec: modeSpec,
});

const spec: SimulationSpec = {
  solver: "fdtd",
  domain: {
    size: [2e-6, 1.6e-6, 2.4e-6],
    resolution: 40e-9,
    boundary_conditions: ["pml", "pml", "pml"],
    pml_layers: 10,
    symmetry: ["pec", "pmc", "none"],
  },
  source: {
    source_type: "ports",
    wavelength: 1.55e-6,
    wavelengths: [1.5e-6, 1.55e-6, 1.6e-6],
    run_ports: ["o1", "o2"],
  },
  ports: [port("o1", -0.8e-6, "+z"), port("o2", 0.8e-6, "-z")],
  structures: [
    { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "oxide" },
    { type: "box", center: [0, 0, 0], size: [0.5e-6, 0.22e-6, 10], material: "silicon" },
  ],
  monitors: [],
  fdtd_settings: {
    time_steps: 20000,
    courant_factor: 0.99,
    convergence_threshold: 1e-6,
    check_every_n: 500,
  },
};

test("3-D Si wire between two ports, quarter grid: |S21|² ≥ 0.995, |S11|² ≤ 1e-4, reciprocal", async () => {
  const materials = constantMaterials({ silicon: 3.476 ** 2, oxide: 1.444 ** 2 });
  const result = await runPorts(
    spec,
    (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }),
    {},
  );
  const sm = result.sMatrix!;
  const W = sm.wavelengthsM.length;
  const at = (o: number, i: number, w: number): [number, number] => [
    sm.s[2 * ((o * 2 + i) * W + w)]!,
    sm.s[2 * ((o * 2 + i) * W + w) + 1]!,
  ];
  const p = (z: [number, number]) => z[0] ** 2 + z[1] ** 2;
  for (let w = 0; w < W; w++) {
    assert.ok(p(at(1, 0, w)) >= 0.995 && p(at(1, 0, w)) <= 1.001, `|S21|² ${p(at(1, 0, w))}`);
    assert.ok(p(at(0, 0, w)) <= 1e-4, `|S11|² ${p(at(0, 0, w))}`);
    const [s21, s12] = [at(1, 0, w), at(0, 1, w)];
    assert.ok(Math.hypot(s21[0] - s12[0], s21[1] - s12[1]) < 1e-3);
  }
  // TE0 of the wire: n_eff between the oxide's and silicon's, near the converged 2.44.
  assert.ok(Math.abs(sm.nEff[1]! - 2.44) < 0.05, `n_eff ${sm.nEff[1]}`);
});
