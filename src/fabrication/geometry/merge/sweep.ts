/**
 * Winding numbers by a sweep line over the canonical edges (merge.ts, points 2 and 3): which
 * edges lie on the union's boundary, directed with the interior on their right, and which
 * boundary edges belong to one merged polygon.
 */

import type { CanonicalEdges } from "./canonical-edges.js";
import { union } from "./union-find.js";
import { orient } from "../predicates.js";
import { sortIndicesByKeys } from "../sort.js";

/** What the sweep finds out about each edge. */
export interface Sweep {
  /** Winding number just left (west) of each non-horizontal edge. */
  windLeft: Int32Array;
  /** 1 for a non-horizontal edge with interior on exactly one side. */
  boundary: Uint8Array;
  /** Winding number just below and just above each horizontal edge. */
  hBelow: Int32Array;
  hAbove: Int32Array;
  /** Union–find over non-horizontal edges (0 … n−1) and horizontal ones (n … n+h−1). */
  parent: Int32Array;
}

/** Sweeps a line upwards over the edges, one y at a time (see {@link WindingSweep}). */
export function sweepWinding(e: CanonicalEdges): Sweep {
  const sweep = new WindingSweep(e);
  sweep.run();
  const { windLeft, boundary, hBelow, hAbove, parent } = sweep;
  return { windLeft, boundary, hBelow, hAbove, parent };
}

/**
 * The sweep's state: the active edges (those the line crosses) from left to right. The
 * rounded edges never cross and no vertex lies inside another edge, so the order of active
 * edges never changes while they stay in the set.
 */
class WindingSweep implements Sweep {
  readonly windLeft: Int32Array;
  readonly boundary: Uint8Array;
  readonly hBelow: Int32Array;
  readonly hAbove: Int32Array;
  readonly parent: Int32Array;
  private readonly active: Int32Array;
  private activeCount = 0;
  /** Boundary edges inserted on the current line. */
  private readonly inserted: number[] = [];

  constructor(private readonly e: CanonicalEdges) {
    this.windLeft = new Int32Array(e.n);
    this.boundary = new Uint8Array(e.n);
    this.hBelow = new Int32Array(e.h);
    this.hAbove = new Int32Array(e.h);
    this.parent = new Int32Array(e.n + e.h);
    for (let i = 0; i < this.parent.length; i += 1) this.parent[i] = i;
    this.active = new Int32Array(Math.max(1, e.n));
  }

  run(): void {
    const e = this.e;
    const n = e.n;
    const endOrder = sortIndicesByKeys(n, e.uy, e.ux);
    let ps = 0;
    let pe = 0;
    let ph = 0;
    while (ps < n || pe < n || ph < e.h) {
      let y = Infinity;
      if (ps < n) y = e.ly[ps]!;
      if (pe < n) y = Math.min(y, e.uy[endOrder[pe]!]!);
      if (ph < e.h) y = Math.min(y, e.hy[ph]!);
      let hEnd = ph;
      while (hEnd < e.h && e.hy[hEnd] === y) hEnd += 1;
      // Horizontal edges on this line: coverage just below (edges ending here still listed).
      this.coverHorizontal(ph, hEnd, y, this.hBelow);
      pe = this.removeEndingOn(y, endOrder, pe);
      ps = this.insertStartingOn(y, ps);
      this.joinInserted();
      // Horizontal edges: coverage just above.
      this.coverHorizontal(ph, hEnd, y, this.hAbove);
      ph = hEnd;
    }
  }

  /** Winding numbers at the middles of horizontal edges h0 … h1 − 1 (on line y), into `out`. */
  private coverHorizontal(h0: number, h1: number, y: number, out: Int32Array): void {
    const e = this.e;
    for (let h = h0; h < h1; h += 1) {
      out[h] = this.covered(this.firstRightOf((e.hlx[h]! + e.hux[h]!) / 2, y));
    }
  }

