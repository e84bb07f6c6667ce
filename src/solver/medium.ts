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
 * ones: painting structure s with fill f turns a cube state X into (1−f)·X + f·s where X is one
 * material; where X is a mixture already, the cube's shares are taken anew from every
 * structure that cuts it (cube-shares.ts), so that a face two structures share (a rib on its
 * slab, a strip on its substrate) is not counted twice.
 * A dispersive material enters the smoothing with its instantaneous ε∞, and its poles are
 * weighted by its fill fraction (the susceptibility averaged arithmetically, as σ is), except
 * at a metal's surface, where a component takes the material at the cube's centre unless it
 * lies in a planar face (isMetal).
 *
 * A perfect electric conductor (PEC) is not averaged at all: ε is infinite in it, and no mean
 * with an infinite ε is a permittivity. Its surface is a staircase by sample point
 * (conductorStep): an E component whose Yee sample point lies inside a PEC structure or on its
 * surface takes the conductor's coefficients ca = cb = 0, so that E there is zero from the
 * first step on and tangential E vanishes on every grid face of the conductor; a structure
 * painted later takes such a component back only where its sample point lies strictly inside
 * that structure. Tidy3D's default for PEC is the same staircase.
 *
 * Interface cubes are deduplicated by their quantised state; pure materials are stored
 * exactly. If a grid needs more than 65 536 distinct entries the quantum is coarsened.
 */
import { EPS0 } from "./constants.js";
import { instantaneousSusceptibility } from "./dispersion/ade.js";
import { permittivity, type Pole } from "./dispersion/model.js";
import type { Medium } from "./medium-types.js";
import { cubeShares, type CubePart } from "./cube-shares.js";
import type { Shape } from "./shape.js";
import {
  cellStepM,
  centreIndexAt,
  cubeAlong,
  nodeIndexAt,
  positionM,
  staggerOf,
  type GridPlan,
  type YeeLayout,
} from "./grid.js";
import type { Vec3 } from "./types.js";
import { ON_NODE } from "./overlap.js";

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
  /**
   * With poles: the angular frequency (rad/s) of the run's source, where a normal component's
   * mixture of dielectrics is made exact (Painter.poleScale).
   */
  referenceOmega?: number;
  /**
   * A perfect electric conductor: its cells' E is held at zero (ca = cb = 0) and it is never
   * averaged with another material; `epsRe` and `sigma` are then placeholders (1 and 0).
   */
  perfectConductor?: true;
}

/** The perfect electric conductor (materials.ts's PEC) as the update takes it. */
export const PERFECT_CONDUCTOR: UpdateMaterial = Object.freeze({
  epsRe: 1,
  sigma: 0,
  perfectConductor: true,
});

export interface PaintedStructure {
  shape: Shape;
  material: UpdateMaterial;
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

/** Side of the probe cube, relative to the cell's, with which conductorStep samples a point. */
const POINT_PROBE = 1e-6;

/**
 * Whether a structure with this fill of a cube holds the cube's centre, for the cells painted
 * whole or not at all (a metal's surface across the component). A surface through the centre
 * fills half the cube up to rounding, which differs between mirror images (a gold cylinder's
 * cells at ±z were painted on one side and not the other): half counts as holding it.
 */
function holdsCentre(fill: number): boolean {
  return fill >= 0.5 - ON_NODE;
}

/**
 * The staircase where a perfect conductor is painted, or painted over: whether the structure
 * takes the E component sampled at `at` (1) or leaves it (0). A PEC structure takes it where
 * `at` lies inside the structure or on its surface (the closed shape), so that tangential E is
 * zero on the conductor's faces that lie on grid planes; a structure painted over PEC takes it
 * back only where `at` lies strictly inside it, so a face that a dielectric shares with the
 * conductor (a spacer on a mirror) stays on the conductor, whichever was painted first.
 * Membership is the fill of a cube POINT_PROBE of a cell wide around `at` (the shapes' own
 * geometry, images and extension through the absorber included): 1/2 on a face, 1/4 on an
 * edge, 1/8 on a corner, 0 or 1 more than half the probe away, with a rounding error far below
 * the thresholds.
 * @param h the cell's steps, metres; `probe` and `normal` are scratch
 */
function conductorStep(
  shape: Shape,
  at: Vec3,
  h: Vec3,
  conductor: boolean,
  probe: Vec3,
  normal: Vec3,
): 0 | 1 {
  for (let a = 0; a < 3; a++) probe[a] = h[a] * POINT_PROBE;
  const f = shape.fill(at, probe, normal);
  if (conductor) return f > 1e-3 ? 1 : 0;
  return f >= 1 - 1e-3 ? 1 : 0;
}

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
  return paintCells(plan, layout, layoutCells(layout), background, structures, smoothing);
}

