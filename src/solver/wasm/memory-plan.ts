/**
 * Where everything the fast kernel reads lives in its one shared WebAssembly.Memory, and the
 * code that fills it. The WAT generator bakes these byte addresses into the kernel as
 * immediates, so a kernel is specific to one grid (it is generated and compiled per run).
 *
 *   [control block 4 KiB] [1-D tables: inverse steps, CPML b/c, ca/cb/ε, (ca, cb) pairs]
 *   [material runs] [fused E pieces and the mixed pieces' per-cell entries (runs.ts)]
 *   [progress counters per x-plane] [the source's injection weights, float64 per term]
 *   [dispersive cells' tables and state (ade-wasm.ts)]
 *   [CPML ψ, absorber slabs only, per field set] [field sets: 6 padded float32 arrays each]
 *
 * Only the fields scale with the grid volume (24 bytes per cell, 48 for Bloch runs); runs and
 * ψ scale with rows and with the absorber's volume, and the mixed pieces' entries (6 bytes per
 * cell in them) with the cells near material interfaces.
 */
import type { CpmlProfile } from "../cpml.js";
import { fieldSetBytes } from "../fields.js";
import type { YeeLayout } from "../grid.js";
import type { KernelGrid } from "../kernel.js";
import type { Medium } from "../medium-types.js";
import type { InjectionConfig } from "../sources/injection.js";
import type { FusedPieces, MaterialRuns } from "./runs.js";

const PAGE_BYTES = 65536;
/** wasm32 can address at most 4 GiB. */
export const MAX_MEMORY_BYTES = 65536 * PAGE_BYTES;
export const CONTROL_BYTES = 4096;

/** One absorber slab (one face of one axis), laid out like cpml.ts's CpmlSlab. */
export interface PsiFacePlan {
  axis: number;
  side: "lo" | "hi";
  /** Node index range [a0, a1] along `axis` the slab covers. */
  a0: number;
  a1: number;
  /** Element strides of the slab (padded layout with `axis` shortened to a1 − a0 + 1). */
  strides: [number, number, number];
  /** Byte addresses of ψ[0…3] (E e1, E e2, H h1, H h2, as in cpml.ts) for field set 0. */
  psi: [number, number, number, number];
}

export interface FastMemoryPlan {
  totalBytes: number;
  pages: number;
  /** Per axis, f32 1/(κ·step) at nodes and half positions, index = node + 1 (padded). */
  invNode: [number, number, number];
  invHalf: [number, number, number];
  /** Per axis, f32 CPML b and c/step at nodes and half positions, index = node. */
  bNode: [number, number, number];
  cNode: [number, number, number];
  bHalf: [number, number, number];
  cHalf: [number, number, number];
  /** f32 tables of the material entries: ca, cb, ε_eff. */
  ca: number;
  cb: number;
  /** cb/step, for the fused spans where every inverse step is 1/step (κ = 1). */
  cbOverStep: number;
  eps: number;
  /**
   * The same as interleaved f32 pairs (ca, cb) and (ca, cb/step), 8 bytes per entry: one
   * 8-byte load per lane where the mixed pieces gather them.
   */
  caCb: number;
  caCbOverStep: number;
  tableEntries: number;
  runStart: [number, number, number];
  runs: [number, number, number];
  /** The fused E rows' pieces (runs.ts FusedPieces): u32 rowStart, 4 u32 per piece. */
  pieceStart: number;
  pieces: number;
  /** The mixed pieces' per-cell entries (u16). */
  mixedEntries: number;
  /**
   * Int32 progress counters, time steps completed per x-plane (−1 … n, index plane + 1):
   * H planes first, then E planes (sweep.ts).
   */
  progress: number;
  /** Byte address of each injection term's float64 weights (h terms, then e terms). */
  injectionWeights: number[];
  faces: PsiFacePlan[];
  /** Byte address of the first ψ array (everything from here on is zeroed state). */
  psiStart: number;
  /** Bytes between the ψ arrays of field set 0 and those of set 1. */
  psiSetBytes: number;
  /** Byte address of the dispersive cells' region (ade-wasm.ts: tables, then zeroed state). */
  ade: number;
  /** Byte address of field set 0 and of each component in it. */
  fields: number;
  components: [number, number, number, number, number, number];
  /** Bytes between field set 0 and set 1. */
  setBytes: number;
  sets: number;
}

class Bump {
  offset: number;
  constructor(start: number) {
    this.offset = start;
  }
  take(bytes: number): number {
    const at = this.offset;
    this.offset = Math.ceil((at + bytes) / 64) * 64;
    return at;
  }
}

/** The absorber slabs of a grid (same faces and extents as cpml.ts's createCpmlSlabs). */
export function absorberFaces(
  layout: YeeLayout,
  pml: readonly { lo: number; hi: number }[],
): { axis: number; side: "lo" | "hi"; a0: number; a1: number }[] {
  const out: { axis: number; side: "lo" | "hi"; a0: number; a1: number }[] = [];
  for (let a = 0; a < 3; a++) {
    if (pml[a].lo > 0) out.push({ axis: a, side: "lo", a0: 0, a1: pml[a].lo });
    if (pml[a].hi > 0) {
      out.push({ axis: a, side: "hi", a0: layout.n[a] - pml[a].hi, a1: layout.n[a] });
    }
  }
  return out;
}

