/**
 * Symbolic analysis for the multifrontal LU (lu.ts): from a symmetric sparsity pattern and a
 * fill-reducing ordering, the elimination tree, its postorder, the structure of every column
 * of the factor and the supernodes (runs of columns factored together as one dense front).
 *
 * The LU pivots within supernodes only (lu.ts), so L and Uᵀ have the pattern of the Cholesky
 * factor of the symmetrised pattern, and all of this is the Cholesky symbolic analysis:
 * the elimination tree by Liu's algorithm with path compression (Liu, SIAM J. Matrix Anal.
 * Appl. 11, 134 (1990)), column structures as the union of the children's (struct(j) =
 * adj⁺(j) ∪ ⋃ struct(c) \ {j}), fundamental supernodes (a column joins its predecessor when it
 * is that column's parent and their structures nest exactly), then relaxed amalgamation
 * (Ashcraft & Grimes 1989): a small child supernode that ends just before its parent is
 * merged into it when that adds few explicit zeros, since many tiny fronts cost more in loop
 * overhead than the zeros do in arithmetic.
 */
import type { Pattern } from "./ordering.js";

export interface Symbolic {
  n: number;
  /** perm[k]: the original unknown that is k-th in the factor's order. */
  perm: Int32Array;
  /** iperm[perm[k]] = k. */
  iperm: Int32Array;
  /** Supernode s holds columns snStart[s] … snStart[s + 1] − 1. */
  snStart: Int32Array;
  /** Rows of supernode s below its columns: snRows[snRowPtr[s] … snRowPtr[s + 1] − 1], sorted. */
  snRowPtr: Int32Array;
  snRows: Int32Array;
  /** The supernode its update goes to, −1 for a root. */
  snParent: Int32Array;
  /** Number of children of each supernode (their updates sit on top of the stack). */
  snChildren: Int32Array;
  /** Complex entries the factor stores (L and U, explicit zeros of amalgamation included). */
  factorEntries: number;
  /** The largest front (columns + rows) of any supernode. */
  maxFront: number;
}

/** Elimination tree of the pattern ordered by perm: parent[j], −1 for roots. */
function eliminationTree(pattern: Pattern, perm: Int32Array, iperm: Int32Array): Int32Array {
  const n = perm.length;
  const parent = new Int32Array(n).fill(-1);
  const ancestor = new Int32Array(n).fill(-1);
  for (let j = 0; j < n; j++) {
    const v = perm[j];
    for (let k = pattern.rowPtr[v]; k < pattern.rowPtr[v + 1]; k++) {
      let r = iperm[pattern.colIdx[k]];
      if (r >= j) continue;
      while (ancestor[r] !== -1 && ancestor[r] !== j) {
        const next = ancestor[r];
        ancestor[r] = j;
        r = next;
      }
      if (ancestor[r] === -1) {
        ancestor[r] = j;
        parent[r] = j;
      }
    }
  }
  return parent;
}

/** A postorder of a forest: post[k] is the k-th node visited (children before parents). */
function postorder(parent: Int32Array): Int32Array {
  const n = parent.length;
  const head = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  // Children pushed in reverse so that they are visited in increasing order.
  for (let j = n - 1; j >= 0; j--) {
    if (parent[j] === -1) continue;
    next[j] = head[parent[j]];
    head[parent[j]] = j;
  }
  const post = new Int32Array(n);
  const stack = new Int32Array(n);
  let k = 0;
  for (let root = 0; root < n; root++) {
    if (parent[root] !== -1) continue;
    let top = 0;
    stack[0] = root;
    while (top >= 0) {
      const p = stack[top];
      const c = head[p];
      if (c === -1) {
        top--;
        post[k++] = p;
      } else {
        head[p] = next[c];
        stack[++top] = c;
      }
    }
  }
  return post;
}

/**
 * Column structures below the diagonal (postordered labels): CSR-like ptr and rows, unsorted
 * (only the supernodes' structures are sorted, in supernodeTree: sorting all n columns was a
 * quarter of the analysis).
 */
function columnStructures(
  pattern: Pattern,
  perm: Int32Array,
  iperm: Int32Array,
  parent: Int32Array,
): { ptr: Int32Array; rows: Int32Array } {
  const n = perm.length;
  const head = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  for (let j = 0; j < n; j++) {
    if (parent[j] === -1) continue;
    next[j] = head[parent[j]];
    head[parent[j]] = j;
  }
  const mark = new Int32Array(n).fill(-1);
  const ptr = new Int32Array(n + 1);
  let pool = new Int32Array(Math.max(16, pattern.colIdx.length * 4));
  let used = 0;
  for (let j = 0; j < n; j++) {
    mark[j] = j;
    // At most: j's own entries and every child's structure.
    let bound = used + pattern.rowPtr[perm[j] + 1] - pattern.rowPtr[perm[j]];
    for (let c = head[j]; c !== -1; c = next[c]) bound += ptr[c + 1] - ptr[c];
    if (bound > pool.length) {
      const bigger = new Int32Array(Math.max(bound, pool.length * 2));
      bigger.set(pool.subarray(0, used));
      pool = bigger;
    }
    const v = perm[j];
    for (let k = pattern.rowPtr[v]; k < pattern.rowPtr[v + 1]; k++) {
      const i = iperm[pattern.colIdx[k]];
      if (i > j && mark[i] !== j) {
        mark[i] = j;
        pool[used++] = i;
      }
    }
    for (let c = head[j]; c !== -1; c = next[c]) {
      for (let k = ptr[c]; k < ptr[c + 1]; k++) {
        const i = pool[k];
        if (mark[i] !== j) {
          mark[i] = j;
          pool[used++] = i;
        }
      }
    }
    ptr[j + 1] = used;
  }
  return { ptr, rows: pool.slice(0, used) };
}

