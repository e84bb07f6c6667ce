/**
 * Generates the fast kernel's WebAssembly text (WAT, 128-bit SIMD) for one grid.
 *
 * Exports, each over one x-plane i of one field set (0 real, 1 imaginary):
 *   h(i, set, flush)  H bulk update with the CPML ψ terms fused in; with `flush` 1, stored
 *                   fields and ψ below flushBelow become 0 (flush.ts: every FLUSH_EVERY steps),
 *   e(i, set, flush)  E bulk update with the CPML ψ terms fused in,
 *   hPlanes(i0, i1, set, flush), ePlanes(…)  the same over planes i0 … i1−1 in one call (thin
 *                   grids, whose planes are a row or two each: wasm/thin.ts),
 *   energy(i, set)  Σ ε·|E|² + η0²·|H|² over the padded plane (f64),
 *   addTerm(…)      a source's injection terms over a run of cells (add-term-wat.ts),
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
 * the 0–3 cells left at the end of a span take a half vector (two cells) and a scalar (rows
 * are n+2 floats, so neither alignment nor a multiple of 4 can be assumed; unaligned v128
 * loads cost nothing extra here).
 *
 * Everything grid-specific (strides, array addresses, update ranges, the z extents of the
 * absorber) is baked in as constants: every field load is `v128.load offset=<array + Δ>` off
 * one running pointer, so the hot loop does no address arithmetic besides two increments.
 * Loops handle 8 cells per iteration, and all three components of a kind at once wherever
 * all three are updated (fused-span-wat.ts: shared loads, one loop overhead); single-component
 * spans (span-wat.ts, called by the row code here) cover the row ends where the components'
 * ranges differ and the rows where one of them is not updated. Spans are split where the z
 * absorber starts and ends (their ψ coefficients vary along the row), and for E also where a
 * piece of the row ends (runs.ts FusedPieces): a uniform piece's (ca, cb) are splatted once
 * per span, and a mixed piece, short stretches of smoothed interface cells merged, gathers
 * them per lane (fused-span-wat.ts). plane-wat.ts sweeps a plane's rows with them,
 * energy-wat.ts sums the energy; wat-grid.ts holds what they read of the grid, wat-text.ts
 * the text builders they share.
 *
 * Measured (docs/benchmarks.md): 65 → 49 instructions per cell-update at 128³ from fusing
 * the components and folding 1/h into the coefficients where κ = 1; on a lattice of 10³
 * small spheres, 50 → 77–84 % of the empty grid's rate from the mixed pieces (each span
 * costs about 10 ns, mostly its loops' mispredicted exits, so fewer, longer spans win even
 * at 3 instructions per cell and component for the gather).
 */
import { adeWat } from "./ade-wasm.js";
import { addTermWat } from "./add-term-wat.js";
import { energyWat } from "./energy-wat.js";
import { fusedSpanWat } from "./fused-span-wat.js";
import type { PsiFacePlan } from "./memory-plan.js";
import { planeWat } from "./plane-wat.js";
import { spanWat } from "./span-wat.js";
import { WatGrid, type KernelWatInput, type ZSegment } from "./wat-grid.js";
import { directions, f32c, type Kind } from "./wat-text.js";

export type { KernelWatInput } from "./wat-grid.js";

class Generator extends WatGrid {
  /** Static z segments of a component's row: [k0, k1) and the z face whose ψ applies. */
  private zSegments(kind: Kind, c: number): ZSegment[] {
    const comp = kind === "E" ? c : 3 + c;
    const kLo = this.lo(comp, 2);
    const kEnd = this.hi(comp, 2) + 1;
    if (kEnd <= kLo) return [];
    const { d1, d2 } = directions(kind, c);
    if (d1 !== 2 && d2 !== 2) return [{ k0: kLo, k1: kEnd, face: null }];
    return this.zAbsorberSegments(kind, kLo, kEnd);
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

  module(): string {
    const spans: string[] = [];
    for (const kind of ["H", "E"] as Kind[]) {
      for (let c = 0; c < 3; c++) {
        for (const p1 of [false, true])
          for (const p2 of [false, true]) spans.push(spanWat(this, kind, c, p1, p2));
      }
    }
    const rows = (["H", "E"] as Kind[]).flatMap((k) => [0, 1, 2].map((c) => this.row(k, c)));
    return `(module
  (import "env" "memory" (memory ${this.P.pages} ${this.P.pages} shared))
  (global $flush (mut i32) (i32.const 1))
  ${spans.join("\n")}
  ${rows.join("\n")}
  ${(["H", "E"] as Kind[])
    .flatMap((k) =>
      [0, 1, 2, 3, 4, 5, 6, 7]
        // Only variants whose absorbers exist (those alone are called).
        .filter((v) => [0, 1, 2].every((d) => (v & (1 << d)) === 0 || this.facesOf(d).length > 0))
        .flatMap((v) =>
          (k === "E" ? [false, true] : [false]).map((mixed) =>
            fusedSpanWat(this, k, (v & 1) !== 0, (v & 2) !== 0, (v & 4) !== 0, mixed),
          ),
        ),
    )
    .join("\n")}
  ${planeWat(this, "H")}
  ${planeWat(this, "E")}
  (func (export "h") (param $i i32) (param $set i32) (param $flush i32)
    (global.set $flush (local.get $flush))
    (call $hplane (local.get $i) (local.get $set)))
  (func (export "e") (param $i i32) (param $set i32) (param $flush i32)
    (global.set $flush (local.get $flush))
    (call $eplane (local.get $i) (local.get $set)))
  ${(["h", "e"] as const)
    .map(
      (
        k,
      ) => `(func (export "${k}Planes") (param $i0 i32) (param $i1 i32) (param $set i32) (param $flush i32)
    (global.set $flush (local.get $flush))
    (block $done (loop $next
      (br_if $done (i32.ge_s (local.get $i0) (local.get $i1)))
      (call $${k}plane (local.get $i0) (local.get $set))
      (local.set $i0 (i32.add (local.get $i0) (i32.const 1)))
      (br $next))))`,
    )
    .join("\n  ")}
  ${energyWat(this)}
  ${addTermWat()}
  ${this.input.ade ? adeWat(f32c(this.input.flushBelow)) : ""}
)`;
  }
}

/** The kernel module's WAT text for one grid and memory plan. */
export function kernelWat(input: KernelWatInput): string {
  return new Generator(input).module();
}