/**
 * Where everything goes, in the order of the module comment: each region starts on a 64-byte
 * boundary, and the ψ arrays of field set 1 follow those of set 0 at `psiSetBytes`, as its
 * fields follow set 0's at `setBytes`.
 */
export function planFastMemory(
  layout: YeeLayout,
  pml: readonly { lo: number; hi: number }[],
  tableEntries: number,
  /** Runs per E component (runs.ts). */
  runCounts: readonly number[],
  sets: number,
  /** Bytes of the dispersive cells' tables and state (ade-wasm.ts), 0 for none. */
  adeBytes = 0,
  /** Fused E pieces and cells in mixed pieces (runs.ts). */
  fused: { pieces: number; mixedCells: number } = { pieces: 0, mixedCells: 0 },
  /** Weights per injection term (sources/injection.ts), h terms then e terms. */
  injectionTerms: readonly number[] = [],
): FastMemoryPlan {
  const bump = new Bump(CONTROL_BYTES);
  const tables = planTables(bump, layout, tableEntries);
  const rows = planRowTables(bump, layout, runCounts, fused);
  const progress = bump.take(2 * 4 * layout.padded[0]);
  const injectionWeights = injectionTerms.map((count) => bump.take(8 * count));
  // Before psiStart: the set-up's page faulting zeroes words from there on, and this region
  // holds tables as well as state.
  const ade = bump.take(adeBytes);
  const psi = planPsi(bump, layout, pml, sets);
  const fields = planFields(bump, layout, sets);
  // A 16-byte vector load at the last element of the last array reads 12 bytes beyond it.
  const totalBytes = bump.offset + 64;
  return {
    totalBytes,
    pages: Math.ceil(totalBytes / PAGE_BYTES),
    ...tables,
    tableEntries,
    ...rows,
    progress,
    injectionWeights,
    ...psi,
    ade,
    ...fields,
    sets,
  };
}

type PerAxis = [number, number, number];

/** The 1-D tables: per-axis inverse steps and CPML b, c; the material entries' coefficients. */
function planTables(bump: Bump, layout: YeeLayout, tableEntries: number) {
  const perAxis = (count: (a: number) => number) =>
    [0, 1, 2].map((a) => bump.take(4 * count(a))) as PerAxis;
  return {
    invNode: perAxis((a) => layout.padded[a] + 1),
    invHalf: perAxis((a) => layout.padded[a] + 1),
    bNode: perAxis((a) => layout.n[a] + 1),
    cNode: perAxis((a) => layout.n[a] + 1),
    bHalf: perAxis((a) => layout.n[a] + 1),
    cHalf: perAxis((a) => layout.n[a] + 1),
    ca: bump.take(4 * tableEntries),
    cb: bump.take(4 * tableEntries),
    cbOverStep: bump.take(4 * tableEntries),
    eps: bump.take(4 * tableEntries),
    caCb: bump.take(8 * tableEntries),
    caCbOverStep: bump.take(8 * tableEntries),
  };
}

/** Per row: each E component's material runs, the fused pieces, the mixed pieces' entries. */
function planRowTables(
  bump: Bump,
  layout: YeeLayout,
  runCounts: readonly number[],
  fused: { pieces: number; mixedCells: number },
) {
  const rows = layout.padded[0] * layout.padded[1];
  return {
    runStart: [0, 1, 2].map(() => bump.take(4 * (rows + 1))) as PerAxis,
    runs: [0, 1, 2].map((c) => bump.take(4 * Math.max(1, runCounts[c]))) as PerAxis,
    pieceStart: bump.take(4 * (rows + 1)),
    pieces: bump.take(16 * Math.max(1, fused.pieces)),
    mixedEntries: bump.take(6 * fused.mixedCells),
  };
}

/** ψ of each absorber slab (four arrays per face), for every field set. */
function planPsi(
  bump: Bump,
  layout: YeeLayout,
  pml: readonly { lo: number; hi: number }[],
  sets: number,
) {
  const psiStart = bump.offset;
  const faces: PsiFacePlan[] = absorberFaces(layout, pml).map((f) => {
    const dims = [layout.padded[0], layout.padded[1], layout.padded[2]];
    dims[f.axis] = f.a1 - f.a0 + 1;
    const size = dims[0] * dims[1] * dims[2];
    return {
      ...f,
      strides: [dims[1] * dims[2], dims[2], 1],
      psi: [0, 1, 2, 3].map(() => bump.take(4 * size)) as PsiFacePlan["psi"],
    };
  });
  const psiSetBytes = bump.offset - psiStart;
  bump.offset += (sets - 1) * psiSetBytes;
  return { faces, psiStart, psiSetBytes };
}