/**
 * Which cells a painting fills and where each one's entry is stored: every cell of a layout's
 * padded arrays (a run), or a lattice of them, some indices along each axis, stored compactly
 * (a set-up preview paints only the cells of its planes). A cell's entry is the same either
 * way: the painter works cell by cell from the shapes.
 */
export interface PaintCells {
  /** Entries per component's index array. */
  readonly size: number;
  /** Where index i along axis b is stored (the three axes' offsets add up), or −1: skipped. */
  offset(b: number, i: number): number;
}

/** Every cell of a layout, at its padded index (YeeLayout.index). */
export function layoutCells(layout: YeeLayout): PaintCells {
  return { size: layout.paddedCells, offset: (b, i) => (i + 1) * layout.strides[b] };
}

/**
 * The lattice of the given indices along each axis (−1 … n, any order, no repeats), stored in
 * that order with the last axis fastest: index `indices[b][r]` of axis b has rank r.
 */
export function latticeCells(indices: readonly (readonly number[])[]): PaintCells {
  const ranks = indices.map((list) => new Map(list.map((i, r) => [i, r])));
  const strides = [indices[1].length * indices[2].length, indices[2].length, 1];
  return {
    size: indices[0].length * indices[1].length * indices[2].length,
    offset: (b, i) => {
      const r = ranks[b].get(i);
      return r === undefined ? -1 : r * strides[b];
    },
  };
}

/**
 * `buildMedium` over `cells` only: the entries of those cells as a whole painting gives them
 * (to the table's quantum, below: entries are shared by the cells whose states round alike, and
 * which cell of a bucket was painted first decides its exact value), in `cells`' storage.
 */
export function paintCells(
  plan: GridPlan,
  layout: YeeLayout,
  cells: PaintCells,
  background: UpdateMaterial,
  structures: readonly PaintedStructure[],
  smoothing = true,
): Medium {
  for (let quantum = 1 / 8192; ; quantum *= 8) {
    const target = { layout, cells };
    const painting = tryBuild(plan, target, background, structures, quantum, smoothing);
    let step = painting.next();
    while (!step.done) step = painting.next();
    if (step.value) return step.value;
    if (quantum > 0.01) throw new Error("too many distinct interface cells to tabulate");
  }
}

/** How `buildMediumSliced` hands control back while it paints. */
export interface PaintSlicing {
  /** Painting time between checkpoints, in ms. */
  sliceMs: number;
  /**
   * Called every `sliceMs` with the fraction of the cell visits done: the caller yields to
   * the event loop there, reports progress, and throws to stop (a cancelled run).
   */
  checkpoint(fraction: number): Promise<void>;
}

/**
 * `buildMedium` in slices: the same table, but every `slicing.sliceMs` of painting it awaits
 * `slicing.checkpoint`, so that a run being set up on a large grid with many structures can
 * be cancelled and can report how far it has got.
 */
export async function buildMediumSliced(
  plan: GridPlan,
  layout: YeeLayout,
  background: UpdateMaterial,
  structures: readonly PaintedStructure[],
  smoothing: boolean,
  slicing: PaintSlicing,
): Promise<Medium> {
  let sliceStart = performance.now();
  for (let quantum = 1 / 8192; ; quantum *= 8) {
    const target = { layout, cells: layoutCells(layout) };
    const painting = tryBuild(plan, target, background, structures, quantum, smoothing);
    let step = painting.next();
    while (!step.done) {
      if (performance.now() - sliceStart >= slicing.sliceMs) {
        await slicing.checkpoint(step.value);
        sliceStart = performance.now();
      }
      step = painting.next();
    }
    if (step.value) return step.value;
    if (quantum > 0.01) throw new Error("too many distinct interface cells to tabulate");
  }
}

/** One step of a multiplicative hash over 32-bit integers (the quantised values fit). */
function mix(h: number, v: number): number {
  const m = Math.imul(h ^ v, 0x9e3779b1);
  return (m << 13) | (m >>> 19);
}

