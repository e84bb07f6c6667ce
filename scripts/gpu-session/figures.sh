# On the GPU machine after setup.sh: bench:solver's WebGPU section, the Mie gold sphere, and
# the agreement and physics tests on the GPU, each with a time limit; everything under $OUT.
set -o pipefail
quiet() { grep -v "^Warning\|^    at\|^$"; }
date +%T
BENCH_ONLY=webgpu BENCH_GPU_PARTS=profile,toggles,job timeout 180 \
  node --import tsx bench/solver.ts 2>&1 | quiet | tee "$OUT/bench.txt"
date +%T
timeout 80 node --import tsx scripts/validation/mie.ts gold 1.25 10 webgpu 2>&1 | quiet | tee "$OUT/mie.txt"
date +%T
timeout 100 node --import tsx --test src/solver/webgpu/agreement.test.ts \
  src/solver/sources/agreement.test.ts src/solver/backends.test.ts > "$OUT/agreement.txt" 2>&1
grep -E "^# (tests|pass|fail|skipped)|^not ok|^    not ok" "$OUT/agreement.txt"
date +%T
physics=$(grep -rl "forEachBackend" src/solver --include=*.test.ts | grep -v agreement)
EMSIM_TEST_EVERY_CASE=1 timeout 150 node --import tsx --test --test-name-pattern "on webgpu" \
  $physics > "$OUT/physics.txt" 2>&1
grep -E "^# (tests|pass|fail|skipped)|^not ok|^    not ok" "$OUT/physics.txt" | head -30
date +%T
