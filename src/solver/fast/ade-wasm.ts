/**
 * The ADE pass of dispersive cells (dispersion/ade.ts) in the fast kernel's memory and code:
 * the same update as ade.ts's AdeState, which the reference backend runs in JavaScript, here
 * as a WebAssembly function of the kernel module over one x-plane's cells of one component,
 * with the cells' tables and state in the kernel's shared memory (about four times faster than
 * the JavaScript pass, docs/benchmarks.md).
 *
 * Layout (byte offsets from the region's start, 8-byte aligned):
 *   per component c: cells (i32: byte offset of the cell in the component's array),
 *     entry (i32), slot (i32: the cell's first pole slot in the component's state);
 *   poleStart (i32 per entry + 1), correction (f64 per entry), cP, cJ, cE (f64 per slot);
 *   per field set, per component: h, e1, e2 (f64 per cell), P, J (f32 per state slot).
 * All state starts at zero, as the memory does.
 */
import type { AdeTerms } from "../dispersion/ade.js";

export interface AdeMemoryPlan {
  bytes: number;
  cells: number[];
  entry: number[];
  slot: number[];
  poleStart: number;
  correction: number;
  cP: number;
  cJ: number;
  cE: number;
  /** [set][component] */
  h: number[][];
  e1: number[][];
  e2: number[][];
  p: number[][];
  j: number[][];
}

/** Pole slots each component's cells hold in all (the state's length). */
function stateSlots(terms: AdeTerms, c: number): number {
  let slots = 0;
  for (const m of terms.entry[c]) slots += terms.poleStart[m + 1] - terms.poleStart[m];
  return slots;
}

/** Where the ADE tables and state go, relative to the region's start. */
export function planAdeMemory(terms: AdeTerms, sets: number): AdeMemoryPlan {
  let offset = 0;
  const take = (bytes: number) => {
    const at = offset;
    offset += Math.ceil(bytes / 8) * 8;
    return at;
  };
  const counts = [0, 1, 2].map((c) => terms.cells[c].length);
  const cells = counts.map((n) => take(4 * n));
  const entry = counts.map((n) => take(4 * n));
  const slot = counts.map((n) => take(4 * n));
  const entries = terms.correction.length;
  const slotsAll = terms.cP.length;
  const poleStart = take(4 * (entries + 1));
  const correction = take(8 * entries);
  const cP = take(8 * slotsAll);
  const cJ = take(8 * slotsAll);
  const cE = take(8 * slotsAll);
  const perSet = (size: (c: number) => number) =>
    Array.from({ length: sets }, () => [0, 1, 2].map((c) => take(8 * size(c))));
  const h = perSet((c) => counts[c]);
  const e1 = perSet((c) => counts[c]);
  const e2 = perSet((c) => counts[c]);
  // P and J in float32: the pass is bound by moving them (two per pole and cell, read and
  // written every step), and in this form neither is a difference of larger numbers.
  const perSet4 = (size: (c: number) => number) =>
    Array.from({ length: sets }, () => [0, 1, 2].map((c) => take(4 * size(c))));
  const p = perSet4((c) => stateSlots(terms, c));
  const j = perSet4((c) => stateSlots(terms, c));
  return { bytes: offset, cells, entry, slot, poleStart, correction, cP, cJ, cE, h, e1, e2, p, j };
}

/** The tables into the region at byte address `base` (the state stays zero). */
export function writeAdeTables(
  buffer: ArrayBufferLike,
  base: number,
  plan: AdeMemoryPlan,
  terms: AdeTerms,
): void {
  for (let c = 0; c < 3; c++) {
    const n = terms.cells[c].length;
    const cells = new Int32Array(buffer, base + plan.cells[c], n);
    const entry = new Int32Array(buffer, base + plan.entry[c], n);
    const slot = new Int32Array(buffer, base + plan.slot[c], n);
    let s = 0;
    for (let q = 0; q < n; q++) {
      cells[q] = 4 * terms.cells[c][q];
      const m = terms.entry[c][q];
      entry[q] = m;
      slot[q] = s;
      s += terms.poleStart[m + 1] - terms.poleStart[m];
    }
  }
  new Int32Array(buffer, base + plan.poleStart, terms.poleStart.length).set(terms.poleStart);
  new Float64Array(buffer, base + plan.correction, terms.correction.length).set(terms.correction);
  new Float64Array(buffer, base + plan.cP, terms.cP.length).set(terms.cP);
  new Float64Array(buffer, base + plan.cJ, terms.cJ.length).set(terms.cJ);
  new Float64Array(buffer, base + plan.cE, terms.cE.length).set(terms.cE);
}