/**
 * The interface entries by their quantised state (ε mean, 1/ε mean, log σ, n_c², fill of each
 * dispersive material): a hash of the quantised values to a chain of entry ids, compared
 * exactly. (A string key per interface cell cost more than the fill itself.)
 */
class EntryTable {
  private readonly heads = new Map<number, number>();
  private readonly next: number[] = [];

  constructor(
    private readonly entries: readonly Entry[],
    private readonly quantum: number,
  ) {}

  /** The id of the entry with these quantised values, or −1. */
  find(epsMean: number, epsInvMean: number, sigma: number, n2: number, weights: number[]): number {
    const { entries } = this;
    const qa = this.q(epsMean);
    const qb = this.q(epsInvMean);
    const qc = this.qLog(sigma);
    const qd = this.q(n2);
    let id = this.heads.get(this.hash(qa, qb, qc, qd, weights)) ?? -1;
    for (; id >= 0; id = this.next[id]) {
      const e = entries[id];
      if (this.q(e.epsMean) !== qa || this.q(e.epsInvMean) !== qb) continue;
      if (this.qLog(e.sigma) !== qc || this.q(e.n2) !== qd) continue;
      let same = true;
      for (let d = 0; d < weights.length && same; d++) {
        same = this.q(e.weights[d]) === this.q(weights[d]);
      }
      if (same) return id;
    }
    return -1;
  }

  /** Files entry `id` (already in `entries`) under its quantised values. */
  add(id: number): void {
    const e = this.entries[id];
    const key = this.hash(
      this.q(e.epsMean),
      this.q(e.epsInvMean),
      this.qLog(e.sigma),
      this.q(e.n2),
      e.weights,
    );
    while (this.next.length <= id) this.next.push(-1);
    this.next[id] = this.heads.get(key) ?? -1;
    this.heads.set(key, id);
  }

  private q(v: number): number {
    return Math.round(v / this.quantum);
  }

  private qLog(v: number): number {
    return v === 0 ? 0 : Math.round(Math.log(v) / this.quantum);
  }

  /**
   * A 32-bit mix of the quantised values (collisions are told apart in `find`). Products of
   * the values in floating point would lose the last ones beyond 2⁵³ and chain them all.
   */
  private hash(qa: number, qb: number, qc: number, qd: number, weights: number[]): number {
    let h = mix(0x811c9dc5, qa);
    h = mix(h, qb);
    h = mix(h, qc);
    h = mix(h, qd);
    for (const w of weights) h = mix(h, this.q(w));
    return h;
  }
}

/**
 * Paints the structures with one quantum; null when the table would overflow. A generator:
 * after each row of cells it yields the fraction of all cell visits done, so a caller can
 * pause it (buildMediumSliced); buildMedium runs it straight through.
 */
function* tryBuild(
  plan: GridPlan,
  target: PaintTarget,
  background: UpdateMaterial,
  structures: readonly PaintedStructure[],
  quantum: number,
  smoothing: boolean,
): Generator<number, Medium | null, void> {
  const painter = new Painter(plan, target, background, structures, quantum, smoothing);
  for (let s = 0; s < structures.length; s++) {
    for (let c = 0; c < 3; c++) {
      const painted = yield* painter.paint(s, c);
      if (!painted) return null;
    }
  }
  return painter.medium();
}

/** The grid's layout (which indices each component has) and the cells painted. */
interface PaintTarget {
  layout: YeeLayout;
  cells: PaintCells;
}

/**
 * The state of one painting: the table's entries (the background's and each structure's pure
 * material first, then the mixtures smoothing makes), the distinct pole sets, which entries
 * hold a metal or are a perfect conductor, and the index arrays being painted.
 */
