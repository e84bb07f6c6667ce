/**
 * The fast kernel's single-component span functions ($hs0_00 … $es2_11): one component's
 * update over cells [k0, k0+n) of a row, with or without the ψ term of each of its two
 * derivatives. The row code (kernel-wat.ts) calls them for the rows and row ends the fused
 * spans (fused-span-wat.ts) do not cover; along z their coefficients are loaded per cell,
 * along x and y they are the span's parameters.
 */
import type { WatGrid } from "./wat-grid.js";
import {
  ABS_MASK,
  advancePointer,
  countDown,
  curlOf,
  directions,
  emitters,
  f32c,
  spanLoops,
  stepBytes,
  type Emitters,
  type Kind,
  type Ty,
} from "./wat-text.js";

/** One span function: cells [k0, k0+n) of a row, ψ on the d1 / d2 derivative or not. */
export function spanWat(
  grid: WatGrid,
  kind: Kind,
  c: number,
  psi1: boolean,
  psi2: boolean,
): string {
  return new ComponentSpan(grid, kind, c, psi1, psi2).text();
}

class ComponentSpan {
  private readonly d1: number;
  private readonly d2: number;
  /** Whether the d1 / d2 difference is exactly zero (an invariant axis: left out). */
  private readonly flat1: boolean;
  private readonly flat2: boolean;
  private readonly st: ReturnType<WatGrid["streams"]>;
  private readonly arr: ReturnType<WatGrid["coefArrays"]>;
  /** dt/μ0 and the flush threshold as f32 constants. */
  private readonly ch: string;
  private readonly tiny: string;

  constructor(
    grid: WatGrid,
    private readonly kind: Kind,
    private readonly c: number,
    private readonly psi1: boolean,
    private readonly psi2: boolean,
  ) {
    const { d1, d2 } = directions(kind, c);
    this.d1 = d1;
    this.d2 = d2;
    this.flat1 = grid.invariant(d1);
    this.flat2 = grid.invariant(d2);
    this.st = grid.streams(kind, c);
    this.arr = grid.coefArrays(kind);
    this.ch = f32c(grid.input.hCoefficient);
    this.tiny = f32c(grid.input.flushBelow);
  }

  text(): string {
    const { kind, c, psi1, psi2 } = this;
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
    (local.set $tinyv (f32x4.splat (f32.const ${this.tiny})))
    (local.set $absv ${ABS_MASK})
    (local.set $chv (f32x4.splat (f32.const ${this.ch})))
    ${spanLoops((ty, unroll, flush) => this.body(ty, unroll, flush))})`;
  }

  /**
   * One loop iteration: `unroll` vectors (or a half vector, or a scalar) of cells at byte 16·u
   * past the running pointers (the copies differ only in their offset immediates), then the
   * pointers' advance.
   */
  private body(ty: Ty, unroll: number, flush: boolean): string {
    return [...Array(unroll).keys()]
      .flatMap((u) => this.cells(ty, u * 16, flush))
      .concat(this.advance(ty, unroll))
      .join("\n        ");
  }

  /** The running pointers (4 bytes per cell each). */
  private pointers(): string[] {
    return ["pb", "K", ...(this.psi1 ? ["q1"] : []), ...(this.psi2 ? ["q2"] : [])];
  }

  private advance(ty: Ty, unroll: number): string[] {
    const bytes = stepBytes(ty, unroll);
    return [...this.pointers().map((q) => advancePointer(q, bytes)), countDown(ty, unroll)];
  }

  /** One cell group's update: differences, ψ terms, the curl, the stored value. */
  private cells(ty: Ty, shift: number, flush: boolean): string[] {
    const e = emitters(ty, shift, this.tiny, flush);
    const lines = this.differences(e);
    if (this.psi1 && !this.flat1) lines.push(...this.psiTerm(e, 1, this.d1, "d2"));
    if (this.psi2 && !this.flat2) lines.push(...this.psiTerm(e, 2, this.d2, "d1"));
    const curl = curlOf(ty, this.flat1 ? null : e.get("t1"), this.flat2 ? null : e.get("t2"));
    lines.push(this.updated(e, ty, curl));
    lines.push(e.flush("o"));
    lines.push(e.st(this.st.f, "pb", e.get("o")));
    return lines;
  }

  /**
   * A per-direction coefficient (inverse step, CPML b or c): along z a per-k load (the
   * inverse steps are padded, index k + 1), along x and y the span's constant.
   */
  private coefficient(e: Emitters, name: "inv" | "b" | "c", slot: 1 | 2, d: number): string {
    if (d !== 2) return e.par(`${name}${slot}`);
    return e.ld(this.arr[name][2] + (name === "inv" ? 4 : 0), "K");
  }

  /** The differences Δ_{d1}G_{d2} ($d2) and Δ_{d2}G_{d1} ($d1), each over its step ($t1, $t2). */
  private differences(e: Emitters): string[] {
    const { sfx, ld, op, get } = e;
    const st = this.st;
    const lines: string[] = [];
    if (!this.flat1) {
      lines.push(`(local.set $d2${sfx} ${op("sub", ld(st.g2[0], "pb"), ld(st.g2[1], "pb"))})`);
      lines.push(
        `(local.set $t1${sfx} ${op("mul", get("d2"), this.coefficient(e, "inv", 1, this.d1))})`,
      );
    }
    if (!this.flat2) {
      lines.push(`(local.set $d1${sfx} ${op("sub", ld(st.g1[0], "pb"), ld(st.g1[1], "pb"))})`);
      lines.push(
        `(local.set $t2${sfx} ${op("mul", get("d1"), this.coefficient(e, "inv", 2, this.d2))})`,
      );
    }
    return lines;
  }

  /** ψ ← b·ψ + c·Δ (stored, flushed) and its addition to the derivative $t{slot}. */
  private psiTerm(e: Emitters, slot: 1 | 2, d: number, diff: string): string[] {
    const { sfx, ld, op, get } = e;
    const b = this.coefficient(e, "b", slot, d);
    const c = this.coefficient(e, "c", slot, d);
    return [
      `(local.set $ps${sfx} ${op("add", op("mul", b, ld(0, `q${slot}`)), op("mul", c, get(diff)))})`,
      e.flush("ps"),
      e.st(0, `q${slot}`, get("ps")),
      `(local.set $t${slot}${sfx} ${op("add", get(`t${slot}`), get("ps"))})`,
    ];
  }

  /** $o: H − ch·curl, or ca·E + cb·curl. */
  private updated(e: Emitters, ty: Ty, curl: string): string {
    const { sfx, ld, op, par } = e;
    const f = ld(this.st.f, "pb");
    if (this.kind === "H") {
      const chv = ty === "s" ? `(f32.const ${this.ch})` : `(local.get $chv)`;
      return `(local.set $o${sfx} ${op("sub", f, op("mul", chv, curl))})`;
    }
    return `(local.set $o${sfx} ${op("add", op("mul", par("ca"), f), op("mul", par("cb"), curl))})`;
  }
}
