/**
 * Least-squares fits of lossless Lorentz-pole models to a dielectric's published n(λ), so that
 * a material given as a Sellmeier formula or a table can enter the time-domain update as
 * auxiliary differential equations (model.ts).
 *
 * The model is ε(λ) = ε∞ + Σ_p Δε_p λ² / (λ² − λ_p²): Lorentz poles with γ = 0 and resonance
 * wavelengths λ_p outside the window (ω0 = 2πc/λ_p). It is linear in ε∞ and the Δε_p and
 * nonlinear only in the λ_p, so the fit is by variable projection (G. H. Golub & V. Pereyra,
 * SIAM J. Numer. Anal. 10, 413 (1973)): for given λ_p the strengths are the weighted linear
 * least-squares solution, and Levenberg–Marquardt moves the λ_p alone, on the projected
 * residual with a finite-difference Jacobian. There are at most a few λ_p, so this is cheap
 * (milliseconds) and, started from a few spread-out guesses, finds the global optimum.
 *
 * The residual is weighted by 1/(2n): δε ≈ 2n δn, so minimising it minimises the error in n,
 * the quantity users see. Resonances are bounded: ultraviolet poles lie between
 * `minResonanceM` (default 0.1 µm: ω0 ≤ 2πc/0.1 µm keeps the update of an undamped oscillator
 * away from its stiffness limit ω0 Δt ≈ 2 at any practical grid) and just below the window;
 * infrared poles between just above the window and 1 mm.
 *
 * Metals known only as measured n + i k (a table, no published model) are fitted the same way
 * by {@link fitDrudeLorentzModel}: a Drude pole plus damped Lorentz poles, passive by
 * construction.
 */
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import { type PoleModel, refractiveIndex } from "./model.js";
import { linearLeastSquares } from "../least-squares.js";

export interface LorentzFitOptions {
  /** Fit window [λmin, λmax], vacuum wavelengths in metres. */
  windowM: readonly [number, number];
  /** Number of poles resonant below the window (ultraviolet). */
  uvPoles: number;
  /** Number of poles resonant above the window (infrared); 0 or 1 is usual. */
  irPoles: number;
  /** Shortest allowed resonance wavelength in metres (default 0.1 µm). */
  minResonanceM?: number;
  /** Sample count, uniform in 1/λ over the window (default 200). */
  samples?: number;
}

export interface LorentzFit {
  model: PoleModel;
  /** Resonance wavelengths λ_p in metres and strengths Δε_p, in model order. */
  resonances: Array<{ wavelengthM: number; deltaEps: number }>;
  /** max |n_model − n_target| over the window (dense sampling, see {@link maxIndexError}). */
  maxErrorN: number;
}

const TWO_PI_C = 2 * Math.PI * SPEED_OF_LIGHT_M_PER_S;

/** A lossless Lorentz-pole model from ε∞ and (Δε, resonance wavelength in metres) pairs. */
export function lorentzModel(
  epsInf: number,
  resonances: ReadonlyArray<{ wavelengthM: number; deltaEps: number }>,
): PoleModel {
  return {
    epsInf,
    sigma: 0,
    poles: resonances.map((r) => ({
      kind: "lorentz" as const,
      deltaEps: r.deltaEps,
      omega0: TWO_PI_C / r.wavelengthM,
      gamma: 0,
    })),
  };
}

/** Wavelengths spread uniformly in 1/λ (frequency) over a window, ends included. */
export function windowSamples(windowM: readonly [number, number], count: number): number[] {
  const [lo, hi] = windowM;
  return Array.from(
    { length: count },
    (_, i) => 1 / (1 / hi + ((1 / lo - 1 / hi) * i) / (count - 1)),
  );
}

/**
 * max |n_model(λ) − n_target(λ)| over a window, sampled at 2000 points uniform in 1/λ.
 * Reports the error in k too, for absorbing targets.
 */