class Painter {
  private readonly entries: Entry[] = [];
  /** The distinct pole sets (by object identity of the material's `poles`), and their ε∞. */
  private readonly dispersive: (readonly Pole[])[] = [];
  private readonly dispersiveEpsInf: number[] = [];
  /** Where a normal component's mixture of dispersive dielectrics is made exact. */
  private referenceOmega: number | undefined;
  /** Entries holding some metal, and which dispersive sets are metals. */
  private readonly metalEntry: number[] = [];
  private readonly metalSets: boolean[];
  /** Whether each structure's material is a metal. */
  private readonly metals: boolean[];
  /** Entries that are a perfect conductor: only pure ones, since PEC never mixes. */
  private readonly conductorEntry: number[] = [];
  /** Each structure's pure entry. */
  private readonly pure: number[];
  private readonly table: EntryTable;
  private readonly weights: number[];
  private readonly index: [Uint16Array, Uint16Array, Uint16Array];
  /** Per structure and component, the cells whose cube may touch the shape (the work). */
  private readonly visits: number[][][][];
  private readonly totalVisits: number;
  private visitsDone = 0;
  // The cube's centre and size, the surface normal, the E component's Yee sample point, and
  // scratch for conductorStep.
  private readonly p: Vec3 = [0, 0, 0];
  private readonly h: Vec3 = [0, 0, 0];
  private readonly normal: Vec3 = [0, 0, 0];
  private readonly at: Vec3 = [0, 0, 0];
  private readonly probe: Vec3 = [0, 0, 0];

  constructor(
    private readonly plan: GridPlan,
    private readonly target: PaintTarget,
    background: UpdateMaterial,
    private readonly structures: readonly PaintedStructure[],
    quantum: number,
    private readonly smoothing: boolean,
  ) {
    for (const m of [background, ...structures.map((s) => s.material)]) {
      if (m.poles && m.poles.length > 0 && !this.dispersive.includes(m.poles)) {
        this.dispersive.push(m.poles);
        this.dispersiveEpsInf.push(m.epsRe);
        this.referenceOmega ??= m.referenceOmega;
      }
    }
    this.metalSets = this.dispersive.map((poles) => isMetal(poles));
    this.metals = structures.map((s) => isMetal(s.material.poles));
    this.pureEntry(background);
    this.pure = structures.map((s) => this.pureEntry(s.material));
    this.table = new EntryTable(this.entries, quantum);
    this.weights = this.dispersive.map(() => 0);
    const { layout, cells } = target;
    this.index = [
      new Uint16Array(cells.size),
      new Uint16Array(cells.size),
      new Uint16Array(cells.size),
    ];
    this.visits = structures.map((st) =>
      [0, 1, 2].map((c) =>
        [0, 1, 2].map((b) =>
          indicesToVisit(plan, layout, c, b, st.shape).filter((i) => cells.offset(b, i) >= 0),
        ),
      ),
    );
    let total = 0;
    for (const perComponent of this.visits) {
      for (const v of perComponent) total += v[0].length * v[1].length * v[2].length;
    }
    this.totalVisits = total;
  }

  private pureEntry(m: UpdateMaterial): number {
    const weights = this.dispersive.map((poles) => (poles === m.poles ? 1 : 0));
    this.entries.push({
      epsMean: m.epsRe,
      epsInvMean: 1 / m.epsRe,
      sigma: m.sigma,
      n2: 0,
      weights,
    });
    this.metalEntry.push(isMetal(m.poles) ? 1 : 0);
    this.conductorEntry.push(m.perfectConductor ? 1 : 0);
    return this.entries.length - 1;
  }

  /**
   * Paints structure s into component c's index, yielding the fraction of all visits done after
   * each row; returns false when the table would overflow.
   */
  *paint(s: number, c: number): Generator<number, boolean, void> {
    if (this.structures[s].shape.coversAll) {
      yield* this.paintEverywhere(s, c);
      return true;
    }
    const { plan, p, h, at } = this;
    const visit = this.visits[s][c];
    const stag = [staggerOf(c, 0), staggerOf(c, 1), staggerOf(c, 2)];
    // The cube of each index along each axis: centre and length (grid.ts cubeAlong); its sample
    // point; where it is stored.
    const cubes = [0, 1, 2].map((b) => visit[b].map((i) => cubeAlong(plan.axes[b], i, stag[b])));
    const points = [0, 1, 2].map((b) => visit[b].map((i) => positionM(plan.axes[b], i, stag[b])));
    const offsets = [0, 1, 2].map((b) => visit[b].map((i) => this.target.cells.offset(b, i)));
    const rowVisits = visit[1].length * visit[2].length;
    for (let vi = 0; vi < visit[0].length; vi++) {
      p[0] = cubes[0][vi].centreM;
      h[0] = cubes[0][vi].lengthM;
      at[0] = points[0][vi];
      for (let vj = 0; vj < visit[1].length; vj++) {
        p[1] = cubes[1][vj].centreM;
        h[1] = cubes[1][vj].lengthM;
        at[1] = points[1][vj];
        for (let vk = 0; vk < visit[2].length; vk++) {
          p[2] = cubes[2][vk].centreM;
          h[2] = cubes[2][vk].lengthM;
          at[2] = points[2][vk];
          const cell = offsets[0][vi] + offsets[1][vj] + offsets[2][vk];
          if (!this.paintCell(s, c, cell)) return false;
        }
      }
      this.visitsDone += rowVisits;
      yield this.visitsDone / this.totalVisits;
    }
    return true;
  }

