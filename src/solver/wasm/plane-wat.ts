/**
 * The fast kernel's plane functions ($hplane, $eplane): one kind's update of x-plane $i, row by
 * row. Where all three components are updated in a row, fused three-component spans
 * (fused-span-wat.ts) cover the cells they share, split where the z absorber begins and ends
 * and, for E, where the row's pieces end (runs.ts FusedPieces: a uniform piece's (ca, cb) are
 * passed in, a mixed piece's per-cell entry streams); the single-component row code
 * (kernel-wat.ts) takes the rest: the row ends outside the shared range, and whole rows where
 * not all three components are updated.
 */
import { fusedRange } from "./runs.js";
import type { WatGrid, ZSegment } from "./wat-grid.js";
import type { Kind } from "./wat-text.js";

/** One kind's plane function (see the module comment). */
export function planeWat(grid: WatGrid, kind: Kind): string {
  return new PlaneFunction(grid, kind).text();
}

/** `coefs(unit)`: a fused call's last arguments, for a variant with or without unit κ. */
type CoefArgs = (unit: boolean) => string;

class PlaneFunction {
  /** "h" or "e", as in the function names. */
  private readonly k: string;
  /** The kind's components (0–5). */
  private readonly comps: number[];
  /** The fused k range's z segments, and the cells [segStart, segEnd) they cover. */
  private readonly segs: ZSegment[];
  private readonly segStart: number;
  private readonly segEnd: number;
  /** Whether the grid has x and y absorber faces. */
  private readonly hasX: boolean;
  private readonly hasY: boolean;

  constructor(
    private readonly grid: WatGrid,
    private readonly kind: Kind,
  ) {
    this.k = kind.toLowerCase();
    this.comps = [0, 1, 2].map((c) => (kind === "E" ? c : 3 + c));
    // The fused k range: every component updated; z segments by the z absorber.
    const kF0 = Math.max(...this.comps.map((c) => grid.lo(c, 2)));
    const kF1 = Math.min(...this.comps.map((c) => grid.hi(c, 2) + 1));
    this.segs = grid.zAbsorberSegments(kind, kF0, kF1);
    const segs = this.segs;
    this.segStart = segs.length > 0 ? segs[0].k0 : kF0;
    this.segEnd = segs.length > 0 ? segs[segs.length - 1].k1 : kF0;
    this.hasX = grid.facesOf(0).length > 0;
    this.hasY = grid.facesOf(1).length > 0;
  }

  text(): string {
    const P = this.grid.P;
    const [sx, sy] = this.grid.L.strides;
    const jMin = Math.min(...this.comps.map((c) => this.grid.lo(c, 1)));
    const jMax = Math.max(...this.comps.map((c) => this.grid.hi(c, 1)));
    const allActive = `(i32.and (i32.and ${this.active(0)} ${this.active(1)}) ${this.active(2)})`;
    const rowpb = `(i32.add (i32.mul (local.get $set) (i32.const ${P.setBytes}))
            (i32.shl (i32.add (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${sx}))
              (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${sy}))) (i32.const 1)) (i32.const 2)))`;
    const canFuse = this.segs.length > 0;
    return `
  (func $${this.k}plane (param $i i32) (param $set i32)
    (local $j i32) (local $rowpb i32) (local $row i32) (local $a i32) (local $b i32)
    (local $r i32) (local $rEnd i32) (local $w i32) (local $k0 i32) (local $k1 i32) (local $mixed i32)
    (local $x0 i32) (local $x1 i32) (local $x2 i32)
    (local $psiSet i32) (local $ix f32) (local $iy f32) (local $fx i32) (local $fy i32)
    (local $bx f32) (local $cx f32) (local $by f32) (local $cy f32)
    (local $qxbase i32) (local $qybase i32) (local $qxrow i32) (local $qyrow i32)
    (local.set $psiSet (i32.mul (local.get $set) (i32.const ${P.psiSetBytes})))
    ${this.axisSetup(0)}
    (local.set $j (i32.const ${jMin}))
    (block $jdone (loop $jloop
      (br_if $jdone (i32.gt_s (local.get $j) (i32.const ${jMax})))
      (if (i32.and (i32.const ${canFuse ? 1 : 0}) ${allActive})
        (then
          ${this.axisSetup(1)}
          ${this.xRow()}
          ${this.hasY ? "(local.set $qyrow (local.get $qybase))" : ""}
          (local.set $rowpb ${rowpb})
          ${this.kind === "H" ? this.fusedH() : this.fusedE()}
          ${this.rowEnds(0)}
          ${this.rowEnds(1)}
          ${this.rowEnds(2)})
        (else
          ${this.wholeRow(0)}
          ${this.wholeRow(1)}
          ${this.wholeRow(2)}))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $jloop))))`;
  }