/**
 * The WAT of `ade(q0, q1, field, cells, entry, slot, h, e1, e2, p, j)`: the pass over cells
 * [q0, q1) of one component, whose array (of the field set being stepped) starts at byte
 * `field`; the other arguments are absolute byte addresses of that component's tables and
 * state. `tables` holds the absolute addresses of poleStart, correction, cP, cJ and cE;
 * stored E values below `flushBelow` in magnitude become zero, as in the kernel.
 */
export function adeWat(
  tables: { poleStart: number; correction: number; cP: number; cJ: number; cE: number },
  flushBelow: string,
): string {
  const at = (base: number, index: string, shift: number) =>
    `(i32.add (i32.const ${base}) (i32.shl ${index} (i32.const ${shift})))`;
  const cell8 = (name: string) => `(i32.add (local.get $${name}) (local.get $o8))`;
  return `
  (func (export "ade") (param $q0 i32) (param $q1 i32) (param $field i32) (param $cells i32)
      (param $entry i32) (param $slot i32) (param $h i32) (param $e1 i32) (param $e2 i32)
      (param $p i32) (param $j i32)
    (local $q i32) (local $addr i32) (local $m i32) (local $o8 i32) (local $k i32)
    (local $kEnd i32) (local $s i32) (local $value f64) (local $prev f64) (local $drive f64)
    (local $hist f64) (local $kappa f64) (local $kp f64) (local $kj f64) (local $ke f64)
    (local $next f64) (local $pNext f64) (local $stored f32)
    (local $vp v128) (local $vj v128) (local $ve v128) (local $sp v128) (local $sj v128)
    (local $vnext v128) (local $vpNext v128) (local $vhist v128) (local $vkappa v128)
    (local $vdrive v128)
    (local.set $q (local.get $q0))
    (block $done
      (loop $cell
        (br_if $done (i32.ge_u (local.get $q) (local.get $q1)))
        (local.set $addr (i32.add (local.get $field)
          (i32.load (i32.add (local.get $cells) (i32.shl (local.get $q) (i32.const 2))))))
        (local.set $m (i32.load (i32.add (local.get $entry) (i32.shl (local.get $q) (i32.const 2)))))
        (local.set $o8 (i32.shl (local.get $q) (i32.const 3)))
        ;; E^{n+1} = bulk − ε0·cb/Δt·Σh^n
        (local.set $value (f64.sub (f64.promote_f32 (f32.load (local.get $addr)))
          (f64.mul (f64.load ${at(tables.correction, "(local.get $m)", 3)})
                   (f64.load ${cell8("h")}))))
        (local.set $stored (f32.demote_f64 (local.get $value)))
        (f32.store (local.get $addr)
          (select (f32.const 0) (local.get $stored)
            (f32.lt (f32.abs (local.get $stored)) (f32.const ${flushBelow}))))
        (local.set $prev (f64.load ${cell8("e1")}))
        (local.set $drive (f64.add (f64.add (local.get $value)
          (f64.add (local.get $prev) (local.get $prev))) (f64.load ${cell8("e2")})))
        (local.set $hist (f64.const 0))
        (local.set $kappa (f64.const 0))
        (local.set $s (i32.load (i32.add (local.get $slot) (i32.shl (local.get $q) (i32.const 2)))))
        (local.set $k (i32.load ${at(tables.poleStart, "(local.get $m)", 2)}))
        (local.set $kEnd (i32.load ${at(tables.poleStart, "(i32.add (local.get $m) (i32.const 1))", 2)}))
        ;; Two poles at a time (f64x2), then the odd one.
        (local.set $vhist (v128.const i64x2 0 0))
        (local.set $vkappa (v128.const i64x2 0 0))
        (local.set $vdrive (f64x2.splat (local.get $drive)))
        (block $pairs
          (loop $pair
            (br_if $pairs (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $kEnd)))
            (local.set $vp (v128.load ${at(tables.cP, "(local.get $k)", 3)}))
            (local.set $vj (v128.load ${at(tables.cJ, "(local.get $k)", 3)}))
            (local.set $ve (v128.load ${at(tables.cE, "(local.get $k)", 3)}))
            (local.set $sp (f64x2.promote_low_f32x4
              (v128.load64_zero (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 2))))))
            (local.set $sj (f64x2.promote_low_f32x4
              (v128.load64_zero (i32.add (local.get $j) (i32.shl (local.get $s) (i32.const 2))))))
            (local.set $vnext (f64x2.add (f64x2.add
              (f64x2.mul (local.get $vp) (local.get $sp))
              (f64x2.mul (local.get $vj) (local.get $sj)))
              (f64x2.mul (local.get $ve) (local.get $vdrive))))
            (local.set $vpNext (f64x2.add (local.get $sp) (local.get $vnext)))
            (v128.store64_lane 0 (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 2)))
              (f32x4.demote_f64x2_zero (local.get $vpNext)))
            (v128.store64_lane 0 (i32.add (local.get $j) (i32.shl (local.get $s) (i32.const 2)))
              (f32x4.demote_f64x2_zero (local.get $vnext)))
            (local.set $vhist (f64x2.add (local.get $vhist) (f64x2.add
              (f64x2.mul (local.get $vp) (local.get $vpNext))
              (f64x2.mul (local.get $vj) (local.get $vnext)))))
            (local.set $vkappa (f64x2.add (local.get $vkappa) (local.get $ve)))
            (local.set $k (i32.add (local.get $k) (i32.const 2)))
            (local.set $s (i32.add (local.get $s) (i32.const 2)))
            (br $pair)))
        (local.set $hist (f64.add (f64x2.extract_lane 0 (local.get $vhist))
          (f64x2.extract_lane 1 (local.get $vhist))))
        (local.set $kappa (f64.add (f64x2.extract_lane 0 (local.get $vkappa))
          (f64x2.extract_lane 1 (local.get $vkappa))))
        (block $poles
          (loop $pole
            (br_if $poles (i32.ge_u (local.get $k) (local.get $kEnd)))
            (local.set $kp (f64.load ${at(tables.cP, "(local.get $k)", 3)}))
            (local.set $kj (f64.load ${at(tables.cJ, "(local.get $k)", 3)}))
            (local.set $ke (f64.load ${at(tables.cE, "(local.get $k)", 3)}))
            (local.set $next (f64.add (f64.add
              (f64.mul (local.get $kp) (f64.promote_f32 (f32.load (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 2))))))
              (f64.mul (local.get $kj) (f64.promote_f32 (f32.load (i32.add (local.get $j) (i32.shl (local.get $s) (i32.const 2)))))))
              (f64.mul (local.get $ke) (local.get $drive))))
            (local.set $pNext (f64.add
              (f64.promote_f32 (f32.load (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 2)))))
              (local.get $next)))
            (f32.store (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 2)))
              (f32.demote_f64 (local.get $pNext)))
            (f32.store (i32.add (local.get $j) (i32.shl (local.get $s) (i32.const 2)))
              (f32.demote_f64 (local.get $next)))
            (local.set $hist (f64.add (local.get $hist) (f64.add
              (f64.mul (local.get $kp) (local.get $pNext)) (f64.mul (local.get $kj) (local.get $next)))))
            (local.set $kappa (f64.add (local.get $kappa) (local.get $ke)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (local.set $s (i32.add (local.get $s) (i32.const 1)))
            (br $pole)))
        (f64.store ${cell8("h")} (f64.add (local.get $hist) (f64.mul (local.get $kappa)
          (f64.add (f64.add (local.get $value) (local.get $value)) (local.get $prev)))))
        (f64.store ${cell8("e2")} (local.get $prev))
        (f64.store ${cell8("e1")} (local.get $value))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $cell)))
  )`;
}

/** What a kernel thread needs to run the pass (structured-clonable). */
export interface AdeSweep {
  /** Per component, per x-plane index i from −1 to n + 1: the plane's first cell (ade.ts). */
  planeStart: Int32Array[];
  /** [set][component]: the absolute addresses ade() takes after q0 and q1. */
  args: number[][][];
}

/** The sweep's view of the region at byte address `base`. */
export function adeSweep(
  terms: AdeTerms,
  plan: AdeMemoryPlan,
  base: number,
  components: readonly number[],
  setBytes: number,
  sets: number,
): AdeSweep {
  const args = Array.from({ length: sets }, (_, set) =>
    [0, 1, 2].map((c) => [
      components[c] + set * setBytes,
      base + plan.cells[c],
      base + plan.entry[c],
      base + plan.slot[c],
      base + plan.h[set][c],
      base + plan.e1[set][c],
      base + plan.e2[set][c],
      base + plan.p[set][c],
      base + plan.j[set][c],
    ]),
  );
  return { planeStart: terms.planeStart, args };
}