  /**
   * A structure that fills every cube (Shape.coversAll) takes every cell it visits, whatever
   * was painted before: its fraction is 1 there, also by a conductor's point probe.
   */
  private *paintEverywhere(s: number, c: number): Generator<number, void, void> {
    const visit = this.visits[s][c];
    const offsets = [0, 1, 2].map((b) => visit[b].map((i) => this.target.cells.offset(b, i)));
    const idx = this.index[c];
    const entry = this.pure[s];
    for (const o0 of offsets[0]) {
      for (const o1 of offsets[1]) {
        for (const o2 of offsets[2]) idx[o0 + o1 + o2] = entry;
      }
      this.visitsDone += visit[1].length * visit[2].length;
      yield this.visitsDone / this.totalVisits;
    }
  }

  /** Paints structure s into one cell of component c (the cube in p, h); false on overflow. */
  private paintCell(s: number, c: number, cell: number): boolean {
    const idx = this.index[c];
    const f = this.fraction(s, c, idx[cell]);
    if (f <= 1e-12) return true;
    if (f >= 1 - 1e-12) {
      idx[cell] = this.pure[s];
      return true;
    }
    const mixed = idx[cell]! > this.structures.length ? this.overlapEntry(s, c) : null;
    const id = mixed ?? this.mixture(this.entries[idx[cell]], this.entries[this.pure[s]], f, c);
    if (id < 0) return false;
    idx[cell] = id;
    return true;
  }

  /**
   * The entry of a cube that holds a mixture already when structure s cuts it too: the share
   * of every structure that cuts it since the last that fills it whole (cube-shares.ts), so
   * that structures sharing a face are not counted twice. Where a metal's surface crosses
   * component c, the material at the cube's centre (the part holding most of it last), as
   * `fraction` takes it. Null where a conductor is among them (its staircase goes on), or only
   * one cuts it.
   */
  private overlapEntry(s: number, c: number): number | null {
    const parts: CubePart[] = [];
    const ids = [0];
    let acrossMetal = false;
    for (let t = 0; t <= s; t++) {
      const { shape, material } = this.structures[t];
      if (!this.mayTouch(shape)) continue;
      const normal: Vec3 = [0, 0, 0];
      const fill = shape.fill(this.p, this.h, normal);
      if (fill <= 1e-12) continue;
      if (material.perfectConductor === true) return null;
      if (fill >= 1 - 1e-12) {
        parts.length = 0;
        ids.length = 0;
        acrossMetal = false;
      } else {
        parts.push({ fill, normal, box: shape.clip?.(this.p, this.h) });
        acrossMetal ||= this.metals[t] === true && normal[c] * normal[c] > 1e-9;
      }
      ids.push(this.pure[t]);
    }
    if (parts.length < 2) return null;
    if (acrossMetal) {
      const centre = parts.map((p) => holdsCentre(p.fill)).lastIndexOf(true);
      return ids[centre + 1]!;
    }
    const { shares, moments } = cubeShares(parts);
    const sum = { epsMean: 0, epsInvMean: 0, sigma: 0 };
    this.weights.fill(0);
    ids.forEach((id, q) => {
      const e = this.entries[id];
      const v = shares[q]!;
      sum.epsMean += v * e.epsMean;
      sum.epsInvMean += v * e.epsInvMean;
      sum.sigma += v * e.sigma;
      e.weights.forEach((w, d) => (this.weights[d] += v * w));
    });
    const n = interfaceNormal(
      ids.map((id) => this.entries[id]!),
      moments,
    );
    return this.entryOf(sum.epsMean, sum.epsInvMean, sum.sigma, n[c]! * n[c]!);
  }

  /** Whether the shape's bounds, a cell wider, reach the cube in p, h. */
  private mayTouch(shape: Shape): boolean {
    for (let b = 0; b < 3; b++) {
      const reach = 1.5 * this.h[b];
      if (shape.lo[b] > this.p[b] + reach || shape.hi[b] < this.p[b] - reach) return false;
    }
    return true;
  }