  /** Whether row ($i, $j) lies in component c's update range. */
  private active(c: number): string {
    const comp = this.comps[c];
    const inRange = (axis: number, v: string) =>
      `(i32.and (i32.ge_s ${v} (i32.const ${this.grid.lo(comp, axis)})) (i32.le_s ${v} (i32.const ${this.grid.hi(comp, axis)})))`;
    return `(i32.and ${inRange(0, "(local.get $i)")} ${inRange(1, "(local.get $j)")})`;
  }

  /** A call of component c's row code over cells [from, to) of row ($i, $j). */
  private rowCall(c: number, from: string, to: string): string {
    return `(call $${this.k}${c}r (local.get $i) (local.get $j) (local.get $set) ${from} ${to})`;
  }

  /** Component c's whole row by its row code, where the row is in its range. */
  private wholeRow(c: number): string {
    const comp = this.comps[c];
    if (!this.grid.stepped(comp)) return "";
    const from = `(i32.const ${this.grid.lo(comp, 2)})`;
    const to = `(i32.const ${this.grid.hi(comp, 2) + 1})`;
    return `(if ${this.active(c)} (then ${this.rowCall(c, from, to)}))`;
  }

  /**
   * Cells of a component outside the fused cells (k = 0 or n−1 where the components' ranges
   * differ): the general single-component row code.
   */
  private rowEnds(c: number): string {
    const comp = this.comps[c];
    if (!this.grid.stepped(comp)) return "";
    const lo = this.grid.lo(comp, 2);
    const end = this.grid.hi(comp, 2) + 1;
    const { segStart, segEnd } = this;
    const out: string[] = [];
    if (lo < segStart) out.push(this.rowCall(c, `(i32.const ${lo})`, `(i32.const ${segStart})`));
    if (segEnd < end) out.push(this.rowCall(c, `(i32.const ${segEnd})`, `(i32.const ${end})`));
    return out.join("\n          ");
  }

  /** x (per plane) and y (per row) absorber: flag, coefficients, ψ base of the face. */
  private axisSetup(d: 0 | 1): string {
    const n = d === 0 ? "x" : "y";
    return this.grid.absorberSetup(this.kind, d, 0, {
      inv: `i${n}`,
      on: `f${n}`,
      b: `b${n}`,
      c: `c${n}`,
      psi: `q${n}base`,
    });
  }

  /** x-slab ψ row: the plane's base plus (j+1) rows of the slab's (padded) z length. */
  private xRow(): string {
    if (!this.hasX) return "";
    return `(local.set $qxrow (i32.add (local.get $qxbase) (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${4 * this.grid.L.padded[2]}))))`;
  }

  /** H: one fused call per z segment of the fused cells. */
  private fusedH(): string {
    const zeroCoefs = () =>
      "(f32.const 0) (f32.const 0) (f32.const 0) (f32.const 0) (f32.const 0) (f32.const 0)";
    return this.segs
      .map((seg) =>
        this.fusedCall(seg, `(i32.const ${seg.k0})`, `(i32.const ${seg.k1})`, zeroCoefs),
      )
      .join("\n          ");
  }

  /**
   * E: the row's pieces (runs.ts FusedPieces), which cover exactly the fused cells, each by
   * fused calls of its z segments.
   */
  private fusedE(): string {
    const P = this.grid.P;
    const { segs, segStart, segEnd } = this;
    const [p0, p1] = fusedRange(this.grid.L);
    if (segs.length > 0 && (p0 !== segStart || p1 !== segEnd)) {
      throw new Error(`fused E cells [${segStart}, ${segEnd}) but pieces over [${p0}, ${p1})`);
    }
    const word = (w: number) => `(i32.load offset=${P.pieces + 4 * w} (local.get $w))`;
    return `
          (local.set $row (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${this.grid.L.padded[1]})) (i32.add (local.get $j) (i32.const 1))))
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
              ${this.segmentCases()}
              (local.set $a (local.get $b))
              (br $ploop)))
            (br $mloop)))`;
  }

