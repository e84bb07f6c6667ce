/**
 * Near-to-far-field projection (far-field.ts) against point dipoles, whose fields are known
 * exactly everywhere (Jackson, "Classical Electrodynamics", 3rd ed., eqs. 9.18 and 9.36, in
 * a medium of index n: ε = n²ε0, k = nω/c, η = η0/n; e^{−iωt}, so e^{+ikr} is outgoing).
 * The exact near fields, all of 1/r, 1/r², 1/r³, are sampled at cell midpoints on a closed
 * cube 1.5 λ on a side (λ in the medium) at 20 points per λ, and projected. Analytic answers:
 * - electric dipole p: P = η ω² k² |p|² / 12π (n times its vacuum value, the Purcell factor
 *   of a homogeneous medium), U = P · 3/8π · sin²ψ with ψ the angle to p, and for p = p ẑ at
 *   the origin E_θ = −k² p sinθ / 4πε at 1 m (without e^{ikr}), E_φ = 0;
 * - magnetic dipole m: P = η k⁴ |m|² / 12π, the same sin²ψ pattern, and for m = m ẑ:
 *   E_φ = η k² m sinθ / 4π, E_θ = 0 (the dual polarisation);
 * - a dipole moved by r0: the same pattern times e^{−ik r̂·r0}.
 * Tolerance 1 % of the peak (of U, or of |E|) at every angle and 1 % on P: a sign error in
 * the formulas or a wrong η, k or factor of 2 misses by far more; the midpoint rule's own
 * error at 20 points per λ is 0.1–0.5 % (also with graded cells and scrambled points). The
 * reference fields themselves are checked against Maxwell's curl equations by finite
 * differences, so the e^{−iωt} signs in the reference are established independently of the
 * code under test.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EPS0, ETA0, SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import {
  type FarFieldFace,
  type FarFieldPattern,
  integrateOverSphere,
  projectFarField,
} from "./far-field.js";

type Vec3 = [number, number, number];
type CVec3 = [number, number, number, number, number, number];

const LAMBDA0 = 1e-6;
const EPS_R = 2.25;
const N_INDEX = Math.sqrt(EPS_R);
const OMEGA = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / LAMBDA0;
const K = (N_INDEX * OMEGA) / SPEED_OF_LIGHT_M_PER_S;
const ETA = ETA0 / N_INDEX;
const EPS = EPS0 * EPS_R;
const LAMBDA = LAMBDA0 / N_INDEX;
const DEG = Math.PI / 180;
const THETA = Array.from({ length: 37 }, (_, i) => i * 5 * DEG);
const PHI = Array.from({ length: 72 }, (_, i) => i * 5 * DEG);

interface Dipole {
  kind: "electric" | "magnetic";
  /** Real moment: C·m (electric) or A·m² (magnetic). */
  moment: Vec3;
  at: Vec3;
}

const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * The exact fields of a dipole at r. With u = r̂ from the dipole, d the distance, g = e^{ikd}:
 * "radiating" F = (1/4π){k² (u×q)×u / d + [3u(u·q) − q](1/d³ − ik/d²)} g (E/ε of the electric
 * dipole, H of the magnetic one) and "companion" C = (k²/4π)(u×q) g (1/d)(1 − 1/(ikd)):
 * H = (ω/k) C for the electric dipole, E = −η C for the magnetic one.
 */