export function maxIndexError(
  model: PoleModel,
  target: (wavelengthM: number) => { n: number; k: number },
  windowM: readonly [number, number],
  samples = 2000,
): { n: number; k: number } {
  let n = 0;
  let k = 0;
  for (const wavelengthM of windowSamples(windowM, samples)) {
    const fit = refractiveIndex(model, TWO_PI_C / wavelengthM);
    const ref = target(wavelengthM);
    n = Math.max(n, Math.abs(fit.n - ref.n));
    k = Math.max(k, Math.abs(fit.k - ref.k));
  }
  return { n, k };
}

/** One evaluation of a variable-projection residual at the nonlinear parameters u. */
interface Projection {
  residual: number[];
  cost: number;
}

/**
 * Levenberg–Marquardt on the nonlinear parameters u of a variable projection, from one start:
 * forward-difference Jacobian (step 10⁻⁶ in u), the damped normal equations with Marquardt's
 * diagonal scaling, at most 200 iterations, stopping when a step gains less than 10⁻¹² of the
 * cost. Returns the last accepted evaluation, or undefined when `solve` fails at the start.
 */
function levenbergMarquardt<T extends Projection>(
  start: number[],
  solve: (u: number[]) => T | undefined,
): T | undefined {
  let u = start;
  let current = solve(u);
  if (current === undefined) return undefined;
  let lambda = 1e-3;
  for (let iter = 0; iter < 200; iter++) {
    const base: T = current;
    const jac = u.map((_, j) => {
      const h = 1e-6;
      const up = u.slice();
      up[j] += h;
      const moved = solve(up);
      return moved === undefined
        ? base.residual.map(() => 0)
        : moved.residual.map((r, i) => (r - base.residual[i]) / h);
    });
    // (JᵀJ + λ diag) δ = −Jᵀ r
    const p = u.length;
    const jtj = Array.from({ length: p }, (_, a) =>
      Array.from({ length: p }, (_, b) => jac[a].reduce((s, v, i) => s + v * jac[b][i], 0)),
    );
    const jtr = jac.map((col) => col.reduce((s, v, i) => s + v * base.residual[i], 0));
    let improved = false;
    for (let tries = 0; tries < 12 && !improved; tries++) {
      const damped = jtj.map((row, a) =>
        row.map((v, b) => (a === b ? v * (1 + lambda) + 1e-30 : v)),
      );
      const step = linearLeastSquares(
        damped,
        jtr.map((v) => -v),
      );
      if (step === undefined) break;
      const trial = u.map((ui, i) => ui + step[i]);
      const next = solve(trial);
      if (next !== undefined && next.cost < base.cost) {
        u = trial;
        current = next;
        lambda = Math.max(lambda / 3, 1e-9);
        improved = true;
      } else {
        lambda *= 4;
      }
    }
    if (!improved || (base.cost - current.cost) / base.cost < 1e-12) break;
  }
  return current;
}

/**
 * Fits ε∞ plus `uvPoles` + `irPoles` lossless Lorentz poles to a target index n(λ) over a
 * window (see the module comment).
 * @param target n at a vacuum wavelength in metres, inside the window
 * @throws Error when no fit with ε∞ ≥ 1 and all Δε ≥ 0 (a passive, stable model) is found
 */
