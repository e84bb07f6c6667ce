/**
 * Mode plots from a synthetic `POST /v1/modes` answer: |E| is the magnitude of the whole
 * vector (3-4-5 at every sample), a component keeps its complex value in the answer's
 * i·n_v + j order, the titles name the mode, and an answer without fields or a signed part of
 * a magnitude is refused.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { modeFieldMap, modePlotPng } from "./mode-plot.js";
import { coloursIn, decodePng } from "./testing/decode-png.js";

const [NU, NV] = [30, 20];
const xs = Array.from({ length: NU }, (_, i) => -0.75e-6 + i * 0.05e-6);
const zs = Array.from({ length: NV }, (_, j) => -0.5e-6 + j * 0.05e-6);
const g = (i: number, j: number) => Math.exp(-((xs[i]! / 0.3e-6) ** 2 + (zs[j]! / 0.2e-6) ** 2));

/** Ex = 3g, Ez = 4i·g: |E| = 5g; Hz = j (its column index) to check the order. */
function answer() {
  const n = NU * NV;
  const component = (re: (i: number, j: number) => number, im = (_i: number, _j: number) => 0) => {
    const out = { re: new Array<number>(n), im: new Array<number>(n) };
    for (let i = 0; i < NU; i++) {
      for (let j = 0; j < NV; j++) {
        out.re[i * NV + j] = re(i, j);
        out.im[i * NV + j] = im(i, j);
      }
    }
    return out;
  };
  const zero = component(() => 0);
  return {
    plane: {
      normal: "y",
      axes: ["x", "z"] as [string, string],
      position_m: 0,
      cells: [NU, NV] as [number, number],
    },
    wavelengths_m: [1.55e-6],
    modes: [
      {
        wavelength_m: 1.55e-6,
        mode_index: 0,
        n_eff: 2.44,
        k_eff: 3e-17,
        te_fraction: 0.98,
        fields: {
          Ex: component((i, j) => 3 * g(i, j)),
          Ey: zero,
          Ez: component(
            () => 0,
            (i, j) => 4 * g(i, j),
          ),
          Hx: zero,
          Hy: zero,
          Hz: component((_i, j) => j),
        },
      },
    ],
    grid: { x_m: xs, z_m: zs },
    unknowns: 2 * n,
    solve_seconds: 0.1,
    notes: [],
  };
}

test("|E| is the whole vector's magnitude; a component keeps its value and order", () => {
  const a = answer();
  const e = modeFieldMap(a, a.modes[0]!);
  assert.deepEqual(e.axes, ["x", "z"]);
  assert.deepEqual([e.u.length, e.v.length], [NU, NV]);
  for (const [i, j] of [
    [15, 10],
    [3, 17],
  ] as const) {
    assert.ok(Math.abs(e.re[i * NV + j]! - 5 * g(i, j)) < 1e-6 * 5, `|E| at ${i}, ${j}`);
    assert.equal(e.im[i * NV + j], 0);
  }
  const ez = modeFieldMap(a, a.modes[0]!, "Ez");
  assert.ok(Math.abs(ez.im[15 * NV + 10]! - 4 * g(15, 10)) < 1e-6);
  assert.equal(modeFieldMap(a, a.modes[0]!, "Hz").re[7 * NV + 13], 13);
});

test("the PNG names the mode, drops round-off k_eff, and outlines the strip", () => {
  const a = answer();
  const strip = {
    type: "box" as const,
    center: [0, 0, 0.11e-6] as [number, number, number],
    size: [0.5e-6, 10, 0.22e-6] as [number, number, number],
    material: "Si",
  };
  const plain = decodePng(modePlotPng(a, a.modes[0]!));
  const outlined = decodePng(modePlotPng(a, a.modes[0]!, { structures: [strip] }));
  assert.match(plain.text.Title!, /^\|E\| of mode 0 at .* = 1\.55 .*m, n_eff 2\.4400, TE 0\.98/);
  assert.doesNotMatch(plain.text.Title!, /k_eff/);
  const white = 0xffffff;
  const middle = [
    Math.floor(plain.width * 0.3),
    Math.floor(plain.height * 0.35),
    Math.floor(plain.width * 0.55),
    Math.floor(plain.height * 0.65),
  ] as const;
  assert.ok(!coloursIn(plain, ...middle).has(white));
  assert.ok(coloursIn(outlined, ...middle).has(white));
  const lossy = { ...a.modes[0]!, k_eff: 2.5e-4 };
  assert.match(decodePng(modePlotPng(a, lossy)).text.Title!, /k_eff 2\.50e-4/);
});

test("an answer without fields, and a signed part of a magnitude, are refused", () => {
  const a = answer();
  const { fields: _fields, ...bare } = a.modes[0]!;
  assert.throws(() => modePlotPng(a, bare), /include_fields/);
  assert.throws(() => modePlotPng(a, a.modes[0]!, { part: "real" }), /\|E\| has no real part/);
  const re = decodePng(modePlotPng(a, a.modes[0]!, { component: "Ex", part: "real" }));
  assert.match(re.text.Title!, /^Re Ex of mode 0/);
});
