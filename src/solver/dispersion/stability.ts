/**
 * Stability of the Yee scheme with the ADE update (ade.ts) in a homogeneous medium: a von
 * Neumann analysis. For a plane wave E^n = E·zⁿ whose discrete curl-curl eigenvalue is K²,
 * eliminating H and P from the update equations gives
 *
 *   [ε∞(z − 1) + s(z + 1) + (z − 1)·Σ_p χ_p(z)]·(z − 1) + Ω²·z = 0,
 *
 *   χ_p(z) = κ_p·(z + 1)² / (z² − α_p·z − β_p),   s = σΔt/(2ε0),   Ω² = c²Δt²K² ∈ [0, 4S²],
 *
 * with ade.ts's bilinear pole update P^{n+1} = α·P^n + β·P^{n−1} + κ·(E^{n+1} + 2E^n + E^{n−1}),
 * α = (2 − ω0²Δt²/2)/D, β = −(1 − g + ω0²Δt²/4)/D, κ = a·Δt²/(4D), D = 1 + g + ω0²Δt²/4,
 * g = γΔt/2,
 *
 * where S is the Courant factor (dt = S·Δx/(c√3); 4S² bounds Ω² on any grid, the 3-D corner
 * of the Brillouin zone being the worst). The scheme is stable when every root z of the
 * polynomial (that equation times Π Q_p) has |z| ≤ 1 for every Ω² in that range. The roots
 * are found by the Aberth–Ehrlich iteration in w = z − 1; Ω² is sampled densely, with the end
 * point.
 */
import { EPS0 } from "../constants.js";
import { poleCoefficients } from "./ade.js";
import { oscillator, type PoleModel } from "./model.js";

type C = [number, number];
const add = (a: C, b: C): C => [a[0] + b[0], a[1] + b[1]];
const sub = (a: C, b: C): C => [a[0] - b[0], a[1] - b[1]];
const mul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const div = (a: C, b: C): C => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};

/** Real polynomial helpers: coefficients lowest power first. */
function polyMul(a: number[], b: number[]): number[] {
  const out = new Array<number>(a.length + b.length - 1).fill(0);
  for (let i = 0; i < a.length; i++) for (let j = 0; j < b.length; j++) out[i + j] += a[i] * b[j];
  return out;
}
function polyAdd(a: number[], b: number[]): number[] {
  const out = new Array<number>(Math.max(a.length, b.length)).fill(0);
  a.forEach((v, i) => (out[i] += v));
  b.forEach((v, i) => (out[i] += v));
  return out;
}

/** Roots of a real polynomial (lowest power first), by the Aberth–Ehrlich iteration. */
export function polynomialRoots(coefficients: number[]): C[] {
  let c = coefficients.slice();
  while (c.length > 1 && c[c.length - 1] === 0) c.pop();
  const degree = c.length - 1;
  if (degree < 1) return [];
  const lead = c[degree];
  c = c.map((v) => v / lead);
  const evalBoth = (z: C): [C, C] => {
    let p: C = [c[degree], 0];
    let d: C = [0, 0];
    for (let i = degree - 1; i >= 0; i--) {
      d = add(mul(d, z), p);
      p = add(mul(p, z), [c[i], 0]);
    }
    return [p, d];
  };
  // Start on a circle of the roots' geometric mean radius, off the real axis.
  const radius = c[0] !== 0 ? Math.abs(c[0]) ** (1 / degree) : 1;
  const z: C[] = Array.from({ length: degree }, (_, k) => {
    const angle = (2 * Math.PI * k) / degree + 0.4;
    return [radius * Math.cos(angle), radius * Math.sin(angle)];
  });
  for (let iteration = 0; iteration < 500; iteration++) {
    let moved = 0;
    for (let k = 0; k < degree; k++) {
      const [p, d] = evalBoth(z[k]);
      if (p[0] === 0 && p[1] === 0) continue;
      const ratio = div(p, d);
      let sum: C = [0, 0];
      for (let j = 0; j < degree; j++) if (j !== k) sum = add(sum, div([1, 0], sub(z[k], z[j])));
      const step = div(ratio, sub([1, 0], mul(ratio, sum)));
      z[k] = sub(z[k], step);
      moved = Math.max(moved, Math.hypot(step[0], step[1]));
    }
    if (moved < 1e-14) break;
  }
  return z;
}

/**
 * The polynomial of the module comment for one Ω², in w = z − 1 (lowest power first). Written
 * in w from the start, its coefficients carry no cancellation: at small ωΔt every root is
 * near z = 1, where the polynomial in z would lose them to round-off.
 */
