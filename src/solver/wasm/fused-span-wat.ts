/**
 * The fast kernel's fused span functions ($hf000 … $ef111, $ef000m …): the three components of
 * one kind over cells [k0, k0+n) of a row where all three are updated. The loads shared between
 * components (E_c(p) for H, H_c(p) for E, the per-k coefficients) happen once, and so does the
 * loop overhead (about 25 % fewer instructions than three single-component spans, span-wat.ts).
 *
 * `fx`, `fy`, `fz`: the span lies in an absorber slab normal to x, y, z, so the components
 * differentiating along it get their ψ term (x, y: coefficients constant along the row; z: per
 * k). Without any, and with κ = 1 there, the 1/step of every derivative is folded into ch and
 * cb.
 *
 * `mixed` (E only): a mixed piece (runs.ts), whose cells carry their own entries: instead of
 * one (ca, cb) per component splatted for the span, each lane's pair is gathered from the caCb
 * table by the entry in the piece's per-cell stream ($p0 … $p2, u16 per cell): per component
 * and vector one 8-byte load of 4 entries, 4 extract_lane, 4 8-byte pair loads into two vectors
 * and 2 shuffles that split them into ca and cb, about 3 instructions per cell and component.
 * The values and the arithmetic are the uniform span's, so the fields are bit for bit the same.
 */
import type { WatGrid } from "./wat-grid.js";
import {
  ABS_MASK,
  advancePointer,
  countDown,
  curlOf,
  emitters,
  f32c,
  spanLoops,
  stepBytes,
  type Emitters,
  type Kind,
  type Ty,
} from "./wat-text.js";

/** The x/y absorber coefficients a span takes as parameters (splatted to vectors). */
const XY_PARAMS = ["ix", "iy", "bx", "cx", "by", "cy"];
/** A uniform E span's (ca, cb) per component of the current piece (splatted to vectors). */
const RUN_PARAMS = ["ca0", "cb0", "ca1", "cb1", "ca2", "cb2"];
/** Temporaries of a cell group, each as a vector ($…v) and a scalar ($…s) local. */
const TEMPORARIES = ["g0", "g1", "g2", "iz", "bz", "cz", "o", "dd", "ps", "t1", "t2", "ca", "cb"];
/** The ψ pointer parameter of each axis. */
const PSI_POINTER = ["qx", "qy", "qz"];

/** One fused span function (see the module comment). */
export function fusedSpanWat(
  grid: WatGrid,
  kind: Kind,
  fx: boolean,
  fy: boolean,
  fz: boolean,
  mixed = false,
): string {
  if (mixed && kind === "H") throw new Error("mixed spans are E only");
  return new FusedSpan(grid, kind, [fx, fy, fz], mixed).text();
}

class FusedSpan {
  /** Whether 1/step is folded into ch and cb (no absorber, κ = 1). */
  private readonly unit: boolean;
  private readonly ch: string;
  private readonly tiny: string;
  /** The (ca, cb) pairs a mixed span gathers: with cb/step where the step is folded. */
  private readonly pairs: number;
  private readonly arr: ReturnType<WatGrid["coefArrays"]>;
  /** The byte offsets of the six components' arrays. */
  private readonly comp: readonly number[];
  /** The first component of the differentiated kind (E for H, H for E). */
  private readonly src: number;

  constructor(
    private readonly grid: WatGrid,
    private readonly kind: Kind,
    /** Whether the span lies in an x, y, z absorber slab. */
    private readonly flags: boolean[],
    private readonly mixed: boolean,
  ) {
    const unitStep = flags.some((f) => f) ? null : grid.input.unitKappaStepM;
    this.unit = unitStep !== null;
    this.ch = f32c(grid.input.hCoefficient / (unitStep ?? 1));
    this.tiny = f32c(grid.input.flushBelow);
    this.pairs = this.unit ? grid.P.caCbOverStep : grid.P.caCb;
    this.arr = grid.coefArrays(kind);
    this.comp = grid.P.components;
    this.src = kind === "H" ? 0 : 3;
  }