function dipoleFields(dip: Dipole, r: Vec3): { e: CVec3; h: CVec3 } {
  const rel: Vec3 = [r[0] - dip.at[0], r[1] - dip.at[1], r[2] - dip.at[2]];
  const d = Math.hypot(...rel);
  const u: Vec3 = [rel[0] / d, rel[1] / d, rel[2] / d];
  const q = dip.moment;
  const uq = dot(u, q);
  const gRe = Math.cos(K * d) / (4 * Math.PI);
  const gIm = Math.sin(K * d) / (4 * Math.PI);
  const transverse = cross(cross(u, q), u);
  const uxq = cross(u, q);
  const near = [0, 1, 2].map((i) => 3 * u[i] * uq - q[i]);
  // (1/d³ − ik/d²)·g and (k²/d)(1 + i/(kd))·g as complex numbers.
  const aRe = 1 / d ** 3;
  const aIm = -K / d ** 2;
  const bRe = K ** 2 / d;
  const bIm = K / d ** 2;
  const f: CVec3 = [0, 0, 0, 0, 0, 0];
  const c: CVec3 = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const re = (K ** 2 / d) * transverse[i] + near[i] * aRe;
    const im = near[i] * aIm;
    f[2 * i] = re * gRe - im * gIm;
    f[2 * i + 1] = re * gIm + im * gRe;
    c[2 * i] = uxq[i] * (bRe * gRe - bIm * gIm);
    c[2 * i + 1] = uxq[i] * (bRe * gIm + bIm * gRe);
  }
  if (dip.kind === "electric") {
    return { e: f.map((v) => v / EPS) as CVec3, h: c.map((v) => (v * OMEGA) / K) as CVec3 };
  }
  return { e: c.map((v) => -ETA * v) as CVec3, h: f };
}

/** How a cube's faces are sampled: graded cells, and points in scrambled order. */
interface Sampling {
  /** Cell edges at x + grade·sin(2πx)/2π of the side (x uniform in [0, 1]); 0: uniform. */
  grade: number;
  scramble: boolean;
}

/** Midpoints and widths of `count` cells across [lo, lo + side], graded as `grade` says. */
function cells(lo: number, side: number, count: number, grade: number) {
  const edge = (i: number) =>
    lo + side * (i / count + (grade * Math.sin((2 * Math.PI * i) / count)) / (2 * Math.PI));
  const mid = Array.from({ length: count }, (_, i) => (edge(i) + edge(i + 1)) / 2);
  const width = Array.from({ length: count }, (_, i) => edge(i + 1) - edge(i));
  return { mid, width };
}

/** The six faces of a cube (centre `center`, side `sideM`), `perSide` midpoints per edge. */
function cubeFaces(
  dip: Dipole,
  center: Vec3,
  sideM: number,
  perSide: number,
  sampling: Sampling = { grade: 0, scramble: false },
): FarFieldFace[] {
  const faces: FarFieldFace[] = [];
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const n = perSide * perSide;
      const face: FarFieldFace = {
        normal: [0, 0, 0],
        points: new Float64Array(3 * n),
        areas: new Float64Array(n),
        e: new Float64Array(6 * n),
        h: new Float64Array(6 * n),
      };
      face.normal[axis] = sign;
      const [b, c] = [(axis + 1) % 3, (axis + 2) % 3];
      const u = cells(center[b] - sideM / 2, sideM, perSide, sampling.grade);
      const v = cells(center[c] - sideM / 2, sideM, perSide, sampling.grade);
      const slots = Array.from({ length: n }, (_, p) => p);
      for (let i = n - 1; sampling.scramble && i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [slots[i], slots[j]] = [slots[j], slots[i]];
      }
      for (let i = 0; i < perSide; i++) {
        for (let j = 0; j < perSide; j++) {
          const p = slots[i * perSide + j];
          const r: Vec3 = [0, 0, 0];
          r[axis] = center[axis] + (sign * sideM) / 2;
          r[b] = u.mid[i];
          r[c] = v.mid[j];
          face.points.set(r, 3 * p);
          face.areas[p] = u.width[i] * v.width[j];
          const { e, h } = dipoleFields(dip, r);
          face.e.set(e, 6 * p);
          face.h.set(h, 6 * p);
        }
      }
      faces.push(face);
    }
  }
  return faces;
}

/** ½ Re ∮ (E × H*)·n̂ dA over the sampled faces (W). */
function boxFlux(faces: FarFieldFace[]): number {
  let sum = 0;
  for (const f of faces) {
    const a = f.normal.findIndex((v) => v !== 0);
    const b = (a + 1) % 3;
    const c = (a + 2) % 3;
    for (let p = 0; p < f.areas.length; p++) {
      const re = (x: Float64Array, i: number): number => x[6 * p + 2 * i];
      const im = (x: Float64Array, i: number): number => x[6 * p + 2 * i + 1];
      // (E×H*)_a = E_b H_c* − E_c H_b*; Re(x y*) = x.re y.re + x.im y.im.
      const s =
        re(f.e, b) * re(f.h, c) +
        im(f.e, b) * im(f.h, c) -
        re(f.e, c) * re(f.h, b) -
        im(f.e, c) * im(f.h, b);
      sum += 0.5 * f.normal[a] * s * f.areas[p];
    }
  }
  return sum;
}

