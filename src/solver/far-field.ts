/**
 * Near-to-far-field projection: the far field, in a homogeneous background, of whatever lies
 * inside a closed surface, from the frequency-domain E and H sampled on that surface (the
 * `far_field` monitor, DESIGN.md §10). Pure math: the caller samples the faces.
 *
 * Surface equivalence (Balanis, "Advanced Engineering Electromagnetics", §6.8 and §12.2;
 * Taflove & Hagness, "Computational Electrodynamics", 3rd ed., ch. 8). On a face with outward
 * normal n̂ the equivalent currents J = n̂×H and M = −n̂×E radiate, outside the surface, the
 * field of the sources inside. Far away, with r̂ = (sinθ cosφ, sinθ sinφ, cosθ),
 *
 *   N(θ, φ) = ∮ J(r′) e^{−ik r̂·r′} dA′,   L(θ, φ) = ∮ M(r′) e^{−ik r̂·r′} dA′,
 *   E_θ = (ik e^{ikr} / 4πr) (L_φ + η N_θ),   E_φ = (ik e^{ikr} / 4πr) (η N_φ − L_θ),
 *
 * with k = n·2π/λ0 and η = η0/n in the background of index n = √ε_r. Signs are for this
 * codebase's e^{−iωt} convention (outgoing waves e^{+ikr}): they are Balanis's e^{+jωt}
 * formulas with j → −i, equivalently E = iωμ A_⊥ − (1/ε)∇×F with A = μ N e^{ikr}/4πr,
 * F = ε L e^{ikr}/4πr and ∇ → ik r̂. The tests check them against the exact fields of
 * electric and magnetic dipoles, phases included. The pattern is reported at r = 1 m without
 * the e^{ikr} factor, and the radiant intensity U = r² (|E_θ|² + |E_φ|²) / 2η in W/sr, on
 * the same ½ Re(E×H*) power scale as the flux monitors (flux.ts).
 *
 * Cost. A face contributes, per direction, a sum over its points of 4 complex tangential
 * currents times e^{−ik r̂·r′}. The points are grouped by one in-plane coordinate ("outer")
 * and the phase split as e^{−ik r̂_a a0} · e^{−ik r̂_o o} · e^{−ik r̂_i i}, each factor tabulated
 * over the face's distinct coordinate values, so no trigonometry runs per point. The
 * per-point pass (per group, Σ cos(k|r̂_i| i)·J and Σ sin(k|r̂_i| i)·J, whose combination
 * C ∓ iS is the sum with e^{∓ik|r̂_i| i}) depends on the direction only through |r̂_i|, so
 * directions sharing |r̂_i| (to a phase error of 1e-10 rad) share one pass, and the work per
 * direction is one pass over the groups. Each face takes as inner axis the tangential axis
 * with the cheaper total. On a θ×φ grid an x or y face takes z (|r̂_z| = |cos θ|: about nθ/2
 * passes), and a z face gets about nθ·nφ/8 (|sin θ sin φ| repeats at π − θ, π − φ and −φ).
 * For a 6×100×100-point box at 37×72 directions that is about 240 passes over 10 000 points
 * in all, instead of 6 × 2 664 for the plain sum. Points need not lie on a grid (scattered
 * points make one group each and are merely slower).
 */
import { ETA0 } from "./constants.js";

/** Collocated frequency-domain samples on one flat face of the closed surface. */
export interface FarFieldFace {
  /** Unit outward normal, axis-aligned: [±1,0,0], [0,±1,0] or [0,0,±1]. */
  normal: [number, number, number];
  /** Sample positions, x, y, z per point (m). All share the coordinate along the normal. */
  points: Float64Array;
  /** Area in m² each point stands for (quadrature weight). */
  areas: Float64Array;
  /** E (V/m) and H (A/m) phasors per point: re, im of x, y, z (6 numbers per point). */
  e: Float64Array;
  h: Float64Array;
}

/** The far field on a (θ, φ) grid, θ-major: index t·nφ + p. */
export interface FarFieldPattern {
  /** Complex E_θ and E_φ (V) at r = 1 m without the e^{ikr} phase: re, im pairs. */
  eTheta: Float64Array;
  ePhi: Float64Array;
  /** Radiant intensity U = r²·(|E_θ|² + |E_φ|²)/(2η) in W/sr. */
  radiantIntensity: Float64Array;
}

