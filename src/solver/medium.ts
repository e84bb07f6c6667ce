/**
 * The medium as the kernels see it: per E component a Uint16 index per cell into a small table
 * of update coefficients (ca, cb), built with sub-cell smoothing.
 *
 * Smoothing (Farjadpour et al., Opt. Lett. 31, 2972 (2006); the "anisotropic averaging" Meep
 * uses, diagonal part only): for the cube of one cell centred on an E_c position, with fill
 * fractions f and interface normal n,
 *   1/ε_cc = n_c²·⟨1/ε⟩ + (1 − n_c²)/⟨ε⟩,
 * so a component tangential to an interface sees the arithmetic mean and a normal one the
 * harmonic mean. Conductivity is averaged arithmetically. Later structures override earlier
 * ones: painting structure s with fill f turns a cube state X into (1−f)·X + f·s.
 * A dispersive material enters the smoothing with its instantaneous ε∞, and its poles are
 * weighted by its fill fraction (the susceptibility averaged arithmetically, as σ is), except
 * at a metal's surface, where a component takes the material at the cube's centre unless it
 * lies in a planar face (isMetal).
 *
 * Interface cubes are deduplicated by their quantised state; pure materials are stored
 * exactly. If a grid needs more than 65 536 distinct entries the quantum is coarsened.
 */
import { EPS0 } from "./constants.js";
import { instantaneousSusceptibility } from "./dispersion/ade.js";
import type { Pole } from "./dispersion/model.js";
import type { Shape } from "./geometry.js";
import { staggerOf, type GridPlan, type YeeLayout } from "./grid.js";
import type { Vec3 } from "./types.js";

/** A material as the time-domain update uses it. */
export interface UpdateMaterial {
  /**
   * Relative permittivity: the real part at the source frequency for a non-dispersive
   * material, the instantaneous part ε∞ for one with poles.
   */
  epsRe: number;
  /**
   * Conductivity in S/m: σ = ω0·ε0·ε_im at the source frequency for a non-dispersive
   * material, the model's static conductivity for one with poles.
   */
  sigma: number;
  /** The poles of a dispersive material (dispersion/model.ts), updated by ade.ts. */
  poles?: readonly Pole[];
}

export interface PaintedStructure {
  shape: Shape;
  material: UpdateMaterial;
}

export interface Medium {
  /** Per E component, table index per padded cell. */
  index: [Uint16Array, Uint16Array, Uint16Array];
  ca: Float64Array;
  cb: Float64Array;
  /** Effective relative permittivity and conductivity of each table entry. */
  epsEff: Float64Array;
  sigma: Float64Array;
  /**
   * Per table entry, the poles its cells carry, each dispersive material's scaled by its
   * fill fraction (empty for none); null when no material has poles.
   */
  poles: (readonly Pole[])[] | null;
}

interface Entry {
  epsMean: number;
  epsInvMean: number;
  sigma: number;
  n2: number;
  /** Fill fraction of each dispersive material (indexed as `dispersive` in tryBuild). */
  weights: number[];
}

/**
 * Whether poles make a metal (a Drude term: Re ε < 0 below the plasma frequency). Smoothing
 * would mix a metal's poles into interface cells by fill fraction. That is exact for a field
 * component lying in a planar face (E_t is continuous there, so the cell sees ⟨ε⟩), and a
 * film's faces keep it. Anywhere else the mix makes cells with plasma resonances of their
 * own in band (their ε crosses −2 and −1): on a 100 nm Drude sphere at 5 nm cells, cells mixed
 * that way absorbed ten times what the Mie series gives (and five times when only the more
 * tangential components were mixed), where the staircase errs by about 10 %. So at a metal's
 * surface a component takes the material at the cube's centre unless it lies in a planar face.
 */
export function isMetal(poles: readonly Pole[] | undefined): boolean {
  return poles !== undefined && poles.some((p) => p.kind === "drude");
}

