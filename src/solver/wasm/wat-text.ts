/**
 * Text builders shared by the fast kernel's WAT generators (kernel-wat.ts and the parts it
 * assembles): number constants, the span loops, and the per-cell-group emitters of loads,
 * stores, arithmetic and the flush of tiny values.
 */

export type Kind = "E" | "H";
/** Vectors per iteration of the main loops (8 cells: halves the loop overhead). */
export const UNROLL = 2;
/**
 * A cell group: "v" (4 cells, f32x4), "h" (2 cells: a vector whose loads fill lanes 0–1 and
 * zero the others, and whose stores write lanes 0–1 only) or "s" (one scalar).
 */
export type Ty = "v" | "h" | "s";

/** Cells in a group of each type. */
const CELLS: Record<Ty, number> = { v: 4, h: 2, s: 1 };
/** A group's load of each type (a half vector's fills lanes 0–1 and zeroes the others). */
const LOAD: Record<Ty, string> = { v: "v128.load", h: "v128.load64_zero", s: "f32.load" };

/** An f32 constant as WAT text (9 significant digits: exact for any float32). */
export const f32c = (x: number) => {
  const v = Math.fround(x);
  if (!Number.isFinite(v)) throw new RangeError(`non-finite kernel constant ${x}`);
  return v === 0 ? "0" : v.toPrecision(9);
};

/** The two derivative directions of component c and the ψ slot each uses (cpml.ts order). */
export function directions(kind: Kind, c: number) {
  const d1 = (c + 1) % 3;
  const d2 = (c + 2) % 3;
  return { d1, d2, q1: kind === "E" ? 0 : 2, q2: kind === "E" ? 1 : 3 };
}

/**
 * The loops over a span's $n cells, twice: with the flush of tiny values and without, the
 * kernel's `$flush` global choosing (flush.ts: only every FLUSH_EVERY-th step flushes).
 * Each: UNROLL vectors per iteration while they last, then single vectors, then the 0–3
 * cells left as a half vector (2 cells) and a scalar; `body(ty, unroll, flush)` advances the
 * pointers and $n itself.
 *
 * The half vector replaced (2026-11-30) a vector ending at the span's end that stored only
 * its new lanes: fewer instructions, but its loads partly overlapped the 16-byte stores the
 * vector before had just made, which a core cannot forward from its store buffer, and on the
 * S-parameter benchmark's grid (10-cell absorber spans, each ending in 2 cells) the kernel on
 * one thread was 5–7 % slower with it than with a scalar loop (docs/benchmarks.md). The half
 * vector loads nothing just stored.
 */
export function spanLoops(body: (ty: Ty, unroll: number, flush: boolean) => string): string {
  const loops = (flush: boolean) => `(block $v2done (loop $v2loop
      (br_if $v2done (i32.lt_s (local.get $n) (i32.const ${4 * UNROLL})))
        ${body("v", UNROLL, flush)}
      (br $v2loop)))
    (block $vdone (loop $vloop
      (br_if $vdone (i32.lt_s (local.get $n) (i32.const 4)))
        ${body("v", 1, flush)}
      (br $vloop)))
    (if (i32.ge_s (local.get $n) (i32.const 2)) (then ${body("h", 1, flush)}))
    (if (i32.gt_s (local.get $n) (i32.const 0)) (then ${body("s", 1, flush)}))`;
  return `(if (global.get $flush) (then ${loops(true)}) (else ${loops(false)}))`;
}

/**
 * Text builders for one cell group of a span: `ty` "v" (4 lanes, f32x4), "h" (2 lanes of an
 * f32x4, the others zero and never stored) or "s" (a scalar), loads and stores at byte offset
 * `off + shift` from a pointer local, arithmetic, locals with the width suffix ("v" for both
 * vector types), span parameters, and the flush of tiny values to zero (nothing when `flush`
 * is false: a step that does not flush, spanLoops).
 */
export function emitters(ty: Ty, shift: number, tiny: string, flush = true) {
  const vector = ty !== "s";
  const T = vector ? "f32x4" : "f32";
  const sfx = vector ? "v" : "s";
  const memarg = (off: number) => `offset=${off + shift} align=4`;
  return {
    sfx,
    ld: (off: number, ptr = "pb") => `(${LOAD[ty]} ${memarg(off)} (local.get $${ptr}))`,
    // A half vector stores lane 0 of its 64-bit lanes: its two cells.
    st: (off: number, ptr: string, val: string) =>
      ty === "h"
        ? `(v128.store64_lane ${memarg(off)} 0 (local.get $${ptr}) ${val})`
        : `(${ty === "v" ? "v128" : "f32"}.store ${memarg(off)} (local.get $${ptr}) ${val})`,
    op: (name: string, a: string, b: string) => `(${T}.${name} ${a} ${b})`,
    get: (name: string) => `(local.get $${name}${sfx})`,
    par: (name: string) => (vector ? `(local.get $${name}v)` : `(local.get $${name})`),
    // |x| ≤ flushBelow → 0 (two compares and a mask: far cheaper than denormal assists).
    flush: (local: string) =>
      !flush
        ? ""
        : vector
          ? `(local.set $${local}v (v128.and (local.get $${local}v) (f32x4.gt (v128.and (local.get $${local}v) (local.get $absv)) (local.get $tinyv))))`
          : `(local.set $${local}s (select (local.get $${local}s) (f32.const 0) (f32.gt (f32.abs (local.get $${local}s)) (f32.const ${tiny}))))`,
  };
}

export type Emitters = ReturnType<typeof emitters>;

/**
 * t1 − t2 where a null term is an exactly zero difference (an invariant axis): the remaining
 * term alone, negated for t2 (bit for bit what the full expression gives, up to the sign of
 * a zero result).
 */
export function curlOf(ty: Ty, t1: string | null, t2: string | null): string {
  const T = ty === "s" ? "f32" : "f32x4";
  if (t1 !== null && t2 !== null) return `(${T}.sub ${t1} ${t2})`;
  if (t1 !== null) return t1;
  if (t2 !== null) return `(${T}.neg ${t2})`;
  return ty === "s" ? "(f32.const 0)" : "(v128.const i32x4 0 0 0 0)";
}

/** Bytes a pointer advances per loop iteration of `unroll` cell groups (4 per cell). */
export function stepBytes(ty: Ty, unroll: number): number {
  return 4 * CELLS[ty] * unroll;
}

/** `(local.set $name (i32.add (local.get $name) (i32.const bytes)))`. */
export function advancePointer(name: string, bytes: number): string {
  return `(local.set $${name} (i32.add (local.get $${name}) (i32.const ${bytes})))`;
}

/** The decrement of the span's remaining cells $n by one iteration's cells. */
export function countDown(ty: Ty, unroll: number): string {
  return `(local.set $n (i32.sub (local.get $n) (i32.const ${CELLS[ty] * unroll})))`;
}

/** The sign-clearing mask a span keeps in $absv for its vector flush (|x| as bits). */
export const ABS_MASK = "(v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)";