  text(): string {
    const [fx, fy, fz] = this.flags;
    // Span parameters splatted to vectors: the x/y coefficients, and for E each component's
    // (ca, cb) of the current run.
    const splat = [...XY_PARAMS, ...(this.kind === "E" && !this.mixed ? RUN_PARAMS : [])];
    const vlocals = [...XY_PARAMS, ...RUN_PARAMS, "ch", "tiny", "abs", ...TEMPORARIES];
    // A uniform span's (ca, cb) per component, or a mixed span's per-cell entry streams.
    const coefParams = this.mixed
      ? "(param $p0 i32) (param $p1 i32) (param $p2 i32)"
      : "(param $ca0 f32) (param $cb0 f32) (param $ca1 f32) (param $cb1 f32) (param $ca2 f32) (param $cb2 f32)";
    return `
  (func ${this.grid.fusedName(this.kind, fx, fy, fz, this.mixed)}
    (param $pb i32) (param $K i32) (param $n i32) (param $ix f32) (param $iy f32)
    (param $bx f32) (param $cx f32) (param $by f32) (param $cy f32)
    (param $qx i32) (param $qy i32) (param $qz i32)
    ${coefParams}
    ${[...vlocals, "mi", "lo", "hi"].map((n) => `(local $${n}v v128)`).join(" ")}
    ${TEMPORARIES.map((n) => `(local $${n}s f32)`).join(" ")}
    (local $mo i32)
    ${splat.map((p) => `(local.set $${p}v (f32x4.splat (local.get $${p})))`).join("\n    ")}
    (local.set $chv (f32x4.splat (f32.const ${this.ch})))
    (local.set $tinyv (f32x4.splat (f32.const ${this.tiny})))
    (local.set $absv ${ABS_MASK})
    ${spanLoops((ty, unroll, flush) => this.body(ty, unroll, flush))})`;
  }

  /** One loop iteration: `unroll` cell groups, then every running pointer's advance. */
  private body(ty: Ty, unroll: number, flush: boolean): string {
    const bytes = stepBytes(ty, unroll);
    const cells = [...Array(unroll).keys()].flatMap((u) => this.cells(ty, u * 16, flush));
    return cells
      .concat(this.pointers().map((q) => advancePointer(q, bytes)))
      .concat(this.mixed ? [0, 1, 2].map((c) => advancePointer(`p${c}`, bytes / 2)) : [])
      .concat([countDown(ty, unroll)])
      .join("\n        ");
  }

  /** The running pointers of 4 bytes per cell: fields, per-k coefficients, ψ of each slab. */
  private pointers(): string[] {
    return ["pb", "K", ...this.flags.flatMap((f, d) => (f ? [PSI_POINTER[d]] : []))];
  }

  /** The components of the kind that are updated (0–2). */
  private components(): number[] {
    return [0, 1, 2].filter((c) => this.grid.stepped(this.kind === "H" ? 3 + c : c));
  }

  /** One cell group: the shared loads, then each updated component's update. */
  private cells(ty: Ty, shift: number, flush: boolean): string[] {
    const e = emitters(ty, shift, this.tiny, flush);
    const lines = [...this.sharedLoads(e)];
    for (const c of this.components()) lines.push(...this.update(e, ty, shift, c));
    return lines;
  }

  /**
   * The sources at p, each shared by two components (only those some updated component
   * differentiates: all three unless a polarisation is left out), and the per-k z
   * coefficients.
   */
  private sharedLoads(e: Emitters): string[] {
    const { sfx, ld } = e;
    const used = [false, false, false];
    for (const c of this.components()) {
      if (!this.grid.invariant((c + 1) % 3)) used[(c + 2) % 3] = true;
      if (!this.grid.invariant((c + 2) % 3)) used[(c + 1) % 3] = true;
    }
    const lines: string[] = [];
    for (let g = 0; g < 3; g++) {
      if (used[g]) lines.push(`(local.set $g${g}${sfx} ${ld(this.comp[this.src + g])})`);
    }
    if (!this.unit) lines.push(`(local.set $iz${sfx} ${ld(this.arr.inv[2] + 4, "K")})`);
    if (this.flags[2]) {
      lines.push(`(local.set $bz${sfx} ${ld(this.arr.b[2], "K")})`);
      lines.push(`(local.set $cz${sfx} ${ld(this.arr.c[2], "K")})`);
    }
    return lines;
  }

  /** Component c's new value: its curl, its coefficients, the stored (flushed) result. */
  private update(e: Emitters, ty: Ty, shift: number, c: number): string[] {
    const { sfx, ld, st, op, get, par } = e;
    const lines: string[] = [];
    const curl = this.curl(e, ty, c, lines);
    const f = this.kind === "H" ? this.comp[3 + c] : this.comp[c];
    if (this.mixed) lines.push(...this.gather(ty, shift, c));
    const [ca, cb] = this.mixed ? [get("ca"), get("cb")] : [par(`ca${c}`), par(`cb${c}`)];
    const chv = ty === "s" ? `(f32.const ${this.ch})` : "(local.get $chv)";
    const value =
      this.kind === "H"
        ? op("sub", ld(f), op("mul", chv, curl))
        : op("add", op("mul", ca, ld(f)), op("mul", cb, curl));
    lines.push(`(local.set $o${sfx} ${value})`);
    lines.push(e.flush("o"));
    lines.push(st(f, "pb", get("o")));
    return lines;
  }

