/**
 * Generates the fast kernel's WebAssembly text (WAT, 128-bit SIMD) for one grid.
 *
 * Exports, each over one x-plane i of one field set (0 real, 1 imaginary):
 *   h(i, set)       H bulk update with the CPML ψ terms fused in,
 *   e(i, set)       E bulk update with the CPML ψ terms fused in,
 *   hPlanes(i0, i1, set), ePlanes(…)  the same over planes i0 … i1−1 in one call (thin grids,
 *                   whose planes are a row or two each: fast/thin.ts),
 *   energy(i, set)  Σ ε·|E|² + η0²·|H|² over the padded plane (f64),
 *   ade(…)          the dispersive cells of one plane and component (ade-wasm.ts), with poles.
 *
 * Per component c the curl is ∂_{d1}F_{d2} − ∂_{d2}F_{d1} with d1 = c+1, d2 = c+2 (mod 3), and
 * in an absorber slab normal to d the recursive-convolution term is added to the derivative
 * it belongs to (Roden & Gedney 2000):
 *   H_c ← H_c − ch·[(Δ_{d1}E_{d2}/(κh) + ψ1) − (Δ_{d2}E_{d1}/(κh) + ψ2)],
 *   E_c ← ca·E_c + cb·[(Δ_{d1}H_{d2}/(κh) + ψ1) − (Δ_{d2}H_{d1}/(κh) + ψ2)],
 *   ψ ← b·ψ + (c/h)·Δ,
 * which is the reference kernel followed by cpml.ts's separate ψ pass, with the difference Δ
 * computed once and ψ touched only where it exists. Rows run along z, four cells per vector;
 * the 0–3 cells left at the end of a span take a scalar loop (rows are n+2 floats, so neither
 * alignment nor a multiple of 4 can be assumed; unaligned v128 loads cost nothing extra here).
 *
 * Everything grid-specific (strides, array addresses, update ranges, the z extents of the
 * absorber) is baked in as constants: every field load is `v128.load offset=<array + Δ>` off
 * one running pointer, so the hot loop does no address arithmetic besides two increments.
 * Loops handle 8 cells per iteration, and all three components of a kind at once wherever
 * all three are updated (fusedSpan: shared loads, one loop overhead); single-component
 * spans (span) cover the row ends where the components' ranges differ and the rows where
 * one of them is not updated. Spans are split where the z absorber starts and ends (their
 * ψ coefficients vary along the row), and for E also where a piece of the row ends (runs.ts
 * FusedPieces): a uniform piece's (ca, cb) are splatted once per span, and a mixed piece,
 * short stretches of smoothed interface cells merged, gathers them per lane (fusedSpan).
 *
 * Measured (docs/benchmarks.md): 65 → 49 instructions per cell-update at 128³ from fusing
 * the components and folding 1/h into the coefficients where κ = 1; on a lattice of 10³
 * small spheres, 50 → 77–84 % of the empty grid's rate from the mixed pieces (each span
 * costs about 10 ns, mostly its loops' mispredicted exits, so fewer, longer spans win even
 * at 3 instructions per cell and component for the gather).
 */
import type { YeeLayout } from "../grid.js";
import { adeWat } from "./ade-wasm.js";
import type { FastMemoryPlan, PsiFacePlan } from "./memory-plan.js";
import { fusedRange } from "./runs.js";

export interface KernelWatInput {
  layout: YeeLayout;
  plan: FastMemoryPlan;
  /** dt/μ0 (rounded to f32 in the kernel). */
  hCoefficient: number;
  /** η0², for the energy. */
  eta0Squared: number;
  /**
   * Stored values (fields and ψ) smaller in magnitude than this are stored as zero, so no
   * float32 denormal ever enters the arithmetic (see flushBelow in engine.ts).
   */
  flushBelow: number;
  /**
   * Along z, for E (node profile) and H (half profile): the first index past the low-face
   * absorber cells with ψ and the first index of the high-face ones (c ≠ 0 there).
   */
  zAbsorber: { node: [number, number]; half: [number, number] };
  /**
   * The grid step, when every inverse step outside the absorbers is exactly 1/step (κ = 1
   * wherever the CPML c is zero): the fused spans then fold it into ch and cb. Else null.
   */
  unitKappaStepM: number | null;
  /** Whether the grid has dispersive cells: the module then exports ade (ade-wasm.ts). */
  ade: boolean;
  /**
   * Per axis, whether the fields do not vary along it (one periodic cell without a Bloch phase,
   * fast/thin.ts): every difference along it is exactly zero, so its terms are left out and
   * the kernel never reads the ghosts across it. Absent: none.
   */
  invariantAxes?: readonly boolean[];
  /**
   * Per component (Ex … Hz), whether it can ever be nonzero (grid.ts coupledComponents): on a
   * grid invariant along an axis a source drives one polarisation, and the other three
   * components stay exactly zero, so their updates are left out. Absent: all six.
   */
  steppedComponents?: readonly boolean[];
}

type Kind = "E" | "H";
/** Vectors per iteration of the main loops (8 cells: halves the loop overhead). */
const UNROLL = 2;
type Ty = "v" | "s";

const f32c = (x: number) => {
  const v = Math.fround(x);
  if (!Number.isFinite(v)) throw new RangeError(`non-finite kernel constant ${x}`);
  return v === 0 ? "0" : v.toPrecision(9);
};

/** The two derivative directions of component c and the ψ slot each uses (cpml.ts order). */
function directions(kind: Kind, c: number) {
  const d1 = (c + 1) % 3;
  const d2 = (c + 2) % 3;
  return { d1, d2, q1: kind === "E" ? 0 : 2, q2: kind === "E" ? 1 : 3 };
}

/**
 * The loops over a span's $n cells: UNROLL vectors per iteration while they last, then single
 * vectors, then a scalar tail; `body(ty, unroll)` advances the pointers and $n itself.
 */