export function fitLorentzModel(
  target: (wavelengthM: number) => number,
  options: LorentzFitOptions,
): LorentzFit {
  const [lo, hi] = options.windowM;
  const minRes = options.minResonanceM ?? 0.1e-6;
  const wavelengths = windowSamples(options.windowM, options.samples ?? 200);
  const nTarget = wavelengths.map(target);
  const weights = nTarget.map((n) => 1 / (2 * n));
  // Each resonance λ_p = exp(a + (b − a)·sigmoid(u)) stays inside its bound [a, b] in log λ.
  const bounds: Array<[number, number]> = [
    ...Array.from({ length: options.uvPoles }, (): [number, number] => [
      Math.log(minRes),
      Math.log(0.9 * lo),
    ]),
    ...Array.from({ length: options.irPoles }, (): [number, number] => [
      Math.log(1.15 * hi),
      Math.log(1e-3),
    ]),
  ];
  if (bounds.some(([a, b]) => !(b > a))) {
    throw new Error(`fit window ${lo}–${hi} m leaves no room for the requested poles`);
  }
  const resonancesOf = (u: number[]) =>
    u.map((ui, i) => Math.exp(bounds[i][0] + (bounds[i][1] - bounds[i][0]) / (1 + Math.exp(-ui))));

  const solve = (u: number[]) => {
    const lp = resonancesOf(u);
    const rows = wavelengths.map((l, i) => [
      weights[i],
      ...lp.map((p) => (weights[i] * l * l) / (l * l - p * p)),
    ]);
    const rhs = nTarget.map((n, i) => weights[i] * n * n);
    let coef = linearLeastSquares(rows, rhs);
    if (coef === undefined) return undefined;
    if (coef[0] < 1) {
      // ε∞ < 1 would tighten the Courant limit below that of vacuum: pin ε∞ = 1 (the active
      // constraint) and refit the strengths alone.
      const strengths = linearLeastSquares(
        rows.map((row) => row.slice(1)),
        rhs.map((v, i) => v - rows[i][0]),
      );
      if (strengths === undefined) return undefined;
      coef = [1, ...strengths];
    }
    const c = coef;
    const residual = rows.map((row, i) => row.reduce((s, v, j) => s + v * c[j], 0) - rhs[i]);
    return { lp, coef: c, residual, cost: residual.reduce((s, r) => s + r * r, 0) };
  };

  // Levenberg–Marquardt on u from several starts spread over each bound.
  const starts: number[][] = [];
  for (const s of [-2, -0.7, 0.7, 2]) {
    starts.push(bounds.map((_, i) => s + 0.37 * i));
  }
  let best: ReturnType<typeof solve>;
  for (const start of starts) {
    const current = levenbergMarquardt(start, solve);
    if (current === undefined) continue;
    const [epsInf, ...deltas] = current.coef;
    const passive = epsInf >= 1 && deltas.every((d) => d >= 0);
    if (passive && (best === undefined || current.cost < best.cost)) best = current;
  }
  if (best === undefined) {
    throw new Error("no passive Lorentz fit found (ε∞ ≥ 1, Δε ≥ 0); try fewer poles");
  }
  const [epsInf, ...deltas] = best.coef;
  const resonances = best.lp.map((wavelengthM, i) => ({ wavelengthM, deltaEps: deltas[i] }));
  const model = lorentzModel(epsInf, resonances);
  const maxErrorN = maxIndexError(model, (l) => ({ n: target(l), k: 0 }), options.windowM).n;
  return { model, resonances, maxErrorN };
}

/** A measured complex refractive index n + i k (k ≥ 0 for loss) at a vacuum wavelength. */
export interface MeasuredIndex {
  wavelengthM: number;
  n: number;
  k: number;
}

export interface DrudeLorentzFitOptions {
  /** Number of damped Lorentz poles beside the Drude pole. */
  lorentzPoles: number;
  /** Shortest allowed Lorentz resonance wavelength in metres (default 0.1 µm). */
  minResonanceM?: number;
  /** Longest allowed Lorentz resonance wavelength in metres (default 20 µm). */
  maxResonanceM?: number;
}

export interface DrudeLorentzFit {
  /** ε∞, then the Drude pole, then the Lorentz poles by rising ω0 (zero-strength ones dropped). */
  model: PoleModel;
  /** max |n_model − n| and max |k_model − k| over the data points. */
  maxError: { n: number; k: number };
}

/** The frequency unit of the Drude–Lorentz fit, 2πc/(1 µm), so that its unknowns are O(1). */
const OMEGA_UNIT = TWO_PI_C / 1e-6;