function radiatedPower(dip: Dipole): number {
  const q2 = dot(dip.moment, dip.moment);
  return dip.kind === "electric"
    ? (ETA * OMEGA ** 2 * K ** 2 * q2) / (12 * Math.PI)
    : (ETA * K ** 4 * q2) / (12 * Math.PI);
}

/** U(θ, φ) = P · 3/8π · sin²ψ, ψ the angle between r̂ and the moment. */
function analyticIntensity(dip: Dipole, theta: number, phi: number): number {
  const r: Vec3 = [
    Math.sin(theta) * Math.cos(phi),
    Math.sin(theta) * Math.sin(phi),
    Math.cos(theta),
  ];
  const q2 = dot(dip.moment, dip.moment);
  const sin2 = 1 - dot(r, dip.moment) ** 2 / q2;
  return ((radiatedPower(dip) * 3) / (8 * Math.PI)) * sin2;
}

/** Largest |a − b| over all angles, as a fraction of the largest |b|. */
function worstRelative(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let err = 0;
  let peak = 0;
  for (let i = 0; i < b.length; i++) {
    err = Math.max(err, Math.abs(a[i] - b[i]));
    peak = Math.max(peak, Math.abs(b[i]));
  }
  return err / peak;
}

/** Largest |a − b| over complex arrays (re, im pairs), as a fraction of the largest |b|. */
function worstComplex(a: Float64Array, b: Float64Array): number {
  let err = 0;
  let peak = 0;
  for (let i = 0; i < b.length; i += 2) {
    err = Math.max(err, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1]));
    peak = Math.max(peak, Math.hypot(b[i], b[i + 1]));
  }
  return err / peak;
}

/** Largest modulus in a complex array (re, im pairs). */
function peakModulus(a: Float64Array): number {
  let peak = 0;
  for (let i = 0; i < a.length; i += 2) peak = Math.max(peak, Math.hypot(a[i], a[i + 1]));
  return peak;
}

const SIDE = 1.5 * LAMBDA;
const PER_SIDE = 30;

function project(dip: Dipole, center: Vec3 = [0, 0, 0], sampling?: Sampling) {
  const faces = cubeFaces(dip, center, SIDE, PER_SIDE, sampling);
  return { faces, pattern: projectFarField(faces, LAMBDA0, EPS_R, THETA, PHI) };
}

/** Percent, for messages and diagnostics. */
const pct = (x: number): string => `${(x * 100).toFixed(3)} %`;

/**
 * U against P·3/8π·sin²ψ at every angle, ∫U dΩ and the sampled fields' box flux against P.
 * Returns the figures, for the test's diagnostics.
 */
function checkPower(dip: Dipole, faces: FarFieldFace[], u: Float64Array): string {
  const p = radiatedPower(dip);
  const expected = THETA.flatMap((t) => PHI.map((f) => analyticIntensity(dip, t, f)));
  const patternErr = worstRelative(u, expected);
  assert.ok(patternErr < 0.01, `U off by ${pct(patternErr)} of its peak`);
  const integralErr = integrateOverSphere(u, THETA, PHI) / p - 1;
  assert.ok(Math.abs(integralErr) < 0.01, `∫U dΩ off P by ${pct(integralErr)}`);
  const fluxErr = boxFlux(faces) / p - 1;
  assert.ok(Math.abs(fluxErr) < 0.01, `box flux off P by ${pct(fluxErr)}`);
  return `U ${pct(patternErr)} of peak, ∫U dΩ/P − 1 = ${pct(integralErr)}, flux/P − 1 = ${pct(fluxErr)}`;
}

/**
 * The analytic far field at 1 m without e^{ikr}, θ-major: (k²/4πε)(p·θ̂, p·φ̂) for an electric
 * dipole, (ηk²/4π)(m·φ̂, −m·θ̂) for a magnetic one (the dual), times e^{−ik r̂·r0} for a dipole
 * at r0.
 */