  /**
   * Component c's curl Δ_{d1}G_{d2} − Δ_{d2}G_{d1}, each difference over its step (with unit
   * κ the 1/step is in ch and in the cb passed in) or, in an absorber slab, with its ψ term;
   * the ψ updates that go before it are appended to `lines`.
   */
  private curl(e: Emitters, ty: Ty, c: number, lines: string[]): string {
    const d1 = (c + 1) % 3;
    const d2 = (c + 2) % 3;
    const flat1 = this.grid.invariant(d1);
    const flat2 = this.grid.invariant(d2);
    if (this.unit) {
      return curlOf(
        ty,
        flat1 ? null : this.difference(e, d2, d1),
        flat2 ? null : this.difference(e, d1, d2),
      );
    }
    const t1 = flat1 ? null : this.derivative(e, c, "t1", d2, d1, lines);
    const t2 = flat2 ? null : this.derivative(e, c, "t2", d1, d2, lines);
    return curlOf(ty, t1, t2);
  }

  /** Δ_d G_g: forward for H, backward for E. */
  private difference(e: Emitters, g: number, d: number): string {
    const { ld, op, get } = e;
    const at = this.comp[this.src + g];
    return this.kind === "H"
      ? op("sub", ld(at + 4 * this.grid.stride[d]), get(`g${g}`))
      : op("sub", get(`g${g}`), ld(at - 4 * this.grid.stride[d]));
  }

  /**
   * Δ_d G_g over its step; in an absorber slab normal to d, ψ ← b·ψ + (c/h)·Δ first (its
   * lines appended to `lines`), then the derivative Δ/(κh) + ψ into the local `t`.
   */
  private derivative(
    e: Emitters,
    c: number,
    t: string,
    g: number,
    d: number,
    lines: string[],
  ): string {
    const { sfx, ld, st, op, get } = e;
    if (!this.flags[d]) return op("mul", this.difference(e, g, d), this.coefficient(e, "i", d));
    lines.push(`(local.set $dd${sfx} ${this.difference(e, g, d)})`);
    const at = this.grid.psiOffset(d, this.grid.slotOf(this.kind, c, d));
    const q = PSI_POINTER[d];
    const b = this.coefficient(e, "b", d);
    const cc = this.coefficient(e, "c", d);
    lines.push(
      `(local.set $ps${sfx} ${op("add", op("mul", b, ld(at, q)), op("mul", cc, get("dd")))})`,
    );
    lines.push(e.flush("ps"));
    lines.push(st(at, q, get("ps")));
    lines.push(
      `(local.set $${t}${sfx} ${op("add", op("mul", get("dd"), this.coefficient(e, "i", d)), get("ps"))})`,
    );
    return get(t);
  }

  /**
   * An inverse step ("i"), CPML b or c along d: along z the cell group's loads ($iz, $bz,
   * $cz), along x and y the span's parameters.
   */
  private coefficient(e: Emitters, name: "i" | "b" | "c", d: number): string {
    return d === 2 ? e.get(`${name}z`) : e.par(`${name}${d === 0 ? "x" : "y"}`);
  }

  /** Component c's (ca, cb) of the cells at `shift` into $ca{v,s}, $cb{v,s} (mixed). */
  private gather(ty: Ty, shift: number, c: number): string[] {
    const pairs = this.pairs;
    const mix = this.grid.P.mixedEntries;
    if (ty === "s") {
      return [
        `(local.set $mo (i32.shl (i32.load16_u offset=${mix} (local.get $p${c})) (i32.const 3)))`,
        `(local.set $cas (f32.load offset=${pairs} (local.get $mo)))`,
        `(local.set $cbs (f32.load offset=${pairs + 4} (local.get $mo)))`,
      ];
    }
    // 4 entries (u16; a half vector's 2, the others 0) → byte offsets of their pairs; lanes
    // 0, 1 → $lov, 2, 3 → $hiv as [ca, cb, ca, cb]; then the even and the odd words make ca
    // and cb.
    const lane = (l: number) => `(i32x4.extract_lane ${l} (local.get $miv))`;
    const entries = ty === "h" ? "v128.load32_zero" : "v128.load64_zero";
    return [
      `(local.set $miv (i32x4.shl (i32x4.extend_low_i16x8_u (${entries} offset=${mix + shift / 2} align=2 (local.get $p${c}))) (i32.const 3)))`,
      `(local.set $lov (v128.load64_zero offset=${pairs} ${lane(0)}))`,
      `(local.set $lov (v128.load64_lane offset=${pairs} 1 ${lane(1)} (local.get $lov)))`,
      `(local.set $hiv (v128.load64_zero offset=${pairs} ${lane(2)}))`,
      `(local.set $hiv (v128.load64_lane offset=${pairs} 1 ${lane(3)} (local.get $hiv)))`,
      `(local.set $cav (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $lov) (local.get $hiv)))`,
      `(local.set $cbv (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $lov) (local.get $hiv)))`,
    ];
  }
}
