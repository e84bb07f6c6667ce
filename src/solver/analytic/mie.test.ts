/**
 * The Mie series against published reference values (Wiscombe's MIEV0 test cases, Bohren &
 * Huffman's worked example), the Rayleigh limit, energy conservation and the extinction
 * paradox.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { mieEfficiencies, mieSphere, mieTermCount } from "./mie.js";

function assertRel(actual: number, expected: number, rel: number, what: string) {
  assert.ok(
    Math.abs(actual - expected) <= rel * Math.abs(expected),
    `${what}: got ${actual}, expected ${expected} (relative tolerance ${rel})`,
  );
}

/**
 * W. J. Wiscombe, "Mie scattering calculations: advances in technique and fast, vector-speed
 * computer codes", NCAR Technical Note NCAR/TN-140+STR (1979, revised 1996), test cases 5–19
 * of its program MVTstNew (cases 1–4 are perfectly conducting spheres). Wiscombe writes
 * m = n − i k; the efficiencies do not depend on the sign convention. Columns: Re m, Im m, x,
 * Q_ext, Q_sca, g·Q_sca, printed to 7 significant digits.
 */
const WISCOMBE: ReadonlyArray<readonly [number, number, number, number, number, number]> = [
  [0.75, 0, 0.099, 7.417859e-6, 7.417859e-6, 1.074279e-8],
  [0.75, 0, 0.101, 8.033542e-6, 8.033542e-6, 1.211e-8],
  [0.75, 0, 10, 2.232265, 2.232265, 2.001164],
  [0.75, 0, 1000, 1.997908, 1.997908, 1.688121],
  [1.33, 1e-5, 1, 9.395198e-2, 9.39233e-2, 1.733048e-2],
  [1.33, 1e-5, 100, 2.101321, 2.096594, 1.821854],
  [1.33, 1e-5, 10000, 2.004089, 1.723857, 1.564987],
  [1.5, 1, 0.055, 1.01491e-1, 1.131687e-5, 5.558541e-9],
  [1.5, 1, 0.056, 1.033467e-1, 1.216311e-5, 6.193255e-9],
  [1.5, 1, 1, 2.336321, 6.634538e-1, 1.274736e-1],
  [1.5, 1, 100, 2.097502, 1.283697, 1.091466],
  [1.5, 1, 10000, 2.004368, 1.236574, 1.046525],
  [10, 10, 1, 2.532993, 2.049405, -2.267961e-1],
  [10, 10, 100, 2.071124, 1.836785, 1.021648],
  [10, 10, 10000, 2.005914, 1.795393, 9.842238e-1],
];