/**
 * The symbolic factorisation of a symmetric pattern under the ordering `ordering`
 * (ordering[k]: the unknown eliminated k-th), postordered and split into supernodes.
 */
export function analyse(pattern: Pattern, ordering: Int32Array): Symbolic {
  const n = ordering.length;
  const iperm0 = inverse(ordering);
  const parent0 = eliminationTree(pattern, ordering, iperm0);
  const post = postorder(parent0);
  const ipost = inverse(post);
  const perm = new Int32Array(n);
  const parent = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    perm[k] = ordering[post[k]];
    const p = parent0[post[k]];
    parent[k] = p === -1 ? -1 : ipost[p];
  }
  const iperm = inverse(perm);
  const cols = columnStructures(pattern, perm, iperm, parent);
  const starts = amalgamate(cols, parent, fundamentalSupernodes(cols.ptr, parent));
  return supernodeTree(n, perm, iperm, parent, cols, starts);
}

function inverse(p: Int32Array): Int32Array {
  const q = new Int32Array(p.length);
  for (let k = 0; k < p.length; k++) q[p[k]] = k;
  return q;
}

/** First columns of the fundamental supernodes, ending with n. */
function fundamentalSupernodes(ptr: Int32Array, parent: Int32Array): number[] {
  const n = parent.length;
  const starts = [0];
  for (let j = 1; j < n; j++) {
    const count = (c: number) => ptr[c + 1] - ptr[c];
    const joins = parent[j - 1] === j && count(j - 1) === count(j) + 1;
    if (!joins) starts.push(j);
  }
  starts.push(n);
  return starts;
}

/**
 * Merges each supernode into the next one when that one is its parent (it then ends right
 * before it, as postorder makes the last child do) and the merged front wastes little: at most
 * `MAX_MERGED_COLUMNS` columns, and explicit zeros at most a third of the merged columns'
 * entries. Merging never changes the rows below the merged supernode: a child's rows lie
 * within its parent's columns and rows.
 */
function amalgamate(
  cols: { ptr: Int32Array; rows: Int32Array },
  parent: Int32Array,
  starts: number[],
): number[] {
  const count = (c: number) => cols.ptr[c + 1] - cols.ptr[c];
  const out = [starts[0]];
  let curStart = starts[0];
  for (let s = 1; s + 1 < starts.length; s++) {
    const a = curStart;
    const b = starts[s] - 1;
    const c = starts[s + 1] - 1;
    const parentInNext = parent[b] >= b + 1 && parent[b] <= c;
    if (parentInNext && c - a + 1 <= MAX_MERGED_COLUMNS) {
      const below = count(c);
      let zeros = 0;
      let total = 0;
      for (let k = a; k <= b; k++) {
        const stored = c - k + below;
        zeros += stored - count(k);
        total += stored;
      }
      if (zeros * 3 <= total) continue;
    }
    out.push(starts[s]);
    curStart = starts[s];
  }
  out.push(starts[starts.length - 1]);
  return out;
}

const MAX_MERGED_COLUMNS = 48;

function supernodeTree(
  n: number,
  perm: Int32Array,
  iperm: Int32Array,
  parent: Int32Array,
  cols: { ptr: Int32Array; rows: Int32Array },
  starts: number[],
): Symbolic {
  const ns = starts.length - 1;
  const snStart = Int32Array.from(starts);
  const snOf = new Int32Array(n);
  for (let s = 0; s < ns; s++) snOf.fill(s, snStart[s], snStart[s + 1]);
  const snRowPtr = new Int32Array(ns + 1);
  for (let s = 0; s < ns; s++) {
    const last = snStart[s + 1] - 1;
    snRowPtr[s + 1] = snRowPtr[s] + cols.ptr[last + 1] - cols.ptr[last];
  }
  const snRows = new Int32Array(snRowPtr[ns]);
  const snParent = new Int32Array(ns).fill(-1);
  const snChildren = new Int32Array(ns);
  let factorEntries = 0;
  let maxFront = 0;
  for (let s = 0; s < ns; s++) {
    const last = snStart[s + 1] - 1;
    snRows.set(cols.rows.subarray(cols.ptr[last], cols.ptr[last + 1]), snRowPtr[s]);
    snRows.subarray(snRowPtr[s], snRowPtr[s + 1]).sort();
    if (parent[last] !== -1) {
      snParent[s] = snOf[parent[last]];
      snChildren[snParent[s]]++;
    }
    const p = snStart[s + 1] - snStart[s];
    const q = snRowPtr[s + 1] - snRowPtr[s];
    factorEntries += p * (p + q) + q * p;
    maxFront = Math.max(maxFront, p + q);
  }
  return {
    n,
    perm,
    iperm,
    snStart,
    snRowPtr,
    snRows,
    snParent,
    snChildren,
    factorEntries,
    maxFront,
  };
}