function analyticFarField(dip: Dipole): { eTheta: Float64Array; ePhi: Float64Array } {
  const eTheta = new Float64Array(2 * THETA.length * PHI.length);
  const ePhi = new Float64Array(eTheta.length);
  THETA.forEach((t, i) =>
    PHI.forEach((f, j) => {
      const r: Vec3 = [Math.sin(t) * Math.cos(f), Math.sin(t) * Math.sin(f), Math.cos(t)];
      const th: Vec3 = [Math.cos(t) * Math.cos(f), Math.cos(t) * Math.sin(f), -Math.sin(t)];
      const ph: Vec3 = [-Math.sin(f), Math.cos(f), 0];
      const [a, b] =
        dip.kind === "electric"
          ? [dot(dip.moment, th), dot(dip.moment, ph)].map(
              (v) => (K ** 2 * v) / (4 * Math.PI * EPS),
            )
          : [dot(dip.moment, ph), -dot(dip.moment, th)].map(
              (v) => (ETA * K ** 2 * v) / (4 * Math.PI),
            );
      const phase = -K * dot(r, dip.at);
      const q = 2 * (i * PHI.length + j);
      [eTheta[q], eTheta[q + 1]] = [a * Math.cos(phase), a * Math.sin(phase)];
      [ePhi[q], ePhi[q + 1]] = [b * Math.cos(phase), b * Math.sin(phase)];
    }),
  );
  return { eTheta, ePhi };
}

/**
 * Complex E_θ and E_φ against the analytic far field, within 1 % of the peak |E|; with
 * `vanishing`, the component that must be 0 reaches under 1 % of it.
 */
function checkField(
  dip: Dipole,
  pattern: FarFieldPattern,
  vanishing?: "eTheta" | "ePhi",
): { err: number; crossPol: number } {
  const want = analyticFarField(dip);
  const both = (x: { eTheta: Float64Array; ePhi: Float64Array }) =>
    Float64Array.from([...x.eTheta, ...x.ePhi]);
  const err = worstComplex(both(pattern), both(want));
  assert.ok(err < 0.01, `E off by ${pct(err)} of its peak`);
  const peak = peakModulus(both(want));
  const crossPol = vanishing ? peakModulus(pattern[vanishing]) / peak : 0;
  assert.ok(crossPol < 0.01, `|${vanishing}| reaches ${pct(crossPol)} of the peak`);
  return { err, crossPol };
}

