/**
 * WebAssembly SIMD kernels for the LU's dense work (lu.ts, dense-front.ts): the row updates
 * of a front (the Schur complement F22 − L21·U12 and the block solve U12 = L11⁻¹·F12) and the
 * dot products of the triangular solves, on complex matrices stored as separate real and
 * imaginary planes (sparse.ts's layout) in one linear memory per factorisation.
 *
 * Why WebAssembly: V8 neither vectorises typed-array loops nor drops their bounds checks,
 * and on the 2 × 1.5 µm plane at 10 nm (bench/modes.ts) these loops were 80 % of a solve in
 * plain JavaScript (Schur updates 1.8 s, triangular solves 2.7 s). With f64x2 lanes along
 * the row (the updates) or along the sum (the dot products) the numeric factorisation went
 * from 2.1 to 0.55 s and one solve from 58 to 23 ms (docs/benchmarks.md, "Mode solver").
 * The updates subtract the k terms in the same order and with the same expressions as the
 * scalar loops did (WebAssembly has no fused multiply-add); the dot products sum in four
 * lanes, a different rounding order (n_eff moved in the 15th digit on the benchmark).
 *
 * The text is compiled once per process with npm `wabt` (as the FDTD's WebAssembly backend
 * does) behind a top-level await, so that the solver's API stays synchronous: importing this
 * module takes about 50 ms the first time (loading and initialising wabt), and it can only
 * be imported as an ES module (a CommonJS require() of it fails with ERR_REQUIRE_ASYNC_MODULE).
 */
import wabtInit from "wabt";

/**
 * WAT of a complex dot product (re, im) = Σ_k a[k]·x[k] over len elements, or Σ conj(a[k])·x[k]
 * with `conj`. Four elements per iteration in two pairs of f64x2 accumulators (with one
 * pair every iteration's additions would wait on the previous one's), then a last pair, then
 * the odd element.
 */
function dotWat(name: string, conj: boolean): string {
  const [reOp, imOp] = conj ? ["add", "sub"] : ["sub", "add"];
  const pair = (at: string, sr: string, si: string) => `
      (local.set $a (v128.load offset=${at} (local.get $ar)))
      (local.set $b (v128.load offset=${at} (local.get $ai)))
      (local.set $c (v128.load offset=${at} (local.get $xr)))
      (local.set $d (v128.load offset=${at} (local.get $xi)))
      (local.set ${sr} (f64x2.add (local.get ${sr}) (f64x2.${reOp}
        (f64x2.mul (local.get $a) (local.get $c)) (f64x2.mul (local.get $b) (local.get $d)))))
      (local.set ${si} (f64x2.add (local.get ${si}) (f64x2.${imOp}
        (f64x2.mul (local.get $a) (local.get $d)) (f64x2.mul (local.get $b) (local.get $c)))))`;
  const advance = (bytes: number) =>
    ["$ar", "$ai", "$xr", "$xi"]
      .map((v) => `(local.set ${v} (i32.add (local.get ${v}) (i32.const ${bytes})))`)
      .join(" ");
  const exported = conj ? ` (export "dotc")` : "";
  return `  (func ${name}${exported} (param $ar i32) (param $ai i32) (param $xr i32) (param $xi i32)
      (param $len i32) (result f64 f64)
    (local $sr v128) (local $si v128) (local $sr1 v128) (local $si1 v128) (local $a v128)
    (local $b v128) (local $c v128) (local $d v128) (local $end i32) (local $r f64) (local $i f64)
    (local.set $end (i32.add (local.get $ar)
      (i32.shl (i32.and (local.get $len) (i32.const -4)) (i32.const 3))))
    (block $done (loop $quads
      (br_if $done (i32.ge_u (local.get $ar) (local.get $end)))${pair("0", "$sr", "$si")}${pair("16", "$sr1", "$si1")}
      ${advance(32)}
      (br $quads)))
    (local.set $sr (f64x2.add (local.get $sr) (local.get $sr1)))
    (local.set $si (f64x2.add (local.get $si) (local.get $si1)))
    (if (i32.and (local.get $len) (i32.const 2)) (then${pair("0", "$sr", "$si")}
      ${advance(16)}))
    (local.set $r (f64.add (f64x2.extract_lane 0 (local.get $sr)) (f64x2.extract_lane 1 (local.get $sr))))
    (local.set $i (f64.add (f64x2.extract_lane 0 (local.get $si)) (f64x2.extract_lane 1 (local.get $si))))
    (if (i32.and (local.get $len) (i32.const 1)) (then
      (local.set $r (f64.add (local.get $r) (f64.${reOp}
        (f64.mul (f64.load (local.get $ar)) (f64.load (local.get $xr)))
        (f64.mul (f64.load (local.get $ai)) (f64.load (local.get $xi))))))
      (local.set $i (f64.add (local.get $i) (f64.${imOp}
        (f64.mul (f64.load (local.get $ar)) (f64.load (local.get $xi)))
        (f64.mul (f64.load (local.get $ai)) (f64.load (local.get $xr))))))))
    (local.get $r) (local.get $i))`;
}