/** A face reordered for the projection (see the header's "Cost"). */
interface PreparedFace {
  /** Axis of the normal; b = a+1, c = a+2 (mod 3) are the tangential axes. */
  axis: number;
  /** Coordinate of the face along its normal (m). */
  planeM: number;
  /** In-plane axis whose phase is applied per group, and the one applied per point. */
  outerAxis: number;
  innerAxis: number;
  /** Distinct outer coordinates (m), one per group, and where each group's points start. */
  outerM: Float64Array;
  groupStart: Int32Array;
  /** Distinct inner coordinates (m), and each point's index into them (group order). */
  innerM: Float64Array;
  innerOf: Int32Array;
  /** Area-weighted J_b, J_c, M_b, M_c per point in group order: re, im (8 numbers each). */
  currents: Float64Array;
  /** The directions in runs of equal |r̂| along the inner axis. */
  runs: DirectionRuns;
}

/** Direction indices sorted by one component of r̂, cut into runs of equal values. */
interface DirectionRuns {
  order: Int32Array;
  /** Run r is order[start[r]] … order[start[r + 1] − 1]. */
  start: Int32Array;
}

/** Work arrays shared by every face and direction of one projection. */
interface Scratch {
  phaseRe: Float64Array;
  phaseIm: Float64Array;
  /** Per-group cosine and sine sums of the 4 complex currents (16 numbers per group). */
  groups: Float64Array;
  /** The face's 4 complex sums for one direction. */
  total: Float64Array;
}

/** Radiation vectors per direction: re, im of N_x, N_y, N_z, L_x, L_y, L_z. */
const RADIATION_STRIDE = 12;

/**
 * Projects the fields on a closed surface to the far field at the given directions.
 *
 * @param faces the surface's faces (a single plane projects the half-space it faces).
 * @param wavelengthM vacuum wavelength λ0 (m).
 * @param epsR relative permittivity of the background (real, > 0).
 * @param thetaRad polar angles from +z (rad); @param phiRad azimuths from +x about +z (rad).
 */
export function projectFarField(
  faces: readonly FarFieldFace[],
  wavelengthM: number,
  epsR: number,
  thetaRad: readonly number[],
  phiRad: readonly number[],
): FarFieldPattern {
  if (!(wavelengthM > 0) || !Number.isFinite(wavelengthM)) {
    throw new RangeError(`far field: wavelength must be positive, got ${wavelengthM}`);
  }
  if (!(epsR > 0) || !Number.isFinite(epsR)) {
    throw new RangeError(`far field: epsR must be positive, got ${epsR}`);
  }
  if (![...thetaRad, ...phiRad].every(Number.isFinite)) {
    throw new RangeError("far field: angles must be finite numbers");
  }
  const index = Math.sqrt(epsR);
  const k = (2 * Math.PI * index) / wavelengthM;
  const directions = directionVectors(thetaRad, phiRad);
  const prepared = faces.map((f, i) => prepareFace(f, i, directions, k));
  const radiation = new Float64Array((directions.length / 3) * RADIATION_STRIDE);
  let maxInner = 0;
  let maxGroups = 0;
  for (const f of prepared) {
    maxInner = Math.max(maxInner, f.innerM.length);
    maxGroups = Math.max(maxGroups, f.outerM.length);
  }
  const scratch: Scratch = {
    phaseRe: new Float64Array(maxInner),
    phaseIm: new Float64Array(maxInner),
    groups: new Float64Array(16 * maxGroups),
    total: new Float64Array(8),
  };
  for (const f of prepared) accumulateFace(f, k, directions, radiation, scratch);
  return patternFromRadiation(radiation, k, ETA0 / index, thetaRad, phiRad);
}