/**
 * Non-negative least squares for a few unknowns, exactly: the minimiser is the unconstrained
 * solution on its own set of free unknowns (the KKT conditions), so every subset is tried and
 * the cheapest one whose solution is non-negative kept: 2^p small solves, p = 2 + the number
 * of Lorentz poles (16 for TiN).
 */
function nonNegativeLeastSquares(rows: number[][], rhs: number[]): number[] {
  const p = rows[0].length;
  let best: { x: number[]; cost: number } | undefined;
  for (let mask = 1; mask < 1 << p; mask++) {
    const free = Array.from({ length: p }, (_, j) => j).filter((j) => mask & (1 << j));
    const solution = linearLeastSquares(
      rows.map((row) => free.map((j) => row[j])),
      rhs,
    );
    if (solution === undefined || solution.some((v) => !(v >= 0))) continue;
    const x = new Array<number>(p).fill(0);
    free.forEach((j, i) => (x[j] = solution[i]));
    const cost = rows.reduce((s, row, i) => {
      const r = row.reduce((a, v, j) => a + v * x[j], 0) - rhs[i];
      return s + r * r;
    }, 0);
    if (best === undefined || cost < best.cost) best = { x, cost };
  }
  // All unknowns zero is the remaining candidate.
  const zeroCost = rhs.reduce((s, v) => s + v * v, 0);
  if (best === undefined || zeroCost < best.cost) return new Array<number>(p).fill(0);
  return best.x;
}

/**
 * Fits a passive Drude + Lorentz model to a metal's measured n + i k:
 *
 *   ε(ω) = ε∞ − ωp²/(ω² + iγ_D ω) + Σ_j Δε_j ω_j²/(ω_j² − ω² − iγ_j ω),
 *
 * with ε∞ ≥ 1, ωp² ≥ 0, Δε_j ≥ 0 and every γ > 0: each term's Im χ ≥ 0 at every ω, so the
 * model is passive, and the bilinear pole update (ade.ts) is stable up to the vacuum Courant
 * limit (stability.ts). Variable projection as for {@link fitLorentzModel}: ε is linear in
 * ε∞ − 1, ωp² and the Δε_j, found by non-negative least squares for given damping rates and
 * resonances, which Levenberg–Marquardt moves, each in log scale inside bounds (resonances
 * between `maxResonanceM` and `minResonanceM`, dampings 10⁻³ to 10 × 2πc/1 µm, i.e. 1.2 meV
 * to 12 eV), from a fixed set of spread-out starts, so the fit is deterministic.
 *
 * Each point's residual ε_model − ε_data is weighted by 1/(2(n + i k)): δε = 2(n + i k)δ(n + i k)
 * to first order, so the fit minimises the squared error in n and k, the numbers quoted for
 * the material; `maxError` is the exact error of the result.
 * @param data measured points (vacuum wavelengths in metres), at least 3 + 3·lorentzPoles
 * @throws Error for too few points, bad data, or bounds that leave no room
 */
export function fitDrudeLorentzModel(
  data: readonly MeasuredIndex[],
  options: DrudeLorentzFitOptions,
): DrudeLorentzFit {
  const lorentzPoles = options.lorentzPoles;
  const minRes = options.minResonanceM ?? 0.1e-6;
  const maxRes = options.maxResonanceM ?? 20e-6;
  checkDrudeLorentzInput(data, lorentzPoles, minRes, maxRes);
  const projection = new DrudeLorentzProjection(data, lorentzPoles, minRes, maxRes);
  let best: DrudeLorentzSolution | undefined;
  for (const start of projection.starts()) {
    const current = levenbergMarquardt(start, (u) => projection.solve(u));
    if (current !== undefined && (best === undefined || current.cost < best.cost)) best = current;
  }
  if (best === undefined) throw new Error("no passive Drude–Lorentz fit found");
  const model = drudeLorentzModel(best);
  return { model, maxError: measuredIndexError(model, data) };
}

