/**
 * The fast kernel's `energy(i, set)` export: Σ ε·|E|² + η0²·|H|² over x-plane i of one field set,
 * in float64. Every stored value of the padded plane is summed with the background's ε (entry
 * 0) or η0²; then, per E component, the material runs of each row in its update range add
 * (ε_m − ε_0)·Σ|E|² over their cells where their entry m is not the background. $sumsq sums
 * the squares of a stretch of float32 values, four at a time, each squared in float64: a
 * dipole's near field on fine cells is well within float32 (1e19 V/m for 1 A·m on 5 nm cells)
 * while its square is not (float32 ends at 3.4e38), and a float32 square made the sum infinite
 * and the run "diverged".
 */
import type { WatGrid } from "./wat-grid.js";

/** Σ x² over $n floats from byte $p, in f64 (an f64x2 accumulator, then a scalar tail). */
const SUMSQ = `
  (func $sumsq (param $p i32) (param $n i32) (result f64)
    (local $acc v128) (local $v v128) (local $d v128) (local $s f64) (local $x f64)
    (block $vdone (loop $vloop
      (br_if $vdone (i32.lt_s (local.get $n) (i32.const 4)))
      (local.set $v (v128.load align=4 (local.get $p)))
      (local.set $d (f64x2.promote_low_f32x4 (local.get $v)))
      (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (local.get $d) (local.get $d))))
      (local.set $d (f64x2.promote_low_f32x4
        (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v))))
      (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (local.get $d) (local.get $d))))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (local.set $n (i32.sub (local.get $n) (i32.const 4)))
      (br $vloop)))
    (local.set $s (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc))))
    (block $sdone (loop $sloop
      (br_if $sdone (i32.le_s (local.get $n) (i32.const 0)))
      (local.set $x (f64.promote_f32 (f32.load (local.get $p))))
      (local.set $s (f64.add (local.get $s) (f64.mul (local.get $x) (local.get $x))))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $sloop)))
    (local.get $s))`;

/** $sumsq and the energy export. */
export function energyWat(grid: WatGrid): string {
  const P = grid.P;
  const [sx] = grid.L.strides;
  const planeSum = (comps: number[]) =>
    comps
      .map(
        (c) =>
          `(call $sumsq (i32.add (local.get $plane) (i32.const ${P.components[c]})) (i32.const ${sx}))`,
      )
      .reduce((a, b) => `(f64.add ${a} ${b})`);
  const materialTerms = [0, 1, 2].map((c) => materialTerm(grid, c)).join("");
  return `${SUMSQ}
  (func (export "energy") (param $i i32) (param $set i32) (result f64)
    (local $setOff i32) (local $plane i32) (local $sum f64) (local $eps0 f64)
    (local $j i32) (local $row i32) (local $rowpb i32) (local $r i32) (local $rEnd i32)
    (local $e i32) (local $m i32) (local $k0 i32) (local $k1 i32)
    (local.set $setOff (i32.mul (local.get $set) (i32.const ${P.setBytes})))
    (local.set $plane (i32.add (local.get $setOff) (i32.shl (i32.mul (i32.add (local.get $i) (i32.const 1)) (i32.const ${sx})) (i32.const 2))))
    (local.set $eps0 (f64.promote_f32 (f32.load offset=${P.eps} (i32.const 0))))
    (local.set $sum (f64.add
      (f64.mul (local.get $eps0) ${planeSum([0, 1, 2])})
      (f64.mul (f64.const ${grid.input.eta0Squared}) ${planeSum([3, 4, 5])})))
    ${materialTerms}
    (local.get $sum))`;
}

/**
 * E component c's correction for the materials: over the rows of plane $i in its update range,
 * each material run (runs.ts) whose entry m is not the background adds (ε_m − ε_0)·Σ|E|².
 */
function materialTerm(grid: WatGrid, c: number): string {
  const P = grid.P;
  const L = grid.L;
  const [sx, sy] = L.strides;
  const rs = P.runStart[c];
  const runs = P.runs[c];
  const kEnd = grid.hi(c, 2) + 1;
  return `
    (if (i32.and (i32.ge_s (local.get $i) (i32.const ${grid.lo(c, 0)})) (i32.le_s (local.get $i) (i32.const ${grid.hi(c, 0)})))
      (then
        (local.set $j (i32.const ${grid.lo(c, 1)}))
        (block $jdone (loop $jloop
          (br_if $jdone (i32.gt_s (local.get $j) (i32.const ${grid.hi(c, 1)})))
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
}
