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

/**
 * The loops over a span's $n cells: UNROLL vectors per iteration while they last, then single
 * vectors, then a scalar tail; `body(ty, unroll)` advances the pointers and $n itself.
 */
export function spanLoops(body: (ty: Ty, unroll: number) => string): string {
  return `(block $v2done (loop $v2loop
      (br_if $v2done (i32.lt_s (local.get $n) (i32.const ${4 * UNROLL})))
        ${body("v", UNROLL)}
      (br $v2loop)))
    (block $vdone (loop $vloop
      (br_if $vdone (i32.lt_s (local.get $n) (i32.const 4)))
        ${body("v", 1)}
      (br $vloop)))
    (block $sdone (loop $sloop
      (br_if $sdone (i32.le_s (local.get $n) (i32.const 0)))
        ${body("s", 1)}
      (br $sloop)))`;
}

/**
 * Text builders for one cell group of a span: `ty` "v" (4 lanes, f32x4) or "s" (a scalar),
 * loads and stores at byte offset `off + shift` from a pointer local, arithmetic, locals
 * with the width suffix, span parameters, and the flush of tiny values to zero.
 */
export function emitters(ty: Ty, shift: number, tiny: string) {
  const T = ty === "v" ? "f32x4" : "f32";
  const sfx = ty === "v" ? "v" : "s";
  return {
    sfx,
    ld: (off: number, ptr = "pb") =>
      ty === "v"
        ? `(v128.load offset=${off + shift} align=4 (local.get $${ptr}))`
        : `(f32.load offset=${off + shift} (local.get $${ptr}))`,
    st: (off: number, ptr: string, val: string) =>
      ty === "v"
        ? `(v128.store offset=${off + shift} align=4 (local.get $${ptr}) ${val})`
        : `(f32.store offset=${off + shift} (local.get $${ptr}) ${val})`,
    op: (name: string, a: string, b: string) => `(${T}.${name} ${a} ${b})`,
    get: (name: string) => `(local.get $${name}${sfx})`,
    par: (name: string) => (ty === "v" ? `(local.get $${name}v)` : `(local.get $${name})`),
    // |x| ≤ flushBelow → 0 (two compares and a mask: far cheaper than denormal assists).
    flush: (local: string) =>
      ty === "v"
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
