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
