/**
 * Grids stored with their axes relabelled. The kernel runs its rows and SIMD lanes along the
 * stored z (kernel-wat.ts), so the axis that is z in storage sets how long the rows are, how
 * many there are, and which absorber slab splits every row into short spans:
 *  - a grid one cell thick along z — an x–y cross-section, the usual 2-D orientation elsewhere
 *    (Meep's) — would update rows of one cell: about eight times slower than the same
 *    cross-section lying in x–z (measured on the README's strip, docs/benchmarks.md).
 *    Relabelling the axes cyclically (x, y, z) → (z, x, y) turns it into a y-thin grid for the
 *    kernel (wasm/thin.ts): the physical x becomes the row axis;
 *  - a 3-D grid whose longest axis is x or y is stored with that axis as z: longer rows and
 *    fewer of them (each row costs a call per span, and its last cells a shorter group), and the
 *    z absorber slab — whose spans of a few cells at every row's ends cost three times an
 *    interior cell — over the fewest cells. The 80 × 60 × 50-cell grid of the S-parameter
 *    benchmark (a 10-cell absorber on every face) takes 31 % fewer instructions a step with x
 *    as its rows (docs/benchmarks.md).
 *
 * A cyclic relabelling keeps the curl's form (component c and its derivative axes all shift
 * by the same amount), so the relabelled problem is the same Yee problem, field for field:
 * component c of the physical grid is component (c + shift) mod 3 of the stored one, cell
 * (x0, x1, x2) is stored at y[(a + shift) mod 3] = x[a]. Everything the backend is handed is
 * relabelled once (layout, plan, medium, CPML profiles, inverse steps, Bloch phases, source
 * terms, monitor streams, dispersive cells); the source terms' weight patterns keep their
 * layout (their u, v axes follow the propagation axis), monitor sums keep their order, and the
 * fields are relabelled back when read whole.
 */
import type { Stepper, SteppingProblem } from "../backend.js";
import { buildAdeTerms } from "../dispersion/ade.js";
import { allocateFieldSet, type FieldSet } from "../fields.js";
import { YeeLayout, type GridPlan } from "../grid.js";
import type { KernelGrid } from "../kernel.js";
import type { Medium } from "../medium-types.js";
import type { MonitorSampling } from "../monitors.js";
import type { InjectionConfig } from "../sources/injection.js";

/**
 * Padded cells up to which a 3-D grid is stored with its longest axis as rows: the map of
 * cells (4 bytes a cell) is kept for the run to read the fields back, and the medium's
 * indices are copied once. Larger grids have long rows already.
 */
export const RELABEL_MAX_CELLS = 1 << 24;

/** What relabelShift weighs besides the grid. */
export interface RelabelChoice {
  /** false: a 3-D grid keeps its axes (comparisons; default true). */
  alongLongest?: boolean;
  /** The threads the engine would give a grid stored with this layout (default 1). */
  threadsOf?: (layout: YeeLayout) => number;
}

/**
 * The relabelling a grid is stored with: the shift s of (axis + s) mod 3 that makes a grid
 * one periodic cell thick along z (no Bloch phase there) thin along y, or along x and y for a
 * line along y; for a grid with no axis one cell thick, the shift that makes its longest axis
 * the rows' (z kept on a tie; `alongLongest` false: never), unless the grid so stored would
 * get fewer threads (`threadsOf`, the engine's rule: they share the stored x planes); 0
 * (none) for every other grid.
 */
export function relabelShift(
  problem: Pick<SteppingProblem, "layout" | "blochPhase">,
  { alongLongest = true, threadsOf = () => 1 }: RelabelChoice = {},
): 0 | 1 | 2 {
  const { layout, blochPhase } = problem;
  const flat = (a: number) =>
    layout.n[a] === 1 && layout.boundaries[a] === "periodic" && blochPhase[a] === 0;
  if (flat(2)) {
    // A line along y (x thin too): y becomes the row axis; otherwise x does.
    return flat(0) && layout.n[1] > 1 ? 1 : 2;
  }
  const [nx, ny, nz] = layout.n;
  if (!alongLongest || Math.min(nx, ny, nz) === 1) return 0;
  if (layout.paddedCells > RELABEL_MAX_CELLS) return 0;
  if (nz >= nx && nz >= ny) return 0;
  // x → stored z is a shift of 2, y → stored z one of 1.
  const shift = nx >= ny ? 2 : 1;
  return threadsOf(storedLayout(layout, shift)) >= threadsOf(layout) ? shift : 0;
}