/** Byte offsets and strides are in bytes; lengths and counts in elements. */
const KERNELS_WAT = `(module
  (import "env" "memory" (memory 1))

${dotWat("$dot", false)}
${dotWat("$dotc", true)}
  ;; y[i] −= Σ_k A[i, k]·x[k] for rows × cols of A (row stride lda bytes).
  (func (export "dotSub") (param $ar i32) (param $ai i32) (param $lda i32) (param $rows i32)
      (param $cols i32) (param $xr i32) (param $xi i32) (param $yr i32) (param $yi i32)
    (local $row i32) (local $r f64) (local $i f64)
    (block $done (loop $each
      (br_if $done (i32.ge_u (local.get $row) (local.get $rows)))
      (call $dot (local.get $ar) (local.get $ai) (local.get $xr) (local.get $xi) (local.get $cols))
      (local.set $i) (local.set $r)
      (f64.store (local.get $yr) (f64.sub (f64.load (local.get $yr)) (local.get $r)))
      (f64.store (local.get $yi) (f64.sub (f64.load (local.get $yi)) (local.get $i)))
      (local.set $ar (i32.add (local.get $ar) (local.get $lda)))
      (local.set $ai (i32.add (local.get $ai) (local.get $lda)))
      (local.set $yr (i32.add (local.get $yr) (i32.const 8)))
      (local.set $yi (i32.add (local.get $yi) (i32.const 8)))
      (local.set $row (i32.add (local.get $row) (i32.const 1)))
      (br $each))))

  ;; y ← L⁻¹y for the unit lower triangle of a p × p block (row stride ld bytes).
  (func (export "lowerSolve") (param $lr i32) (param $li i32) (param $ld i32) (param $p i32)
      (param $yr i32) (param $yi i32)
    (local $row i32) (local $r f64) (local $i f64) (local $o i32)
    (local.set $row (i32.const 1))
    (block $done (loop $each
      (br_if $done (i32.ge_u (local.get $row) (local.get $p)))
      (local.set $o (i32.mul (local.get $row) (local.get $ld)))
      (call $dot (i32.add (local.get $lr) (local.get $o)) (i32.add (local.get $li) (local.get $o))
        (local.get $yr) (local.get $yi) (local.get $row))
      (local.set $i) (local.set $r)
      (local.set $o (i32.shl (local.get $row) (i32.const 3)))
      (f64.store (i32.add (local.get $yr) (local.get $o))
        (f64.sub (f64.load (i32.add (local.get $yr) (local.get $o))) (local.get $r)))
      (f64.store (i32.add (local.get $yi) (local.get $o))
        (f64.sub (f64.load (i32.add (local.get $yi) (local.get $o))) (local.get $i)))
      (local.set $row (i32.add (local.get $row) (i32.const 1)))
      (br $each))))

  ;; y ← U⁻¹y for the upper triangle (diagonal included) of a p × p block.
  (func (export "upperSolve") (param $ur i32) (param $ui i32) (param $ld i32) (param $p i32)
      (param $yr i32) (param $yi i32)
    (local $row i32) (local $r f64) (local $i f64) (local $o i32) (local $e i32)
    (local $dr f64) (local $di f64) (local $d f64)
    (local.set $row (local.get $p))
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $row)))
      (local.set $row (i32.sub (local.get $row) (i32.const 1)))
      (local.set $o (i32.add (i32.mul (local.get $row) (local.get $ld)) (i32.shl (local.get $row) (i32.const 3))))
      (local.set $e (i32.shl (local.get $row) (i32.const 3)))
      (call $dot (i32.add (i32.add (local.get $ur) (local.get $o)) (i32.const 8))
        (i32.add (i32.add (local.get $ui) (local.get $o)) (i32.const 8))
        (i32.add (i32.add (local.get $yr) (local.get $e)) (i32.const 8))
        (i32.add (i32.add (local.get $yi) (local.get $e)) (i32.const 8))
        (i32.sub (i32.sub (local.get $p) (local.get $row)) (i32.const 1)))
      (local.set $i) (local.set $r)
      (local.set $r (f64.sub (f64.load (i32.add (local.get $yr) (local.get $e))) (local.get $r)))
      (local.set $i (f64.sub (f64.load (i32.add (local.get $yi) (local.get $e))) (local.get $i)))
      (local.set $dr (f64.load (i32.add (local.get $ur) (local.get $o))))
      (local.set $di (f64.load (i32.add (local.get $ui) (local.get $o))))
      (local.set $d (f64.add (f64.mul (local.get $dr) (local.get $dr)) (f64.mul (local.get $di) (local.get $di))))
      (f64.store (i32.add (local.get $yr) (local.get $e)) (f64.div
        (f64.add (f64.mul (local.get $r) (local.get $dr)) (f64.mul (local.get $i) (local.get $di))) (local.get $d)))
      (f64.store (i32.add (local.get $yi) (local.get $e)) (f64.div
        (f64.sub (f64.mul (local.get $i) (local.get $dr)) (f64.mul (local.get $r) (local.get $di))) (local.get $d)))
      (br $each))))

  ;; y −= l·x over n elements, y at (fr + dst, fi + dst) and x at (fr + src, fi + src): a row
  ;; of a front against another, or two vectors of one complex array.
  (func $axpyRow (export "axpy") (param $fr i32) (param $fi i32) (param $dst i32) (param $src i32) (param $n i32)
      (param $lr f64) (param $li f64)
    (local $vlr v128) (local $vli v128) (local $ur v128) (local $ui v128) (local $end i32)
    (local $a f64) (local $b f64)
    (local.set $vlr (f64x2.splat (local.get $lr)))
    (local.set $vli (f64x2.splat (local.get $li)))
    (local.set $end (i32.add (local.get $dst) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done (loop $pairs
      (br_if $done (i32.ge_u (local.get $dst) (local.get $end)))
      (local.set $ur (v128.load (i32.add (local.get $fr) (local.get $src))))
      (local.set $ui (v128.load (i32.add (local.get $fi) (local.get $src))))
      (v128.store (i32.add (local.get $fr) (local.get $dst)) (f64x2.sub
        (v128.load (i32.add (local.get $fr) (local.get $dst)))
        (f64x2.sub (f64x2.mul (local.get $vlr) (local.get $ur)) (f64x2.mul (local.get $vli) (local.get $ui)))))
      (v128.store (i32.add (local.get $fi) (local.get $dst)) (f64x2.sub
        (v128.load (i32.add (local.get $fi) (local.get $dst)))
        (f64x2.add (f64x2.mul (local.get $vlr) (local.get $ui)) (f64x2.mul (local.get $vli) (local.get $ur)))))
      (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
      (local.set $src (i32.add (local.get $src) (i32.const 16)))
      (br $pairs)))
    (if (i32.and (local.get $n) (i32.const 1)) (then
      (local.set $a (f64.load (i32.add (local.get $fr) (local.get $src))))
      (local.set $b (f64.load (i32.add (local.get $fi) (local.get $src))))
      (f64.store (i32.add (local.get $fr) (local.get $dst)) (f64.sub
        (f64.load (i32.add (local.get $fr) (local.get $dst)))
        (f64.sub (f64.mul (local.get $lr) (local.get $a)) (f64.mul (local.get $li) (local.get $b)))))
      (f64.store (i32.add (local.get $fi) (local.get $dst)) (f64.sub
        (f64.load (i32.add (local.get $fi) (local.get $dst)))
        (f64.add (f64.mul (local.get $lr) (local.get $b)) (f64.mul (local.get $li) (local.get $a))))))))

  ;; F[dst] −= l1·F[src1] + l2·F[src2] (subtracted in that order), as $axpyRow: two rows of
  ;; U12 per pass over a row of F22 halve the loads and stores of F22.
  (func $axpy2Row (param $fr i32) (param $fi i32) (param $dst i32) (param $s1 i32) (param $s2 i32)
      (param $n i32) (param $l1r f64) (param $l1i f64) (param $l2r f64) (param $l2i f64)
    (local $ar v128) (local $ai v128) (local $br v128) (local $bi v128) (local $xr v128)
    (local $xi v128) (local $yr v128) (local $yi v128) (local $fre v128) (local $fim v128)
    (local $end i32)
    (local.set $ar (f64x2.splat (local.get $l1r)))
    (local.set $ai (f64x2.splat (local.get $l1i)))
    (local.set $br (f64x2.splat (local.get $l2r)))
    (local.set $bi (f64x2.splat (local.get $l2i)))
    (local.set $end (i32.add (local.get $dst) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done (loop $pairs
      (br_if $done (i32.ge_u (local.get $dst) (local.get $end)))
      (local.set $xr (v128.load (i32.add (local.get $fr) (local.get $s1))))
      (local.set $xi (v128.load (i32.add (local.get $fi) (local.get $s1))))
      (local.set $yr (v128.load (i32.add (local.get $fr) (local.get $s2))))
      (local.set $yi (v128.load (i32.add (local.get $fi) (local.get $s2))))
      (local.set $fre (f64x2.sub (v128.load (i32.add (local.get $fr) (local.get $dst)))
        (f64x2.sub (f64x2.mul (local.get $ar) (local.get $xr)) (f64x2.mul (local.get $ai) (local.get $xi)))))
      (local.set $fim (f64x2.sub (v128.load (i32.add (local.get $fi) (local.get $dst)))
        (f64x2.add (f64x2.mul (local.get $ar) (local.get $xi)) (f64x2.mul (local.get $ai) (local.get $xr)))))
      (v128.store (i32.add (local.get $fr) (local.get $dst)) (f64x2.sub (local.get $fre)
        (f64x2.sub (f64x2.mul (local.get $br) (local.get $yr)) (f64x2.mul (local.get $bi) (local.get $yi)))))
      (v128.store (i32.add (local.get $fi) (local.get $dst)) (f64x2.sub (local.get $fim)
        (f64x2.add (f64x2.mul (local.get $br) (local.get $yi)) (f64x2.mul (local.get $bi) (local.get $yr)))))
      (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
      (local.set $s1 (i32.add (local.get $s1) (i32.const 16)))
      (local.set $s2 (i32.add (local.get $s2) (i32.const 16)))
      (br $pairs)))
    (if (i32.and (local.get $n) (i32.const 1)) (then
      (call $axpyRow (local.get $fr) (local.get $fi) (local.get $dst) (local.get $s1) (i32.const 1)
        (local.get $l1r) (local.get $l1i))
      (call $axpyRow (local.get $fr) (local.get $fi) (local.get $dst) (local.get $s2) (i32.const 1)
        (local.get $l2r) (local.get $l2i)))))

  ;; y −= Σ_k x[k]·A[k, ·] over rows rows of n elements (row stride ld bytes): the forward
  ;; solve's update by L21 stored transposed, one long SIMD row per column of L21. Offsets of
  ;; y, A and x are relative to the plane bases fr and fi.
  (func (export "rowsSub") (param $fr i32) (param $fi i32) (param $y i32) (param $a i32)
      (param $ld i32) (param $rows i32) (param $n i32) (param $x i32)
    (local $k i32) (local $lr f64) (local $li f64)
    (block $done (loop $each
      (br_if $done (i32.ge_u (local.get $k) (local.get $rows)))
      (local.set $lr (f64.load (i32.add (local.get $fr) (local.get $x))))
      (local.set $li (f64.load (i32.add (local.get $fi) (local.get $x))))
      (if (i32.or (f64.ne (local.get $lr) (f64.const 0)) (f64.ne (local.get $li) (f64.const 0))) (then
        (call $axpyRow (local.get $fr) (local.get $fi) (local.get $y) (local.get $a) (local.get $n)
          (local.get $lr) (local.get $li))))
      (local.set $a (i32.add (local.get $a) (local.get $ld)))
      (local.set $x (i32.add (local.get $x) (i32.const 8)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $each))))

  ;; dst[k·q + i] = F[(p + i)·m + k] for k < p, i < q, both planes: a front's L21 (below its
  ;; p fully summed rows) stored transposed. Offsets relative to the plane bases fr and fi.
  (func (export "transposeL21") (param $fr i32) (param $fi i32) (param $src i32) (param $m i32)
      (param $p i32) (param $q i32) (param $dst i32)
    (local $k i32) (local $i i32) (local $from i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $m) (i32.const 3)))
    (block $colsDone (loop $cols
      (br_if $colsDone (i32.ge_u (local.get $k) (local.get $p)))
      (local.set $from (i32.add (local.get $src)
        (i32.shl (i32.add (i32.mul (local.get $p) (local.get $m)) (local.get $k)) (i32.const 3))))
      (local.set $i (i32.const 0))
      (block $rowsDone (loop $rows
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $q)))
        (f64.store (i32.add (local.get $fr) (local.get $dst))
          (f64.load (i32.add (local.get $fr) (local.get $from))))
        (f64.store (i32.add (local.get $fi) (local.get $dst))
          (f64.load (i32.add (local.get $fi) (local.get $from))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
        (local.set $from (i32.add (local.get $from) (local.get $stride)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $cols))))

  ;; F[pos[i]·m + pos[j]] += S[i·q + j] for i, j < q, both planes (the multifrontal
  ;; extend-add of a child's update S into its parent's front F): pos holds i32 front
  ;; indices; F, S relative to the plane bases fr and fi, pos an absolute byte offset.
  (func (export "extendAdd") (param $fr i32) (param $fi i32) (param $f i32) (param $m i32)
      (param $src i32) (param $q i32) (param $pos i32)
    (local $i i32) (local $j i32) (local $row i32) (local $at i32) (local $end i32)
    (local.set $end (i32.add (local.get $pos) (i32.shl (local.get $q) (i32.const 2))))
    (block $rowsDone (loop $rows
      (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $q)))
      (local.set $row (i32.add (local.get $f) (i32.shl (i32.mul
        (i32.load (i32.add (local.get $pos) (i32.shl (local.get $i) (i32.const 2))))
        (local.get $m)) (i32.const 3))))
      (local.set $j (local.get $pos))
      (block $colsDone (loop $cols
        (br_if $colsDone (i32.ge_u (local.get $j) (local.get $end)))
        (local.set $at (i32.add (local.get $row) (i32.shl (i32.load (local.get $j)) (i32.const 3))))
        (f64.store (i32.add (local.get $fr) (local.get $at)) (f64.add
          (f64.load (i32.add (local.get $fr) (local.get $at)))
          (f64.load (i32.add (local.get $fr) (local.get $src)))))
        (f64.store (i32.add (local.get $fi) (local.get $at)) (f64.add
          (f64.load (i32.add (local.get $fi) (local.get $at)))
          (f64.load (i32.add (local.get $fi) (local.get $src)))))
        (local.set $src (i32.add (local.get $src) (i32.const 8)))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $cols)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; Bytes [at, at + n) set to zero (a reused memory: kernel-memory.ts).
  (func (export "zero") (param $at i32) (param $n i32)
    (memory.fill (local.get $at) (i32.const 0) (local.get $n)))

  ;; rows × cols elements from src (row stride ld bytes) to dst (rows packed), both planes;
  ;; offsets relative to the plane bases fr and fi (a front's blocks to the factor store or
  ;; the update stack).
  (func (export "copyBlock") (param $fr i32) (param $fi i32) (param $src i32) (param $ld i32)
      (param $rows i32) (param $cols i32) (param $dst i32)
    (local $bytes i32)
    (local.set $bytes (i32.shl (local.get $cols) (i32.const 3)))
    (block $done (loop $each
      (br_if $done (i32.eqz (local.get $rows)))
      (memory.copy (i32.add (local.get $fr) (local.get $dst)) (i32.add (local.get $fr) (local.get $src))
        (local.get $bytes))
      (memory.copy (i32.add (local.get $fi) (local.get $dst)) (i32.add (local.get $fi) (local.get $src))
        (local.get $bytes))
      (local.set $src (i32.add (local.get $src) (local.get $ld)))
      (local.set $dst (i32.add (local.get $dst) (local.get $bytes)))
      (local.set $rows (i32.sub (local.get $rows) (i32.const 1)))
      (br $each))))

  ;; For rows i0 ≤ i < i1 of an m × m front and k0 ≤ k < (tri ? i : kc), with l = F[i, k] ≠ 0:
  ;; F[i, j0 … j1−1] −= l·F[k, j0 … j1−1]. The Schur update is (p, m, 0, p, 0, p, m); the
  ;; block solve U12 = L11⁻¹·F12 is (1, p, 0, 0, 1, p, m); the panel's step k is
  ;; (k+1, m, k, k+1, 0, k+1, p).
  (func (export "rowUpdate") (param $fr i32) (param $fi i32) (param $m i32) (param $i0 i32)
      (param $i1 i32) (param $k0 i32) (param $kc i32) (param $tri i32) (param $j0 i32)
      (param $j1 i32)
    (local $i i32) (local $k i32) (local $kmax i32) (local $li i32) (local $lr f64) (local $lim f64)
    (local $l2r f64) (local $l2i f64) (local $dst i32) (local $n i32)
    (local.set $i (local.get $i0))
    (local.set $n (i32.sub (local.get $j1) (local.get $j0)))
    (block $rowsDone (loop $rows
      (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $i1)))
      (local.set $kmax (select (local.get $i) (local.get $kc) (local.get $tri)))
      (local.set $k (local.get $k0))
      (local.set $dst (i32.shl (i32.add (i32.mul (local.get $i) (local.get $m)) (local.get $j0)) (i32.const 3)))
      (block $ksDone (loop $ks
        (br_if $ksDone (i32.ge_u (local.get $k) (local.get $kmax)))
        (local.set $li (i32.shl (i32.add (i32.mul (local.get $i) (local.get $m)) (local.get $k)) (i32.const 3)))
        (local.set $lr (f64.load (i32.add (local.get $fr) (local.get $li))))
        (local.set $lim (f64.load (i32.add (local.get $fi) (local.get $li))))
        (if (i32.lt_u (i32.add (local.get $k) (i32.const 1)) (local.get $kmax)) (then
          (local.set $l2r (f64.load offset=8 (i32.add (local.get $fr) (local.get $li))))
          (local.set $l2i (f64.load offset=8 (i32.add (local.get $fi) (local.get $li))))
          (if (i32.or
              (i32.or (f64.ne (local.get $lr) (f64.const 0)) (f64.ne (local.get $lim) (f64.const 0)))
              (i32.or (f64.ne (local.get $l2r) (f64.const 0)) (f64.ne (local.get $l2i) (f64.const 0))))
            (then (call $axpy2Row (local.get $fr) (local.get $fi) (local.get $dst)
              (i32.shl (i32.add (i32.mul (local.get $k) (local.get $m)) (local.get $j0)) (i32.const 3))
              (i32.shl (i32.add (i32.mul (i32.add (local.get $k) (i32.const 1)) (local.get $m)) (local.get $j0)) (i32.const 3))
              (local.get $n) (local.get $lr) (local.get $lim) (local.get $l2r) (local.get $l2i))))
          (local.set $k (i32.add (local.get $k) (i32.const 2)))
          (br $ks)))
        (if (i32.or (f64.ne (local.get $lr) (f64.const 0)) (f64.ne (local.get $lim) (f64.const 0))) (then
          (call $axpyRow (local.get $fr) (local.get $fi) (local.get $dst)
            (i32.shl (i32.add (i32.mul (local.get $k) (local.get $m)) (local.get $j0)) (i32.const 3))
            (local.get $n) (local.get $lr) (local.get $lim))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $ks)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))
)`;