/** A pole with its strength scaled by a fill fraction (χ is linear in Δε and in ωp²). */
export function scalePole(pole: Pole, w: number): Pole {
  return pole.kind === "lorentz"
    ? { ...pole, deltaEps: pole.deltaEps * w }
    : { ...pole, omegaP: pole.omegaP * Math.sqrt(w) };
}

const MAX_ENTRIES = 65536;

/**
 * ca and cb of E^{n+1} = ca·E^n + cb·∇×H for relative permittivity ε, conductivity σ and, for
 * a cell with poles, their instantaneous susceptibility κ (dispersion/ade.ts):
 * ca = (ε − s)/(ε + s + κ), cb = Δt/(ε0·(ε + s + κ)), s = σΔt/(2ε0) (the conductivity term
 * semi-implicit, Taflove & Hagness eq. 3.57).
 */
export function updateCoefficients(
  epsRe: number,
  sigma: number,
  dtSeconds: number,
  kappa = 0,
): { ca: number; cb: number } {
  const s = (sigma * dtSeconds) / (2 * EPS0);
  const denominator = epsRe + s + kappa;
  return { ca: (epsRe - s) / denominator, cb: dtSeconds / (EPS0 * denominator) };
}

/**
 * Paints `structures` (in order) over a `background` material and returns the table.
 * Periodic axes see the structures' periodic images. `smoothing: false` gives the plain
 * staircase (for comparisons in the validation tests).
 */
export function buildMedium(
  plan: GridPlan,
  layout: YeeLayout,
  background: UpdateMaterial,
  structures: readonly PaintedStructure[],
  smoothing = true,
): Medium {
  for (let quantum = 1 / 8192; ; quantum *= 8) {
    const medium = tryBuild(plan, layout, background, structures, quantum, smoothing);
    if (medium) return medium;
    if (quantum > 0.01) throw new Error("too many distinct interface cells to tabulate");
  }
}