/**
 * Bytes a run keeps for a relabelled grid's cell map (relabelProblem: 4 a padded cell), for
 * estimates; 0 where the grid keeps its axes. Without a source's Bloch phase or the engine's
 * thread rule, it counts every grid that may be relabelled: an upper bound.
 */
export function relabelMapBytes(layout: YeeLayout): number {
  return relabelShift({ layout, blochPhase: [0, 0, 0] }) === 0 ? 0 : 4 * layout.paddedCells;
}

/** The layout a grid is stored with under `shift`. */
function storedLayout(L: YeeLayout, shift: number): YeeLayout {
  return new YeeLayout(axes(L.n, shift), axes(L.boundaries, shift), axes(L.mirrors, shift));
}

/** Per-axis values in stored order: out[(a + shift) % 3] = v[a]. */
function axes<T>(v: readonly T[], shift: number): [T, T, T] {
  const out = new Array<T>(3);
  for (let a = 0; a < 3; a++) out[(a + shift) % 3] = v[a];
  return out as [T, T, T];
}

/** Component number in the stored grid (E 0–2, H 3–5). */
export function storedComponent(comp: number, shift: number): number {
  return comp < 3 ? (comp + shift) % 3 : 3 + ((comp - 3 + shift) % 3);
}

/**
 * The stored padded index of every physical padded index: cell x (ghosts included) is stored at
 * y with y[(a + shift) % 3] = x[a]. A function of its own, on layouts only, so that its loop is
 * optimised once for every job (inside relabelProblem, whose problem objects differ in shape
 * from job to job, it was deoptimised and compiled again for each).
 */
function cellMapOf(from: YeeLayout, to: YeeLayout, shift: number): Int32Array {
  const map = new Int32Array(from.paddedCells);
  // layout.index(y) = Σ_b (y_b + 1)·stride_b, the last stride 1: per physical axis a, the
  // stored stride of axis (a + shift) % 3.
  const toStrides = [to.strides[0], to.strides[1], 1];
  const s0 = toStrides[shift % 3]!;
  const s1 = toStrides[(1 + shift) % 3]!;
  const s2 = toStrides[(2 + shift) % 3]!;
  const f0 = from.strides[0];
  const f1 = from.strides[1];
  const [n0, n1, n2] = [from.n[0] + 2, from.n[1] + 2, from.n[2] + 2];
  for (let i0 = 0; i0 < n0; i0++) {
    for (let i1 = 0; i1 < n1; i1++) {
      const at = i0 * f0 + i1 * f1;
      const to0 = i0 * s0 + i1 * s1;
      for (let i2 = 0; i2 < n2; i2++) map[at + i2] = to0 + i2 * s2;
    }
  }
  return map;
}

/** A relabelled problem and the map of padded cells physical → stored. */
export interface Relabelled {
  problem: SteppingProblem;
  /** stored padded index of each physical padded index. */
  cellMap: Int32Array;
  shift: number;
}