function spanLoops(body: (ty: Ty, unroll: number) => string): string {
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
function emitters(ty: Ty, shift: number, tiny: string) {
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

/**
 * t1 − t2 where a null term is an exactly zero difference (an invariant axis): the remaining
 * term alone, negated for t2 (bit for bit what the full expression gives, up to the sign of
 * a zero result).
 */
function curlOf(ty: Ty, t1: string | null, t2: string | null): string {
  const T = ty === "v" ? "f32x4" : "f32";
  if (t1 !== null && t2 !== null) return `(${T}.sub ${t1} ${t2})`;
  if (t1 !== null) return t1;
  if (t2 !== null) return `(${T}.neg ${t2})`;
  return ty === "v" ? "(v128.const i32x4 0 0 0 0)" : "(f32.const 0)";
}

class Generator {
  private readonly L: YeeLayout;
  private readonly P: FastMemoryPlan;
  private readonly stride: [number, number, number];

  constructor(private readonly input: KernelWatInput) {
    this.L = input.layout;
    this.P = input.plan;
    this.stride = [this.L.strides[0], this.L.strides[1], 1];
  }

  /** Whether component `comp` (0–5) is updated at all (see steppedComponents). */
  private stepped(comp: number): boolean {
    return this.input.steppedComponents?.[comp] ?? true;
  }

  /** Whether the fields do not vary along `axis` (its difference terms are left out). */
  private invariant(axis: number): boolean {
    return this.input.invariantAxes?.[axis] ?? false;
  }

  private lo(comp: number, axis: number) {
    return this.L.lo[comp * 3 + axis];
  }
  private hi(comp: number, axis: number) {
    return this.L.hi[comp * 3 + axis];
  }
  private facesOf(axis: number): PsiFacePlan[] {
    return this.P.faces.filter((f) => f.axis === axis);
  }

  /** Byte offsets (from pb = set·setBytes + 4·p) of the streams one span reads and writes. */
  private streams(kind: Kind, c: number) {
    const { d1, d2 } = directions(kind, c);
    const comp = this.P.components;
    const s = this.stride;
    if (kind === "H") {
      // Forward differences of E.
      return {
        f: comp[3 + c],
        g2: [comp[d2] + 4 * s[d1], comp[d2]],
        g1: [comp[d1] + 4 * s[d2], comp[d1]],
      };
    }
    // Backward differences of H.
    return {
      f: comp[c],
      g2: [comp[3 + d2], comp[3 + d2] - 4 * s[d1]],
      g1: [comp[3 + d1], comp[3 + d1] - 4 * s[d2]],
    };
  }

  private coefArrays(kind: Kind) {
    const P = this.P;
    return kind === "E"
      ? { inv: P.invNode, b: P.bNode, c: P.cNode }
      : { inv: P.invHalf, b: P.bHalf, c: P.cHalf };
  }

  /** One span function: cells [k0, k0+n) of a row, ψ on the d1 / d2 derivative or not. */
  // eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
  span(kind: Kind, c: number, psi1: boolean, psi2: boolean): string {
    const { d1, d2 } = directions(kind, c);
    const flat1 = this.invariant(d1);
    const flat2 = this.invariant(d2);
    const st = this.streams(kind, c);
    const arr = this.coefArrays(kind);
    const ch = f32c(this.input.hCoefficient);
    const tiny = f32c(this.input.flushBelow);
    // One vector (or scalar) of cells at byte `shift` past the running pointers; `unroll`
    // copies per loop iteration (the copies differ only in their offset immediates).
    const body = (ty: Ty, unroll: number) =>
      [...Array(unroll).keys()]
        .flatMap((u) => cells(ty, u * 16))
        .concat(advance(ty, unroll))
        .join("\n        ");
    const advance = (ty: Ty, unroll: number) => {
      const W = (ty === "v" ? 16 : 4) * unroll;
      const inc = (name: string) =>
        `(local.set $${name} (i32.add (local.get $${name}) (i32.const ${W})))`;
      const lines = [inc("pb"), inc("K")];
      if (psi1) lines.push(inc("q1"));
      if (psi2) lines.push(inc("q2"));
      lines.push(
        `(local.set $n (i32.sub (local.get $n) (i32.const ${(ty === "v" ? 4 : 1) * unroll})))`,
      );
      return lines;
    };
    const cells = (ty: Ty, shift: number) => {
      const { sfx, ld, st: store, op, get, par: param, flush } = emitters(ty, shift, tiny);
      // Per-direction coefficient: along z a per-k load, along x/y the span's constant.
      const inv = (slot: 1 | 2, d: number) =>
        d === 2 ? ld(arr.inv[2] + 4, "K") : param(`inv${slot}`);
      const bco = (slot: 1 | 2, d: number) => (d === 2 ? ld(arr.b[2], "K") : param(`b${slot}`));
      const cco = (slot: 1 | 2, d: number) => (d === 2 ? ld(arr.c[2], "K") : param(`c${slot}`));
      const lines: string[] = [];
      if (!flat1) {
        lines.push(`(local.set $d2${sfx} ${op("sub", ld(st.g2[0], "pb"), ld(st.g2[1], "pb"))})`);
        lines.push(`(local.set $t1${sfx} ${op("mul", get("d2"), inv(1, d1))})`);
      }
      if (!flat2) {
        lines.push(`(local.set $d1${sfx} ${op("sub", ld(st.g1[0], "pb"), ld(st.g1[1], "pb"))})`);
        lines.push(`(local.set $t2${sfx} ${op("mul", get("d1"), inv(2, d2))})`);
      }
      const psi = (slot: 1 | 2, d: number, diff: string) => {
        lines.push(
          `(local.set $ps${sfx} ${op("add", op("mul", bco(slot, d), ld(0, `q${slot}`)), op("mul", cco(slot, d), get(diff)))})`,
        );
        lines.push(flush("ps"));
        lines.push(store(0, `q${slot}`, get("ps")));
        lines.push(`(local.set $t${slot}${sfx} ${op("add", get(`t${slot}`), get("ps"))})`);
      };
      if (psi1 && !flat1) psi(1, d1, "d2");
      if (psi2 && !flat2) psi(2, d2, "d1");
      const curl = curlOf(ty, flat1 ? null : get("t1"), flat2 ? null : get("t2"));
      if (kind === "H") {
        const chv = ty === "v" ? `(local.get $chv)` : `(f32.const ${ch})`;
        lines.push(`(local.set $o${sfx} ${op("sub", ld(st.f, "pb"), op("mul", chv, curl))})`);
      } else {
        lines.push(
          `(local.set $o${sfx} ${op("add", op("mul", param("ca"), ld(st.f, "pb")), op("mul", param("cb"), curl))})`,
        );
      }
      lines.push(flush("o"));
      lines.push(store(st.f, "pb", get("o")));
      return lines;
    };
    const splats = ["inv1", "inv2", "b1", "c1", "b2", "c2", ...(kind === "E" ? ["ca", "cb"] : [])]
      .map((p) => `(local.set $${p}v (f32x4.splat (local.get $${p})))`)
      .join("\n    ");
    const vlocals = ["inv1", "inv2", "b1", "c1", "b2", "c2", "ca", "cb", "ch"]
      .map((p) => `(local $${p}v v128)`)
      .join(" ");
    return `
  (func $${kind.toLowerCase()}s${c}_${psi1 ? 1 : 0}${psi2 ? 1 : 0}
    (param $pb i32) (param $K i32) (param $n i32) (param $inv1 f32) (param $inv2 f32)
    (param $q1 i32) (param $b1 f32) (param $c1 f32) (param $q2 i32) (param $b2 f32) (param $c2 f32)
    (param $ca f32) (param $cb f32)
    ${vlocals}
    (local $d1v v128) (local $d2v v128) (local $t1v v128) (local $t2v v128) (local $psv v128)
    (local $d1s f32) (local $d2s f32) (local $t1s f32) (local $t2s f32) (local $pss f32)
    (local $ov v128) (local $os f32) (local $tinyv v128) (local $absv v128)
    ${splats}
    (local.set $tinyv (f32x4.splat (f32.const ${tiny})))
    (local.set $absv (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff))
    (local.set $chv (f32x4.splat (f32.const ${ch})))
    ${spanLoops(body)})`;
  }

  /** Static z segments of a component's row: [k0, k1) and the z face whose ψ applies. */
  private zSegments(kind: Kind, c: number): { k0: number; k1: number; face: PsiFacePlan | null }[] {
    const comp = kind === "E" ? c : 3 + c;
    const kLo = this.lo(comp, 2);
    const kEnd = this.hi(comp, 2) + 1;
    if (kEnd <= kLo) return [];
    const { d1, d2 } = directions(kind, c);
    if (d1 !== 2 && d2 !== 2) return [{ k0: kLo, k1: kEnd, face: null }];
    const [zA, zB] = kind === "E" ? this.input.zAbsorber.node : this.input.zAbsorber.half;
    const faces = this.facesOf(2);
    const loFace = faces.find((f) => f.side === "lo") ?? null;
    const hiFace = faces.find((f) => f.side === "hi") ?? null;
    const segs: { k0: number; k1: number; face: PsiFacePlan | null }[] = [];
    let a = kLo;
    if (loFace && zA > a) {
      const b = Math.min(zA, kEnd);
      segs.push({ k0: a, k1: b, face: loFace });
      a = b;
    }
    const midEnd = hiFace ? Math.max(a, Math.min(zB, kEnd)) : kEnd;
    if (midEnd > a) segs.push({ k0: a, k1: midEnd, face: null });
    if (hiFace && kEnd > midEnd) segs.push({ k0: midEnd, k1: kEnd, face: hiFace });
    return segs;
  }

  /**
   * Code that loads the x (d = 0, once per plane) or y (d = 1, once per row) absorber state
   * into the named locals: the inverse step, a flag that ψ applies here, CPML b and c, and
   * the byte address of ψ slot `q` at (i, j, k = 0) (along x without the row part, which the
   * row code adds as (j+1) rows of the slab's z length).
   */
  private absorberSetup(
    kind: Kind,
    d: 0 | 1,
    q: number,
    locals: { inv: string; on: string; b: string; c: string; psi: string },
  ): string {
    const arr = this.coefArrays(kind);
    const t = d === 0 ? "(local.get $i)" : "(local.get $j)";
    const lines = [
      `(local.set $${locals.inv} (f32.load offset=${arr.inv[d] + 4} (i32.shl ${t} (i32.const 2))))`,
      `(local.set $${locals.on} (i32.const 0))`,
    ];
    for (const f of this.facesOf(d)) {
      const [lx, ly] = f.strides;
      // ψ index at (i, j, k = 0), as a byte offset: slab-local coordinate along d.
      const idx =
        d === 0
          ? `(i32.add (i32.mul (i32.sub (local.get $i) (i32.const ${f.a0})) (i32.const ${lx})) (i32.const 1))`
          : `(i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${lx})) (i32.add (i32.mul (i32.sub (local.get $j) (i32.const ${f.a0})) (i32.const ${ly})) (i32.const 1)))`;
      lines.push(`(if (i32.and (i32.ge_s ${t} (i32.const ${f.a0})) (i32.le_s ${t} (i32.const ${f.a1})))
        (then
          (local.set $${locals.c} (f32.load offset=${arr.c[d]} (i32.shl ${t} (i32.const 2))))
          (if (f32.ne (local.get $${locals.c}) (f32.const 0))
            (then
              (local.set $${locals.on} (i32.const 1))
              (local.set $${locals.b} (f32.load offset=${arr.b[d]} (i32.shl ${t} (i32.const 2))))
              (local.set $${locals.psi} (i32.add (i32.add (local.get $psiSet) (i32.const ${f.psi[q]})) (i32.shl ${idx} (i32.const 2))))))))`);
    }
    return lines.join("\n      ");
  }

  /** absorberSetup into $inv{slot}, $on{slot}, $b{slot}, $c{slot}, $q{slot}plane|row. */
  private directionSetup(kind: Kind, d: 0 | 1, slot: 1 | 2, q: number): string {
    return this.absorberSetup(kind, d, q, {
      inv: `inv${slot}`,
      on: `on${slot}`,
      b: `b${slot}`,
      c: `c${slot}`,
      psi: `q${slot}${d === 0 ? "plane" : "row"}`,
    });
  }

  /** A call of the right span variant for cells [$a, $b) of the current row. */
  private spanCall(
    kind: Kind,
    c: number,
    face: PsiFacePlan | null,
    a: string,
    b: string,
    /** true: the row is known to be outside every x and y absorber slab. */
    xyFree = false,
  ): string {
    const { d1, d2, q1, q2 } = directions(kind, c);
    const lines = [
      `(local.set $pb (i32.add (local.get $rowpb) (i32.shl ${a} (i32.const 2))))`,
      `(local.set $K (i32.shl ${a} (i32.const 2)))`,
      `(local.set $n (i32.sub ${b} ${a}))`,
    ];
    const slots: { slot: 1 | 2; d: number; q: number }[] = [
      { slot: 1, d: d1, q: q1 },
      { slot: 2, d: d2, q: q2 },
    ];
    // Static (z) and dynamic (x, y) ψ flags.
    const dynamic: (1 | 2)[] = [];
    const fixed: Record<number, boolean> = {};
    for (const s of slots) {
      if (s.d === 2) {
        fixed[s.slot] = face !== null;
        if (face) {
          const [lx, ly] = face.strides;
          lines.push(
            `(local.set $q${s.slot} (i32.add (i32.add (local.get $psiSet) (i32.const ${face.psi[s.q]})) (i32.shl (i32.add (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${lx})) (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${ly}))) (i32.sub ${a} (i32.const ${face.a0}))) (i32.const 2))))`,
          );
        }
      } else if (this.facesOf(s.d).length > 0 && !xyFree) {
        dynamic.push(s.slot);
        lines.push(
          `(local.set $q${s.slot} (i32.add (local.get $q${s.slot}row) (i32.shl ${a} (i32.const 2))))`,
        );
      } else {
        fixed[s.slot] = false;
      }
    }
    const args =
      "(local.get $pb) (local.get $K) (local.get $n) (local.get $inv1) (local.get $inv2) " +
      "(local.get $q1) (local.get $b1) (local.get $c1) (local.get $q2) (local.get $b2) (local.get $c2) " +
      (kind === "E" ? "(local.get $ca) (local.get $cb)" : "(f32.const 0) (f32.const 0)");
    const name = (f: Record<number, boolean>) =>
      `$${kind.toLowerCase()}s${c}_${f[1] ? 1 : 0}${f[2] ? 1 : 0}`;
    const tree = (rest: (1 | 2)[], f: Record<number, boolean>): string => {
      if (rest.length === 0) return `(call ${name(f)} ${args})`;
      const [s, ...more] = rest;
      return `(if (local.get $on${s}) (then ${tree(more, { ...f, [s]: true })}) (else ${tree(more, { ...f, [s]: false })}))`;
    };
    lines.push(tree(dynamic, fixed));
    return lines.join("\n          ");
  }

  /**
   * One component's row (i, j), cells [kFrom, kTo) of its update range, with every ψ term
   * that applies there: used for rows in x/y absorber slabs, rows where not all three
   * components are updated, and the row ends outside the fused span.
   */
  row(kind: Kind, c: number): string {
    const comp = kind === "E" ? c : 3 + c;
    const { d1, d2, q1, q2 } = directions(kind, c);
    const name = `$${kind.toLowerCase()}${c}r`;
    const segs = this.zSegments(kind, c);
    const params =
      "(param $i i32) (param $j i32) (param $set i32) (param $kFrom i32) (param $kTo i32)";
    if (segs.length === 0) return `(func ${name} ${params})`;
    const [sx, sy] = this.L.strides;
    const setup = (d: 0 | 1) => {
      const parts: string[] = [];
      if (d1 === d) parts.push(this.directionSetup(kind, d, 1, q1));
      if (d2 === d) parts.push(this.directionSetup(kind, d, 2, q2));
      return parts.join("\n    ");
    };
    // x-slab ψ rows: the plane's base plus (j+1) rows of the slab's (padded) z length.
    const xRow = (slot: 1 | 2) =>
      this.facesOf(0).length > 0 && (slot === 1 ? d1 : d2) === 0
        ? `(local.set $q${slot}row (i32.add (local.get $q${slot}plane) (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${4 * this.L.padded[2]}))))`
        : "";
    // Cells [max(k0, s.k0, kFrom), min(k1, s.k1, kTo)) of each static z segment.
    const clip = (lo: string, hi: string) =>
      segs
        .map(
          (s) => `
        (local.set $a (select ${lo} (i32.const ${s.k0}) (i32.gt_s ${lo} (i32.const ${s.k0}))))
        (local.set $b (select ${hi} (i32.const ${s.k1}) (i32.lt_s ${hi} (i32.const ${s.k1}))))
        (if (i32.lt_s (local.get $a) (local.get $b)) (then
        ${this.spanCall(kind, c, s.face, "(local.get $a)", "(local.get $b)")}))`,
        )
        .join("");
    let rowBody: string;
    if (kind === "H") {
      rowBody = clip("(local.get $kFrom)", "(local.get $kTo)");
    } else {
      const rs = this.P.runStart[c];
      const runs = this.P.runs[c];
      const kEnd = this.hi(comp, 2) + 1;
      rowBody = `
    (local.set $row (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${this.L.padded[1]})) (i32.add (local.get $j) (i32.const 1))))
    (local.set $r (i32.load offset=${rs} (i32.shl (local.get $row) (i32.const 2))))
    (local.set $rEnd (i32.load offset=${rs + 4} (i32.shl (local.get $row) (i32.const 2))))
    (block $rdone (loop $rloop
      (br_if $rdone (i32.ge_u (local.get $r) (local.get $rEnd)))
      (local.set $e (i32.load offset=${runs} (i32.shl (local.get $r) (i32.const 2))))
      (local.set $k0 (i32.shr_u (local.get $e) (i32.const 16)))
      (br_if $rdone (i32.ge_s (local.get $k0) (local.get $kTo)))
      (local.set $m (i32.shl (i32.and (local.get $e) (i32.const 65535)) (i32.const 2)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (if (i32.lt_u (local.get $r) (local.get $rEnd))
        (then (local.set $k1 (i32.shr_u (i32.load offset=${runs} (i32.shl (local.get $r) (i32.const 2))) (i32.const 16))))
        (else (local.set $k1 (i32.const ${kEnd}))))
      (if (i32.gt_s (local.get $k1) (local.get $kFrom)) (then
        (local.set $ca (f32.load offset=${this.P.ca} (local.get $m)))
        (local.set $cb (f32.load offset=${this.P.cb} (local.get $m)))
        (local.set $k0 (select (local.get $k0) (local.get $kFrom) (i32.gt_s (local.get $k0) (local.get $kFrom))))
        (local.set $k1 (select (local.get $k1) (local.get $kTo) (i32.lt_s (local.get $k1) (local.get $kTo))))
        ${clip("(local.get $k0)", "(local.get $k1)")}))
      (br $rloop)))`;
    }
    return `
  (func ${name} ${params}
    (local $rowpb i32) (local $pb i32) (local $K i32) (local $n i32) (local $psiSet i32)
    (local $inv1 f32) (local $inv2 f32)
    (local $q1 i32) (local $b1 f32) (local $c1 f32) (local $on1 i32) (local $q1row i32) (local $q1plane i32)
    (local $q2 i32) (local $b2 f32) (local $c2 f32) (local $on2 i32) (local $q2row i32) (local $q2plane i32)
    (local $row i32) (local $r i32) (local $rEnd i32) (local $e i32) (local $m i32)
    (local $k0 i32) (local $k1 i32) (local $a i32) (local $b i32) (local $ca f32) (local $cb f32)
    (local.set $psiSet (i32.mul (local.get $set) (i32.const ${this.P.psiSetBytes})))
    ${setup(0)}
    ${setup(1)}
    ${xRow(1)}
    ${xRow(2)}
    (local.set $rowpb (i32.add (i32.mul (local.get $set) (i32.const ${this.P.setBytes}))
      (i32.shl (i32.add (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${sx}))
        (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${sy}))) (i32.const 1)) (i32.const 2))))
    ${rowBody})`;
  }

  /** Name of a fused span function: $ef011 (E, y and z absorbers), $ef000m (mixed), … */
  private fusedName(kind: Kind, fx: boolean, fy: boolean, fz: boolean, mixed: boolean): string {
    const flags = [fx, fy, fz].map((f) => (f ? 1 : 0)).join("");
    return `$${kind.toLowerCase()}f${flags}${mixed ? "m" : ""}`;
  }

  /** ψ slot of component c's derivative along d (cpml.ts order), for E or H. */
  private slotOf(kind: Kind, c: number, d: number): number {
    const { d1, q1, q2 } = directions(kind, c);
    return d === d1 ? q1 : q2;
  }

  /**
   * Byte offset of ψ[q] from ψ[0] on the faces of one axis; the fused spans address every
   * ψ array of a face off one pointer, so both faces must share it (they do: pml_layers is
   * the same on both faces).
   */
  private psiOffset(axis: number, q: number): number {
    const faces = this.facesOf(axis);
    const off = faces[0].psi[q] - faces[0].psi[0];
    for (const f of faces) {
      if (f.psi[q] - f.psi[0] !== off) throw new Error("absorber faces of unequal thickness");
    }
    return off;
  }

  /**
   * The three components of one kind over cells [k0, k0+n) of a row where all three are
   * updated: the loads shared between components (E_c(p) for H, H_c(p) for E, the per-k
   * coefficients) happen once, and so does the loop overhead (about 25 % fewer
   * instructions than three single-component spans). `fx`, `fy`, `fz`: the span lies in
   * an absorber slab normal to x, y, z, so the components differentiating along it get
   * their ψ term (x, y: coefficients constant along the row; z: per k). Without any, and
   * with κ = 1 there, the 1/step of every derivative is folded into ch and cb.
   *
   * `mixed` (E only): a mixed piece (runs.ts), whose cells carry their own entries: instead
   * of one (ca, cb) per component splatted for the span, each lane's pair is gathered from
   * the caCb table by the entry in the piece's per-cell stream ($p0 … $p2, u16 per cell):
   * per component and vector one 8-byte load of 4 entries, 4 extract_lane, 4 8-byte pair
   * loads into two vectors and 2 shuffles that split them into ca and cb, about 3
   * instructions per cell and component. The values and the arithmetic are the uniform
   * span's, so the fields are bit for bit the same.
   */
  // eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
  fusedSpan(kind: Kind, fx: boolean, fy: boolean, fz: boolean, mixed = false): string {
    if (mixed && kind === "H") throw new Error("mixed spans are E only");
    const comp = this.P.components;
    const s = this.stride;
    const arr = this.coefArrays(kind);
    const flags = [fx, fy, fz];
    const unitStep = fx || fy || fz ? null : this.input.unitKappaStepM;
    const unit = unitStep !== null;
    const ch = f32c(this.input.hCoefficient / (unitStep ?? 1));
    const tiny = f32c(this.input.flushBelow);
    const qName = ["qx", "qy", "qz"];
    // The (ca, cb) pairs a mixed span gathers: with cb/step where the step is folded.
    const pairs = unit ? this.P.caCbOverStep : this.P.caCb;
    const mix = this.P.mixedEntries;
    /** Component c's (ca, cb) of the cells at `shift` into $ca{v,s}, $cb{v,s} (mixed). */
    const gather = (ty: Ty, shift: number, c: number): string[] => {
      if (ty === "s") {
        return [
          `(local.set $mo (i32.shl (i32.load16_u offset=${mix} (local.get $p${c})) (i32.const 3)))`,
          `(local.set $cas (f32.load offset=${pairs} (local.get $mo)))`,
          `(local.set $cbs (f32.load offset=${pairs + 4} (local.get $mo)))`,
        ];
      }
      // 4 entries (u16) → byte offsets of their pairs; lanes 0, 1 → $lov, 2, 3 → $hiv as
      // [ca, cb, ca, cb]; then the even and the odd words make ca and cb.
      const lane = (l: number) => `(i32x4.extract_lane ${l} (local.get $miv))`;
      return [
        `(local.set $miv (i32x4.shl (i32x4.extend_low_i16x8_u (v128.load64_zero offset=${mix + shift / 2} align=2 (local.get $p${c}))) (i32.const 3)))`,
        `(local.set $lov (v128.load64_zero offset=${pairs} ${lane(0)}))`,
        `(local.set $lov (v128.load64_lane offset=${pairs} 1 ${lane(1)} (local.get $lov)))`,
        `(local.set $hiv (v128.load64_zero offset=${pairs} ${lane(2)}))`,
        `(local.set $hiv (v128.load64_lane offset=${pairs} 1 ${lane(3)} (local.get $hiv)))`,
        `(local.set $cav (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $lov) (local.get $hiv)))`,
        `(local.set $cbv (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $lov) (local.get $hiv)))`,
      ];
    };
    const cells = (ty: Ty, shift: number) => {
      const { sfx, ld, st, op, get, par, flush } = emitters(ty, shift, tiny);
      const lines: string[] = [];
      // Sources at p, shared by two components each, and the per-k z coefficients.
      const src = kind === "H" ? 0 : 3;
      // Only the sources some updated component differentiates (all three unless a
      // polarisation is left out).
      const used = [false, false, false];
      for (let c = 0; c < 3; c++) {
        if (!this.stepped(kind === "H" ? 3 + c : c)) continue;
        if (!this.invariant((c + 1) % 3)) used[(c + 2) % 3] = true;
        if (!this.invariant((c + 2) % 3)) used[(c + 1) % 3] = true;
      }
      for (let g = 0; g < 3; g++) {
        if (used[g]) lines.push(`(local.set $g${g}${sfx} ${ld(comp[src + g])})`);
      }
      if (!unit) lines.push(`(local.set $iz${sfx} ${ld(arr.inv[2] + 4, "K")})`);
      if (fz) {
        lines.push(`(local.set $bz${sfx} ${ld(arr.b[2], "K")})`);
        lines.push(`(local.set $cz${sfx} ${ld(arr.c[2], "K")})`);
      }
      const inv = (d: number) => (d === 2 ? get("iz") : par(d === 0 ? "ix" : "iy"));
      const bco = (d: number) => (d === 2 ? get("bz") : par(d === 0 ? "bx" : "by"));
      const cco = (d: number) => (d === 2 ? get("cz") : par(d === 0 ? "cx" : "cy"));
      for (let c = 0; c < 3; c++) {
        if (!this.stepped(kind === "H" ? 3 + c : c)) continue;
        const d1 = (c + 1) % 3;
        const d2 = (c + 2) % 3;
        // Δ_{d1} G_{d2} and Δ_{d2} G_{d1}: forward for H, backward for E.
        const diff = (g: number, d: number) =>
          kind === "H"
            ? op("sub", ld(comp[src + g] + 4 * s[d]), get(`g${g}`))
            : op("sub", get(`g${g}`), ld(comp[src + g] - 4 * s[d]));
        let curl: string;
        const flat1 = this.invariant(d1);
        const flat2 = this.invariant(d2);
        if (unit) {
          // With unit κ the 1/step is in ch (H) and in the cb passed in (E, cb/step).
          curl = curlOf(ty, flat1 ? null : diff(d2, d1), flat2 ? null : diff(d1, d2));
        } else {
          const term = (t: string, g: number, d: number) => {
            if (!flags[d]) return op("mul", diff(g, d), inv(d));
            // ψ ← b·ψ + (c/h)·Δ, then the derivative is Δ/(κh) + ψ.
            lines.push(`(local.set $dd${sfx} ${diff(g, d)})`);
            const at = this.psiOffset(d, this.slotOf(kind, c, d));
            lines.push(
              `(local.set $ps${sfx} ${op("add", op("mul", bco(d), ld(at, qName[d])), op("mul", cco(d), get("dd")))})`,
            );
            lines.push(flush("ps"));
            lines.push(st(at, qName[d], get("ps")));
            lines.push(
              `(local.set $${t}${sfx} ${op("add", op("mul", get("dd"), inv(d)), get("ps"))})`,
            );
            return get(t);
          };
          const t1 = flat1 ? null : term("t1", d2, d1);
          const t2 = flat2 ? null : term("t2", d1, d2);
          curl = curlOf(ty, t1, t2);
        }
        const f = kind === "H" ? comp[3 + c] : comp[c];
        if (mixed) lines.push(...gather(ty, shift, c));
        const [ca, cb] = mixed ? [get("ca"), get("cb")] : [par(`ca${c}`), par(`cb${c}`)];
        const value =
          kind === "H"
            ? op(
                "sub",
                ld(f),
                op("mul", ty === "v" ? "(local.get $chv)" : `(f32.const ${ch})`, curl),
              )
            : op("add", op("mul", ca, ld(f)), op("mul", cb, curl));
        lines.push(`(local.set $o${sfx} ${value})`);
        lines.push(flush("o"));
        lines.push(st(f, "pb", get("o")));
      }
      return lines;
    };
    const body = (ty: Ty, unroll: number) => {
      const W = (ty === "v" ? 16 : 4) * unroll;
      const inc = (name: string) =>
        `(local.set $${name} (i32.add (local.get $${name}) (i32.const ${W})))`;
      return [...Array(unroll).keys()]
        .flatMap((u) => cells(ty, u * 16))
        .concat([inc("pb"), inc("K")])
        .concat(flags.flatMap((f, d) => (f ? [inc(qName[d])] : [])))
        .concat(
          mixed
            ? [0, 1, 2].map(
                (c) => `(local.set $p${c} (i32.add (local.get $p${c}) (i32.const ${W / 2})))`,
              )
            : [],
        )
        .concat([
          `(local.set $n (i32.sub (local.get $n) (i32.const ${(ty === "v" ? 4 : 1) * unroll})))`,
        ])
        .join("\n        ");
    };
    // Span parameters splatted to vectors: the x/y coefficients, and for E each component's
    // (ca, cb) of the current run.
    const xyParams = ["ix", "iy", "bx", "cx", "by", "cy"];
    const runParams = ["ca0", "cb0", "ca1", "cb1", "ca2", "cb2"];
    const splat = [...xyParams, ...(kind === "E" && !mixed ? runParams : [])];
    const vlocals = [
      ...xyParams,
      ...runParams,
      "ch",
      "tiny",
      "abs",
      "g0",
      "g1",
      "g2",
      "iz",
      "bz",
      "cz",
      "o",
      "dd",
      "ps",
      "t1",
      "t2",
      "ca",
      "cb",
      "mi",
      "lo",
      "hi",
    ];
    // A uniform span's (ca, cb) per component, or a mixed span's per-cell entry streams.
    const coefParams = mixed
      ? "(param $p0 i32) (param $p1 i32) (param $p2 i32)"
      : "(param $ca0 f32) (param $cb0 f32) (param $ca1 f32) (param $cb1 f32) (param $ca2 f32) (param $cb2 f32)";
    return `
  (func ${this.fusedName(kind, fx, fy, fz, mixed)}
    (param $pb i32) (param $K i32) (param $n i32) (param $ix f32) (param $iy f32)
    (param $bx f32) (param $cx f32) (param $by f32) (param $cy f32)
    (param $qx i32) (param $qy i32) (param $qz i32)
    ${coefParams}
    ${vlocals.map((n) => `(local $${n}v v128)`).join(" ")}
    ${["g0", "g1", "g2", "iz", "bz", "cz", "o", "dd", "ps", "t1", "t2", "ca", "cb"].map((n) => `(local $${n}s f32)`).join(" ")}
    (local $mo i32)
    ${splat.map((p) => `(local.set $${p}v (f32x4.splat (local.get $${p})))`).join("\n    ")}
    (local.set $chv (f32x4.splat (f32.const ${ch})))
    (local.set $tinyv (f32x4.splat (f32.const ${tiny})))
    (local.set $absv (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff))
    ${spanLoops(body)})`;
  }

  /**
   * One kind's update of plane $i: per row where all three components are updated, fused
   * three-component spans over the cells they share (split where the z absorber begins and
   * ends, and for E where the row's pieces end: runs.ts FusedPieces), single-component spans
   * for the rest.
   */
  // eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
  plane(kind: Kind): string {
    const k = kind.toLowerCase();
    const comps = [0, 1, 2].map((c) => (kind === "E" ? c : 3 + c));
    const L = this.L;
    const P = this.P;
    const [sx, sy] = L.strides;
    const jMin = Math.min(...comps.map((c) => this.lo(c, 1)));
    const jMax = Math.max(...comps.map((c) => this.hi(c, 1)));
    // The fused k range: every component updated; z segments by the z absorber.
    const kF0 = Math.max(...comps.map((c) => this.lo(c, 2)));
    const kF1 = Math.min(...comps.map((c) => this.hi(c, 2) + 1));
    const [zA, zB] = kind === "E" ? this.input.zAbsorber.node : this.input.zAbsorber.half;
    const zLo = this.facesOf(2).find((f) => f.side === "lo") ?? null;
    const zHi = this.facesOf(2).find((f) => f.side === "hi") ?? null;
    const segs: { k0: number; k1: number; face: PsiFacePlan | null }[] = [];
    let a = kF0;
    if (zLo && zA > a) {
      const b = Math.min(zA, kF1);
      if (b > a) segs.push({ k0: a, k1: b, face: zLo });
      a = Math.max(a, b);
    }
    const midEnd = zHi ? Math.max(a, Math.min(zB, kF1)) : kF1;
    if (midEnd > a) segs.push({ k0: a, k1: midEnd, face: null });
    if (zHi && kF1 > midEnd) segs.push({ k0: midEnd, k1: kF1, face: zHi });
    const inRange = (c: number, axis: number, v: string) =>
      `(i32.and (i32.ge_s ${v} (i32.const ${this.lo(c, axis)})) (i32.le_s ${v} (i32.const ${this.hi(c, axis)})))`;
    const active = (c: number) =>
      `(i32.and ${inRange(comps[c], 0, "(local.get $i)")} ${inRange(comps[c], 1, "(local.get $j)")})`;
    const rowCall = (c: number, from: string, to: string) =>
      `(call $${k}${c}r (local.get $i) (local.get $j) (local.get $set) ${from} ${to})`;
    const wholeRow = (c: number) =>
      this.stepped(comps[c])
        ? `(if ${active(c)} (then ${rowCall(c, `(i32.const ${this.lo(comps[c], 2)})`, `(i32.const ${this.hi(comps[c], 2) + 1})`)}))`
        : "";
    // Cells of a component outside the shared k range (k = 0 or n−1 where the components'
    // ranges differ): the general single-component row code.
    const ends = (c: number) => {
      if (!this.stepped(comps[c])) return "";
      const lo = this.lo(comps[c], 2);
      const end = this.hi(comps[c], 2) + 1;
      const kF0 = segStart;
      const kF1e = segEnd;
      const out: string[] = [];
      if (lo < kF0) out.push(rowCall(c, `(i32.const ${lo})`, `(i32.const ${kF0})`));
      if (kF1e < end) out.push(rowCall(c, `(i32.const ${kF1e})`, `(i32.const ${end})`));
      return out.join("\n          ");
    };
    // x (per plane) and y (per row) absorber: flag, coefficients, ψ base of the face.
    const axisSetup = (d: 0 | 1) => {
      const n = d === 0 ? "x" : "y";
      return this.absorberSetup(kind, d, 0, {
        inv: `i${n}`,
        on: `f${n}`,
        b: `b${n}`,
        c: `c${n}`,
        psi: `q${n}base`,
      });
    };
    const hasX = this.facesOf(0).length > 0;
    const hasY = this.facesOf(1).length > 0;
    // x-slab ψ row: the plane's base plus (j+1) rows of the slab's (padded) z length.
    const xRow = hasX
      ? `(local.set $qxrow (i32.add (local.get $qxbase) (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${4 * L.padded[2]}))))`
      : "";
    // Call of the fused variant for cells [a, b) of segment `seg` (static z face).
    // `coefs(unit)`: the E coefficients (or a mixed span's entry streams) for a variant with
    // (true) or without unit κ folding.
    const fusedCall = (
      seg: { face: PsiFacePlan | null },
      a: string,
      b: string,
      coefs: (unit: boolean) => string,
      mixed = false,
    ) => {
      const zq = seg.face
        ? `(i32.add (i32.add (local.get $psiSet) (i32.const ${seg.face.psi[0]})) (i32.shl (i32.add (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${seg.face.strides[0]})) (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${seg.face.strides[1]}))) (i32.sub ${a} (i32.const ${seg.face.a0}))) (i32.const 2)))`
        : "(i32.const 0)";
      const fz = seg.face !== null;
      const args = (fxOn: boolean, fyOn: boolean) =>
        `(i32.add (local.get $rowpb) (i32.shl ${a} (i32.const 2))) (i32.shl ${a} (i32.const 2)) (i32.sub ${b} ${a})
              (local.get $ix) (local.get $iy) (local.get $bx) (local.get $cx) (local.get $by) (local.get $cy)
              ${fxOn ? `(i32.add (local.get $qxrow) (i32.shl ${a} (i32.const 2)))` : "(i32.const 0)"}
              ${fyOn ? `(i32.add (local.get $qyrow) (i32.shl ${a} (i32.const 2)))` : "(i32.const 0)"}
              ${zq} ${coefs(!fxOn && !fyOn && !fz && this.input.unitKappaStepM !== null)}`;
      const call = (fxOn: boolean, fyOn: boolean) =>
        `(call ${this.fusedName(kind, fxOn, fyOn, fz, mixed)} ${args(fxOn, fyOn)})`;
      const yTree = (fxOn: boolean) =>
        hasY
          ? `(if (local.get $fy) (then ${call(fxOn, true)}) (else ${call(fxOn, false)}))`
          : call(fxOn, false);
      return hasX
        ? `(if (local.get $fx) (then ${yTree(true)}) (else ${yTree(false)}))`
        : yTree(false);
    };
    // The fused cells [segStart, segEnd): contiguous segments.
    const segStart = segs.length > 0 ? segs[0].k0 : kF0;
    const segEnd = segs.length > 0 ? segs[segs.length - 1].k1 : kF0;
    const zeroCoefs = () =>
      "(f32.const 0) (f32.const 0) (f32.const 0) (f32.const 0) (f32.const 0) (f32.const 0)";
    let fused: string;
    if (kind === "H") {
      fused = segs
        .map((seg) => fusedCall(seg, `(i32.const ${seg.k0})`, `(i32.const ${seg.k1})`, zeroCoefs))
        .join("\n          ");
    } else {
      // The row's pieces (runs.ts FusedPieces) cover exactly the fused cells.
      const [p0, p1] = fusedRange(L);
      if (segs.length > 0 && (p0 !== segStart || p1 !== segEnd)) {
        throw new Error(`fused E cells [${segStart}, ${segEnd}) but pieces over [${p0}, ${p1})`);
      }
      // A uniform piece: (ca, cb) of each component's entry ($x_c = 4·entry).
      const uniformCoefs = (unit: boolean) =>
        [0, 1, 2]
          .map(
            (c) =>
              `(f32.load offset=${P.ca} (local.get $x${c})) (f32.load offset=${unit ? P.cbOverStep : P.cb} (local.get $x${c}))`,
          )
          .join(" ");
      // A mixed piece: each component's entry stream ($x_c, bytes into it) from cell $a on.
      const mixedStreams = () =>
        [0, 1, 2]
          .map(
            (c) =>
              `(i32.add (local.get $x${c}) (i32.shl (i32.sub (local.get $a) (local.get $k0)) (i32.const 1)))`,
          )
          .join(" ");
      const min = (a: string, b: string) => `(select ${a} ${b} (i32.lt_s ${a} ${b}))`;
      // The segment of cell $a decides the variant; a piece crossing the z absorber's edge
      // takes one call per segment.
      const segCases = segs
        .map(
          (
            seg,
          ) => `(if (i32.and (i32.ge_s (local.get $a) (i32.const ${seg.k0})) (i32.lt_s (local.get $a) (i32.const ${seg.k1})))
              (then
                (local.set $b ${min("(local.get $b)", `(i32.const ${seg.k1})`)})
                (if (local.get $mixed)
                  (then ${fusedCall(seg, "(local.get $a)", "(local.get $b)", mixedStreams, true)})
                  (else ${fusedCall(seg, "(local.get $a)", "(local.get $b)", uniformCoefs)}))))`,
        )
        .join("\n            ");
      const word = (w: number) => `(i32.load offset=${P.pieces + 4 * w} (local.get $w))`;
      fused = `
          (local.set $row (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${L.padded[1]})) (i32.add (local.get $j) (i32.const 1))))
          (local.set $r (i32.load offset=${P.pieceStart} (i32.shl (local.get $row) (i32.const 2))))
          (local.set $rEnd (i32.load offset=${P.pieceStart + 4} (i32.shl (local.get $row) (i32.const 2))))
          (block $mdone (loop $mloop
            (br_if $mdone (i32.ge_u (local.get $r) (local.get $rEnd)))
            ;; piece r: [k0 | MIXED_PIECE, x0, x1, x2], cells [k0, next piece's k0 or segEnd)
            (local.set $w (i32.shl (local.get $r) (i32.const 4)))
            (local.set $k0 ${word(0)})
            (local.set $mixed (i32.shr_u (local.get $k0) (i32.const 31)))
            (local.set $k0 (i32.and (local.get $k0) (i32.const 65535)))
            (local.set $x0 ${word(1)})
            (local.set $x1 ${word(2)})
            (local.set $x2 ${word(3)})
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (if (i32.lt_u (local.get $r) (local.get $rEnd))
              (then (local.set $k1 (i32.and ${word(4)} (i32.const 65535))))
              (else (local.set $k1 (i32.const ${segEnd}))))
            (local.set $a (local.get $k0))
            (block $pdone (loop $ploop
              (br_if $pdone (i32.ge_s (local.get $a) (local.get $k1)))
              (local.set $b (local.get $k1))
              ${segCases}
              (local.set $a (local.get $b))
              (br $ploop)))
            (br $mloop)))`;
    }
    const allActive = `(i32.and (i32.and ${active(0)} ${active(1)}) ${active(2)})`;
    const rowpb = `(i32.add (i32.mul (local.get $set) (i32.const ${P.setBytes}))
            (i32.shl (i32.add (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${sx}))
              (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${sy}))) (i32.const 1)) (i32.const 2)))`;
    const canFuse = segs.length > 0;
    return `
  (func $${k}plane (param $i i32) (param $set i32)
    (local $j i32) (local $rowpb i32) (local $row i32) (local $a i32) (local $b i32)
    (local $r i32) (local $rEnd i32) (local $w i32) (local $k0 i32) (local $k1 i32) (local $mixed i32)
    (local $x0 i32) (local $x1 i32) (local $x2 i32)
    (local $psiSet i32) (local $ix f32) (local $iy f32) (local $fx i32) (local $fy i32)
    (local $bx f32) (local $cx f32) (local $by f32) (local $cy f32)
    (local $qxbase i32) (local $qybase i32) (local $qxrow i32) (local $qyrow i32)
    (local.set $psiSet (i32.mul (local.get $set) (i32.const ${P.psiSetBytes})))
    ${axisSetup(0)}
    (local.set $j (i32.const ${jMin}))
    (block $jdone (loop $jloop
      (br_if $jdone (i32.gt_s (local.get $j) (i32.const ${jMax})))
      (if (i32.and (i32.const ${canFuse ? 1 : 0}) ${allActive})
        (then
          ${axisSetup(1)}
          ${xRow}
          ${hasY ? "(local.set $qyrow (local.get $qybase))" : ""}
          (local.set $rowpb ${rowpb})
          ${fused}
          ${ends(0)}
          ${ends(1)}
          ${ends(2)})
        (else
          ${wholeRow(0)}
          ${wholeRow(1)}
          ${wholeRow(2)}))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $jloop))))`;
  }

  // eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
  energy(): string {
    const P = this.P;
    const L = this.L;
    const [sx, sy] = L.strides;
    const runTerms = [0, 1, 2]
      .map((c) => {
        const iLo = this.lo(c, 0);
        const iHi = this.hi(c, 0);
        const rs = P.runStart[c];
        const runs = P.runs[c];
        const kEnd = this.hi(c, 2) + 1;
        return `
    (if (i32.and (i32.ge_s (local.get $i) (i32.const ${iLo})) (i32.le_s (local.get $i) (i32.const ${iHi})))
      (then
        (local.set $j (i32.const ${this.lo(c, 1)}))
        (block $jdone (loop $jloop
          (br_if $jdone (i32.gt_s (local.get $j) (i32.const ${this.hi(c, 1)})))
          (local.set $row (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${L.padded[1]})) (i32.add (local.get $j) (i32.const 1))))
          (local.set $rowpb (i32.add (local.get $setOff) (i32.shl (i32.add (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${sx})) (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${sy}))) (i32.const 1)) (i32.const 2))))
          (local.set $r (i32.load offset=${rs} (i32.shl (local.get $row) (i32.const 2))))
          (local.set $rEnd (i32.load offset=${rs + 4} (i32.shl (local.get $row) (i32.const 2))))
          (block $rdone (loop $rloop
            (br_if $rdone (i32.ge_u (local.get $r) (local.get $rEnd)))
            (local.set $e (i32.load offset=${runs} (i32.shl (local.get $r) (i32.const 2))))
            (local.set $k0 (i32.shr_u (local.get $e) (i32.const 16)))
            (local.set $m (i32.and (local.get $e) (i32.const 65535)))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (if (i32.lt_u (local.get $r) (local.get $rEnd))
              (then (local.set $k1 (i32.shr_u (i32.load offset=${runs} (i32.shl (local.get $r) (i32.const 2))) (i32.const 16))))
              (else (local.set $k1 (i32.const ${kEnd}))))
            (if (local.get $m) (then
              (local.set $sum (f64.add (local.get $sum)
                (f64.mul
                  (f64.sub (f64.promote_f32 (f32.load offset=${P.eps} (i32.shl (local.get $m) (i32.const 2)))) (local.get $eps0))
                  (call $sumsq (i32.add (i32.add (local.get $rowpb) (i32.const ${P.components[c]})) (i32.shl (local.get $k0) (i32.const 2)))
                    (i32.sub (local.get $k1) (local.get $k0))))))))
            (br $rloop)))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br $jloop)))))`;
      })
      .join("");
    const planeSum = (comps: number[]) =>
      comps
        .map(
          (c) =>
            `(call $sumsq (i32.add (local.get $plane) (i32.const ${P.components[c]})) (i32.const ${sx}))`,
        )
        .reduce((a, b) => `(f64.add ${a} ${b})`);
    return `
  (func $sumsq (param $p i32) (param $n i32) (result f64)
    (local $acc v128) (local $v v128) (local $s f64) (local $x f32)
    (block $vdone (loop $vloop
      (br_if $vdone (i32.lt_s (local.get $n) (i32.const 4)))
      (local.set $v (v128.load align=4 (local.get $p)))
      (local.set $v (f32x4.mul (local.get $v) (local.get $v)))
      (local.set $acc (f64x2.add (local.get $acc) (f64x2.promote_low_f32x4 (local.get $v))))
      (local.set $acc (f64x2.add (local.get $acc) (f64x2.promote_low_f32x4
        (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (local.set $n (i32.sub (local.get $n) (i32.const 4)))
      (br $vloop)))
    (local.set $s (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc))))
    (block $sdone (loop $sloop
      (br_if $sdone (i32.le_s (local.get $n) (i32.const 0)))
      (local.set $x (f32.load (local.get $p)))
      (local.set $s (f64.add (local.get $s) (f64.promote_f32 (f32.mul (local.get $x) (local.get $x)))))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $sloop)))
    (local.get $s))
  (func (export "energy") (param $i i32) (param $set i32) (result f64)
    (local $setOff i32) (local $plane i32) (local $sum f64) (local $eps0 f64)
    (local $j i32) (local $row i32) (local $rowpb i32) (local $r i32) (local $rEnd i32)
    (local $e i32) (local $m i32) (local $k0 i32) (local $k1 i32)
    (local.set $setOff (i32.mul (local.get $set) (i32.const ${P.setBytes})))
    (local.set $plane (i32.add (local.get $setOff) (i32.shl (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${sx})) (i32.const 2))))
    (local.set $eps0 (f64.promote_f32 (f32.load offset=${P.eps} (i32.const 0))))
    (local.set $sum (f64.add
      (f64.mul (local.get $eps0) ${planeSum([0, 1, 2])})
      (f64.mul (f64.const ${this.input.eta0Squared}) ${planeSum([3, 4, 5])})))
    ${runTerms}
    (local.get $sum))`;
  }

  module(): string {
    const spans: string[] = [];
    for (const kind of ["H", "E"] as Kind[]) {
      for (let c = 0; c < 3; c++) {
        for (const p1 of [false, true])
          for (const p2 of [false, true]) spans.push(this.span(kind, c, p1, p2));
      }
    }
    const rows = (["H", "E"] as Kind[]).flatMap((k) => [0, 1, 2].map((c) => this.row(k, c)));
    return `(module
  (import "env" "memory" (memory ${this.P.pages} ${this.P.pages} shared))
  ${spans.join("\n")}
  ${rows.join("\n")}
  ${(["H", "E"] as Kind[])
    .flatMap((k) =>
      [0, 1, 2, 3, 4, 5, 6, 7]
        // Only variants whose absorbers exist (those alone are called).
        .filter((v) => [0, 1, 2].every((d) => (v & (1 << d)) === 0 || this.facesOf(d).length > 0))
        .flatMap((v) =>
          (k === "E" ? [false, true] : [false]).map((mixed) =>
            this.fusedSpan(k, (v & 1) !== 0, (v & 2) !== 0, (v & 4) !== 0, mixed),
          ),
        ),
    )
    .join("\n")}
  ${this.plane("H")}
  ${this.plane("E")}
  (func (export "h") (param $i i32) (param $set i32)
    (call $hplane (local.get $i) (local.get $set)))
  (func (export "e") (param $i i32) (param $set i32)
    (call $eplane (local.get $i) (local.get $set)))
  ${(["h", "e"] as const)
    .map(
      (k) => `(func (export "${k}Planes") (param $i0 i32) (param $i1 i32) (param $set i32)
    (block $done (loop $next
      (br_if $done (i32.ge_s (local.get $i0) (local.get $i1)))
      (call $${k}plane (local.get $i0) (local.get $set))
      (local.set $i0 (i32.add (local.get $i0) (i32.const 1)))
      (br $next))))`,
    )
    .join("\n  ")}
  ${this.energy()}
  ${this.input.ade ? adeWat(f32c(this.input.flushBelow)) : ""}
)`;
  }
}

/** The kernel module's WAT text for one grid and memory plan. */
export function kernelWat(input: KernelWatInput): string {
  return new Generator(input).module();
}