function tryBuild(
  plan: GridPlan,
  layout: YeeLayout,
  background: UpdateMaterial,
  structures: readonly PaintedStructure[],
  quantum: number,
  smoothing: boolean,
): Medium | null {
  const entries: Entry[] = [];
  const keys = new Map<string, number>();
  // The distinct pole sets (by object identity of the material's `poles`).
  const dispersive: (readonly Pole[])[] = [];
  for (const m of [background, ...structures.map((s) => s.material)]) {
    if (m.poles && m.poles.length > 0 && !dispersive.includes(m.poles)) dispersive.push(m.poles);
  }
  // Entries holding some metal, and which dispersive sets are metals.
  const metalEntry: number[] = [];
  const metalSets = dispersive.map((poles) => isMetal(poles));
  const pureEntry = (m: UpdateMaterial): number => {
    const weights = dispersive.map((poles) => (poles === m.poles ? 1 : 0));
    entries.push({ epsMean: m.epsRe, epsInvMean: 1 / m.epsRe, sigma: m.sigma, n2: 0, weights });
    metalEntry.push(isMetal(m.poles) ? 1 : 0);
    return entries.length - 1;
  };
  pureEntry(background);
  const pure = structures.map((s) => pureEntry(s.material));
  const q = (v: number) => Math.round(v / quantum);
  const qs = (v: number) => (v === 0 ? 0 : Math.round(Math.log(v) / quantum));

  const index: [Uint16Array, Uint16Array, Uint16Array] = [
    new Uint16Array(layout.paddedCells),
    new Uint16Array(layout.paddedCells),
    new Uint16Array(layout.paddedCells),
  ];
  const h = plan.stepM;
  const p: Vec3 = [0, 0, 0];
  const normal: Vec3 = [0, 0, 0];

  for (let s = 0; s < structures.length; s++) {
    const shape = structures[s].shape;
    const mat = entries[pure[s]];
    const metal = isMetal(structures[s].material.poles);
    for (let c = 0; c < 3; c++) {
      const idx = index[c];
      const visit = [0, 1, 2].map((b) => indicesToVisit(plan, layout, c, b, shape));
      const stag = [staggerOf(c, 0), staggerOf(c, 1), staggerOf(c, 2)];
      for (const i of visit[0]) {
        p[0] = plan.axes[0].originM + (i + stag[0]) * h;
        for (const j of visit[1]) {
          p[1] = plan.axes[1].originM + (j + stag[1]) * h;
          for (const k of visit[2]) {
            p[2] = plan.axes[2].originM + (k + stag[2]) * h;
            const fill = shape.fill(p, h, normal);
            const cell = layout.index(i, j, k);
            // Without smoothing (validation only), and at a metal's surface unless this
            // component lies in a planar face of it, a cube takes the material at its centre
            // (isMetal).
            const acrossMetal =
              (metal || metalEntry[idx[cell]] === 1) &&
              fill > 0 &&
              fill < 1 &&
              normal[c] * normal[c] > 1e-9;
            const hard = !smoothing || acrossMetal;
            const f = hard ? (fill >= 0.5 ? 1 : 0) : fill;
            if (f <= 1e-12) continue;
            if (f >= 1 - 1e-12) {
              idx[cell] = pure[s];
              continue;
            }
            const old = entries[idx[cell]];
            const e: Entry = {
              epsMean: (1 - f) * old.epsMean + f * mat.epsMean,
              epsInvMean: (1 - f) * old.epsInvMean + f * mat.epsInvMean,
              sigma: (1 - f) * old.sigma + f * mat.sigma,
              n2: normal[c] * normal[c],
              weights: old.weights.map((w, d) => (1 - f) * w + f * mat.weights[d]),
            };
            let key = `${q(e.epsMean)},${q(e.epsInvMean)},${qs(e.sigma)},${q(e.n2)}`;
            for (const w of e.weights) key += `,${q(w)}`;
            let id = keys.get(key);
            if (id === undefined) {
              if (entries.length >= MAX_ENTRIES) return null;
              entries.push(e);
              metalEntry.push(e.weights.some((w, d) => w > 0 && metalSets[d]) ? 1 : 0);
              id = entries.length - 1;
              keys.set(key, id);
            }
            idx[cell] = id;
          }
        }
      }
    }
  }

  const count = entries.length;
  const medium: Medium = {
    index,
    ca: new Float64Array(count),
    cb: new Float64Array(count),
    epsEff: new Float64Array(count),
    sigma: new Float64Array(count),
    poles: dispersive.length > 0 ? [] : null,
  };
  for (let m = 0; m < count; m++) {
    const e = entries[m];
    const eps = 1 / (e.n2 * e.epsInvMean + (1 - e.n2) / e.epsMean);
    const poles = e.weights.flatMap((w, d) =>
      w > 1e-12 ? dispersive[d].map((p) => scalePole(p, w)) : [],
    );
    const { ca, cb } = updateCoefficients(
      eps,
      e.sigma,
      plan.dtSeconds,
      instantaneousSusceptibility(poles, plan.dtSeconds),
    );
    medium.ca[m] = ca;
    medium.cb[m] = cb;
    medium.epsEff[m] = eps;
    medium.sigma[m] = e.sigma;
    medium.poles?.push(poles);
  }
  return medium;
}

/** Indices along axis b of E component c whose cube may touch the shape (images included). */
function indicesToVisit(
  plan: GridPlan,
  layout: YeeLayout,
  c: number,
  b: number,
  shape: Shape,
): number[] {
  const ax = plan.axes[b];
  const h = plan.stepM;
  const st = staggerOf(c, b);
  const max = st > 0 ? layout.n[b] - 1 : layout.n[b];
  const i0 = Math.max(0, Math.ceil((shape.lo[b] - h - ax.originM) / h - st));
  const i1 = Math.min(max, Math.floor((shape.hi[b] + h - ax.originM) / h - st));
  const out: number[] = [];
  for (let i = i0; i <= i1; i++) out.push(i);
  return out;
}