describe("Mie series", () => {
  it("reproduces Wiscombe's MIEV0 test cases to the 7 printed digits", () => {
    for (const [re, im, x, qExt, qSca, gQsca] of WISCOMBE) {
      const r = mieEfficiencies({ re, im }, x);
      const label = `m = ${re} + ${im}i, x = ${x}`;
      // 3×10⁻⁶: a few units in the 7th digit (the worst case here is 1.5×10⁻⁶).
      assertRel(r.qExt, qExt, 3e-6, `${label} Q_ext`);
      assertRel(r.qSca, qSca, 3e-6, `${label} Q_sca`);
      assertRel(r.asymmetry * r.qSca, gQsca, 3e-6, `${label} g·Q_sca`);
    }
  });

  it("reproduces Bohren & Huffman's worked example (m = 1.55, r = 0.525 µm, λ = 0.6328 µm)", () => {
    // Bohren & Huffman, Appendix A, output of BHMIE: Q_sca = Q_ext = 3.10543, Q_back = 2.92534.
    const r = mieSphere(0.525e-6, 0.6328e-6, 1.55);
    assert.ok(Math.abs(r.sizeParameter - 5.213) < 1e-3);
    assertRel(r.qSca, 3.10543, 3e-6, "Q_sca");
    assertRel(r.qExt, 3.10543, 3e-6, "Q_ext");
    assertRel(r.qBack, 2.92534, 3e-6, "Q_back");
    assertRel(r.cScaM2, 3.10543 * Math.PI * 0.525e-6 ** 2, 3e-6, "C_sca in m²");
  });

  it("approaches the Rayleigh limit for small spheres", () => {
    // Q_sca = (8/3) x⁴ |K|², Q_abs = 4 x Im K, K = (m² − 1)/(m² + 2), to relative O(x²)
    // (Bohren & Huffman eqs. 5.8–5.9). A wrong a_1 or b_1 fails this at any x.
    for (const m of [
      { re: 1.5, im: 0 },
      { re: 2, im: 0 },
      { re: 1.5, im: 1 },
      { re: 0.2, im: 3.5 }, // gold-like
    ]) {
      const m2 = { re: m.re * m.re - m.im * m.im, im: 2 * m.re * m.im };
      const num = { re: m2.re - 1, im: m2.im };
      const den = { re: m2.re + 2, im: m2.im };
      const d2 = den.re * den.re + den.im * den.im;
      const k = {
        re: (num.re * den.re + num.im * den.im) / d2,
        im: (num.im * den.re - num.re * den.im) / d2,
      };
      for (const x of [0.003, 0.01]) {
        const r = mieEfficiencies(m, x);
        const label = `m = ${m.re} + ${m.im}i, x = ${x}`;
        assertRel(r.qSca, (8 / 3) * x ** 4 * (k.re * k.re + k.im * k.im), 20 * x * x, label);
        if (m.im > 0) assertRel(r.qAbs, 4 * x * k.im, 20 * x * x, `${label} Q_abs`);
        assert.ok(Math.abs(r.asymmetry) < x, `${label}: Rayleigh scattering is symmetric`);
      }
    }
  });

  it("absorbs nothing for a real index", () => {
    for (const m of [0.75, 1.2, 1.55, 2, 3.5]) {
      for (const x of [0.5, 1, 3, 5, 20, 200]) {
        const r = mieEfficiencies(m, x);
        assert.ok(
          Math.abs(r.qExt - r.qSca) <= 1e-12 * r.qExt + 1e-300,
          `m = ${m}, x = ${x}: Q_ext ${r.qExt} ≠ Q_sca ${r.qSca}`,
        );
        assert.ok(r.qAbs >= 0 && r.qAbs <= 1e-12 * r.qExt);
      }
    }
    // And an absorbing sphere does absorb: Q_abs > 0 and Q_sca < Q_ext.
    const lossy = mieEfficiencies({ re: 1.55, im: 0.1 }, 5.213);
    assert.ok(lossy.qAbs > 1 && lossy.qSca < lossy.qExt);
  });

  it("tends to the extinction paradox Q_ext → 2 for large spheres", () => {
    // Q_ext − 2 decays like x^(−2/3) (van de Hulst §12.32), with oscillations on top.
    const excess = [10, 100, 1000, 10000].map((x) =>
      Math.abs(mieEfficiencies({ re: 1.5, im: 0.01 }, x).qExt - 2),
    );
    for (let i = 1; i < excess.length; i++) assert.ok(excess[i] < excess[i - 1], `${excess}`);
    assert.ok(excess[3] < 5e-3, `Q_ext(x = 10⁴) − 2 = ${excess[3]}`);
    // A strongly absorbing large sphere: half the extinction is diffraction, so Q_abs → 1 −
    // (the reflected fraction); with m = 10 + 10i about 10 % of the light is reflected.
    const metal = mieEfficiencies({ re: 10, im: 10 }, 10000);
    assert.ok(Math.abs(metal.qExt - 2) < 1e-2 && metal.qAbs > 0.1 && metal.qAbs < 0.3);
  });

  it("scales the size parameter with the medium index", () => {
    // A sphere of index 2.66 in water (1.33) scatters like one of index 2 in vacuum, with the
    // wavelength shortened by 1.33.
    const inWater = mieSphere(0.2e-6, 0.8e-6, { re: 2.66, im: 0.0133 }, 1.33);
    const direct = mieEfficiencies({ re: 2, im: 0.01 }, (2 * Math.PI * 0.2e-6 * 1.33) / 0.8e-6);
    assertRel(inWater.qExt, direct.qExt, 1e-13, "Q_ext");
    assertRel(inWater.cAbsM2, direct.qAbs * Math.PI * 0.04e-12, 1e-12, "C_abs");
    assert.equal(inWater.terms, mieTermCount(inWater.sizeParameter));
  });

  it("refuses gain media and bad size parameters", () => {
    assert.throws(() => mieEfficiencies({ re: 1.5, im: -0.1 }, 1), RangeError);
    assert.throws(() => mieEfficiencies(1.5, 0), RangeError);
    assert.throws(() => mieEfficiencies(1.5, Number.NaN), RangeError);
    assert.throws(() => mieSphere(-1e-6, 1e-6, 1.5), RangeError);
  });

  const scipy = spawnSync("/usr/bin/python3", ["-c", "import scipy.special"], { stdio: "ignore" });
  it(
    "agrees with a direct evaluation through scipy's spherical Bessel functions",
    { skip: scipy.status !== 0 ? "scipy is not installed" : false },
    () => {
      // An independent formulation: a_n, b_n from j_n and h_n of complex argument directly
      // (Bohren & Huffman eq. 4.53), no logarithmic derivative, for moderate x where that is
      // accurate. This is the dielectric validation case: n = 2, x = 1 … 5.
      const script = `
import sys, json
import numpy as np
from scipy.special import spherical_jn as j, spherical_yn as y
out = []
for m, x in json.loads(sys.argv[1]):
    m = complex(*m); mx = m * x
    N = int(round(x + 4 * x ** (1 / 3) + 2)); n = np.arange(1, N + 1)
    jx, djx = j(n, x), j(n, x, derivative=True)
    hx, dhx = jx + 1j * y(n, x), djx + 1j * y(n, x, derivative=True)
    jm, djm = j(n, mx), j(n, mx, derivative=True)
    px, pm, pxi = jx + x * djx, jm + mx * djm, hx + x * dhx
    a = (m * m * jm * px - jx * pm) / (m * m * jm * pxi - hx * pm)
    b = (jm * px - jx * pm) / (jm * pxi - hx * pm)
    w = 2 * n + 1
    out.append([2 / x**2 * np.sum(w * (a + b).real), 2 / x**2 * np.sum(w * (abs(a)**2 + abs(b)**2))])
print(json.dumps(out))`;
      const cases: Array<[[number, number], number]> = [];
      for (const x of [1, 2, 3, 4, 5]) cases.push([[2, 0], x], [[0.3, 2.8], x / 2]);
      const run = spawnSync("/usr/bin/python3", ["-c", script, JSON.stringify(cases)], {
        encoding: "utf8",
      });
      assert.equal(run.status, 0, run.stderr);
      const expected = JSON.parse(run.stdout) as Array<[number, number]>;
      cases.forEach(([[re, im], x], i) => {
        const r = mieEfficiencies({ re, im }, x);
        assertRel(r.qExt, expected[i][0], 1e-9, `m = ${re} + ${im}i, x = ${x} Q_ext`);
        assertRel(r.qSca, expected[i][1], 1e-9, `m = ${re} + ${im}i, x = ${x} Q_sca`);
      });
    },
  );
});