/** Checks a face's shape and returns its normal axis, sign and plane coordinate. */
function checkFace(
  face: FarFieldFace,
  which: number,
): { axis: number; sign: number; planeM: number } {
  const axis = face.normal.findIndex((v) => v !== 0);
  const sign = axis < 0 ? 0 : face.normal[axis];
  if ((sign !== 1 && sign !== -1) || face.normal.some((v, i) => i !== axis && v !== 0)) {
    throw new RangeError(`far field: face ${which} normal must be ±1 along one axis`);
  }
  const n = face.areas.length;
  if (face.points.length !== 3 * n || face.e.length !== 6 * n || face.h.length !== 6 * n) {
    throw new RangeError(
      `far field: face ${which} has ${n} areas but ${face.points.length / 3} points, ` +
        `${face.e.length / 6} E and ${face.h.length / 6} H samples`,
    );
  }
  let lo = Infinity;
  let hi = -Infinity;
  let span = 0;
  for (let p = 0; p < n; p++) {
    lo = Math.min(lo, face.points[3 * p + axis]);
    hi = Math.max(hi, face.points[3 * p + axis]);
    for (let d = 0; d < 3; d++) span = Math.max(span, Math.abs(face.points[3 * p + d]));
  }
  // A face must be flat (its normal phase is applied once per direction); allow round-off.
  if (hi - lo > 1e-12 * span) {
    throw new RangeError(`far field: face ${which} is not flat along its normal`);
  }
  return { axis, sign, planeM: n > 0 ? (lo + hi) / 2 : 0 };
}

/** Distinct values of one coordinate, and each point's index into them. */
function distinctCoordinates(
  points: Float64Array,
  axis: number,
): { values: Float64Array; of: Int32Array } {
  const n = points.length / 3;
  const slot = new Map<number, number>();
  const of = new Int32Array(n);
  const values: number[] = [];
  for (let p = 0; p < n; p++) {
    const v = points[3 * p + axis];
    let s = slot.get(v);
    if (s === undefined) {
      s = values.length;
      slot.set(v, s);
      values.push(v);
    }
    of[p] = s;
  }
  return { values: Float64Array.from(values), of };
}

/** Unit vectors r̂ = (sinθ cosφ, sinθ sinφ, cosθ), θ-major: x, y, z per direction. */
function directionVectors(thetaRad: readonly number[], phiRad: readonly number[]): Float64Array {
  const out = new Float64Array(3 * thetaRad.length * phiRad.length);
  let o = 0;
  for (const t of thetaRad) {
    for (const p of phiRad) {
      out[o++] = Math.sin(t) * Math.cos(p);
      out[o++] = Math.sin(t) * Math.sin(p);
      out[o++] = Math.cos(t);
    }
  }
  return out;
}

/**
 * The directions sorted by |r̂| along `axis` and cut into runs within `tol` of each run's
 * first value (which stands for the run).
 */
function runsOfEqualComponent(directions: Float64Array, axis: number, tol: number): DirectionRuns {
  const n = directions.length / 3;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort(
    (i, j) => Math.abs(directions[3 * i + axis]) - Math.abs(directions[3 * j + axis]),
  );
  const start = [0];
  let first = n > 0 ? Math.abs(directions[3 * order[0] + axis]) : 0;
  for (let i = 1; i < n; i++) {
    const v = Math.abs(directions[3 * order[i] + axis]);
    if (v - first > tol) {
      start.push(i);
      first = v;
    }
  }
  if (n > 0) start.push(n);
  return { order, start: Int32Array.from(start) };
}

/**
 * Picks the face's inner axis: the one that makes the cheaper sum, counting a pass over the
 * points per run of equal |r̂| along it and a pass over the groups (the other axis's distinct
 * values, a sine and a cosine each, weighed as 4 points) per direction. Runs merge directions
 * whose inner phases differ by at most 1e-10 rad anywhere on the face.
 */
function chooseInnerAxis(points: Float64Array, axis: number, directions: Float64Array, k: number) {
  const nPoints = points.length / 3;
  const nDirections = directions.length / 3;
  const options = [(axis + 1) % 3, (axis + 2) % 3].map((innerAxis) => {
    const outerAxis = 3 - axis - innerAxis;
    const inner = distinctCoordinates(points, innerAxis);
    const outer = distinctCoordinates(points, outerAxis);
    const reach = inner.values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const runs = runsOfEqualComponent(directions, innerAxis, 1e-10 / (k * reach));
    const cost = (runs.start.length - 1) * nPoints + 4 * nDirections * outer.values.length;
    return { innerAxis, outerAxis, inner, outer, runs, cost };
  });
  return options[0].cost <= options[1].cost ? options[0] : options[1];
}

/**
 * Groups a face's points by their outer coordinate and forms the area-weighted tangential
 * currents J = n̂×H, M = −n̂×E. With n̂ = s·ê_a: J_b = −s H_c, J_c = s H_b, M_b = s E_c,
 * M_c = −s E_b (the normal components vanish).
 */
