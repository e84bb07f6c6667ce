/**
 * The exact Gaussian beam (beam-profile.ts) against what it must equal: the Gaussian itself on
 * the focal plane; an independent brute-force sum of plane waves over (k_t, ψ) that skips the
 * Bessel-function reduction; the paraxial beam for a wide waist; the exact second-moment law
 * w(s)² = w0² + 4s²⟨k_x²/k_z²⟩ for |E_⊥|² (Parseval, since the focal spectrum is real);
 * Maxwell's equations by finite differences; the power in the spectrum; and the plane wave's
 * te/tm convention. Each tolerance sits well above the measured error (given beside it) and
 * far below what a wrong sign, a missing longitudinal field or a wrong H would leave.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ETA0 } from "../constants.js";
import {
  beamFields,
  beamFrame,
  beamPower,
  beamWidth,
  paraxialWidth,
  rayleighRange,
  type GaussianBeam,
} from "./beam-profile.js";
import { planeWaveGeometry } from "./plane-wave.js";

type Vec3 = [number, number, number];
const LAMBDA = 1e-6;
const OBLIQUE: Vec3 = [1 / 3, 2 / 3, 2 / 3];

function beamOf(waistLambdas: number, extra: Partial<GaussianBeam> = {}): GaussianBeam {
  return {
    direction: [0, 0, 1],
    focus: [0, 0, 0],
    waistRadius: waistLambdas * LAMBDA,
    wavelength: LAMBDA,
    index: 1,
    polarization: "tm",
    amplitude: 1,
    ...extra,
  };
}

/** Global point at (x, y) from the axis along u, v and s along d from the focus. */
function pointAt(beam: GaussianBeam, x: number, y: number, s: number): Vec3 {
  const { u, v, d } = beamFrame(beam);
  return [0, 1, 2].map((a) => beam.focus[a] + x * u[a] + y * v[a] + s * d[a]) as Vec3;
}

/** E and H at one point as complex 3-vectors [[re, im] × 3]. */
function fieldAt(beam: GaussianBeam, p: Vec3, evanescent = true) {
  const { e, h } = beamFields(beam, new Float64Array(p), { evanescent });
  const c = (f: Float64Array) => [0, 1, 2].map((a) => [f[2 * a], f[2 * a + 1]]);
  return { e: c(e), h: c(h) };
}

const dotC = (f: number[][], r: Vec3) =>
  [0, 1].map((p) => f[0][p] * r[0] + f[1][p] * r[1] + f[2][p] * r[2]);

/**
 * Brute force: Σ over plane waves, k_t = k sin θ (θ by 2-point Gauss cells) and κ (same), ψ by the
 * trapezoid rule, each with E = Ã(ê_local + ẑ·(−k_x/k_z)) and H = k × E/(kη), in the beam's
 * frame; returns E and ηH in that frame.
 */
function bruteLocal(beam: GaussianBeam, x: number, y: number, s: number, nT = 150, nPsi = 64) {
  const k = (2 * Math.PI * beam.index) / beam.wavelength;
  const w0 = beam.waistRadius;
  const out = { e: [0, 0, 0, 0, 0, 0], h: [0, 0, 0, 0, 0, 0] };
  const wave = (kt: number, kzr: number, kzi: number, ktdkt: number) => {
    const g = (beam.amplitude * w0 * w0 * Math.exp((-kt * kt * w0 * w0) / 4) * ktdkt) / (2 * nPsi);
    for (let m = 0; m < nPsi; m++) {
      const psi = (2 * Math.PI * m) / nPsi;
      const kx = kt * Math.cos(psi);
      const ky = kt * Math.sin(psi);
      const mag = g * Math.exp(-kzi * s);
      const ph = kx * x + ky * y + kzr * s;
      const [pr, pi] = [mag * Math.cos(ph), mag * Math.sin(ph)];
      const den = kzr * kzr + kzi * kzi;
      const e = [
        [1, 0],
        [0, 0],
        [(-kx * kzr) / den, (kx * kzi) / den],
      ];
      const kv = [
        [kx, 0],
        [ky, 0],
        [kzr, kzi],
      ];
      const mul = (a: number[], b: number[]) => [
        a[0] * b[0] - a[1] * b[1],
        a[0] * b[1] + a[1] * b[0],
      ];
      for (let c = 0; c < 3; c++) {
        const [i, j] = [(c + 1) % 3, (c + 2) % 3];
        const p1 = mul(kv[i], e[j]);
        const p2 = mul(kv[j], e[i]);
        const hc = [(p1[0] - p2[0]) / k, (p1[1] - p2[1]) / k];
        out.e[2 * c] += e[c][0] * pr - e[c][1] * pi;
        out.e[2 * c + 1] += e[c][0] * pi + e[c][1] * pr;
        out.h[2 * c] += hc[0] * pr - hc[1] * pi;
        out.h[2 * c + 1] += hc[0] * pi + hc[1] * pr;
      }
    }
  };
  // Two-point Gauss in each of nT cells (error ∝ cell⁴): θ for the propagating part, κ beyond.
  const cells = (upper: number, f: (t: number, weight: number) => void) => {
    for (let i = 0; i < nT; i++) {
      for (const g of [-1 / Math.sqrt(3), 1 / Math.sqrt(3)]) {
        f(((i + 0.5 + g / 2) * upper) / nT, upper / nT / 2);
      }
    }
  };
  const cut = 12 / w0;
  const thetaMax = cut >= k ? Math.PI / 2 : Math.asin(cut / k);
  cells(thetaMax, (th, q) =>
    wave(k * Math.sin(th), k * Math.cos(th), 0, k * k * Math.sin(th) * Math.cos(th) * q),
  );
  if (s >= 0 && cut > k) {
    cells(Math.sqrt(cut * cut - k * k), (ka, q) => wave(Math.sqrt(k * k + ka * ka), 0, ka, ka * q));
  }
  return out;
}