  /**
   * The share of the cube structure s takes: a perfect conductor painted or painted over by
   * sample point (a staircase); without smoothing (validation only), and at a metal's surface
   * unless this component lies in a planar face of it, the material at the cube's centre
   * (isMetal); else the fill fraction.
   */
  private fraction(s: number, c: number, entry: number): number {
    const { shape, material } = this.structures[s];
    const fill = shape.fill(this.p, this.h, this.normal);
    const conductor = material.perfectConductor === true;
    if (conductor || this.conductorEntry[entry] === 1) {
      return fill > 1e-12
        ? conductorStep(shape, this.at, this.h, conductor, this.probe, this.normal)
        : 0;
    }
    const acrossMetal =
      (this.metals[s] || this.metalEntry[entry] === 1) &&
      fill > 0 &&
      fill < 1 &&
      this.normal[c] * this.normal[c] > 1e-9;
    const hard = !this.smoothing || acrossMetal;
    return hard ? (holdsCentre(fill) ? 1 : 0) : fill;
  }

  /** The entry of `old` with a share f of `mat` (found, or added); −1 when the table is full. */
  private mixture(old: Entry, mat: Entry, f: number, c: number): number {
    const { weights } = this;
    const epsMean = (1 - f) * old.epsMean + f * mat.epsMean;
    const epsInvMean = (1 - f) * old.epsInvMean + f * mat.epsInvMean;
    const sigma = (1 - f) * old.sigma + f * mat.sigma;
    const n2 = this.normal[c] * this.normal[c];
    for (let d = 0; d < this.dispersive.length; d++) {
      weights[d] = (1 - f) * old.weights[d] + f * mat.weights[d];
    }
    return this.entryOf(epsMean, epsInvMean, sigma, n2);
  }

  /** The entry of these means (with this.weights), found or added; −1 when the table is full. */
  private entryOf(epsMean: number, epsInvMean: number, sigma: number, n2: number): number {
    const { entries, weights } = this;
    const found = this.table.find(epsMean, epsInvMean, sigma, n2, weights);
    if (found >= 0) return found;
    if (entries.length >= MAX_ENTRIES) return -1;
    const e: Entry = { epsMean, epsInvMean, sigma, n2, weights: [...weights] };
    entries.push(e);
    this.metalEntry.push(e.weights.some((w, d) => w > 0 && this.metalSets[d]) ? 1 : 0);
    this.table.add(entries.length - 1);
    return entries.length - 1;
  }

  /** The medium of the painted index: each entry's coefficients and poles. */
  medium(): Medium {
    const count = this.entries.length;
    const medium: Medium = {
      index: this.index,
      ca: new Float64Array(count),
      cb: new Float64Array(count),
      epsEff: new Float64Array(count),
      sigma: new Float64Array(count),
      poles: this.dispersive.length > 0 ? [] : null,
    };
    for (let m = 0; m < count; m++) this.setCoefficients(medium, m);
    return medium;
  }

  private poleScale(e: Entry, instantaneous: number): number {
    const sets = { poles: this.dispersive, epsInf: this.dispersiveEpsInf, metal: this.metalSets };
    return poleScaleOf(e, instantaneous, sets, this.referenceOmega);
  }

  private setCoefficients(medium: Medium, m: number): void {
    const e = this.entries[m];
    if (m < this.conductorEntry.length && this.conductorEntry[m] === 1) {
      // E^{n+1} = 0·E^n + 0·∇×H: zero at every step, whatever the curl and the source terms
      // (each scaled by cb) bring. ε and σ are placeholders that weigh nothing (E = 0).
      medium.epsEff[m] = 1;
      medium.poles?.push([]);
      return;
    }
    const eps = 1 / (e.n2 * e.epsInvMean + (1 - e.n2) / e.epsMean);
    const scale = this.poleScale(e, eps);
    const poles = e.weights.flatMap((w, d) =>
      w > 1e-12 ? this.dispersive[d].map((p) => scalePole(p, w * scale)) : [],
    );
    const dt = this.plan.dtSeconds;
    const { ca, cb } = updateCoefficients(eps, e.sigma, dt, instantaneousSusceptibility(poles, dt));
    medium.ca[m] = ca;
    medium.cb[m] = cb;
    medium.epsEff[m] = eps;
    medium.sigma[m] = e.sigma;
    medium.poles?.push(poles);
  }
}