function checkDrudeLorentzInput(
  data: readonly MeasuredIndex[],
  lorentzPoles: number,
  minRes: number,
  maxRes: number,
): void {
  if (!Number.isInteger(lorentzPoles) || lorentzPoles < 0) {
    throw new Error(`lorentzPoles must be a whole number ≥ 0, got ${lorentzPoles}`);
  }
  if (data.length < 3 + 3 * lorentzPoles) {
    throw new Error(`${data.length} points cannot determine ${3 + 3 * lorentzPoles} parameters`);
  }
  if (data.some((d) => !(d.wavelengthM > 0 && d.n > 0 && d.k >= 0))) {
    throw new Error("every point needs a wavelength > 0, n > 0 and k ≥ 0");
  }
  if (!(minRes > 0 && maxRes > minRes)) {
    throw new Error(`resonance bounds ${minRes}–${maxRes} m leave no room`);
  }
}

/**
 * The Drude–Lorentz fit at given nonlinear unknowns: their values v (γ_D, then ω_j, γ_j per
 * Lorentz pole, in units of OMEGA_UNIT), the linear unknowns (ε∞ − 1, ωp², Δε_j) and the
 * weighted residual.
 */
interface DrudeLorentzSolution extends Projection {
  v: number[];
  coef: number[];
}

/**
 * The variable projection of fitDrudeLorentzModel: the weighted data, the bounds of the
 * nonlinear unknowns, the non-negative linear solve at given unknowns, and the starts.
 */
class DrudeLorentzProjection {
  /** Frequencies in units of OMEGA_UNIT. */
  private readonly omega: number[];
  /** Complex weights w = 1/(2ñ) per point. */
  private readonly weight: (readonly [number, number])[];
  /** The targets w·(ε − 1), real and imaginary part per point. */
  private readonly rhs: number[];
  /** Log bounds of the resonances ω_j and of every damping rate. */
  private readonly resonanceBounds: [number, number];
  /** Log bounds of each nonlinear unknown: γ_D, then (ω_j, γ_j) per Lorentz pole. */
  private readonly bounds: Array<[number, number]>;

  constructor(
    data: readonly MeasuredIndex[],
    private readonly lorentzPoles: number,
    minRes: number,
    maxRes: number,
  ) {
    this.omega = data.map((d) => 1e-6 / d.wavelengthM);
    this.weight = data.map(({ n, k }) => {
      const d = 2 * (n * n + k * k);
      return [n / d, -k / d] as const;
    });
    const target = data.map(({ n, k }, i) => {
      const [wr, wi] = this.weight[i];
      const er = n * n - k * k - 1;
      const ei = 2 * n * k;
      return [wr * er - wi * ei, wr * ei + wi * er] as const;
    });
    this.rhs = target.flatMap(([re, im]) => [re, im]);
    // Each unknown is exp(a + (b − a)·sigmoid(u)) for its bounds [a, b].
    const gammaBounds: [number, number] = [Math.log(1e-3), Math.log(10)];
    this.resonanceBounds = [Math.log(1e-6 / maxRes), Math.log(1e-6 / minRes)];
    this.bounds = [
      gammaBounds,
      ...Array.from({ length: lorentzPoles }, () => [this.resonanceBounds, gammaBounds]).flat(),
    ];
  }

  private valuesOf(u: number[]): number[] {
    const bounds = this.bounds;
    return u.map((ui, i) =>
      Math.exp(bounds[i][0] + (bounds[i][1] - bounds[i][0]) / (1 + Math.exp(-ui))),
    );
  }

  private unknownOf(value: number, i: number): number {
    const bounds = this.bounds;
    const t = (Math.log(value) - bounds[i][0]) / (bounds[i][1] - bounds[i][0]);
    return Math.log(t / (1 - t));
  }

