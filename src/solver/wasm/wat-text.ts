/**
 * Text builders shared by the fast kernel's WAT generators (kernel-wat.ts and the parts it
 * assembles): number constants, the span loops, and the per-cell-group emitters of loads,
 * stores, arithmetic and the flush of tiny values.
 */

export type Kind = "E" | "H";
/** Vectors per iteration of the main loops (8 cells: halves the loop overhead). */
export const UNROLL = 2;
/** A cell group: "v" (4 lanes, f32x4) or "s" (one scalar). */
export type Ty = "v" | "s";

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

/** The locals spanLoops uses besides $n: the span's length and its last group's lane mask. */
export const SPAN_LOOP_LOCALS = "(local $n0 i32) (local $back i32) (local $mskv v128)";

/**
 * The loops over a span's $n cells, twice: with the flush of tiny values and without, the
 * kernel's `$flush` global choosing (flush.ts: only every FLUSH_EVERY-th step flushes).
 * Each: UNROLL vectors per iteration while they last, then single vectors;
 * `body(ty, unroll, masked, flush)` advances the pointers and $n itself. The 1–3 cells left
 * at the end of a span of at least 4 take one masked vector: `rewind(cells)` moves every
 * running pointer back by that many cells, so the last vector ends at the span's end, and its
 * stores keep the lanes already updated (see `emitters`). Shorter spans take a scalar loop.
 */
export function spanLoops(
  body: (ty: Ty, unroll: number, masked: boolean, flush: boolean) => string,
  rewind: (cells: string) => string[],
): string {
  const loops = (flush: boolean) => `(local.set $n0 (local.get $n))
    (block $v2done (loop $v2loop
      (br_if $v2done (i32.lt_s (local.get $n) (i32.const ${4 * UNROLL})))
        ${body("v", UNROLL, false, flush)}
      (br $v2loop)))
    (block $vdone (loop $vloop
      (br_if $vdone (i32.lt_s (local.get $n) (i32.const 4)))
        ${body("v", 1, false, flush)}
      (br $vloop)))
    (if (i32.and (i32.gt_s (local.get $n) (i32.const 0)) (i32.ge_s (local.get $n0) (i32.const 4)))
      (then
        (local.set $back (i32.sub (i32.const 4) (local.get $n)))
        ${rewind("(local.get $back)").join("\n        ")}
        ;; lane l is new where l ≥ back
        (local.set $mskv (i32x4.ge_s (v128.const i32x4 0 1 2 3) (i32x4.splat (local.get $back))))
        ${body("v", 1, true, flush)}
        (local.set $n (i32.const 0))))
    (block $sdone (loop $sloop
      (br_if $sdone (i32.le_s (local.get $n) (i32.const 0)))
        ${body("s", 1, false, flush)}
      (br $sloop)))`;
  return `(if (global.get $flush) (then ${loops(true)}) (else ${loops(false)}))`;
}

/** `(local.set $name (i32.sub (local.get $name) (i32.shl cells (i32.const log2 bytes))))`. */
export function rewindPointer(name: string, cells: string, bytesPerCell: 2 | 4): string {
  const shift = bytesPerCell === 4 ? 2 : 1;
  return `(local.set $${name} (i32.sub (local.get $${name}) (i32.shl ${cells} (i32.const ${shift}))))`;
}

/**
 * Text builders for one cell group of a span: `ty` "v" (4 lanes, f32x4) or "s" (a scalar),
 * loads and stores at byte offset `off + shift` from a pointer local, arithmetic, locals
 * with the width suffix, span parameters, and the flush of tiny values to zero (nothing when
 * `flush` is false: a step that does not flush, spanLoops). A `masked`
 * group (spanLoops' last vector) stores only the lanes set in $mskv and leaves the others as
 * they are in memory: those cells were updated by the group before, and no update reads a
 * value of its own kind at another cell, so each new lane is what the scalar loop gives.
 */
export function emitters(ty: Ty, shift: number, tiny: string, masked = false, flush = true) {
  const T = ty === "v" ? "f32x4" : "f32";
  const sfx = ty === "v" ? "v" : "s";
  return {
    sfx,
    ld: (off: number, ptr = "pb") =>
      ty === "v"
        ? `(v128.load offset=${off + shift} align=4 (local.get $${ptr}))`
        : `(f32.load offset=${off + shift} (local.get $${ptr}))`,
    st: (off: number, ptr: string, val: string) => {
      const at = `offset=${off + shift} align=4 (local.get $${ptr})`;
      if (ty === "s") return `(f32.store offset=${off + shift} (local.get $${ptr}) ${val})`;
      if (!masked) return `(v128.store ${at} ${val})`;
      return `(v128.store ${at} (v128.bitselect ${val} (v128.load ${at}) (local.get $mskv)))`;
    },
    op: (name: string, a: string, b: string) => `(${T}.${name} ${a} ${b})`,
    get: (name: string) => `(local.get $${name}${sfx})`,
    par: (name: string) => (ty === "v" ? `(local.get $${name}v)` : `(local.get $${name})`),
    // |x| ≤ flushBelow → 0 (two compares and a mask: far cheaper than denormal assists).
    flush: (local: string) =>
      !flush
        ? ""
        : ty === "v"
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
  const T = ty === "v" ? "f32x4" : "f32";
  if (t1 !== null && t2 !== null) return `(${T}.sub ${t1} ${t2})`;
  if (t1 !== null) return t1;
  if (t2 !== null) return `(${T}.neg ${t2})`;
  return ty === "v" ? "(v128.const i32x4 0 0 0 0)" : "(f32.const 0)";
}

/** Bytes a pointer advances per loop iteration of `unroll` cell groups (4 per cell). */
export function stepBytes(ty: Ty, unroll: number): number {
  return (ty === "v" ? 16 : 4) * unroll;
}

/** `(local.set $name (i32.add (local.get $name) (i32.const bytes)))`. */
export function advancePointer(name: string, bytes: number): string {
  return `(local.set $${name} (i32.add (local.get $${name}) (i32.const ${bytes})))`;
}

/** The decrement of the span's remaining cells $n by one iteration's cells. */
export function countDown(ty: Ty, unroll: number): string {
  return `(local.set $n (i32.sub (local.get $n) (i32.const ${(ty === "v" ? 4 : 1) * unroll})))`;
}

/** The sign-clearing mask a span keeps in $absv for its vector flush (|x| as bits). */
export const ABS_MASK = "(v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)";