export function relabelProblem(problem: SteppingProblem, shift: number): Relabelled {
  const L = problem.layout;
  const layout = storedLayout(L, shift);
  const cellMap = cellMapOf(L, layout, shift);
  const cells = (from: Uint16Array) => {
    const to = new Uint16Array(from.length);
    for (let p = 0; p < from.length; p++) to[cellMap[p]] = from[p];
    return to;
  };
  const m = problem.medium;
  const medium: Medium = { ...m, index: axes(m.index.map(cells), shift) };
  const plan: GridPlan = { ...problem.plan, axes: axes(problem.plan.axes, shift) };
  const kg = problem.kernelGrid;
  const kernelGrid: KernelGrid = {
    ...kg,
    layout,
    invStepNode: axes(kg.invStepNode, shift),
    invStepHalf: axes(kg.invStepHalf, shift),
    materialIndex: medium.index,
  };
  const injection: InjectionConfig | null = problem.injection && {
    axis: (problem.injection.axis + shift) % 3,
    h: problem.injection.h.map((t) => ({ ...t, comp: storedComponent(t.comp, shift) })),
    e: problem.injection.e.map((t) => ({ ...t, comp: storedComponent(t.comp, shift) })),
  };
  const monitors: MonitorSampling[] = problem.monitors.map((mon) => ({
    ...mon,
    streams: mon.streams.map((st) => {
      const base = st.base.map((p) => cellMap[p]);
      // Offsets are fixed steps between cells, so the same step for every point.
      const offsets = st.offsets.map((o) =>
        st.base.length > 0 ? cellMap[st.base[0] + o] - base[0] : o,
      );
      for (let q = 0; q < st.base.length; q++) {
        for (let o = 0; o < offsets.length; o++) {
          if (cellMap[st.base[q] + st.offsets[o]] !== base[q] + offsets[o]) {
            throw new Error("a monitor stream's offsets are not steps between cells");
          }
        }
      }
      return { comp: storedComponent(st.comp, shift), base, offsets };
    }),
  }));
  return {
    shift,
    cellMap,
    problem: {
      ...problem,
      plan,
      layout,
      medium,
      kernelGrid,
      profiles: axes(problem.profiles, shift),
      // The dispersive cells' lists are ordered by stored cell: built again from the medium.
      ade: problem.ade ? buildAdeTerms(layout, medium, plan.dtSeconds) : null,
      blochPhase: axes(problem.blochPhase, shift),
      injection,
      monitors,
    },
  };
}

/**
 * What the wrapper reads of the engine (engine.ts's FastEngine), declared here so that this
 * module does not import engine.ts, which imports it.
 */
export interface RelabelledEngine extends Stepper {
  /** Per stored axis, whether the grid is invariant along it. */
  readonly invariant: readonly boolean[];
  /** Per stored component, whether it is updated. */
  readonly stepped: readonly boolean[];
  /** Whether each sweep is whole-grid passes. */
  readonly wholeGrid: boolean;
}

/** A FastEngine on a relabelled grid, read back in the physical labels. */
export class RelabelledStepper implements Stepper {
  constructor(
    /** The engine stepping the stored (relabelled) grid. */
    readonly engine: RelabelledEngine,
    private readonly physical: SteppingProblem,
    private readonly relabelled: Relabelled,
  ) {}

  /** FastEngine.invariant in the physical labels. */
  get invariant(): boolean[] {
    return [0, 1, 2].map((a) => this.engine.invariant[(a + this.relabelled.shift) % 3]);
  }
  /** FastEngine.stepped in the physical labels. */
  get stepped(): boolean[] {
    return [0, 1, 2, 3, 4, 5].map(
      (c) => this.engine.stepped[storedComponent(c, this.relabelled.shift)],
    );
  }
  get wholeGrid(): boolean {
    return this.engine.wholeGrid;
  }

  get threads(): number {
    return this.engine.threads;
  }
  get timing() {
    return this.engine.timing;
  }
  get stepsPerSweep(): number {
    return this.engine.stepsPerSweep;
  }
  advance(n: number, count: number, drive: Float64Array): void {
    this.engine.advance(n, count, drive);
  }
  energy(): Promise<number> {
    return this.engine.energy();
  }
  monitorSums(): Promise<Float64Array[][]> {
    return this.engine.monitorSums();
  }

  /** Copies of the fields in the physical layout and labels. */
  async fields(): Promise<FieldSet[]> {
    const stored = await this.engine.fields();
    const { cellMap, shift } = this.relabelled;
    return stored.map((set) => {
      const out = allocateFieldSet(this.physical.layout);
      for (let c = 0; c < 6; c++) {
        const from = set.c[storedComponent(c, shift)];
        const to = out.c[c];
        for (let p = 0; p < to.length; p++) to[p] = from[cellMap[p]];
      }
      return out;
    });
  }

  dispose(): void {
    this.engine.dispose();
  }
}