function prepareFace(
  face: FarFieldFace,
  which: number,
  directions: Float64Array,
  k: number,
): PreparedFace {
  const { axis, sign, planeM } = checkFace(face, which);
  const b = (axis + 1) % 3;
  const c = (axis + 2) % 3;
  const { innerAxis, outerAxis, inner, outer, runs } = chooseInnerAxis(
    face.points,
    axis,
    directions,
    k,
  );
  const nGroups = outer.values.length;
  const groupStart = new Int32Array(nGroups + 1);
  for (const g of outer.of) groupStart[g + 1]++;
  for (let g = 0; g < nGroups; g++) groupStart[g + 1] += groupStart[g];
  const next = groupStart.slice(0, nGroups);
  const n = face.areas.length;
  const innerOf = new Int32Array(n);
  const currents = new Float64Array(8 * n);
  const { e, h } = face;
  for (let p = 0; p < n; p++) {
    const q = next[outer.of[p]]++;
    innerOf[q] = inner.of[p];
    const w = sign * face.areas[p];
    const o = 8 * q;
    currents[o] = -w * h[6 * p + 2 * c];
    currents[o + 1] = -w * h[6 * p + 2 * c + 1];
    currents[o + 2] = w * h[6 * p + 2 * b];
    currents[o + 3] = w * h[6 * p + 2 * b + 1];
    currents[o + 4] = w * e[6 * p + 2 * c];
    currents[o + 5] = w * e[6 * p + 2 * c + 1];
    currents[o + 6] = -w * e[6 * p + 2 * b];
    currents[o + 7] = -w * e[6 * p + 2 * b + 1];
  }
  const outerM = outer.values;
  const innerM = inner.values;
  return {
    axis,
    planeM,
    outerAxis,
    innerAxis,
    outerM,
    groupStart,
    innerM,
    innerOf,
    currents,
    runs,
  };
}

/** cos(kr·v) and sin(kr·v) for each coordinate v, into the scratch phase arrays. */
function tabulatePhases(coordsM: Float64Array, kr: number, s: Scratch): void {
  const { phaseRe, phaseIm } = s;
  for (let j = 0; j < coordsM.length; j++) {
    phaseRe[j] = Math.cos(kr * coordsM[j]);
    phaseIm[j] = Math.sin(kr * coordsM[j]);
  }
}

/**
 * Per group: C = Σ cos(κ·inner)·currents and S = Σ sin(κ·inner)·currents over its points
 * (cos and sin tabulated in s), 8 + 8 numbers. The group's sum with e^{∓iκ·inner} is C ∓ iS,
 * so one pass serves r̂_inner = ±κ/k.
 */
function sumGroups(f: PreparedFace, s: Scratch): void {
  const { phaseRe, phaseIm, groups } = s;
  const { groupStart, innerOf, currents } = f;
  for (let g = 0; g < f.outerM.length; g++) {
    let c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0; // prettier-ignore
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0; // prettier-ignore
    for (let p = groupStart[g]; p < groupStart[g + 1]; p++) {
      const cos = phaseRe[innerOf[p]];
      const sin = phaseIm[innerOf[p]];
      const o = 8 * p;
      c0 += cos * currents[o];
      s0 += sin * currents[o];
      c1 += cos * currents[o + 1];
      s1 += sin * currents[o + 1];
      c2 += cos * currents[o + 2];
      s2 += sin * currents[o + 2];
      c3 += cos * currents[o + 3];
      s3 += sin * currents[o + 3];
      c4 += cos * currents[o + 4];
      s4 += sin * currents[o + 4];
      c5 += cos * currents[o + 5];
      s5 += sin * currents[o + 5];
      c6 += cos * currents[o + 6];
      s6 += sin * currents[o + 6];
      c7 += cos * currents[o + 7];
      s7 += sin * currents[o + 7];
    }
    const o = 16 * g;
    groups[o] = c0;
    groups[o + 1] = c1;
    groups[o + 2] = c2;
    groups[o + 3] = c3;
    groups[o + 4] = c4;
    groups[o + 5] = c5;
    groups[o + 6] = c6;
    groups[o + 7] = c7;
    groups[o + 8] = s0;
    groups[o + 9] = s1;
    groups[o + 10] = s2;
    groups[o + 11] = s3;
    groups[o + 12] = s4;
    groups[o + 13] = s5;
    groups[o + 14] = s6;
    groups[o + 15] = s7;
  }
}

