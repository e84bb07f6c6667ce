/**
 * A 2 × 2 directional coupler's S-matrix (2-D: one periodic cell along z, E_z the guides'
 * field), every port run. Two 0.22 µm Si strips (n 3.45) in SiO2 (n 1.45), 0.2 µm apart over
 * 1 µm, led to their ports by cosine S-bends to centres ±0.8 µm, 3 µm long on the left and
 * 2.5 µm on the right: mirror-symmetric about y = 0 but not about x, so that S_ij = S_ji is
 * Lorentz reciprocity's (ε symmetric, the FDTD's update a symmetric operator) and not the
 * geometry's (a device symmetric both ways maps S13 onto S31 by its 180° turn). Ports as
 * gdsfactory numbers them: o1 lower left, o2 upper left, o3 upper right, o4 lower right; each
 * port's plane covers its own guide's half of the cross-section (docs/ports.md). The guides
 * are single-mode in 2-D (TE1 of the E_z slab guide is cut off below 1.38 µm; with 0.4 µm
 * guides and a 0.1 µm gap the S-bends put 4–6 % into TE1, which the TE0 ports do not count).
 *
 * Asserted, over 1.5–1.6 µm with the source at 1.55 µm (40 nm cells, wasm):
 * - reciprocity, max |S_ij − S_ji| over every pair: below 1e-5 at 1.55 µm (measured 7.8e-7)
 *   and 1e-3 at the band's edges (measured 2.1e-4 at 1.5 µm, 1.3e-4 at 1.6 µm). With the
 *   source at 1.5 µm instead, 1.5 µm is reciprocal to 1e-5 and 1.6 µm is off by 2.5e-4: the
 *   error follows the distance from the source's wavelength. Our reading: a mode source
 *   injects its mode at λ0 at every wavelength (sources/mode.ts); a(ω) of it is the mode at
 *   ω, by which the run normalises, and the rest, not guided, is launched too and reaches
 *   the other ports differently for each input.
 * - the mirror symmetry, S31 = S42, S41 = S32, S13 = S24, S14 = S23, S11 = S22, S21 = S12,
 *   within 1e-5 (measured 2.4e-7);
 * - power: 0.99 ≤ Σ_j |S_j1|² ≤ 1.001 (measured 0.995–0.996; the rest is radiated in the bends);
 * - a coupler's split: the cross port takes 10–90 % of what leaves (measured 20–29 %).
 * A wrong sign of a port's direction, a port's mode taken from the other guide, a monitor on
 * the wrong side of its source or a normalisation that differs between ports breaks these by
 * far more.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runPorts } from "./ports.js";
import { runWithMaterials } from "./run.js";
import { constantMaterials } from "./testing/index.js";
import type { PortSpec, SimulationSpec } from "./types.js";

const STEP_M = 40e-9;
const WIDTH_M = 0.22e-6;
const GAP_M = 0.2e-6;
const Y_IN_M = (WIDTH_M + GAP_M) / 2;
const Y_OUT_M = 0.8e-6;
const PORT_X_M = 4.3e-6;
const HALF_Y_M = 1.6e-6;

/**
 * The upper guide's centreline: straight at Y_OUT, a cosine S-bend in to Y_IN over 3 µm, the
 * coupling region x = −0.75 … 0.25 µm, a 2.5 µm S-bend out (smallest radii 3.1 and 2.1 µm),
 * so that the ports at ±4.3 µm sit 0.55 and 1.55 µm from the bends.
 */
function upperCentreline(): [number, number][] {
  const bend = (x0: number, y0: number, x1: number, y1: number) =>
    Array.from({ length: 17 }, (_, k): [number, number] => {
      const t = k / 16;
      return [x0 + t * (x1 - x0), y0 + ((y1 - y0) * (1 - Math.cos(Math.PI * t))) / 2];
    });
  return [
    [-20e-6, Y_OUT_M],
    ...bend(-3.75e-6, Y_OUT_M, -0.75e-6, Y_IN_M),
    ...bend(0.25e-6, Y_IN_M, 2.75e-6, Y_OUT_M),
    [20e-6, Y_OUT_M],
  ];
}

/** A polyline of constant width as a polygon (each vertex offset along the mitred normal). */
function outline(centre: [number, number][], width: number): [number, number][] {
  const normal = (a: [number, number], b: [number, number]): [number, number] => {
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    return [-(b[1] - a[1]) / l, (b[0] - a[0]) / l];
  };
  const last = centre.length - 1;
  const offset = centre.map((_, k): [number, number] => {
    const a = normal(centre[Math.max(0, k - 1)]!, centre[Math.max(1, k)]!);
    const b = normal(centre[Math.min(k, last - 1)]!, centre[Math.min(k + 1, last)]!);
    const scale = width / 2 / (1 + a[0] * b[0] + a[1] * b[1]);
    return [(a[0] + b[0]) * scale, (a[1] + b[1]) * scale];
  });
  const side = (sign: number) =>
    centre.map((p, k): [number, number] => [
      p[0] + sign * offset[k]![0],
      p[1] + sign * offset[k]![1],
    ]);
  return [...side(1), ...side(-1).reverse()];
}

