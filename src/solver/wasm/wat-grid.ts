/**
 * The grid as the fast kernel's WAT generators see it (kernel-wat.ts and the parts it
 * assembles: span-wat.ts, fused-span-wat.ts, plane-wat.ts, energy-wat.ts): the generator's
 * input, the components and axes that are stepped, the update ranges, the absorber faces and
 * their z segments, the byte offsets of the streams a span reads, and the code that loads an
 * x or y absorber's state.
 */
import type { YeeLayout } from "../grid.js";
import type { FastMemoryPlan, PsiFacePlan } from "./memory-plan.js";
import { directions, type Kind } from "./wat-text.js";

/** What a kernel is generated from (engine.ts fills it in for kernelWat). */
export interface KernelWatInput {
  layout: YeeLayout;
  plan: FastMemoryPlan;
  /** dt/μ0 (rounded to f32 in the kernel). */
  hCoefficient: number;
  /** η0², for the energy. */
  eta0Squared: number;
  /**
   * Stored values (fields and ψ) smaller in magnitude than this are stored as zero, so no
   * float32 denormal ever enters the arithmetic (see flush.ts).
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
   * wasm/thin.ts): every difference along it is exactly zero, so its terms are left out and
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

/** Cells [k0, k1) of a row and the z absorber face whose ψ applies there (null: none). */
export interface ZSegment {
  k0: number;
  k1: number;
  face: PsiFacePlan | null;
}

/** Locals an absorber set-up loads (WatGrid.absorberSetup). */
export interface AbsorberLocals {
  inv: string;
  on: string;
  b: string;
  c: string;
  psi: string;
}

/** The generators' common base (see the module comment); kernel-wat.ts's Generator extends it. */
export class WatGrid {
  /** The grid's layout and the kernel's memory plan. */
  readonly L: YeeLayout;
  readonly P: FastMemoryPlan;
  /** Element strides along x, y, z. */
  readonly stride: [number, number, number];

  constructor(readonly input: KernelWatInput) {
    this.L = input.layout;
    this.P = input.plan;
    this.stride = [this.L.strides[0], this.L.strides[1], 1];
  }

  /** Whether component `comp` (0–5) is updated at all (see steppedComponents). */
  stepped(comp: number): boolean {
    return this.input.steppedComponents?.[comp] ?? true;
  }

  /** Whether the fields do not vary along `axis` (its difference terms are left out). */
  invariant(axis: number): boolean {
    return this.input.invariantAxes?.[axis] ?? false;
  }

  lo(comp: number, axis: number) {
    return this.L.lo[comp * 3 + axis];
  }
  hi(comp: number, axis: number) {
    return this.L.hi[comp * 3 + axis];
  }
  facesOf(axis: number): PsiFacePlan[] {
    return this.P.faces.filter((f) => f.axis === axis);
  }

  /** Byte offsets (from pb = set·setBytes + 4·p) of the streams one span reads and writes. */
  streams(kind: Kind, c: number) {
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

  coefArrays(kind: Kind) {
    const P = this.P;
    return kind === "E"
      ? { inv: P.invNode, b: P.bNode, c: P.cNode }
      : { inv: P.invHalf, b: P.bHalf, c: P.cHalf };
  }

  /**
   * Cells [k0, k1) split where the z absorber's ψ starts and ends for `kind` (their ψ
   * coefficients vary along the row): the low face's cells, the middle, the high face's.
   */
  zAbsorberSegments(kind: Kind, k0: number, k1: number): ZSegment[] {
    const [zA, zB] = kind === "E" ? this.input.zAbsorber.node : this.input.zAbsorber.half;
    const faces = this.facesOf(2);
    const loFace = faces.find((f) => f.side === "lo") ?? null;
    const hiFace = faces.find((f) => f.side === "hi") ?? null;
    const segs: ZSegment[] = [];
    let a = k0;
    if (loFace && zA > a) {
      const b = Math.min(zA, k1);
      if (b > a) segs.push({ k0: a, k1: b, face: loFace });
      a = Math.max(a, b);
    }
    const midEnd = hiFace ? Math.max(a, Math.min(zB, k1)) : k1;
    if (midEnd > a) segs.push({ k0: a, k1: midEnd, face: null });
    if (hiFace && k1 > midEnd) segs.push({ k0: midEnd, k1, face: hiFace });
    return segs;
  }

  /**
   * Code that loads the x (d = 0, once per plane) or y (d = 1, once per row) absorber state
   * into the named locals: the inverse step, a flag that ψ applies here, CPML b and c, and
   * the byte address of ψ slot `q` at (i, j, k = 0) (along x without the row part, which the
   * row code adds as (j+1) rows of the slab's z length).
   */
  absorberSetup(kind: Kind, d: 0 | 1, q: number, locals: AbsorberLocals): string {
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

  /** Name of a fused span function: $ef011 (E, y and z absorbers), $ef000m (mixed), … */
  fusedName(kind: Kind, fx: boolean, fy: boolean, fz: boolean, mixed: boolean): string {
    const flags = [fx, fy, fz].map((f) => (f ? 1 : 0)).join("");
    return `$${kind.toLowerCase()}f${flags}${mixed ? "m" : ""}`;
  }

  /** ψ slot of component c's derivative along d (cpml.ts order), for E or H. */
  slotOf(kind: Kind, c: number, d: number): number {
    const { d1, q1, q2 } = directions(kind, c);
    return d === d1 ? q1 : q2;
  }

  /**
   * Byte offset of ψ[q] from ψ[0] on the faces of one axis; the fused spans address every
   * ψ array of a face off one pointer, so both faces must share it (they do: pml_layers is
   * the same on both faces).
   */
  psiOffset(axis: number, q: number): number {
    const faces = this.facesOf(axis);
    const off = faces[0].psi[q] - faces[0].psi[0];
    for (const f of faces) {
      if (f.psi[q] - f.psi[0] !== off) throw new Error("absorber faces of unequal thickness");
    }
    return off;
  }
}
