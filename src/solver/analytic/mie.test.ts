/**
 * The Mie series against published reference values (Wiscombe's MIEV0 test cases, Bohren &
 * Huffman's worked example), the Rayleigh limit, energy conservation and the extinction
 * paradox; its scattering amplitudes S1, S2 and differential cross-section against the
 * efficiencies (integrated over the sphere, the optical theorem, backscattering), the Rayleigh
 * pattern and their symmetries.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import {
  mieAmplitudes,
  mieDifferentialCrossSection,
  mieEfficiencies,
  mieSphere,
  mieTermCount,
  type ScatteringDirection,
} from "./mie.js";
import { gaussLegendre } from "../sources/gauss-legendre.js";

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

  it("integrates dσ/dΩ over the sphere to C_sca, and cos θ·dσ/dΩ to g·C_sca", () => {
    // Gauss–Legendre in cos θ times the trapezoid rule in φ, exact
    // for the trigonometric polynomial cos²φ, sin²φ from 4 points on. A wrong weight
    // (2n+1)/(n(n+1)), π_n or τ_n fails this by far more than 1e-12 (swapped S1 and S2 would
    // not: the Rayleigh pattern below catches that).
    for (const [n, r, lambda] of [
      [2, 0.2e-6, 0.6e-6],
      [1.5, 0.5e-6, 0.8e-6],
      [{ re: 1.55, im: 0.1 }, 0.525e-6, 0.6328e-6],
      [{ re: 0.2, im: 3.5 }, 50e-9, 0.55e-6],
    ] as const) {
      const mie = mieSphere(r, lambda, n);
      // Exact for polynomials of degree 2n − 1: |S1|² and |S2|² are polynomials in cos θ of
      // degree at most 2N (π_n has degree n − 1, τ_n degree n), so N + 1 nodes integrate them to
      // rounding.
      const gl = gaussLegendre(mie.terms + 2);
      const nPhi = 8;
      const directions: ScatteringDirection[] = [];
      for (const mu of gl.x) {
        for (let p = 0; p < nPhi; p++) {
          directions.push({ thetaRad: Math.acos(mu), phiRad: (2 * Math.PI * p) / nPhi });
        }
      }
      const dsigma = mieDifferentialCrossSection(r, lambda, n, directions);
      let cSca = 0;
      let gcSca = 0;
      gl.x.forEach((mu, t) => {
        for (let p = 0; p < nPhi; p++) {
          const v = gl.w[t]! * ((2 * Math.PI) / nPhi) * dsigma[t * nPhi + p]!;
          cSca += v;
          gcSca += mu * v;
        }
      });
      const label = `n = ${JSON.stringify(n)}, r = ${r}, λ = ${lambda}`;
      assertRel(cSca, mie.cScaM2, 1e-12, `${label}: ∫ dσ/dΩ dΩ`);
      assertRel(gcSca, mie.asymmetry * mie.cScaM2, 1e-10, `${label}: ∫ cos θ dσ/dΩ dΩ`);
    }
  });

  it("gives Q_ext from S(0) (the optical theorem) and Q_back from S1(π)", () => {
    // Q_ext = (4/x²) Re S(0°) and Q_back = (4/x²) |S1(180°)|² (Bohren & Huffman §4.4), with
    // S1(0) = S2(0) and S1(π) = −S2(π) for a sphere.
    for (const [m, x] of [
      [2, 2.5],
      [{ re: 1.55, im: 0 }, 5.213],
      [{ re: 1.5, im: 1 }, 10],
      [{ re: 10, im: 10 }, 1],
    ] as const) {
      const q = mieEfficiencies(m, x);
      const { s1, s2 } = mieAmplitudes(m, x, [0, Math.PI]);
      const label = `m = ${JSON.stringify(m)}, x = ${x}`;
      assertRel((4 / (x * x)) * s1[0]!.re, q.qExt, 1e-12, `${label}: Q_ext`);
      assertRel(
        (4 / (x * x)) * (s1[1]!.re ** 2 + s1[1]!.im ** 2),
        q.qBack,
        1e-12,
        `${label}: Q_back`,
      );
      for (const [u, v, sign, what] of [
        [s1[0]!, s2[0]!, 1, "S1(0) = S2(0)"],
        [s1[1]!, s2[1]!, -1, "S1(π) = −S2(π)"],
      ] as const) {
        const size = Math.hypot(u.re, u.im);
        assert.ok(
          Math.hypot(u.re - sign * v.re, u.im - sign * v.im) <= 1e-12 * size,
          `${label}: ${what}`,
        );
      }
    }
  });

  it("approaches the Rayleigh pattern k⁴a⁶|K|²(cos²θ cos²φ + sin²φ) for small spheres", () => {
    // The dipole term a_1 = −(2i/3) x³ K alone (Bohren & Huffman §5.2): S1 = (3/2) a_1,
    // S2 = (3/2) a_1 cos θ, to relative O(x²). A sign error in τ_n or swapped S1 and S2 (φ
    // measured from H instead of E) fails at every angle off θ = 0, π.
    for (const m of [1.5, 2, { re: 0.2, im: 3.5 }]) {
      const mc = typeof m === "number" ? { re: m, im: 0 } : m;
      const m2 = { re: mc.re * mc.re - mc.im * mc.im, im: 2 * mc.re * mc.im };
      const num = { re: m2.re - 1, im: m2.im };
      const den = { re: m2.re + 2, im: m2.im };
      const k2 = (num.re ** 2 + num.im ** 2) / (den.re ** 2 + den.im ** 2);
      const lambda = 1e-6;
      const k = (2 * Math.PI) / lambda;
      for (const x of [0.003, 0.01]) {
        const a = x / k;
        const directions: ScatteringDirection[] = [];
        for (let t = 0; t <= 12; t++) {
          for (const phiDeg of [0, 30, 90, 135]) {
            directions.push({ thetaRad: (t * Math.PI) / 12, phiRad: (phiDeg * Math.PI) / 180 });
          }
        }
        const got = mieDifferentialCrossSection(a, lambda, m, directions);
        directions.forEach(({ thetaRad, phiRad }, i) => {
          const pattern = Math.cos(thetaRad) ** 2 * Math.cos(phiRad) ** 2 + Math.sin(phiRad) ** 2;
          const expected = k ** 4 * a ** 6 * k2 * pattern;
          // Relative to the peak k⁴a⁶|K|²: the pattern vanishes at θ = 90°, φ = 0.
          assert.ok(
            Math.abs(got[i]! - expected) <= 20 * x * x * k ** 4 * a ** 6 * k2,
            `m = ${JSON.stringify(m)}, x = ${x}, θ = ${thetaRad}, φ = ${phiRad}: ${got[i]} vs ${expected}`,
          );
        });
      }
    }
  });

  it("is symmetric about the scattering planes and periodic in φ", () => {
    // dσ/dΩ(θ, φ) = dσ/dΩ(θ, −φ) = dσ/dΩ(θ, π − φ) = dσ/dΩ(θ, φ + π); in the E-plane (φ = 0)
    // it is |S2|²/k², in the H-plane (φ = π/2) |S1|²/k².
    const [r, lambda, n] = [0.3e-6, 0.7e-6, 1.8];
    const k = (2 * Math.PI) / lambda;
    const thetas = [0.1, 0.7, 1.3, 2, 2.9];
    const { s1, s2 } = mieAmplitudes(n, k * r, thetas);
    for (const [t, theta] of thetas.entries()) {
      for (const phi of [0.2, 0.9, 1.4]) {
        const [base, ...mirrors] = mieDifferentialCrossSection(r, lambda, n, [
          { thetaRad: theta, phiRad: phi },
          { thetaRad: theta, phiRad: -phi },
          { thetaRad: theta, phiRad: Math.PI - phi },
          { thetaRad: theta, phiRad: phi + Math.PI },
        ]);
        for (const v of mirrors) assertRel(v!, base!, 1e-13, `θ = ${theta}, φ = ${phi}`);
      }
      const [ePlane, hPlane] = mieDifferentialCrossSection(r, lambda, n, [
        { thetaRad: theta, phiRad: 0 },
        { thetaRad: theta, phiRad: Math.PI / 2 },
      ]);
      assertRel(ePlane!, (s2[t]!.re ** 2 + s2[t]!.im ** 2) / (k * k), 1e-14, "E-plane");
      assertRel(hPlane!, (s1[t]!.re ** 2 + s1[t]!.im ** 2) / (k * k), 1e-14, "H-plane");
    }
    // In a medium: the sphere of index 2.66 in water scatters like one of index 2 in vacuum at
    // the wavelength shortened by 1.33 (the same cross-section in m²/sr).
    const dir = [{ thetaRad: 0.8, phiRad: 0.3 }];
    assertRel(
      mieDifferentialCrossSection(0.2e-6, 0.8e-6, 2.66, dir, 1.33)[0]!,
      mieDifferentialCrossSection(0.2e-6, 0.8e-6 / 1.33, 2, dir)[0]!,
      1e-12,
      "scaling with the medium",
    );
    assert.throws(() => mieDifferentialCrossSection(0, 1e-6, 2, dir), RangeError);
    assert.throws(() => mieAmplitudes(2, 1, [Number.NaN]), RangeError);
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
