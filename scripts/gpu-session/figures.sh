# On the GPU machine after setup.sh: the figures docs/benchmarks.md records, each step with a
# time limit, everything under $OUT. FIGURES picks the steps, in this order (default all):
#   fused      bench/gpu-fused-probe.ts: one fused H+E pass against two passes (BENCH_FUSED_SHAPES)
#   bench      bench:solver's WebGPU section (BENCH_GPU_PARTS, default f16,job)
#   agreement  the webgpu agreement tests, float16 storage's included
#   physics16  the analytic physics checks on webgpu with float16 field storage
#   mie16      the Mie gold sphere with float16 field storage
#   physics    the analytic physics checks on webgpu (float32)
#   mie        the Mie gold sphere (float32)
set -o pipefail
quiet() { grep -v "^Warning\|^    at\|^$"; }
want() { [[ " ${FIGURES:-fused bench agreement physics16 mie16 physics mie} " == *" $1 "* ]]; }
summary() { grep -E "^# (tests|pass|fail|skipped)|^not ok|^    not ok" "$1" | head -40; }
physics=$(grep -rl "forEachBackend" src/solver --include=*.test.ts | grep -v agreement)
physicsRun() { # $1: output file, $2: time limit; the environment picks the storage
  EMSIM_TEST_EVERY_CASE=1 timeout "$2" node --import tsx --test \
    --test-name-pattern "on webgpu" $physics > "$1" 2>&1
  summary "$1"
}
mieRun() { # $1: output file
  timeout "${MIE_LIMIT:-80}" node --import tsx scripts/validation/mie.ts gold 1.25 10 webgpu 2>&1 | quiet | tee "$1"
}
date +%T
if want fused; then
  timeout "${FUSED_LIMIT:-90}" node --import tsx bench/gpu-fused-probe.ts 2>&1 | quiet | tee "$OUT/fused.txt"
  date +%T
fi
if want bench; then
  BENCH_ONLY=webgpu BENCH_GPU_PARTS=${BENCH_GPU_PARTS:-f16,job} timeout "${BENCH_LIMIT:-240}" \
    node --import tsx bench/solver.ts 2>&1 | quiet | tee "$OUT/bench.txt"
  date +%T
fi
if want agreement; then
  timeout "${AGREEMENT_LIMIT:-120}" node --import tsx --test src/solver/webgpu/agreement*.test.ts \
    src/solver/sources/agreement.test.ts src/solver/backends.test.ts > "$OUT/agreement.txt" 2>&1
  summary "$OUT/agreement.txt"
  grep -A3 "float16" "$OUT/agreement.txt" | grep "largest" | head -20
  date +%T
fi
if want physics16; then
  EMSIM_WEBGPU_FIELD_STORAGE=float16 physicsRun "$OUT/physics16.txt" "${PHYSICS16_LIMIT:-150}"
  date +%T
fi
if want mie16; then
  EMSIM_WEBGPU_FIELD_STORAGE=float16 mieRun "$OUT/mie16.txt"
  date +%T
fi
if want physics; then
  physicsRun "$OUT/physics.txt" "${PHYSICS_LIMIT:-150}"
  date +%T
fi
if want mie; then
  mieRun "$OUT/mie.txt"
  date +%T
fi