  /**
   * The piece's cells from $a on: the segment of cell $a decides the variant (a piece crossing
   * the z absorber's edge takes one call per segment), $b is cut to the segment's end.
   */
  private segmentCases(): string {
    const min = (a: string, b: string) => `(select ${a} ${b} (i32.lt_s ${a} ${b}))`;
    return this.segs
      .map(
        (
          seg,
        ) => `(if (i32.and (i32.ge_s (local.get $a) (i32.const ${seg.k0})) (i32.lt_s (local.get $a) (i32.const ${seg.k1})))
              (then
                (local.set $b ${min("(local.get $b)", `(i32.const ${seg.k1})`)})
                (if (local.get $mixed)
                  (then ${this.fusedCall(seg, "(local.get $a)", "(local.get $b)", mixedStreams, true)})
                  (else ${this.fusedCall(seg, "(local.get $a)", "(local.get $b)", (unit) => this.uniformCoefs(unit))}))))`,
      )
      .join("\n            ");
  }

  /** A uniform piece: (ca, cb) of each component's entry ($x_c = 4·entry). */
  private uniformCoefs(unit: boolean): string {
    const P = this.grid.P;
    return [0, 1, 2]
      .map(
        (c) =>
          `(f32.load offset=${P.ca} (local.get $x${c})) (f32.load offset=${unit ? P.cbOverStep : P.cb} (local.get $x${c}))`,
      )
      .join(" ");
  }

  /**
   * The call of the fused variant for cells [a, b) of segment `seg` (static z face), chosen
   * at run time by the row's x and y absorber flags.
   */
  private fusedCall(seg: ZSegment, a: string, b: string, coefs: CoefArgs, mixed = false): string {
    const fz = seg.face !== null;
    const call = (fxOn: boolean, fyOn: boolean) =>
      `(call ${this.grid.fusedName(this.kind, fxOn, fyOn, fz, mixed)} ${this.fusedArgs(seg, a, b, coefs, fxOn, fyOn)})`;
    const yTree = (fxOn: boolean) =>
      this.hasY
        ? `(if (local.get $fy) (then ${call(fxOn, true)}) (else ${call(fxOn, false)}))`
        : call(fxOn, false);
    return this.hasX
      ? `(if (local.get $fx) (then ${yTree(true)}) (else ${yTree(false)}))`
      : yTree(false);
  }

  /** A fused call's arguments: pointers, the x/y coefficients, the ψ pointers, `coefs`. */
  private fusedArgs(
    seg: ZSegment,
    a: string,
    b: string,
    coefs: CoefArgs,
    fxOn: boolean,
    fyOn: boolean,
  ): string {
    const zq = seg.face
      ? `(i32.add (i32.add (local.get $psiSet) (i32.const ${seg.face.psi[0]})) (i32.shl (i32.add (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${seg.face.strides[0]})) (i32.mul (i32.add (local.get $j) (i32.const 1)) (i32.const ${seg.face.strides[1]}))) (i32.sub ${a} (i32.const ${seg.face.a0}))) (i32.const 2)))`
      : "(i32.const 0)";
    const unit = !fxOn && !fyOn && seg.face === null && this.grid.input.unitKappaStepM !== null;
    return `(i32.add (local.get $rowpb) (i32.shl ${a} (i32.const 2))) (i32.shl ${a} (i32.const 2)) (i32.sub ${b} ${a})
              (local.get $ix) (local.get $iy) (local.get $bx) (local.get $cx) (local.get $by) (local.get $cy)
              ${fxOn ? `(i32.add (local.get $qxrow) (i32.shl ${a} (i32.const 2)))` : "(i32.const 0)"}
              ${fyOn ? `(i32.add (local.get $qyrow) (i32.shl ${a} (i32.const 2)))` : "(i32.const 0)"}
              ${zq} ${coefs(unit)}`;
  }
}

/** A mixed piece: each component's entry stream ($x_c, bytes into it) from cell $a on. */
function mixedStreams(): string {
  return [0, 1, 2]
    .map(
      (c) =>
        `(i32.add (local.get $x${c}) (i32.shl (i32.sub (local.get $a) (local.get $k0)) (i32.const 1)))`,
    )
    .join(" ");
}