  /** Removes the edges ending on line y, one end point at a time; returns the new `pe`. */
  private removeEndingOn(y: number, endOrder: Uint32Array, pe: number): number {
    const { ux, uy } = this.e;
    const n = this.e.n;
    while (pe < n && uy[endOrder[pe]!] === y) {
      const qx = ux[endOrder[pe]!]!;
      let count = 0;
      while (pe < n && uy[endOrder[pe]!] === y && ux[endOrder[pe]!] === qx) {
        count += 1;
        pe += 1;
      }
      // The edges ending at q are the block on whose line q lies.
      let lo = 0;
      let hi = this.activeCount;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.pointLeftOf(this.active[mid]!, qx, y) >= 0) hi = mid;
        else lo = mid + 1;
      }
      this.active.copyWithin(lo, lo + count, this.activeCount);
      this.activeCount -= count;
    }
    return pe;
  }

  /**
   * Inserts the edges starting on line y, left to right, each with the winding number on its
   * left; notes those on the boundary. Returns the new `ps`.
   */
  private insertStartingOn(y: number, ps: number): number {
    const { ly, n } = this.e;
    this.inserted.length = 0;
    while (ps < n && ly[ps] === y) {
      const s = ps;
      const idx = this.insertionIndex(s);
      this.windLeft[s] = this.covered(idx);
      this.active.copyWithin(idx + 1, idx, this.activeCount);
      this.active[idx] = s;
      this.activeCount += 1;
      const wl = this.windLeft[s]! > 0;
      const wr = this.windRight(s) > 0;
      if (wl !== wr) {
        this.boundary[s] = 1;
        this.inserted.push(s);
      }
      ps += 1;
    }
    return ps;
  }

  /** Joins each new boundary edge to the nearest boundary edge across its interior side. */
  private joinInserted(): void {
    const { active, boundary, parent } = this;
    for (const s of this.inserted) {
      const idx = this.insertionIndex(s) - 1;
      if (this.windLeft[s]! > 0) {
        for (let j = idx - 1; j >= 0; j -= 1) {
          if (boundary[active[j]!]) {
            union(parent, s, active[j]!);
            break;
          }
        }
      } else {
        for (let j = idx + 1; j < this.activeCount; j += 1) {
          if (boundary[active[j]!]) {
            union(parent, s, active[j]!);
            break;
          }
        }
      }
    }
  }

  /** Is point (px, py) strictly left of active edge a (it never lies on one, see above)? */
  private pointLeftOf(a: number, px: number, py: number): number {
    const { lx, ly, ux, uy } = this.e;
    return orient(lx[a]!, ly[a]!, ux[a]!, uy[a]!, px, py);
  }

  /** First active index whose edge has the point (px, py) strictly to its left. */
  private firstRightOf(px: number, py: number): number {
    let lo = 0;
    let hi = this.activeCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.pointLeftOf(this.active[mid]!, px, py) > 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** First active index whose edge lies right of edge s (s not in the list, or just after it). */
  private insertionIndex(s: number): number {
    const { lx, ly, ux, uy } = this.e;
    const px = lx[s]!;
    const py = ly[s]!;
    let lo = 0;
    let hi = this.activeCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const a = this.active[mid]!;
      let o = this.pointLeftOf(a, px, py);
      // Same lower end (only edges starting on this line can share it): compare directions.
      if (o === 0) o = orient(px, py, ux[a]!, uy[a]!, ux[s]!, uy[s]!);
      if (o > 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private windRight(a: number): number {
    return this.windLeft[a]! + this.e.delta[a]!;
  }

  /** Winding number just left of active index `index` (right of the edge before it). */
  private covered(index: number): number {
    return index > 0 ? this.windRight(this.active[index - 1]!) : 0;
  }
}

/** The union's boundary as directed edges s → t, with the union–find node of each. */
export interface BoundaryEdges {
  sx: Int32Array;
  sy: Int32Array;
  tx: Int32Array;
  ty: Int32Array;
  node: Int32Array;
}

/** The boundary edges, directed with the interior on the right. */
export function boundaryEdges(e: CanonicalEdges, sweep: Sweep): BoundaryEdges {
  const n = e.n;
  const { windLeft, boundary, hBelow, hAbove } = sweep;
  const onBoundary = (h: number): boolean => hBelow[h]! > 0 !== hAbove[h]! > 0;
  let edgeCount = 0;
  for (let i = 0; i < n; i += 1) edgeCount += boundary[i]!;
  for (let h = 0; h < e.h; h += 1) if (onBoundary(h)) edgeCount += 1;
  const sx = new Int32Array(edgeCount);
  const sy = new Int32Array(edgeCount);
  const tx = new Int32Array(edgeCount);
  const ty = new Int32Array(edgeCount);
  const node = new Int32Array(edgeCount);
  let m = 0;
  for (let i = 0; i < n; i += 1) {
    if (!boundary[i]) continue;
    // Interior east (right of an upward edge): run upwards; interior west: run downwards.
    const upward = windLeft[i]! + e.delta[i]! > 0;
    sx[m] = upward ? e.lx[i]! : e.ux[i]!;
    sy[m] = upward ? e.ly[i]! : e.uy[i]!;
    tx[m] = upward ? e.ux[i]! : e.lx[i]!;
    ty[m] = upward ? e.uy[i]! : e.ly[i]!;
    node[m] = i;
    m += 1;
  }
  for (let h = 0; h < e.h; h += 1) {
    if (!onBoundary(h)) continue;
    // Interior below: run east (right of east is south); interior above: run west.
    const below = hBelow[h]! > 0;
    sx[m] = below ? e.hlx[h]! : e.hux[h]!;
    tx[m] = below ? e.hux[h]! : e.hlx[h]!;
    sy[m] = e.hy[h]!;
    ty[m] = e.hy[h]!;
    node[m] = n + h;
    m += 1;
  }
  return { sx, sy, tx, ty, node };
}