/**
 * s.total = Σ over groups of e^{−i·kr·outer}·(C − i·sign·S): the face's 4 complex sums for a
 * direction whose r̂_inner has the given sign.
 */
function sumOverGroups(f: PreparedFace, kr: number, sign: number, s: Scratch): void {
  const { groups, total } = s;
  total.fill(0);
  for (let g = 0; g < f.outerM.length; g++) {
    const a = -kr * f.outerM[g];
    const pr = Math.cos(a);
    const pi = Math.sin(a);
    for (let q = 0; q < 8; q += 2) {
      // −i·sign·S = sign·(S_im, −S_re).
      const re = groups[16 * g + q] + sign * groups[16 * g + 8 + q + 1];
      const im = groups[16 * g + q + 1] - sign * groups[16 * g + 8 + q];
      total[q] += pr * re - pi * im;
      total[q + 1] += pr * im + pi * re;
    }
  }
}

/** Adds one face's contribution to N and L in every direction. */
function accumulateFace(
  f: PreparedFace,
  k: number,
  directions: Float64Array,
  radiation: Float64Array,
  s: Scratch,
): void {
  const b = (f.axis + 1) % 3;
  const c = (f.axis + 2) % 3;
  const { order, start } = f.runs;
  const { total } = s;
  for (let r = 0; r + 1 < start.length; r++) {
    tabulatePhases(f.innerM, k * Math.abs(directions[3 * order[start[r]] + f.innerAxis]), s);
    sumGroups(f, s);
    for (let i = start[r]; i < start[r + 1]; i++) {
      const d = order[i];
      const sign = directions[3 * d + f.innerAxis] < 0 ? -1 : 1;
      sumOverGroups(f, k * directions[3 * d + f.outerAxis], sign, s);
      const a = -k * directions[3 * d + f.axis] * f.planeM;
      const pr = Math.cos(a);
      const pi = Math.sin(a);
      // total holds J_b, J_c, M_b, M_c; N_x is at slot 0 of a direction, L_x at slot 6.
      for (let q = 0; q < 4; q++) {
        const o = d * RADIATION_STRIDE + (q < 2 ? 0 : 6) + 2 * (q % 2 === 0 ? b : c);
        radiation[o] += pr * total[2 * q] - pi * total[2 * q + 1];
        radiation[o + 1] += pr * total[2 * q + 1] + pi * total[2 * q];
      }
    }
  }
}

/** E_θ, E_φ at 1 m and U from the radiation vectors N, L (formulas in the header). */
function patternFromRadiation(
  radiation: Float64Array,
  k: number,
  eta: number,
  thetaRad: readonly number[],
  phiRad: readonly number[],
): FarFieldPattern {
  const count = thetaRad.length * phiRad.length;
  const eTheta = new Float64Array(2 * count);
  const ePhi = new Float64Array(2 * count);
  const radiantIntensity = new Float64Array(count);
  const scale = k / (4 * Math.PI);
  for (let t = 0; t < thetaRad.length; t++) {
    const st = Math.sin(thetaRad[t]);
    const ct = Math.cos(thetaRad[t]);
    for (let p = 0; p < phiRad.length; p++) {
      const cp = Math.cos(phiRad[p]);
      const sp = Math.sin(phiRad[p]);
      const i = t * phiRad.length + p;
      const v = radiation.subarray(i * RADIATION_STRIDE, (i + 1) * RADIATION_STRIDE);
      // θ̂ = (cosθ cosφ, cosθ sinφ, −sinθ), φ̂ = (−sinφ, cosφ, 0).
      const along = (o: number, x: number, y: number, z: number): number =>
        x * v[o] + y * v[o + 2] + z * v[o + 4];
      const nThRe = along(0, ct * cp, ct * sp, -st);
      const nThIm = along(1, ct * cp, ct * sp, -st);
      const nPhRe = along(0, -sp, cp, 0);
      const nPhIm = along(1, -sp, cp, 0);
      const lThRe = along(6, ct * cp, ct * sp, -st);
      const lThIm = along(7, ct * cp, ct * sp, -st);
      const lPhRe = along(6, -sp, cp, 0);
      const lPhIm = along(7, -sp, cp, 0);
      // E = (ik/4π)·X: multiplying by i maps (re, im) to (−im, re).
      eTheta[2 * i] = -scale * (lPhIm + eta * nThIm);
      eTheta[2 * i + 1] = scale * (lPhRe + eta * nThRe);
      ePhi[2 * i] = -scale * (eta * nPhIm - lThIm);
      ePhi[2 * i + 1] = scale * (eta * nPhRe - lThRe);
      const e2 =
        eTheta[2 * i] ** 2 + eTheta[2 * i + 1] ** 2 + ePhi[2 * i] ** 2 + ePhi[2 * i + 1] ** 2;
      radiantIntensity[i] = e2 / (2 * eta);
    }
  }
  return { eTheta, ePhi, radiantIntensity };
}

