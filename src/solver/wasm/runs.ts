/**
 * Material runs: the fast kernel's form of the per-cell material index.
 *
 * Along the contiguous axis z most rows of a grid hold long stretches of one material (the
 * background, a box's interior), so instead of a Uint16 index per cell (6 bytes per cell for
 * the three E components, read on every E update) each row of each E component is stored as
 * runs `(k0 << 16) | material`: a run lasts until the next run's k0 or the end of the row's
 * update range. The kernel then splats one (ca, cb) pair per run, with no per-lane gather and
 * no index traffic. A box row costs 3 runs; smoothed interface cells add one run each. In the
 * (pathological) worst case of a different entry in every cell it is 4 bytes per cell.
 * The runs serve the single-component row code and the energy; the fused E spans, which do
 * most of the work, go by the rows' pieces instead (buildFusedPieces below).
 */
import type { YeeLayout } from "../grid.js";

export interface MaterialRuns {
  /** Per padded row r = (i+1)·(ny+2) + (j+1): runs[rowStart[r] … rowStart[r+1]). */
  rowStart: Uint32Array;
  /** (k0 << 16) | material, k0 the logical z index where the run starts. */
  runs: Uint32Array;
}

/** Runs of E component `comp` over its update range (rows outside it are empty). */
export function buildMaterialRuns(
  layout: YeeLayout,
  index: Uint16Array,
  comp: number,
): MaterialRuns {
  const [px, py] = layout.padded;
  const [sx, sy] = layout.strides;
  const rows = px * py;
  const rowStart = new Uint32Array(rows + 1);
  const iLo = layout.lo[comp * 3];
  const iHi = layout.hi[comp * 3];
  const jLo = layout.lo[comp * 3 + 1];
  const jHi = layout.hi[comp * 3 + 1];
  const kLo = layout.lo[comp * 3 + 2];
  const kHi = layout.hi[comp * 3 + 2];
  if (layout.n[2] + 1 >= 1 << 16)
    throw new RangeError("too many cells along z for the fast kernel");
  let runs = new Uint32Array(Math.max(16, rows));
  let count = 0;
  for (let r = 0; r < rows; r++) {
    rowStart[r] = count;
    const i = Math.floor(r / py) - 1;
    const j = (r % py) - 1;
    if (i < iLo || i > iHi || j < jLo || j > jHi || kHi < kLo) continue;
    const base = (i + 1) * sx + (j + 1) * sy + 1;
    let prev = -1;
    for (let k = kLo; k <= kHi; k++) {
      const m = index[base + k];
      if (m === prev) continue;
      if (count === runs.length) {
        const grown = new Uint32Array(runs.length * 2);
        grown.set(runs);
        runs = grown;
      }
      runs[count++] = ((k << 16) | m) >>> 0;
      prev = m;
    }
  }
  rowStart[rows] = count;
  return { rowStart, runs: runs.slice(0, count) };
}

/**
 * The E kernel's fused rows as pieces: stretches of the cells all three E components update
 * (the fused z range, fusedRange), cut wherever any component's material changes.
 *
 * A uniform piece holds one entry per component, whose (ca, cb) the kernel splats for the
 * whole piece, as runs do. Smoothed interface cells are each an entry of their own, so on a
 * grid of many small structures (photonic crystals, metasurfaces, lattices of spheres) most
 * pieces would be one or two cells long, and each would cost a span call, its splats and its
 * scalar loop: about 7 plain cells' time per interface cell (measured, docs/benchmarks.md).
 * Hence mixed pieces: consecutive pieces shorter than `shortestUniform` are merged into one
 * whose cells carry their own entries (u16 per cell and component, in `cells`), and the
 * kernel gathers (ca, cb) lane by lane there instead of splatting. Their boundaries are then
 * moved so that pieces are whole vectors (multiples of 4 cells) where they can be, as the
 * 0–3 cells left at a span's end take the scalar loop.
 *
 * Layout: 4 u32 words per piece, [k0 | MIXED_PIECE if mixed, x0, x1, x2], x_c being 4·entry
 * (byte offset into the f32 coefficient tables) for a uniform piece, and for a mixed one the
 * byte offset in `cells` of component c's entries for the piece's cells (Ex's, Ey's, Ez's one
 * after the other). A piece ends where the next one starts, the row's last at the end of the
 * fused range. Rows where not all three components are updated have none.
 */
export interface FusedPieces {
  /** Per padded row r = (i+1)·(ny+2) + (j+1): pieces rowStart[r] … rowStart[r+1]−1. */
  rowStart: Uint32Array;
  /** 4 words per piece (see above). */
  pieces: Uint32Array;
  /** The mixed pieces' per-cell entries. */
  cells: Uint16Array;
  /** How many cells the mixed pieces hold (cells.length / 3). */
  mixedCells: number;
}

/** Flag on a piece's first word: its cells carry their own entries. */
export const MIXED_PIECE = 0x80000000;

/**
 * Uniform pieces shorter than this are merged into mixed ones (the default). On one thread
 * a span costs about 10 ns (a call, its splats, and mostly the mispredicted exits of its
 * loops: rows cut into 16-cell spans ran 20 % slower than whole rows), and a mixed cell
 * about 1.3 ns more than a uniform one for its gathers (every cell of every row mixed: 70 %
 * of the empty grid's rate).
 * On a lattice of spheres of 6 cells' radius, 8, 12, 16, 24 and 32 gave the same rate within
 * the measurement's ±4 %, about 82 % of the empty grid's on one thread (docs/benchmarks.md).
 */