export interface KernelExports {
  dotSub(
    ar: number,
    ai: number,
    lda: number,
    rows: number,
    cols: number,
    xr: number,
    xi: number,
    yr: number,
    yi: number,
  ): void;
  /** Σ conj(a[k])·x[k] as [re, im]. */
  dotc(ar: number, ai: number, xr: number, xi: number, len: number): [number, number];
  axpy(fr: number, fi: number, dst: number, src: number, n: number, lr: number, li: number): void;
  rowsSub(
    fr: number,
    fi: number,
    y: number,
    a: number,
    ld: number,
    rows: number,
    n: number,
    x: number,
  ): void;
  transposeL21(
    fr: number,
    fi: number,
    src: number,
    m: number,
    p: number,
    q: number,
    dst: number,
  ): void;
  extendAdd(
    fr: number,
    fi: number,
    f: number,
    m: number,
    src: number,
    q: number,
    pos: number,
  ): void;
  zero(at: number, n: number): void;
  copyBlock(
    fr: number,
    fi: number,
    src: number,
    ld: number,
    rows: number,
    cols: number,
    dst: number,
  ): void;
  lowerSolve(lr: number, li: number, ld: number, p: number, yr: number, yi: number): void;
  upperSolve(ur: number, ui: number, ld: number, p: number, yr: number, yi: number): void;
  rowUpdate(
    fr: number,
    fi: number,
    m: number,
    i0: number,
    i1: number,
    k0: number,
    kc: number,
    tri: number,
    j0: number,
    j1: number,
  ): void;
}

/** The part of the WebAssembly JS API used here (lib ES2023 has no WebAssembly typings). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => { readonly exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

async function compileKernels(): Promise<object> {
  const wabt = await wabtInit();
  const parsed = wabt.parseWat("mode-kernels.wat", KERNELS_WAT, {
    simd: true,
    multi_value: true,
    bulk_memory: true,
  });
  try {
    return new wasm.Module(parsed.toBinary({}).buffer);
  } finally {
    parsed.destroy();
  }
}

const kernelModule = await compileKernels();

/** A linear memory of `pages` 64 KiB pages with the kernels bound to it. */
export function boundKernels(pages: number): { memory: WasmMemory; k: KernelExports } {
  const memory = new wasm.Memory({ initial: pages });
  const instance = new wasm.Instance(kernelModule, { env: { memory } });
  return { memory, k: instance.exports as unknown as KernelExports };
}