/**
 * Quadrature weights in θ for ∫ f(θ) sinθ dθ. A uniform grid from 0 to π is the
 * Chebyshev–Lobatto grid in cos θ, so Clenshaw–Curtis weights apply (Waldvogel, BIT 46, 195
 * (2006)): exact for polynomials in cos θ of degree < nθ, spectrally accurate for smooth
 * patterns. Any other grid gets the exact integrals of sinθ against hat functions, i.e.
 * f interpolated linearly: O(Δθ²), exact for an isotropic pattern.
 */
function thetaWeights(thetaRad: readonly number[]): Float64Array {
  const n = thetaRad.length - 1;
  const w = new Float64Array(n + 1);
  const uniform = thetaRad.every((t, j) => Math.abs(t - (j * Math.PI) / n) <= 1e-9);
  if (uniform && n >= 2) {
    for (let j = 0; j <= n; j++) {
      let sum = 0;
      for (let m = 1; m <= Math.floor(n / 2); m++) {
        const bm = 2 * m === n ? 1 : 2;
        sum += (bm / (4 * m * m - 1)) * Math.cos((2 * m * j * Math.PI) / n);
      }
      w[j] = ((j === 0 || j === n ? 1 : 2) / n) * (1 - sum);
    }
    return w;
  }
  for (let j = 0; j < n; j++) {
    const a = thetaRad[j];
    const b = thetaRad[j + 1];
    const h = b - a;
    w[j] += (h * Math.cos(a) + Math.sin(a) - Math.sin(b)) / h;
    w[j + 1] += (Math.sin(b) - Math.sin(a) - h * Math.cos(b)) / h;
  }
  return w;
}

/**
 * ∫ U dΩ over the sphere (W, for U in W/sr) of a pattern sampled θ-major on a grid like the
 * projection's: θ ascending in [0, π] (the band it spans is what is integrated: the whole
 * sphere when it runs from 0 to π), φ ascending over less than one turn, taken as periodic
 * (trapezoid with the gap that wraps around; spectrally accurate on a uniform grid). A single
 * φ means an axisymmetric pattern. For comparison with a closed box's flux.
 */
export function integrateOverSphere(
  values: ArrayLike<number>,
  thetaRad: readonly number[],
  phiRad: readonly number[],
): number {
  const nt = thetaRad.length;
  const np = phiRad.length;
  if (values.length !== nt * np) {
    throw new RangeError(`sphere integral: ${values.length} values for ${nt}×${np} angles`);
  }
  const ascending = (a: readonly number[]): boolean => a.every((v, i) => i === 0 || v > a[i - 1]);
  if (nt < 2 || !ascending(thetaRad) || thetaRad[0] < 0 || thetaRad[nt - 1] > Math.PI + 1e-12) {
    throw new RangeError("sphere integral: θ must ascend within [0, π], at least 2 values");
  }
  if (np < 1 || !ascending(phiRad) || phiRad[np - 1] - phiRad[0] >= 2 * Math.PI) {
    throw new RangeError("sphere integral: φ must ascend over less than 2π");
  }
  const wt = thetaWeights(thetaRad);
  const wp = phiRad.map((_, i) => {
    if (np === 1) return 2 * Math.PI;
    const before = i > 0 ? phiRad[i - 1] : phiRad[np - 1] - 2 * Math.PI;
    const after = i < np - 1 ? phiRad[i + 1] : phiRad[0] + 2 * Math.PI;
    return (after - before) / 2;
  });
  let sum = 0;
  for (let t = 0; t < nt; t++) {
    for (let p = 0; p < np; p++) sum += wt[t] * wp[p] * values[t * np + p];
  }
  return sum;
}
