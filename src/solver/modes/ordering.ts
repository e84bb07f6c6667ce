/**
 * Fill-reducing orderings for the sparse LU (lu.ts).
 *
 * The mode operator lives on a structured 2-D grid, so the ordering is geometric nested
 * dissection (George, SIAM J. Numer. Anal. 10, 345 (1973)): cut the unknowns at the median
 * coordinate of the longer side, take the unknowns along the cut that touch the other side
 * as a separator, order both halves recursively, then the separator last. On an n × n grid
 * this gives O(n² log n) fill and O(n³) work, against O(n³) fill and O(n⁴) work for a band
 * ordering; a general minimum-degree code (AMD) reaches about the same fill on grids but
 * needs a quotient graph, while the coordinates here make the separators for free. The
 * separator of each cut is the smaller of the two one-sided boundaries, which on the Yee
 * grid is one line of each field component.
 */

/** A square sparsity pattern (CSR without values), symmetric. */
export interface Pattern {
  rowPtr: Int32Array;
  colIdx: Int32Array;
}

/** The identity ordering of n unknowns (for small or dense problems). */
export function naturalOrdering(n: number): Int32Array {
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  return p;
}

/**
 * A nested-dissection ordering of the unknowns of a symmetric pattern whose unknown i sits at
 * (x[i], y[i]) (any units): perm[k] is the unknown eliminated k-th. Parts of at most
 * `leafSize` unknowns are kept in their given order.
 */
export function nestedDissection(
  pattern: Pattern,
  x: Float64Array,
  y: Float64Array,
  leafSize = 48,
): Int32Array {
  const n = x.length;
  const state: DissectState = {
    pattern,
    coords: [x, y],
    tag: new Int32Array(n).fill(-1),
    nextTag: 0,
    perm: new Int32Array(n),
    filled: 0,
    leafSize,
  };
  dissect(state, naturalOrdering(n));
  return state.perm;
}

interface DissectState {
  pattern: Pattern;
  coords: [Float64Array, Float64Array];
  /** tag[v]: the side v was put on by the cut being processed, or its separator mark. */
  tag: Int32Array;
  nextTag: number;
  perm: Int32Array;
  filled: number;
  leafSize: number;
}

function appendAll(state: DissectState, set: Int32Array): void {
  state.perm.set(set, state.filled);
  state.filled += set.length;
}

/** Orders `set`: its two halves recursively, then their separator. */
function dissect(state: DissectState, set: Int32Array): void {
  if (set.length <= state.leafSize) {
    appendAll(state, set);
    return;
  }
  const cut = splitSet(state, set);
  if (cut === null) {
    appendAll(state, set);
    return;
  }
  const sep = separatorOf(state, cut.left, cut.right);
  // The separator's vertices leave their side: marked with a tag of their own.
  const sepTag = state.nextTag++;
  for (const v of sep.vertices) state.tag[v] = sepTag;
  const keep = (part: Int32Array) => only(part, (v) => state.tag[v] !== sepTag);
  const left = sep.onLeft ? keep(cut.left) : cut.left;
  const right = sep.onLeft ? cut.right : keep(cut.right);
  dissect(state, left);
  dissect(state, right);
  appendAll(state, sep.vertices);
}

/** The members of `set` that pass `test`, in order (a typed-array filter without growth). */
function only(set: Int32Array, test: (v: number) => boolean): Int32Array {
  const out = new Int32Array(set.length);
  let n = 0;
  for (let k = 0; k < set.length; k++) if (test(set[k])) out[n++] = set[k];
  return out.slice(0, n);
}

/** Splits `set` at the median coordinate of its longer extent; null when it cannot. */
function splitSet(
  state: DissectState,
  set: Int32Array,
): { left: Int32Array; right: Int32Array } | null {
  const extent = (c: Float64Array) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < set.length; k++) {
      const x = c[set[k]];
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    return hi - lo;
  };
  const ex = extent(state.coords[0]);
  const ey = extent(state.coords[1]);
  const axes = ex >= ey ? [0, 1] : [1, 0];
  for (const a of axes) {
    const c = state.coords[a];
    const keys = new Float64Array(set.length);
    for (let k = 0; k < set.length; k++) keys[k] = c[set[k]];
    const t = select(keys, set.length >> 1);
    // Below the median goes left; when nothing is below it, the median line goes left too.
    let lowest = t;
    for (let k = 0; k < keys.length; k++) lowest = Math.min(lowest, keys[k]);
    const strict = lowest < t;
    const isLeft = (v: number) => (strict ? c[v] < t : c[v] <= t);
    const left = only(set, isLeft);
    if (left.length === 0 || left.length === set.length) continue;
    return { left, right: only(set, (v) => !isLeft(v)) };
  }
  return null;
}

/** The smaller of: the left vertices with a right neighbour, the right ones with a left one. */
function separatorOf(
  state: DissectState,
  left: Int32Array,
  right: Int32Array,
): { vertices: Int32Array; onLeft: boolean } {
  const { rowPtr, colIdx } = state.pattern;
  const tag = state.tag;
  const tl = state.nextTag;
  const tr = tl + 1;
  state.nextTag += 2;
  for (const v of left) tag[v] = tl;
  for (const v of right) tag[v] = tr;
  const touching = (part: Int32Array, other: number) =>
    part.filter((v) => {
      for (let k = rowPtr[v]; k < rowPtr[v + 1]; k++) if (tag[colIdx[k]] === other) return true;
      return false;
    });
  const sl = touching(left, tr);
  const sr = touching(right, tl);
  return sl.length < sr.length ? { vertices: sl, onLeft: true } : { vertices: sr, onLeft: false };
}

/**
 * The value that would sit at index `rank` if `keys` were sorted (Hoare's quickselect with a
 * middle pivot; it reorders `keys`). Linear time where sorting every part at every level of
 * the dissection was a third of the ordering's time.
 */
function select(keys: Float64Array, rank: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo < hi) {
    const pivot = keys[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (keys[i] < pivot) i++;
      while (keys[j] > pivot) j--;
      if (i <= j) {
        const t = keys[i];
        keys[i] = keys[j];
        keys[j] = t;
        i++;
        j--;
      }
    }
    if (rank <= j) hi = j;
    else if (rank >= i) lo = i;
    else return keys[rank];
  }
  return keys[rank];
}