function characteristic(model: PoleModel, dt: number, omegaSq: number): number[] {
  const s = (model.sigma * dt) / (2 * EPS0);
  const qs = model.poles.map((pole) => {
    const { omega0Sq, gamma } = oscillator(pole);
    const w0 = omega0Sq * dt * dt;
    const g = (gamma * dt) / 2;
    const d = 1 + g + w0 / 4;
    const { cE } = poleCoefficients(pole, dt);
    // Q = z² − αz − β and N = κ·(z + 1)² in w (ade.ts's α, β, κ).
    return { q: [w0 / d, (2 * g + w0) / d, 1], n: [4 * cE, 4 * cE, cE] };
  });
  const prodAll = qs.reduce((acc, { q }) => polyMul(acc, q), [1]);
  // ε∞(z − 1) + s(z + 1) = 2s + (ε∞ + s)·w, times Π Q.
  let bracket = polyMul([2 * s, model.epsInf + s], prodAll);
  // (z − 1)·χ_p·Π Q = w·N_p·Π_{q≠p} Q.
  qs.forEach(({ n }, p) => {
    const others = qs.reduce((acc, { q }, i) => (i === p ? acc : polyMul(acc, q)), [1]);
    bracket = polyAdd(bracket, polyMul(polyMul([0, 1], n), others));
  });
  // [ … ]·w + Ω²·(1 + w)·Π Q.
  return polyAdd(polyMul(bracket, [0, 1]), polyMul([omegaSq, omegaSq], prodAll));
}

/**
 * Largest growth |z|² − 1 = 2 Re w + |w|² over the sampled Ω² > 0, relative to |w| (roots
 * on the unit circle give 0 up to round-off, about 1e-12 of |w|).
 */
export function largestGrowth(model: PoleModel, dt: number, courantFactor: number): number {
  const samples = 64;
  const top = 4 * courantFactor * courantFactor;
  let worst = -Infinity;
  for (let i = 1; i <= samples; i++) {
    // Denser near the top of the range, where instabilities appear first.
    const u = i / samples;
    const omegaSq = top * (1 - (1 - u) * (1 - u));
    const poly = characteristic(model, dt, omegaSq);
    // Exact roots w = 0 (z = 1: a Drude pole's static current) are marginal, not growth.
    while (poly.length > 1 && poly[0] === 0) poly.shift();
    for (const [re, im] of clusterCentres(polynomialRoots(poly))) {
      const size = Math.hypot(re, im);
      if (size === 0) continue;
      worst = Math.max(worst, (2 * re + size * size) / size);
    }
  }
  return worst;
}

/**
 * Each root replaced by the centre of the cluster it belongs to (roots closer than 1e-6 of
 * their size). A double root, such as z = −1 of the grid's fastest mode at a Courant factor
 * of exactly 1 with ε∞ = 1 (every Rakić metal), comes out of any root finder as two roots
 * about √(machine ε) ≈ 1e-8 apart, one of them outside the unit circle by as much; their
 * mean is accurate to round-off, so a marginal mode is not taken for growth.
 */
function clusterCentres(roots: C[]): C[] {
  return roots.map((r) => {
    const near = roots.filter(
      (q) =>
        Math.hypot(q[0] - r[0], q[1] - r[1]) <= 1e-6 * Math.max(Math.hypot(r[0], r[1]), 1e-300),
    );
    const n = near.length;
    return [near.reduce((a, q) => a + q[0], 0) / n, near.reduce((a, q) => a + q[1], 0) / n];
  });
}

/** Relative growth above this is instability (see largestGrowth). */
const TOLERANCE = 1e-8;

/** What courantLimit finds. */
export interface CourantLimit {
  stable: boolean;
  largestStable: number;
}

/** Answers kept by courantLimit, by model, step and factor (at most LIMIT_CACHE_SIZE). */
const limits = new Map<string, CourantLimit>();
const LIMIT_CACHE_SIZE = 256;

/**
 * Whether the scheme is stable for a medium at Courant factor S on a grid of step Δx, and
 * otherwise the largest stable S (to 3 digits; 0 if even S = 0.01 is unstable). The analysis
 * takes 4–20 ms for a library material, and validation asks it again for every job with the
 * same materials and grid (a batch's hundred variants, and each again in the solver thread
 * that runs it): the answers are kept, the oldest dropped past LIMIT_CACHE_SIZE.
 */
export function courantLimit(model: PoleModel, stepM: number, courantFactor: number): CourantLimit {
  const key = `${JSON.stringify(model)}|${stepM}|${courantFactor}`;
  const known = limits.get(key);
  if (known) return { ...known };
  const limit = analyseCourantLimit(model, stepM, courantFactor);
  if (limits.size >= LIMIT_CACHE_SIZE) limits.delete(limits.keys().next().value!);
  limits.set(key, limit);
  return { ...limit };
}

/** courantLimit's analysis: the factor itself, else a bisection for the largest stable one. */
function analyseCourantLimit(model: PoleModel, stepM: number, courantFactor: number): CourantLimit {
  const dtOf = (s: number) => (s * stepM) / (299_792_458 * Math.sqrt(3));
  const stableAt = (s: number) => largestGrowth(model, dtOf(s), s) <= TOLERANCE;
  if (stableAt(courantFactor)) return { stable: true, largestStable: courantFactor };
  let lo = 0.01;
  let hi = courantFactor;
  if (!stableAt(lo)) return { stable: false, largestStable: 0 };
  while (hi - lo > 0.001) {
    const mid = (lo + hi) / 2;
    if (stableAt(mid)) lo = mid;
    else hi = mid;
  }
  return { stable: false, largestStable: Math.floor(lo * 1000) / 1000 };
}