export const SHORTEST_UNIFORM_PIECE = 8;

/** The z range [k0, k1) where all three E components are updated (the fused spans'). */
export function fusedRange(layout: YeeLayout): [number, number] {
  const k0 = Math.max(layout.lo[2], layout.lo[5], layout.lo[8]);
  const k1 = Math.min(layout.hi[2], layout.hi[5], layout.hi[8]) + 1;
  return [k0, Math.max(k0, k1)];
}

interface Piece {
  k0: number;
  k1: number;
  mixed: boolean;
}

/**
 * The pieces of one row's cells [k0, k1): `same(k)` says whether cell k holds the same three
 * entries as cell k − 1. `shortestUniform` 0: uniform pieces only.
 */
export function rowPieces(
  k0: number,
  k1: number,
  same: (k: number) => boolean,
  shortestUniform: number,
): Piece[] {
  const out: Piece[] = [];
  let start = k0;
  for (let k = k0 + 1; k <= k1; k++) {
    if (k < k1 && same(k)) continue;
    const mixed = k - start < shortestUniform;
    const last = out[out.length - 1];
    if (mixed && last?.mixed) last.k1 = k;
    else out.push({ k0: start, k1: k, mixed });
    start = k;
  }
  // Whole vectors: a uniform piece before a mixed one hands its last (length mod 4) cells to
  // it, and a mixed piece before a uniform one takes cells from it up to a multiple of 4, or
  // swallows it (and the mixed piece after it) if fewer than 4 cells would remain.
  for (let p = 0; p + 1 < out.length; p++) {
    const piece = out[p];
    const next = out[p + 1];
    const length = piece.k1 - piece.k0;
    if (!piece.mixed) {
      const spare = length % 4;
      if (next.mixed && length - spare >= 4) {
        piece.k1 -= spare;
        next.k0 -= spare;
      }
      continue;
    }
    const want = (4 - (length % 4)) % 4;
    if (next.k1 - next.k0 - want >= 4) {
      piece.k1 += want;
      next.k0 += want;
    } else {
      piece.k1 = next.k1;
      out.splice(p + 1, 1);
      if (out[p + 1]?.mixed) {
        piece.k1 = out[p + 1].k1;
        out.splice(p + 1, 1);
      }
      p--;
    }
  }
  return out;
}

/** The fused E rows' pieces (see FusedPieces) of a medium's three index arrays. */
export function buildFusedPieces(
  layout: YeeLayout,
  index: readonly [Uint16Array, Uint16Array, Uint16Array],
  shortestUniform = SHORTEST_UNIFORM_PIECE,
): FusedPieces {
  const [px, py] = layout.padded;
  const [sx, sy] = layout.strides;
  const rows = px * py;
  const [kF0, kF1] = fusedRange(layout);
  // Rows where all three components are updated (lo/hi[comp·3 + axis]).
  const iLo = Math.max(layout.lo[0], layout.lo[3], layout.lo[6]);
  const iHi = Math.min(layout.hi[0], layout.hi[3], layout.hi[6]);
  const jLo = Math.max(layout.lo[1], layout.lo[4], layout.lo[7]);
  const jHi = Math.min(layout.hi[1], layout.hi[4], layout.hi[7]);
  if (layout.n[2] + 1 >= 1 << 16) {
    throw new RangeError("too many cells along z for the fast kernel");
  }
  const [ix, iy, iz] = index;
  const rowStart = new Uint32Array(rows + 1);
  let pieces = new Uint32Array(4 * Math.max(16, rows));
  let cells = new Uint16Array(3 * 64);
  let count = 0;
  let mixedCells = 0;
  const grow = <T extends Uint32Array | Uint16Array>(a: T, need: number): T => {
    if (need <= a.length) return a;
    const grown = new (a.constructor as new (n: number) => T)(Math.max(need, 2 * a.length));
    grown.set(a);
    return grown;
  };
  for (let r = 0; r < rows; r++) {
    rowStart[r] = count;
    const i = Math.floor(r / py) - 1;
    const j = (r % py) - 1;
    if (i < iLo || i > iHi || j < jLo || j > jHi || kF1 <= kF0) continue;
    const base = (i + 1) * sx + (j + 1) * sy + 1;
    const same = (k: number) => {
      const p = base + k;
      return ix[p] === ix[p - 1] && iy[p] === iy[p - 1] && iz[p] === iz[p - 1];
    };
    for (const piece of rowPieces(kF0, kF1, same, shortestUniform)) {
      pieces = grow(pieces, 4 * (count + 1));
      const w = 4 * count++;
      const at = base + piece.k0;
      if (!piece.mixed) {
        pieces[w] = piece.k0;
        pieces[w + 1] = 4 * ix[at];
        pieces[w + 2] = 4 * iy[at];
        pieces[w + 3] = 4 * iz[at];
        continue;
      }
      const n = piece.k1 - piece.k0;
      cells = grow(cells, 3 * (mixedCells + n));
      pieces[w] = (piece.k0 | MIXED_PIECE) >>> 0;
      for (let c = 0; c < 3; c++) {
        const from = 3 * mixedCells + c * n;
        pieces[w + 1 + c] = 2 * from;
        cells.set(index[c].subarray(at, at + n), from);
      }
      mixedCells += n;
    }
  }
  rowStart[rows] = count;
  return {
    rowStart,
    pieces: pieces.slice(0, 4 * count),
    cells: cells.slice(0, 3 * mixedCells),
    mixedCells,
  };
}