  /** Columns of the linear unknowns (ε∞ − 1, ωp², Δε_j) at one point, complex. */
  private basis(w: number, v: number[]): Array<[number, number]> {
    // −1/(ω² + iγω) and ω_j²/(ω_j² − ω² − iγ_j ω).
    const cols: Array<[number, number]> = [[1, 0]];
    const gd = v[0];
    const dd = w ** 4 + gd * gd * w * w;
    cols.push([-(w * w) / dd, (gd * w) / dd]);
    for (let j = 0; j < this.lorentzPoles; j++) {
      const w0 = v[1 + 2 * j];
      const g = v[2 + 2 * j];
      const dr = w0 * w0 - w * w;
      const di = -g * w;
      const d2 = dr * dr + di * di;
      cols.push([(w0 * w0 * dr) / d2, -(w0 * w0 * di) / d2]);
    }
    return cols;
  }

  /** The linear unknowns by non-negative least squares at the nonlinear unknowns u. */
  solve(u: number[]): DrudeLorentzSolution {
    const v = this.valuesOf(u);
    const rows: number[][] = [];
    this.omega.forEach((w, i) => {
      const [wr, wi] = this.weight[i];
      const cols = this.basis(w, v);
      rows.push(cols.map(([re, im]) => wr * re - wi * im));
      rows.push(cols.map(([re, im]) => wr * im + wi * re));
    });
    const rhs = this.rhs;
    const coef = nonNegativeLeastSquares(rows, rhs);
    const residual = rows.map((row, i) => row.reduce((s, x, j) => s + x * coef[j], 0) - rhs[i]);
    return { v, coef, residual, cost: residual.reduce((s, r) => s + r * r, 0) };
  }

  /**
   * Starts: every choice of distinct resonances from six spread log-uniformly over the bounds
   * (ordered, so no start is a relabelling of another), each damped at half its frequency;
   * the Drude damping starts at 0.1 (0.12 eV), typical of metals.
   */
  starts(): number[][] {
    const [lo, hi] = this.resonanceBounds;
    const candidates = Array.from({ length: 6 }, (_, i) =>
      Math.exp(lo + ((hi - lo) * (i + 0.5)) / 6),
    );
    const choices = (from: number, count: number): number[][] =>
      count === 0
        ? [[]]
        : candidates
            .slice(from)
            .flatMap((c, i) => choices(from + i + 1, count - 1).map((rest) => [c, ...rest]));
    return choices(0, this.lorentzPoles).map((resonances) => {
      const values = [0.1, ...resonances.flatMap((w0) => [w0, w0 / 2])];
      return values.map((value, i) => this.unknownOf(value, i));
    });
  }
}

/** The passive model of a fit: ε∞, the Drude pole, the Lorentz poles of nonzero strength by ω0. */
function drudeLorentzModel({ v, coef }: DrudeLorentzSolution): PoleModel {
  const [epsInfMinusOne, plasmaSq, ...strengths] = coef;
  const lorentz = strengths
    .map((deltaEps, j) => ({
      kind: "lorentz" as const,
      deltaEps,
      omega0: v[1 + 2 * j] * OMEGA_UNIT,
      gamma: v[2 + 2 * j] * OMEGA_UNIT,
    }))
    .filter((pole) => pole.deltaEps > 0)
    .sort((a, b) => a.omega0 - b.omega0);
  return {
    epsInf: 1 + epsInfMinusOne,
    sigma: 0,
    poles: [
      { kind: "drude", omegaP: Math.sqrt(plasmaSq) * OMEGA_UNIT, gamma: v[0] * OMEGA_UNIT },
      ...lorentz,
    ],
  };
}

/** max |n_model − n| and max |k_model − k| over measured points. */
export function measuredIndexError(
  model: PoleModel,
  data: readonly MeasuredIndex[],
): { n: number; k: number } {
  let n = 0;
  let k = 0;
  for (const d of data) {
    const fit = refractiveIndex(model, TWO_PI_C / d.wavelengthM);
    n = Math.max(n, Math.abs(fit.n - d.n));
    k = Math.max(k, Math.abs(fit.k - d.k));
  }
  return { n, k };
}