/** The field sets: six padded float32 arrays each. */
function planFields(bump: Bump, layout: YeeLayout, sets: number) {
  const setBytes = fieldSetBytes(layout);
  const fields = bump.take(sets * setBytes);
  const compBytes = setBytes / 6;
  const components = [0, 1, 2, 3, 4, 5].map(
    (c) => fields + c * compBytes,
  ) as FastMemoryPlan["components"];
  return { fields, components, setBytes };
}

/**
 * Material runs per row and E component that submission-time estimates allow for: a row
 * through a box has 3, and sub-cell smoothing adds one per cell a structure's surface cuts.
 * (The fused pieces are allowed as many per row; the mixed pieces' entries are not counted:
 * the engine leaves them out where they would not fit, engine.ts.)
 */
export const ESTIMATED_RUNS_PER_ROW = 8;

/**
 * Bytes of fast-kernel memory a grid needs with `runsPerRow` material runs per row and E
 * component (the real count is known only once the medium is built): what decides whether
 * it fits in MAX_MEMORY_BYTES. `complex`: Bloch-periodic runs (oblique incidence) hold two
 * field sets.
 */
export function fastKernelBytes(
  layout: YeeLayout,
  pml: readonly { lo: number; hi: number }[],
  complex: boolean,
  runsPerRow = 1,
): number {
  const runs = layout.padded[0] * layout.padded[1] * runsPerRow;
  return planFastMemory(layout, pml, 1, [runs, runs, runs], complex ? 2 : 1, 0, {
    pieces: runs,
    mixedCells: 0,
  }).totalBytes;
}

/**
 * Bytes one cell-update moves between the caches and memory in this design with one time
 * step per sweep: every field value read and written once per step (the plane-by-plane
 * sweep, sweep.ts, finds the neighbouring planes still in cache), plus ψ read and written
 * once per step where it exists, averaged over all cells. Runs and 1-D tables are small and
 * stay in cache. With D steps per sweep, divide by D as far as the planes in flight stay
 * cached.
 */
export function bytesPerCellUpdate(plan: FastMemoryPlan, layout: YeeLayout): number {
  const fields = 2 * 6 * 4 * layout.paddedCells * plan.sets;
  const psi = 2 * plan.psiSetBytes * plan.sets;
  return (fields + psi) / layout.cells;
}

/**
 * Copies the 1-D tables, runs and the injection terms' weights into the kernel's memory
 * (fields and ψ stay zero).
 */
export function writeKernelTables(
  buffer: ArrayBufferLike,
  plan: FastMemoryPlan,
  grid: KernelGrid,
  profiles: readonly CpmlProfile[],
  medium: Medium,
  runs: readonly MaterialRuns[],
  fused: FusedPieces,
  injection: InjectionConfig | null,
): void {
  const f32 = (at: number, values: ArrayLike<number>) =>
    new Float32Array(buffer, at, values.length).set(values);
  const u32 = (at: number, values: Uint32Array) =>
    new Uint32Array(buffer, at, values.length).set(values);
  // cb/step: what the kernel's fused spans use where every step is this one (a uniform grid
  // with κ = 1 outside the absorbers); unused, and 1, on a graded grid.
  const stepM = grid.uniformStepM ?? 1;
  for (let a = 0; a < 3; a++) {
    f32(plan.invNode[a], grid.invStepNode[a]);
    f32(plan.invHalf[a], grid.invStepHalf[a]);
    const p = profiles[a];
    f32(plan.bNode[a], p.bNode);
    f32(plan.cNode[a], p.cOverStepNode);
    f32(plan.bHalf[a], p.bHalf);
    f32(plan.cHalf[a], p.cOverStepHalf);
  }
  f32(plan.ca, medium.ca);
  f32(plan.cb, medium.cb);
  f32(
    plan.cbOverStep,
    medium.cb.map((c) => c / stepM),
  );
  f32(plan.eps, medium.epsEff);
  const caCb = new Float32Array(buffer, plan.caCb, 2 * plan.tableEntries);
  const caCbOverStep = new Float32Array(buffer, plan.caCbOverStep, 2 * plan.tableEntries);
  for (let m = 0; m < plan.tableEntries; m++) {
    caCb[2 * m] = caCbOverStep[2 * m] = medium.ca[m];
    caCb[2 * m + 1] = medium.cb[m];
    caCbOverStep[2 * m + 1] = medium.cb[m] / stepM;
  }
  for (let c = 0; c < 3; c++) {
    u32(plan.runStart[c], runs[c].rowStart);
    u32(plan.runs[c], runs[c].runs);
  }
  u32(plan.pieceStart, fused.rowStart);
  u32(plan.pieces, fused.pieces);
  new Uint16Array(buffer, plan.mixedEntries, fused.cells.length).set(fused.cells);
  const terms = injection ? [...injection.h, ...injection.e] : [];
  terms.forEach((t, i) => {
    new Float64Array(buffer, plan.injectionWeights[i], t.wRe.length).set(t.wRe);
  });
}