describe("Gaussian beam: exact vector field", () => {
  it("focal plane: E⊥ = A·ê·exp(−ρ²/w0²) with a flat phase, within 1e-6 of A", () => {
    let worst = 0;
    for (const w of [0.5, 1, 5, 20]) {
      for (const polarization of ["te", "tm"] as const) {
        for (const direction of [[0, 0, 1], OBLIQUE] as Vec3[]) {
          const beam = beamOf(w, { direction, polarization, index: 1.45, amplitude: 3 });
          const { u, d } = beamFrame(beam);
          for (const [x, y] of [
            [0, 0],
            [0.4, 0.1],
            [-0.7, 0.9],
            [1.3, -1.1],
            [0, 2.4],
          ]) {
            const w0 = beam.waistRadius;
            const { e } = fieldAt(beam, pointAt(beam, x * w0, y * w0, 0));
            const along = dotC(e, d);
            const expected = 3 * Math.exp(-(x * x + y * y));
            for (let a = 0; a < 3; a++) {
              // E⊥ = E − (E·d)d must be A exp(−ρ²/w0²) ê, real (flat phase).
              for (const p of [0, 1]) {
                const perp = e[a][p] - along[p] * d[a];
                worst = Math.max(worst, Math.abs(perp - (p === 0 ? expected * u[a] : 0)) / 3);
              }
            }
          }
        }
      }
    }
    assert.ok(worst < 1e-6, `worst deviation ${worst} of A (measured 2e-8)`);
  });

  it("without the evanescent part the focus reads A(1 − exp(−k²w0²/4)) on the axis", () => {
    // Propagating part of I_A on the axis: ∫₀^k k_t G dk_t = (2/w0²)(1 − e^{−k²w0²/4}).
    const beam = beamOf(0.5, { index: 1 });
    const k = (2 * Math.PI) / LAMBDA;
    const { e } = fieldAt(beam, [0, 0, 0], false);
    const expected = 1 - Math.exp(-(k * k * beam.waistRadius ** 2) / 4);
    assert.ok(Math.abs(e[0][0] - expected) < 1e-6, `E_x ${e[0][0]}, expected ${expected}`);
  });

  it("agrees with a brute-force plane-wave sum (E and ηH within 1e-6 of A)", () => {
    let worst = 0;
    for (const [w, polarization] of [
      [0.5, "tm"],
      [2, "te"],
    ] as const) {
      const beam = beamOf(w, {
        direction: OBLIQUE,
        polarization,
        index: 1.5,
        focus: [1e-6, -2e-6, 0],
      });
      const { u, v, d } = beamFrame(beam);
      const w0 = beam.waistRadius;
      const zR = rayleighRange(beam);
      const eta = ETA0 / 1.5;
      for (const [x, y, s] of [
        [0.6, 0.3, -0.7],
        [0.9, -0.5, 0],
        [-0.4, 1.1, 0.4],
        [1.5, 1, 1.5],
      ]) {
        const [X, Y, S] = [x * w0, y * w0, s * zR];
        const got = fieldAt(beam, pointAt(beam, X, Y, S));
        const ref = bruteLocal(beam, X, Y, S);
        for (const [field, want, scale] of [
          [got.e, ref.e, 1],
          [got.h, ref.h, eta],
        ] as const) {
          for (const p of [0, 1]) {
            const local = [dotC(field, u)[p], dotC(field, v)[p], dotC(field, d)[p]];
            for (let a = 0; a < 3; a++) {
              worst = Math.max(worst, Math.abs(local[a] * scale - want[2 * a + p]));
            }
          }
        }
      }
    }
    assert.ok(worst < 1e-6, `worst difference ${worst} of A (measured 4e-8)`);
  });

  it("w0 = 10λ at z_R: the paraxial beam (width w0√2, Gouy −π/4, R = 2z_R) within 1 %", () => {
    // te along +y: ê = ẑ × ŷ = −x̂, so E·ê is the paraxial field and E·v (v = ẑ) vanishes.
    const beam = beamOf(10, { polarization: "te", direction: [0, 1, 0] });
    const { u, v } = beamFrame(beam);
    assert.deepEqual(
      u.map((c) => c + 0),
      [-1, 0, 0],
    );
    const k = (2 * Math.PI) / LAMBDA;
    const zR = rayleighRange(beam);
    const w = paraxialWidth(beam, zR);
    assert.ok(Math.abs(w / (beam.waistRadius * Math.SQRT2) - 1) < 1e-12);
    const paraxial = (rho: number) => {
      // e^{−iωt}: A (w0/w) e^{−ρ²/w²} e^{i(k s + kρ²/2R − atan(s/z_R))} with R = 2 z_R at z_R.
      const mag = (beam.waistRadius / w) * Math.exp(-(rho * rho) / (w * w));
      const phase = k * zR + (k * rho * rho) / (4 * zR) - Math.PI / 4;
      return [mag * Math.cos(phase), mag * Math.sin(phase)];
    };
    let worst = 0;
    for (const [x, y] of [
      [0, 0],
      [0.3, 0.2],
      [0.7, 0],
      [0, 1],
      [1.1, 0.9],
      [-1.6, 0.5],
    ]) {
      const { e } = fieldAt(beam, pointAt(beam, x * w, y * w, zR));
      const [eu, ev, want] = [dotC(e, u), dotC(e, v), paraxial(Math.hypot(x, y) * w)];
      worst = Math.max(worst, Math.hypot(eu[0] - want[0], eu[1] - want[1]), Math.hypot(...ev));
    }
    assert.ok(worst < 0.01, `worst deviation ${worst} of A (measured 1.8e-4)`);
    // The Gouy phase on the axis and the curvature: kρ²/2R = 1 rad at ρ = w.
    const phaseAt = (rho: number) => {
      const eu = dotC(fieldAt(beam, pointAt(beam, rho, 0, zR)).e, u);
      return Math.atan2(eu[1], eu[0]);
    };
    const wrap = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));
    const gouy = wrap(phaseAt(0) - k * zR);
    assert.ok(Math.abs(gouy + Math.PI / 4) < 0.01 * (Math.PI / 4), `Gouy phase ${gouy}`);
    const curvature = wrap(phaseAt(w) - phaseAt(0));
    assert.ok(Math.abs(curvature - 1) < 0.01, `kw²/2R = ${curvature} rad, expected 1`);
    const width = beamWidth(beam, zR);
    for (const [name, value] of Object.entries(width)) {
      if (name !== "integral")
        assert.ok(Math.abs(value / w - 1) < 0.01, `${name} ${value} vs ${w}`);
    }
  });

  /**
   * Item 3 of issue #28. |E_⊥|² = |E_u|² is round and, the focal spectrum being real, its
   * second moment obeys ⟨x²⟩(s) = w0²/4 + s²⟨k_x²/k_z²⟩ exactly (Parseval; the average is over
   * the propagating spectrum weighted by exp(−k_t²w0²/2)). At z_R, against w0√2:
   *
   *   waist   |E_⊥|² 2nd moment   |E|² 2nd moment (round/along/across)   flux   |E_⊥|² 1/e²
   *   1.5 µm  +3.23 %             +4.93 / +6.51 / +3.32 %                +3.25 %  +2.71 %
   *   2.5 µm  +1.03 %             +1.55 / +2.06 / +1.04 %                +1.03 %  +0.98 %
   *
   * NOTES.md's "2.8 % (0.8 % at 2.5 µm)" is no 3-D figure: it is the 2-D (line-focus) beam's,
   * |E|² second moment with in-plane E, divided by √2 times its own focal width (2.84 %, 0.81 %).
   */
  it("1.5 µm waist at 1.55 µm: the |E⊥|² width at z_R is 3.2 % above w0√2 (1.0 % at 2.5 µm)", () => {
    for (const [w0, lo, hi] of [
      [1.5e-6, 3.1, 3.35],
      [2.5e-6, 0.98, 1.08],
    ]) {
      const beam: GaussianBeam = { ...beamOf(1), waistRadius: w0, wavelength: 1.55e-6 };
      const zR = rayleighRange(beam);
      const k = (2 * Math.PI) / beam.wavelength;
      // ⟨k_x²/k_z²⟩ = ½ ∫ u/(a − u) e^{−u} du / ∫ e^{−u} du over 0 < u < a = k²w0²/2 (the log
      // singularity at u = a weighs e^{−a} ≤ 1e-8: the last unit of u is left out).
      const a = (k * k * w0 * w0) / 2;
      const n = 200_000;
      let num = 0;
      let den = 0;
      for (let i = 0; i < n; i++) {
        const x = ((i + 0.5) * (a - 1)) / n;
        num += (x / (a - x)) * Math.exp(-x);
        den += Math.exp(-x);
      }
      const exact = Math.sqrt(w0 * w0 + 4 * zR * zR * (num / den / 2));
      const width = beamWidth(beam, zR, { quantity: "transverse" }).radiusM;
      assert.ok(Math.abs(width / exact - 1) < 1e-4, `width ${width}, law ${exact} (measured 6e-6)`);
      const excess = (width / paraxialWidth(beam, zR) - 1) * 100;
      assert.ok(excess > lo && excess < hi, `w0 ${w0}: ${excess.toFixed(3)} % above w0√2`);
    }
  });

  it("obeys Maxwell's equations: ∇·E, ∇×E − iωμ0H and ∇×H + iωεE vanish (finite differences)", () => {
    // 4th-order central differences at h = λ/100: truncation ~(kh)⁴/30 ≈ 2e-6, round-off from
    // the field's 1e-7 ~1e-6 of kA. A missing E_s gives |∇·E| ~ A/w0, a wrong H ~ kA.
    const h = LAMBDA / 100;
    let worst = 0;
    for (const polarization of ["te", "tm"] as const) {
      const beam = beamOf(0.6, { direction: OBLIQUE, polarization, index: 1.4, amplitude: 2 });
      const k = (2 * Math.PI * 1.4) / LAMBDA;
      const eta = ETA0 / 1.4;
      for (const [x, y, s] of [
        [0.2, 0.3, 0.5],
        [-0.4, 0.1, -0.8],
        [0.5, -0.6, 1.7],
      ]) {
        const p = pointAt(beam, x * LAMBDA, y * LAMBDA, s * LAMBDA);
        // d[a][b]: ∂_a of component b, complex.
        const grad = (which: "e" | "h") =>
          [0, 1, 2].map((a) => {
            const at = (t: number) => {
              const q = [...p] as Vec3;
              q[a] += t * h;
              return fieldAt(beam, q)[which];
            };
            const [m2, m1, p1, p2] = [at(-2), at(-1), at(1), at(2)];
            return [0, 1, 2].map((b) =>
              [0, 1].map((c) => (m2[b][c] - 8 * m1[b][c] + 8 * p1[b][c] - p2[b][c]) / (12 * h)),
            );
          });
        const [ge, gh] = [grad("e"), grad("h")];
        const { e, h: hf } = fieldAt(beam, p);
        for (const c of [0, 1]) {
          worst = Math.max(worst, Math.abs(ge[0][0][c] + ge[1][1][c] + ge[2][2][c]) / (k * 2));
          for (let b = 0; b < 3; b++) {
            const [i, j] = [(b + 1) % 3, (b + 2) % 3];
            const curlE = ge[i][j][c] - ge[j][i][c];
            const curlH = gh[i][j][c] - gh[j][i][c];
            // i k η H and −i k E/η: (re, im) of i·z is (−im z, re z).
            const ikH = c === 0 ? -hf[b][1] : hf[b][0];
            const ikE = c === 0 ? -e[b][1] : e[b][0];
            worst = Math.max(worst, Math.abs(curlE - k * eta * ikH) / (k * 2));
            worst = Math.max(worst, (Math.abs(curlH + (k * ikE) / eta) * eta) / (k * 2));
          }
        }
      }
    }
    assert.ok(worst < 1e-5, `worst residual ${worst} of kA (measured 3.5e-7)`);
  });

  it("carries the power of its spectrum through the focal plane and at 2 z_R (within 1e-5)", () => {
    // P = (π A² w0⁴ / 4ηk) ∫₀^k e^{−k_t²w0²/2} (k_z + k_t²/2k_z) k_t dk_t (Parseval, each
    // plane wave carrying k_z|E|²/(2kη)); with k_t = k sin θ the integrand is smooth.
    const beam = beamOf(1, { index: 1.5, amplitude: 2, direction: OBLIQUE, polarization: "te" });
    const k = (2 * Math.PI * 1.5) / LAMBDA;
    const [w0, eta] = [beam.waistRadius, ETA0 / 1.5];
    const n = 20_000;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const th = ((i + 0.5) * Math.PI) / 2 / n;
      const [st, ct] = [Math.sin(th), Math.cos(th)];
      sum += Math.exp(-(k * k * st * st * w0 * w0) / 2) * k ** 3 * st * (ct * ct + (st * st) / 2);
    }
    const spectral = ((Math.PI * 4 * w0 ** 4) / (4 * eta * k)) * sum * (Math.PI / 2 / n);
    const paraxial = (Math.PI * w0 * w0 * 4) / (4 * eta);
    // The formula's own check: its paraxial limit πw0²A²/4η, 1.4e-4 below it at w0 = λ.
    assert.ok(Math.abs(spectral / paraxial - 1) < 1e-3, `spectral/paraxial ${spectral / paraxial}`);
    for (const s of [0, 2 * rayleighRange(beam)]) {
      const p = beamPower(beam, s);
      // Measured 5e-8 at the focus, 3e-8 at 2 z_R.
      assert.ok(Math.abs(p / spectral - 1) < 1e-5, `s = ${s}: ${p} W vs ${spectral} W`);
    }
  });

  it("te/tm as the plane wave: at d = (sin 45°, 0, cos 45°) te's E is along y, E ⟂ d", () => {
    const d45: Vec3 = [Math.SQRT1_2, 0, Math.SQRT1_2];
    for (const polarization of ["te", "tm"] as const) {
      const beam = beamOf(1.5, {
        direction: d45,
        polarization,
        amplitude: 2,
        focus: [1e-6, 0, 2e-6],
      });
      const { e, h } = fieldAt(beam, beam.focus);
      const along = dotC(e, d45);
      assert.ok(Math.hypot(...along) < 1e-9, `E·d = ${along}`);
      const want: Vec3 = polarization === "te" ? [0, 2, 0] : [Math.SQRT2, 0, -Math.SQRT2];
      for (let a = 0; a < 3; a++) {
        assert.ok(Math.abs(e[a][0] - want[a]) < 1e-6 && Math.abs(e[a][1]) < 1e-9, `E ${e}`);
      }
      // H = d × E/η at the centre, up to the non-paraxial ηH_v/A = ∫k_tG(k_z + k_t²/2k_z)/
      // (k∫k_tG) = 1 + ~⟨k_t⁴⟩/8k⁴ (5.9e-4 for w0 = 1.5λ).
      const eta = ETA0;
      const hWant = [
        d45[1] * want[2] - d45[2] * want[1],
        d45[2] * want[0] - d45[0] * want[2],
        d45[0] * want[1] - d45[1] * want[0],
      ];
      for (let a = 0; a < 3; a++) assert.ok(Math.abs(h[a][0] * eta - hWant[a]) < 2e-3, `H ${h}`);
    }
    for (const direction of [
      [0, 0, 1],
      [0, 0, -1],
      [1, 0, 0],
      [0, -1, 0],
      OBLIQUE,
      [-2, 1e-12, 3],
    ] as Vec3[]) {
      for (const polarization of ["te", "tm"] as const) {
        const geometry = planeWaveGeometry({
          source_type: "plane_wave",
          wavelength: LAMBDA,
          polarization,
          direction,
          amplitude: 1,
        });
        const { u, d } = beamFrame(beamOf(1, { direction, polarization }));
        for (let a = 0; a < 3; a++) {
          assert.ok(
            Math.abs(u[a] - geometry.polarization[a]) < 1e-9,
            `${direction} ${polarization}: ê ${u}`,
          );
          assert.ok(Math.abs(d[a] - geometry.direction[a]) < 1e-12);
        }
      }
    }
  });
});