describe("far-field projection", () => {
  it("the reference dipole fields satisfy ∇×E = iωμ0 H and ∇×H = −iωε E (e^{−iωt})", () => {
    const h = LAMBDA * 1e-4;
    for (const kind of ["electric", "magnetic"] as const) {
      const dip: Dipole = { kind, moment: [0.3, -0.5, 0.8], at: [0.1 * LAMBDA, 0, -0.2 * LAMBDA] };
      const r: Vec3 = [0.4 * LAMBDA, 0.3 * LAMBDA, 0.5 * LAMBDA];
      const curl = (which: "e" | "h"): CVec3 => {
        const out: CVec3 = [0, 0, 0, 0, 0, 0];
        for (let i = 0; i < 3; i++) {
          for (const [j, s] of [
            [(i + 1) % 3, 1],
            [(i + 2) % 3, -1],
          ] as const) {
            const l = 3 - i - j; // ∂_j F_l with sign s into component i
            const plus: Vec3 = [...r];
            const minus: Vec3 = [...r];
            plus[j] += h;
            minus[j] -= h;
            for (const part of [0, 1]) {
              const d =
                dipoleFields(dip, plus)[which][2 * l + part] -
                dipoleFields(dip, minus)[which][2 * l + part];
              out[2 * i + part] += (s * d) / (2 * h);
            }
          }
        }
        return out;
      };
      const { e, h: hField } = dipoleFields(dip, r);
      // iωμ0 H and −iωε E: multiplying by i maps (re, im) to (−im, re).
      const curlE = Float64Array.from(curl("e"));
      const curlH = Float64Array.from(curl("h"));
      const iwmuH = Float64Array.from(
        hField.map(
          (_, i) => (((i % 2 ? 1 : -1) * OMEGA * ETA0) / SPEED_OF_LIGHT_M_PER_S) * hField[i ^ 1],
        ),
      );
      const iwepsE = Float64Array.from(e.map((_, i) => (i % 2 ? -1 : 1) * OMEGA * EPS * e[i ^ 1]));
      assert.ok(worstComplex(curlE, iwmuH) < 1e-6, `${kind}: ∇×E ≠ iωμ0 H`);
      assert.ok(worstComplex(curlH, iwepsE) < 1e-6, `${kind}: ∇×H ≠ −iωε E`);
    }
  });

  it("z electric dipole: U = P·3/8π·sin²θ, P = ηω²k²p²/12π = box flux, E_θ with its phase, E_φ = 0", (ctx) => {
    const dip: Dipole = { kind: "electric", moment: [0, 0, 1e-30], at: [0, 0, 0] };
    const { faces, pattern } = project(dip);
    const power = checkPower(dip, faces, pattern.radiantIntensity);
    const { err, crossPol } = checkField(dip, pattern, "ePhi");
    ctx.diagnostic(`${power}; E ${pct(err)}, |E_φ| ${pct(crossPol)} of peak |E|`);
  });

  it("z magnetic dipole: the dual polarisation, E_φ = ηk²m sinθ/4π with its phase, E_θ = 0", (ctx) => {
    const dip: Dipole = { kind: "magnetic", moment: [0, 0, 1e-12], at: [0, 0, 0] };
    const { faces, pattern } = project(dip);
    const power = checkPower(dip, faces, pattern.radiantIntensity);
    const { err, crossPol } = checkField(dip, pattern, "eTheta");
    ctx.diagnostic(`${power}; E ${pct(err)}, |E_θ| ${pct(crossPol)} of peak |E|`);
  });

  it("an x dipole off centre: U = P·3/8π·(1 − sin²θ cos²φ) as centred, E times e^{−ik r̂·r0}", (ctx) => {
    const centred: Dipole = { kind: "electric", moment: [1e-30, 0, 0], at: [0, 0, 0] };
    const ref = project(centred).pattern;
    const cases: { dip: Dipole; box: Vec3 }[] = [
      // The cube stays where it was: the dipole moves inside it.
      { dip: { ...centred, at: [0.2 * LAMBDA, -0.15 * LAMBDA, 0.1 * LAMBDA] }, box: [0, 0, 0] },
      // Both far from the origin, to which the phases refer.
      {
        dip: { ...centred, at: [3 * LAMBDA, -2 * LAMBDA, LAMBDA] },
        box: [3.1 * LAMBDA, -2 * LAMBDA, 0.9 * LAMBDA],
      },
    ];
    for (const { dip, box } of cases) {
      const { faces, pattern } = project(dip, box);
      const power = checkPower(dip, faces, pattern.radiantIntensity);
      const { err } = checkField(dip, pattern);
      const uErr = worstRelative(pattern.radiantIntensity, ref.radiantIntensity);
      assert.ok(uErr < 0.01, `moved dipole's U off the centred one's by ${pct(uErr)} of the peak`);
      ctx.diagnostic(
        `at ${dip.at.map((v) => (v / LAMBDA).toFixed(2))} λ: ${power}; E ${pct(err)}, U vs centred ${pct(uErr)}`,
      );
    }
  });

  it("graded cells and points in any order: the same analytic field", (ctx) => {
    // Cells from 0.6 to 1.4 times the mean width: the faces' groups and inner coordinates no
    // longer form a uniform grid, and scrambling checks that point order means nothing.
    const dip: Dipole = { kind: "electric", moment: [0, 1e-30, 0], at: [0, 0.1 * LAMBDA, 0] };
    const { faces, pattern } = project(dip, [0, 0, 0], { grade: 0.4, scramble: true });
    const power = checkPower(dip, faces, pattern.radiantIntensity);
    const { err } = checkField(dip, pattern);
    ctx.diagnostic(`${power}; E ${pct(err)} of peak`);
  });

  it("integrateOverSphere: exact for polynomials in cos θ on a uniform grid, O(Δθ²) otherwise", () => {
    const sphere = (f: (t: number, p: number) => number, th: number[], ph: number[]) =>
      integrateOverSphere(
        th.flatMap((t) => ph.map((p) => f(t, p))),
        th,
        ph,
      );
    const near = (got: number, want: number, tol: number) =>
      assert.ok(Math.abs(got / want - 1) < tol, `${got} instead of ${want}`);
    const one = () => 1;
    const cos2 = (t: number) => Math.cos(t) ** 2;
    near(sphere(one, THETA, PHI), 4 * Math.PI, 1e-12);
    near(sphere(cos2, THETA, PHI), (4 * Math.PI) / 3, 1e-12);
    // sin²θ cos²φ integrates to 4π/3 as well; the φ sum is exact on a uniform periodic grid.
    near(
      sphere((t, p) => (Math.sin(t) * Math.cos(p)) ** 2, THETA, PHI),
      (4 * Math.PI) / 3,
      1e-12,
    );
    // Non-uniform θ: hat-function weights, exact for a constant, O(Δθ²) for cos²θ.
    near(
      sphere(one, [0, 0.1, 0.3, 0.7, 1.2, 1.6, 2.0, 2.5, 2.9, Math.PI], [0]),
      4 * Math.PI,
      1e-12,
    );
    const graded = Array.from({ length: 200 }, (_, i) => (i / 199) ** 1.3 * Math.PI);
    near(sphere(cos2, graded, [0]), (4 * Math.PI) / 3, 1e-3);
    // A hemisphere (θ up to π/2) integrates the band it spans.
    const upper = Array.from({ length: 10 }, (_, i) => (i * Math.PI) / 18);
    near(sphere(one, upper, PHI), 2 * Math.PI, 1e-12);
    assert.throws(() => integrateOverSphere([1, 2], THETA, PHI), /values for 37×72 angles/);
    assert.throws(() => sphere(one, [0.5, 0.2, 1], PHI), /θ must ascend/);
  });

  it("rejects malformed faces", () => {
    const face = (): FarFieldFace => ({
      normal: [0, 0, 1],
      points: new Float64Array([0, 0, 0, 1e-7, 0, 0]),
      areas: new Float64Array([1e-14, 1e-14]),
      e: new Float64Array(12),
      h: new Float64Array(12),
    });
    const run = (f: FarFieldFace) => projectFarField([f], LAMBDA0, 1, [0], [0]);
    assert.doesNotThrow(() => run(face()));
    assert.throws(() => run({ ...face(), normal: [0, 1, 1] }), /normal must be ±1/);
    assert.throws(() => run({ ...face(), normal: [0, 0, 0.5] }), /normal must be ±1/);
    assert.throws(() => run({ ...face(), e: new Float64Array(6) }), /has 2 areas/);
    assert.throws(
      () => run({ ...face(), points: new Float64Array([0, 0, 0, 0, 0, 1e-7]) }),
      /not flat/,
    );
    assert.throws(() => projectFarField([face()], -1, 1, [0], [0]), /wavelength/);
  });

  it("projects a 6×100×100-point box to 37×72 directions in well under a few seconds", (ctx) => {
    const dip: Dipole = { kind: "electric", moment: [0, 0, 1e-30], at: [0, 0, 0] };
    const faces = cubeFaces(dip, [0, 0, 0], 5 * LAMBDA, 100);
    const start = performance.now();
    const { radiantIntensity } = projectFarField(faces, LAMBDA0, EPS_R, THETA, PHI);
    const seconds = (performance.now() - start) / 1000;
    // A loose bound: a regression to per-point trigonometry takes several seconds, while the
    // figure itself (≈ 0.25 s of CPU) varies with the load of a shared machine.
    ctx.diagnostic(`60 000 points × 2 664 directions in ${seconds.toFixed(2)} s`);
    assert.ok(seconds < 5, `took ${seconds} s`);
    const p = radiatedPower(dip);
    assert.ok(Math.abs(integrateOverSphere(radiantIntensity, THETA, PHI) / p - 1) < 0.01);
  });
});