const modeSpec = { num_modes: 1, target_neff: null, filter_pol: null };

/** A port at x = ±PORT_X (a grid node) on y ≥ 0 (upper) or y ≤ 0 (lower), to the domain's edge. */
function port(name: string, right: boolean, upper: boolean): PortSpec {
  return {
    name,
    center: [right ? PORT_X_M : -PORT_X_M, upper ? 5e-6 : -5e-6, 0],
    size: [0, 10e-6, STEP_M],
    direction: right ? "-x" : "+x",
    mode_spec: modeSpec,
  };
}

const arm = outline(upperCentreline(), WIDTH_M);
const spec: SimulationSpec = {
  solver: "fdtd",
  domain: {
    size: [2 * PORT_X_M + 0.8e-6, 2 * HALF_Y_M, STEP_M],
    resolution: STEP_M,
    boundary_conditions: ["pml", "pml", "periodic"],
    pml_layers: 12,
  },
  source: {
    source_type: "ports",
    wavelength: 1.55e-6,
    wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 3 },
    run_ports: ["o1", "o2", "o3", "o4"],
  },
  ports: [
    port("o1", false, false),
    port("o2", false, true),
    port("o3", true, true),
    port("o4", true, false),
  ],
  structures: [
    { type: "box", center: [0, 0, 0], size: [100e-6, 100e-6, 1], material: "clad" },
    { type: "polyslab", vertices: arm, z_min: -1, z_max: 1, material: "core" },
    {
      type: "polyslab",
      vertices: arm.map(([x, y]): [number, number] => [x, -y]).reverse(),
      z_min: -1,
      z_max: 1,
      material: "core",
    },
  ],
  monitors: [],
  fdtd_settings: {
    time_steps: 40000,
    courant_factor: 0.99,
    convergence_threshold: 1e-7,
    check_every_n: 500,
  },
};

test("a directional coupler's S-matrix: reciprocal, mirror-symmetric, power-conserving, splitting", async () => {
  const materials = constantMaterials({ core: 3.45 ** 2, clad: 1.45 ** 2 });
  const result = await runPorts(
    spec,
    (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }),
    {},
  );
  const sm = result.sMatrix!;
  assert.deepEqual(sm.ports, ["o1@0", "o2@0", "o3@0", "o4@0"]);
  const W = sm.wavelengthsM.length;
  const P = sm.ports.length;
  const S = (o: number, i: number, w: number): [number, number] => [
    sm.s[2 * (((o - 1) * P + i - 1) * W + w)]!,
    sm.s[2 * (((o - 1) * P + i - 1) * W + w) + 1]!,
  ];
  const apart = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const power = (z: [number, number]) => z[0] ** 2 + z[1] ** 2;
  const rows = sm.wavelengthsM.map((wavelengthM, w) => {
    let reciprocity = 0;
    for (let i = 1; i <= P; i++) {
      for (let j = i + 1; j <= P; j++) {
        reciprocity = Math.max(reciprocity, apart(S(j, i, w), S(i, j, w)));
      }
    }
    const mirror = Math.max(
      ...[
        [3, 1, 4, 2],
        [4, 1, 3, 2],
        [1, 3, 2, 4],
        [1, 4, 2, 3],
        [1, 1, 2, 2],
        [2, 1, 1, 2],
      ].map(([a, b, c, d]) => apart(S(a!, b!, w), S(c!, d!, w))),
    );
    const out = [1, 2, 3, 4].map((j) => power(S(j, 1, w)));
    const total = out.reduce((a, b) => a + b, 0);
    const cross = out[2]! / (out[2]! + out[3]!);
    const text =
      `λ ${(wavelengthM * 1e6).toFixed(3)} µm: max |S_ij − S_ji| ${reciprocity.toExponential(1)}, ` +
      `mirror ${mirror.toExponential(1)}, |S_j1|² ${out.map((x) => x.toExponential(3)).join(" ")}, ` +
      `Σ ${total.toFixed(4)}, cross ${cross.toFixed(3)}`;
    return { reciprocity, mirror, total, cross, text };
  });
  const all = rows.map((r) => r.text).join("\n");
  rows.forEach((r, w) => {
    const atSource = Math.abs(sm.wavelengthsM[w]! - 1.55e-6) < 1e-12;
    assert.ok(r.reciprocity < (atSource ? 1e-5 : 1e-3), all);
    assert.ok(r.mirror < 1e-5, all);
    assert.ok(r.total <= 1 + 1e-3 && r.total >= 0.99, all);
    assert.ok(r.cross > 0.1 && r.cross < 0.9, all);
  });
});
