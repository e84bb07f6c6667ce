/**
 * The kernel's `addTerm` export: a source's injection terms (sources/injection.ts) added to a
 * field array in the kernel's memory, F += w·drive over a block of `rows` runs of `n` cells
 * (byte strides dp along a run and pRow between runs; dw and wRow for the weights), with the
 * weights (float64) in that memory too (memory-plan.ts). Each value is what `addTerm` in
 * JavaScript gives: float32 → float64, plus the float64 product, rounded once to float32.
 * Contiguous runs (a field stride of 4 bytes and a weight stride of 8) take two cells per
 * step in f64x2; a strided run, or a run's last odd cell, one.
 *
 * Why: a mode source or a plane wave adds its terms over whole planes every half step; in
 * JavaScript, a run at a time, that took about 4 ns a cell (a tenth of the stepping of a
 * 2-port S-parameter job), all on the thread whose slab holds the plane.
 */
export function addTermWat(): string {
  return `
  (func $addRun (param $p i32) (param $dp i32) (param $w i32) (param $dw i32) (param $n i32)
    (param $d f64)
    (local $dv v128)
    (if (i32.and (i32.eq (local.get $dp) (i32.const 4)) (i32.eq (local.get $dw) (i32.const 8)))
      (then
        (local.set $dv (f64x2.splat (local.get $d)))
        (block $pdone (loop $pairs
          (br_if $pdone (i32.lt_s (local.get $n) (i32.const 2)))
          (v128.store64_lane align=4 0 (local.get $p)
            (f32x4.demote_f64x2_zero
              (f64x2.add
                (f64x2.promote_low_f32x4 (v128.load64_zero align=4 (local.get $p)))
                (f64x2.mul (v128.load align=8 (local.get $w)) (local.get $dv)))))
          (local.set $p (i32.add (local.get $p) (i32.const 8)))
          (local.set $w (i32.add (local.get $w) (i32.const 16)))
          (local.set $n (i32.sub (local.get $n) (i32.const 2)))
          (br $pairs)))))
    (block $done (loop $cells
      (br_if $done (i32.le_s (local.get $n) (i32.const 0)))
      (f32.store (local.get $p)
        (f32.demote_f64
          (f64.add
            (f64.promote_f32 (f32.load (local.get $p)))
            (f64.mul (f64.load (local.get $w)) (local.get $d)))))
      (local.set $p (i32.add (local.get $p) (local.get $dp)))
      (local.set $w (i32.add (local.get $w) (local.get $dw)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $cells))))
  (func (export "addTerm") (param $p i32) (param $dp i32) (param $pRow i32)
    (param $w i32) (param $dw i32) (param $wRow i32) (param $n i32) (param $rows i32)
    (param $d f64)
    (block $done (loop $row
      (br_if $done (i32.le_s (local.get $rows) (i32.const 0)))
      (call $addRun (local.get $p) (local.get $dp) (local.get $w) (local.get $dw) (local.get $n)
        (local.get $d))
      (local.set $p (i32.add (local.get $p) (local.get $pRow)))
      (local.set $w (i32.add (local.get $w) (local.get $wRow)))
      (local.set $rows (i32.sub (local.get $rows) (i32.const 1)))
      (br $row))))`;
}