/**
 * The factor on a cube's fill-weighted pole strengths that makes its ε(ω) the anisotropic mean
 * of its materials' ε(ω) at the source's frequency ω0, where dispersive dielectrics mix. Their
 * poles enter a cube weighted by fill (the susceptibility averaged arithmetically), next to the
 * harmonic mean of their ε∞: for a component normal to the interface that is neither mean of
 * ε(ω), and n_eff of a guide's TM-like mode came out first-order in the step (0.7 % at 10 nm for
 * a Si slab in SiO2, against 1e-5 with the same materials at one wavelength). The poles alone
 * are scaled, to (ε_mean(ω0) − ε∞_cube)/χ_cube(ω0), which lies in [0, 1] below the poles'
 * resonances: ε∞ is left as it is (scaled below 1 it made the update unstable), and the
 * mixture's dispersion across the band stays (each material's own is kept in its pure cells).
 * 1 for tangential components (both are the arithmetic mean already), pure cells, and cubes
 * holding a metal (isMetal).
 */
function poleScaleOf(
  e: Entry,
  instantaneous: number,
  sets: {
    poles: readonly (readonly Pole[])[];
    epsInf: readonly number[];
    metal: readonly boolean[];
  },
  omega: number | undefined,
): number {
  if (omega === undefined || e.n2 <= 0) return 1;
  let [mean, inverse, chi] = [e.epsMean, e.epsInvMean, 0];
  for (let d = 0; d < e.weights.length; d++) {
    const w = e.weights[d]!;
    if (w <= 1e-12) continue;
    if (sets.metal[d]) return 1;
    const epsInf = sets.epsInf[d]!;
    const x = permittivity({ epsInf, sigma: 0, poles: sets.poles[d]! }, omega).re - epsInf;
    mean += w * x;
    inverse += w * (1 / (epsInf + x) - 1 / epsInf);
    chi += w * x;
  }
  if (chi === 0) return 1;
  const scale = (1 / (e.n2 * inverse + (1 - e.n2) / mean) - instantaneous) / chi;
  return Number.isFinite(scale) && scale >= 0 ? Math.min(scale, 1) : 1;
}

/**
 * The unit normal of the interface in a cube of several holders (cube-shares.ts): the
 * direction of the first moment of the material whose share is the most lopsided, the holders
 * of one material (equal entries: a rib and the slab under it) taken together. Across one
 * flat interface every material's moment lies along its normal; at a corner, the material
 * that most fills one side wins.
 */
function interfaceNormal(entries: readonly Entry[], moments: Float64Array): Vec3 {
  const key = (e: Entry) => `${e.epsMean} ${e.epsInvMean} ${e.sigma} ${e.weights.join(" ")}`;
  const byMaterial = new Map<string, Vec3>();
  entries.forEach((e, q) => {
    const m = byMaterial.get(key(e)) ?? [0, 0, 0];
    for (let a = 0; a < 3; a++) m[a] += moments[3 * q + a]!;
    byMaterial.set(key(e), m);
  });
  let best: Vec3 = [0, 0, 0];
  for (const m of byMaterial.values()) if (Math.hypot(...m) > Math.hypot(...best)) best = m;
  const length = Math.hypot(...best);
  return length > 0 ? (best.map((v) => v / length) as Vec3) : [0, 0, 0];
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
  const st = staggerOf(c, b);
  const max = st > 0 ? layout.n[b] - 1 : layout.n[b];
  // Positions within a cell of the shape's bounds (the cube reaches half a cell either side).
  const at = (x: number) => (st > 0 ? centreIndexAt(ax, x) : nodeIndexAt(ax, x));
  const widen = (x: number, side: number) =>
    x + side * cellStepM(ax, Math.floor(nodeIndexAt(ax, x)) + side);
  const i0 = Number.isFinite(shape.lo[b]) ? Math.max(0, Math.ceil(at(widen(shape.lo[b], -1)))) : 0;
  const i1 = Number.isFinite(shape.hi[b])
    ? Math.min(max, Math.floor(at(widen(shape.hi[b], 1))))
    : max;
  const out: number[] = [];
  for (let i = i0; i <= i1; i++) out.push(i);
  return out;
}
