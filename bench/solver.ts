/**
 * `npm run bench:solver`: the FDTD solver's throughput against the machine's memory bandwidth.
 *
 *  1. A WASM SIMD copy/triad probe (bench/bandwidth.ts) on 1 thread and on all threads.
 *  2. runSimulation on 128³ and 256³ grids (12 CPML layers on every face, a Si3N4 box, a
 *     plane monitor) with the fast kernel on 1 thread and on all threads, and the plain-JS
 *     reference kernel on the same grids for a few steps.
 *  3. Sources and monitors on the same 128³ grid, one thread, interleaved repeats: the plane
 *     wave against a point dipole (same plane monitor), and a closed box around the dipole
 *     recorded as a flux monitor against the same box as a far-field monitor (the same DFT;
 *     the projection runs after the last step, so it shows in the result's seconds).
 *  4. A 500³ grid, a few steps on all threads: does it fit, and how much memory per cell.
 *  5. The webgpu backend on the adapter it finds: a WGSL copy kernel's bandwidth there
 *     (bench/gpu-bandwidth.ts), runSimulation on 128³–500³ against it (the run's bytes per
 *     cell-update × Mcell/s ÷ the copy's GB/s, and Gcell/s per TB/s of it), the same grids
 *     with each kind of pass timed on the GPU (timestamp queries), and with Dawn's
 *     robustness and validation turned off (EMSIM_WEBGPU_TOGGLES, src/solver/webgpu/device.ts).
 *     On a software adapter (Mesa's llvmpipe on a machine without a GPU) every figure is for
 *     correctness only, labelled so, and the step counts are tiny.
 *
 * Each case runs in its own process (bench/solver-case.ts) so its peak RSS is its own.
 * Mcell/s is report.mcellsPerSecond: cells × steps over the time-stepping wall time (kernel
 * compilation, thread start-up and grid set-up excluded). The bandwidth bound of a case is
 * triad GB/s (same thread count) ÷ the design's bytes per cell-update: every field and ψ
 * value read and written once per sweep (memory-plan.ts), i.e. per time step with one step
 * per sweep, and per D steps with D steps per sweep if the planes in flight stay cached.
 * Environment: BENCH_THREADS (default: available cores), BENCH_QUICK=1 (smaller step counts);
 * section 3: BENCH_PAIR_THREADS (default 1), BENCH_PAIR_STEPS (400), BENCH_PAIR_REPEATS (5);
 * BENCH_ONLY=sources runs section 3 alone; BENCH_ONLY=webgpu runs section 5 alone (the adapter
 * probe, the copy probe and the webgpu cases; nothing on the wasm kernels); section 5:
 * BENCH_GPU_PARTS (default "profile,toggles,fused,f16,job,shapes": which runs follow the
 * plain ones; fused: the step as one fused pass, EMSIM_WEBGPU_FUSED=1; tiles: the fused step
 * on the tiles BENCH_FUSED_TILES, default 32x8x4,32x8x16,16x16x8, by EMSIM_WEBGPU_FUSED_TILE),
 * BENCH_GPU_SHAPES (the bulk shapes compared).
 */
import { spawnSync } from "node:child_process";
import { availableParallelism, cpus, totalmem } from "node:os";
import type { GpuAdapterReport } from "../src/solver/webgpu/device.js";
import type { GpuSteppingReport } from "../src/solver/types.js";
import type { BandwidthFigures } from "./bandwidth.js";
import type { GpuBandwidthFigures } from "./gpu-bandwidth.js";
import type { BenchMonitor, BenchSource } from "./solver-spec.js";

const THREADS = Number(process.env.BENCH_THREADS ?? availableParallelism());
const QUICK = process.env.BENCH_QUICK === "1";

interface CaseResult {
  kind: string;
  cells: number;
  threads: number;
  steps: number;
  stepsRun: number;
  gridCells: number;
  interiorCells: number;
  threadsUsed: number;
  mcellsPerSecond: number;
  setupSeconds: number;
  bytesPerCellUpdate: number;
  kernelBytes: number;
  maxRssBytes: number;
  stepsPerSweep: number;
  resultSeconds: number;
  cpuMcellsPerSecond: number | null;
  stepping: {
    kernelSeconds: number;
    sourceSeconds: number;
    monitorSeconds: number;
    gpu?: GpuSteppingReport;
  };
}

/** Runs one case in its own process (bench/solver-case.ts), with `env` added to this one's. */
function runCase<T>(arg: object, env?: Record<string, string>): T {
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "bench/solver-case.ts", JSON.stringify(arg)],
    {
      encoding: "utf8",
      maxBuffer: 1 << 24,
      stdio: ["ignore", "pipe", "inherit"],
      env: env ? { ...process.env, ...env } : process.env,
    },
  );
  if (r.status !== 0) throw new Error(`case ${JSON.stringify(arg)} failed (exit ${r.status})`);
  const line = r.stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(line) as T;
}

const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const started = performance.now();
console.log(
  `# bench:solver — ${new Date().toISOString()}, ${cpus()[0]?.model ?? "unknown CPU"}, ` +
    `${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`,
);

if (process.env.BENCH_ONLY === "sources") {
  sourcesAndMonitors();
  process.exit(0);
}
if (process.env.BENCH_ONLY === "webgpu") {
  webgpuSection();
  console.log(`\n(total ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  process.exit(0);
}

const threadCounts = THREADS > 1 ? [1, THREADS] : [1];
const bandwidth = runCase<BandwidthFigures[]>({ kind: "bandwidth", threads: threadCounts });
console.log("## Memory bandwidth (WASM SIMD, float32, 3 × 256 MiB)\n");
console.log("| threads | copy GB/s | triad GB/s |\n|---|---|---|");
for (const b of bandwidth) {
  console.log(`| ${b.threads} | ${b.copyGBps.toFixed(1)} | ${b.triadGBps.toFixed(1)} |`);
}
const triad = (threads: number) =>
  bandwidth.find((b) => b.threads === threads)?.triadGBps ?? bandwidth[0].triadGBps;

console.log("\n## Solver (12 CPML layers on every face, Si3N4 box, plane monitor)\n");
console.log(
  "| grid | kernel | threads | steps | steps/sweep | Mcell/s | B/cell-update (1 / D steps per sweep) | bound Mcell/s (1 / D) | of bound (1 / D) | peak RSS | set-up s |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
const sizes: [number, number, number][] = QUICK
  ? [
      [128, 20, 2],
      [256, 8, 1],
    ]
  : [
      [128, 200, 6],
      [256, 80, 3],
    ];
for (const [cells, steps, refSteps] of sizes) {
  const cases: object[] = threadCounts.map((threads) => ({ kind: "wasm", cells, threads, steps }));
  cases.push({ kind: "reference", cells, threads: 1, steps: refSteps });
  for (const c of cases) {
    const r = runCase<CaseResult>(c);
    const fast = r.kind === "wasm";
    const d = r.stepsPerSweep;
    const bound = (triad(r.threadsUsed) * 1e9) / r.bytesPerCellUpdate / 1e6;
    const pct = (b: number) => `${((100 * r.mcellsPerSecond) / b).toFixed(0)} %`;
    console.log(
      `| ${cells}³ | ${r.kind} | ${r.threadsUsed} | ${r.steps} | ${fast ? d : "–"} | ` +
        `${r.mcellsPerSecond.toFixed(0)} | ` +
        (fast
          ? `${r.bytesPerCellUpdate.toFixed(1)} / ${(r.bytesPerCellUpdate / d).toFixed(1)} | ` +
            `${bound.toFixed(0)} / ${(bound * d).toFixed(0)} | ${pct(bound)} / ${pct(bound * d)} | `
          : "≈78 + CPML pass | – | – | ") +
        `${mib(r.maxRssBytes)} | ${r.setupSeconds.toFixed(1)} |`,
    );
  }
}

sourcesAndMonitors();

console.log("\n## 500³ (all threads, a few steps)\n");
const big = runCase<CaseResult>({
  kind: "wasm",
  cells: 500,
  threads: THREADS,
  steps: QUICK ? 2 : 4,
});
const fieldBytesPerCell = (24 * 502 ** 3) / big.gridCells;
console.log(
  `${big.gridCells.toLocaleString("en")} cells, ${big.threadsUsed} threads: ` +
    `${big.mcellsPerSecond.toFixed(0)} Mcell/s; kernel memory ${mib(big.kernelBytes)} ` +
    `(${(big.kernelBytes / big.gridCells).toFixed(1)} B/cell overall, ${fieldBytesPerCell.toFixed(1)} B/cell ` +
    `of fields outside the absorber), peak RSS ${mib(big.maxRssBytes)} ` +
    `(${(big.maxRssBytes / big.gridCells).toFixed(1)} B/cell), set-up ${big.setupSeconds.toFixed(0)} s`,
);
webgpuSection();
console.log(`\n(total ${((performance.now() - started) / 1000).toFixed(0)} s)`);

/**
 * Section 3: what a point dipole and a far-field monitor cost against the plane wave and a
 * flux box on the same grid. On one thread (no second thread to wait for when a shared
 * machine's load takes a core away), each repeat runs the four cases once, in alternating
 * order, so that a change of the load falls on both sides of each ratio. Two speeds per run:
 * Mcell/s of wall time (the report's), and of the process's CPU time while stepping, which a
 * loaded machine disturbs much less (other processes' turns on the core are not counted).
 * Printed: each repeat's figures, the ratios per repeat with their median, and the parts that
 * do differ: the source's and the DFT's seconds in the loop, and the seconds after the last
 * step (the result's assembly, where the far field is projected).
 */
function sourcesAndMonitors(): void {
  const cells = 128;
  const threads = Number(process.env.BENCH_PAIR_THREADS ?? 1);
  const steps = QUICK ? 100 : Number(process.env.BENCH_PAIR_STEPS ?? 400);
  const repeats = QUICK ? 1 : Number(process.env.BENCH_PAIR_REPEATS ?? 5);
  const variants: [string, BenchSource, BenchMonitor][] = [
    ["plane wave, plane", "plane_wave", "plane"],
    ["dipole, plane", "point_dipole", "plane"],
    ["dipole, flux box", "point_dipole", "flux_box"],
    ["dipole, far-field box", "point_dipole", "far_field_box"],
  ];
  const runs = new Map<string, CaseResult[]>(variants.map(([label]) => [label, []]));
  for (let rep = 0; rep < repeats; rep++) {
    const order = rep % 2 === 0 ? variants : [...variants].reverse();
    for (const [label, source, monitor] of order) {
      runs
        .get(label)!
        .push(runCase<CaseResult>({ kind: "wasm", cells, threads, steps, source, monitor }));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const list = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(" / ");
  const wall = (label: string) => runs.get(label)!.map((r) => r.mcellsPerSecond);
  const cpu = (label: string) => runs.get(label)!.map((r) => r.cpuMcellsPerSecond ?? NaN);
  console.log(
    `\n## Sources and monitors on the same grid (${cells}³, ${threads} thread(s), ${steps} steps, ` +
      `${repeats} repeats)\n`,
  );
  console.log(
    "| case | Mcell/s (wall) per repeat | Mcell/s (CPU) per repeat | source s | DFT s | after the last step s |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const [label] of variants) {
    const rs = runs.get(label)!;
    const med = (f: (r: CaseResult) => number, digits: number) => median(rs.map(f)).toFixed(digits);
    console.log(
      `| ${label} | ${list(wall(label), 0)} | ${list(cpu(label), 0)} | ` +
        `${med((r) => r.stepping.sourceSeconds, 3)} | ${med((r) => r.stepping.monitorSeconds, 3)} | ` +
        `${med((r) => r.resultSeconds, 2)} |`,
    );
  }
  console.log("\n(source, DFT and after-the-last-step seconds: medians over the repeats)\n");
  const ratios = (speed: (label: string) => number[], a: string, b: string) => {
    const [x, y] = [speed(a), speed(b)];
    const each = x.map((v, i) => v / y[i]!);
    return `${list(each, 3)} (median ${median(each).toFixed(3)})`;
  };
  for (const [what, a, b] of [
    [
      "dipole over plane wave (same grid, same plane monitor)",
      "dipole, plane",
      "plane wave, plane",
    ],
    [
      "far-field box over flux box (same box around the dipole)",
      "dipole, far-field box",
      "dipole, flux box",
    ],
  ] as const) {
    console.log(`Mcell/s, ${what}: wall ${ratios(wall, a, b)}; CPU ${ratios(cpu, a, b)}`);
  }
  const projection = runs
    .get("dipole, far-field box")!
    .map((r, i) => r.resultSeconds - runs.get("dipole, flux box")![i]!.resultSeconds);
  console.log(
    `Seconds after the last step, far-field box less flux box (the projection, 37 × 72 ` +
      `directions, one wavelength): ${list(projection, 2)} (median ${median(projection).toFixed(2)})`,
  );
}

/** A webgpu grid of section 5: steps of its plain, profiled and toggled runs. */
interface GpuGrid {
  cells: number;
  steps: number;
  profileSteps: number;
  toggleSteps: number;
}

/**
 * Section 5: the webgpu backend on the adapter it finds. On a GPU the step counts keep the
 * section to a few minutes on an H200 (each run ≈ 1 s of stepping); llvmpipe manages a few
 * Mcell/s, so there a handful of steps shows that the backend runs these grids, nothing more.
 * Each case's row is printed when it ends, so a run cut short still says what it got to.
 */
function webgpuSection(): void {
  console.log("\n## WebGPU\n");
  const gpu = runCase<{ adapter: GpuAdapterReport | null; reason?: string }>({ kind: "gpu-probe" });
  if (!gpu.adapter) {
    console.log(`not available: ${gpu.reason}`);
    return;
  }
  const a = gpu.adapter;
  console.log(
    `Adapter: ${a.device || "unknown"} (${a.description}), vendor "${a.vendor}", ` +
      `architecture "${a.architecture}", Dawn ${a.dawnBackend}${a.software ? ", software" : ""}.\n`,
  );
  // On a GPU: the toggled runs as long as the plain ones, the profiled ones shorter.
  const onGpu = (cells: number, steps: number, profileSteps: number): GpuGrid => {
    const scale = (n: number) => Math.max(1, Math.round(QUICK ? n / 10 : n));
    return {
      cells,
      steps: scale(steps),
      profileSteps: scale(profileSteps),
      toggleSteps: scale(steps),
    };
  };
  const grids: GpuGrid[] = a.software
    ? [
        { cells: 128, steps: QUICK ? 2 : 5, profileSteps: 2, toggleSteps: 2 },
        { cells: 256, steps: QUICK ? 1 : 2, profileSteps: 1, toggleSteps: 1 },
      ]
    : [onGpu(128, 2000, 500), onGpu(200, 1500, 400), onGpu(256, 1000, 200), onGpu(500, 300, 50)];
  // BENCH_GPU_PARTS: which of the profiled, toggled, fused, float16, job and bulk-shape runs
  // to add.
  const parts = (process.env.BENCH_GPU_PARTS ?? "profile,toggles,fused,f16,job,shapes").split(",");
  const probe = gpuCopyProbe();
  const plain = gpuThroughput(grids, probe, a.software);
  const note = a.software ? " (software adapter, a step or two a run: correctness only)" : "";
  if (parts.includes("profile")) gpuPassProfiles(grids, plain, note);
  if (parts.includes("toggles")) gpuToggles(grids, plain, note);
  if (parts.includes("fused") && !a.software) {
    const title = "With a step as one fused pass, not two bulk passes (EMSIM_WEBGPU_FUSED=1)";
    gpuVariant(title, { EMSIM_WEBGPU_FUSED: "1" }, grids, plain, probe);
  }
  if (parts.includes("tiles") && !a.software) {
    for (const tile of (process.env.BENCH_FUSED_TILES ?? "32x8x4,32x8x16,16x16x8").split(",")) {
      const title = `With the fused step on tiles of ${tile} (EMSIM_WEBGPU_FUSED_TILE)`;
      const env = { EMSIM_WEBGPU_FUSED: "1", EMSIM_WEBGPU_FUSED_TILE: tile };
      gpuVariant(title, env, grids, plain, probe);
    }
  }
  if (parts.includes("f16") && !a.software) {
    const title = "With float16 field storage (EMSIM_WEBGPU_FIELD_STORAGE=float16)";
    gpuVariant(title, { EMSIM_WEBGPU_FIELD_STORAGE: "float16" }, grids, plain, probe);
  }
  if (parts.includes("job") && !a.software) gpuJobs();
  if (parts.includes("shapes") && !a.software) {
    gpuBulkShapes(grids.filter((g) => g.cells === 128 || g.cells === 500));
  }
}

/**
 * The plain runs again with `env` in each case's process (float16 field storage, the fused
 * step in place of the two bulk passes): Mcell/s, the bytes a cell-update moves, those against
 * the copy probe, and the rate over the plain run's; then the 128³ and 500³ grids profiled.
 */
function gpuVariant(
  title: string,
  env: Record<string, string>,
  grids: GpuGrid[],
  plain: Map<number, CaseResult>,
  probe: GpuBandwidthFigures | null,
): void {
  console.log(`\n${title}:\n`);
  console.log(
    "| grid | steps | Mcell/s | B/cell-update | of copy | Gcell/s per TB/s | over the plain run |\n" +
      "|---|---|---|---|---|---|---|",
  );
  for (const { cells, steps } of grids) {
    const r = tryCase<CaseResult>({ kind: "webgpu", cells, threads: 1, steps }, env);
    const bytes = r?.stepping.gpu?.bytesPerCellUpdate;
    if (!r || bytes === undefined) {
      console.log(`| ${cells}³ | ${steps} | failed (see stderr) | | | | |`);
      continue;
    }
    const base = plain.get(cells);
    const share = probe
      ? `${((r.mcellsPerSecond * bytes) / probe.copyKernelGBs / 10).toFixed(0)} %`
      : "–";
    const perTBs = probe ? (r.mcellsPerSecond / probe.copyKernelGBs).toFixed(2) : "–";
    const ratio = base ? (r.mcellsPerSecond / base.mcellsPerSecond).toFixed(2) : "–";
    console.log(
      `| ${cells}³ | ${r.stepsRun} | ${r.mcellsPerSecond.toFixed(0)} | ${bytes.toFixed(1)} | ` +
        `${share} | ${perTBs} | ${ratio} |`,
    );
  }
  for (const { cells, profileSteps } of grids.filter((g) => g.cells === 128 || g.cells === 500)) {
    const arg = { kind: "webgpu", cells, threads: 1, steps: profileSteps, profile: true };
    const r = tryCase<CaseResult>(arg, env);
    const passes = Object.entries(r?.stepping.gpu?.passSeconds ?? {});
    const split = passes.map(([name, s]) => `${name} ${((1e6 * s) / r!.stepsRun).toFixed(1)}`);
    console.log(`Profiled, ${cells}³, GPU µs per step by pass: ${split.join(", ") || "failed"}.`);
  }
}

/**
 * A real job against the empty grid on the same grid (solver-case.ts BenchJob): the gold
 * sphere of the Mie validation (graded grid, TFSF, a 12-wavelength flux box, 6-pole gold,
 * checks every 200 steps), the same with no sphere, and the sphere on a quarter of the grid
 * (mirror symmetry); then the gold sphere profiled. The ratio is what the job's extras cost.
 */
function gpuJobs(): void {
  const steps = QUICK ? 300 : 3000;
  console.log(
    "\nA real job (the 100 nm gold sphere, 10 nm graded to 1.25 nm) and its grid empty:\n",
  );
  console.log(
    "| job | cells | steps | Mcell/s | over the empty grid | dispatches/step |\n|---|---|---|---|---|---|",
  );
  let empty: CaseResult | null = null;
  for (const job of ["empty", "gold", "gold-quarter"]) {
    const r = tryCase<CaseResult>({ kind: "webgpu", cells: 0, threads: 1, steps, job });
    if (!r) {
      console.log(`| ${job} | | ${steps} | failed (see stderr) | | |`);
      continue;
    }
    if (job === "empty") empty = r;
    const ratio =
      empty && job !== "empty" ? (r.mcellsPerSecond / empty.mcellsPerSecond).toFixed(3) : "–";
    console.log(
      `| ${job} | ${r.gridCells} | ${r.stepsRun} | ${r.mcellsPerSecond.toFixed(0)} | ${ratio} | ` +
        `${r.stepping.gpu?.dispatchesPerStep ?? "–"} |`,
    );
  }
  const p = tryCase<CaseResult>({
    kind: "webgpu",
    cells: 0,
    threads: 1,
    steps: steps / 3,
    job: "gold",
    profile: true,
  });
  const pass = p?.stepping.gpu?.passSeconds;
  if (p && pass) {
    const split = Object.entries(pass)
      .map(([name, sec]): [string, number] => [name, (1e6 * sec) / p.stepsRun])
      .sort((x, y) => y[1] - x[1])
      .map(([name, us]) => `${name} ${us.toFixed(1)}`)
      .join(", ");
    console.log(`\nThe gold sphere, GPU µs per step by pass: ${split}.`);
  }
}

/**
 * The bulk passes' shapes (webgpu/shaders.ts BulkShape) compared: BENCH_GPU_SHAPES (comma-
 * separated XxY: workgroups of x threads along z by y along y) or the list below, each
 * profiled on the grids given, printing the GPU's µs per step in the H and E bulk passes and
 * what they move per second (the bulk bytes of the report's count).
 */
function gpuBulkShapes(grids: GpuGrid[]): void {
  const list = process.env.BENCH_GPU_SHAPES ?? "64x1,128x1,256x1,32x4,64x4";
  const shapes = list.split(",").map((t) => {
    const [x, y] = t.split("x").map(Number);
    return { x, y };
  });
  console.log("\nBulk pass shapes (workgroup x·y), profiled:\n");
  console.log(
    "| grid | steps | shape | H bulk µs | E bulk µs | step µs | bulk GB/s |\n|---|---|---|---|---|---|---|",
  );
  for (const { cells, profileSteps } of grids) {
    for (const bulkShape of shapes) {
      const name = `${bulkShape.x}×${bulkShape.y}`;
      const arg = { kind: "webgpu", cells, threads: 1, steps: profileSteps, profile: true };
      const r = tryCase<CaseResult>({ ...arg, bulkShape });
      const pass = r?.stepping.gpu?.passSeconds;
      if (!r || !pass) {
        console.log(`| ${cells}³ | ${profileSteps} | ${name} | failed | | | |`);
        continue;
      }
      const us = (kind: string) => (1e6 * (pass[kind] ?? 0)) / r.stepsRun;
      const bytes = (r.stepping.gpu?.bytesPerCellUpdate ?? 0) * r.gridCells;
      const gbs = bytes / ((us("H bulk") + us("E bulk")) * 1e3);
      console.log(
        `| ${cells}³ | ${r.stepsRun} | ${name} | ${us("H bulk").toFixed(1)} | ` +
          `${us("E bulk").toFixed(1)} | ${(r.gridCells / r.mcellsPerSecond).toFixed(1)} | ${gbs.toFixed(0)} |`,
      );
    }
  }
}

/** runCase, or null where the case fails (its error is on stderr): the section goes on. */
function tryCase<T>(arg: object, env?: Record<string, string>): T | null {
  try {
    return runCase<T>(arg, env);
  } catch {
    return null;
  }
}

/** The copy probe (bench/gpu-bandwidth.ts), printed; null where it failed. */
function gpuCopyProbe(): GpuBandwidthFigures | null {
  const p = tryCase<GpuBandwidthFigures>({ kind: "gpu-bandwidth" });
  if (!p) {
    console.log("Copy probe: failed (see stderr); no bandwidth to compare with.\n");
    return null;
  }
  const gbs = (x: number) => x.toFixed(x >= 100 ? 0 : 1);
  const stamps =
    p.timestampGBs === null ? "no timestamp queries" : `${gbs(p.timestampGBs)} by timestamps`;
  console.log(
    `Copy probe (2 × ${mib(p.bytes)}, GB/s of bytes read + written${p.software ? ", software" : ""}): ` +
      `WGSL vec4<f32> copy kernel ${gbs(p.copyKernelGBs)} by wall clock (${stamps}); ` +
      `copyBufferToBuffer ${gbs(p.copyBufferGBs)}. The "of copy" and "Gcell/s per TB/s" ` +
      `columns are against the kernel's wall-clock figure.\n`,
  );
  return p;
}

/**
 * The plain runs: Mcell/s, what one cell-update moves and one step dispatches (the run's
 * report; without one, the shaders' bulk bytes), and that against the copy probe: the share of
 * its bandwidth the run moves, and Gcell/s per TB/s of it (= Mcell/s per GB/s).
 */
function gpuThroughput(
  grids: GpuGrid[],
  probe: GpuBandwidthFigures | null,
  software: boolean,
): Map<number, CaseResult> {
  const label = software ? "correctness only (software adapter)" : "GPU";
  console.log(
    "| grid | steps | Mcell/s | B/cell-update | dispatches/step | of copy | Gcell/s per TB/s | set-up s | note |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  const runs = new Map<number, CaseResult>();
  for (const { cells, steps } of grids) {
    const r = tryCase<CaseResult>({ kind: "webgpu", cells, threads: 1, steps });
    if (!r) {
      console.log(`| ${cells}³ | ${steps} | failed (see stderr) | | | | | | ${label} |`);
      continue;
    }
    runs.set(cells, r);
    const g = r.stepping.gpu;
    const bytes = g?.bytesPerCellUpdate ?? r.bytesPerCellUpdate;
    // Without the report's figure the bytes are the bulk's alone: the share is a lower bound.
    const share = probe
      ? `${g ? "" : "≥ "}${((r.mcellsPerSecond * bytes) / probe.copyKernelGBs / 10).toFixed(0)} %`
      : "–";
    const perTBs = probe ? (r.mcellsPerSecond / probe.copyKernelGBs).toFixed(2) : "–";
    console.log(
      `| ${cells}³ | ${r.stepsRun} | ${r.mcellsPerSecond.toFixed(software ? 1 : 0)} | ` +
        `${g ? g.bytesPerCellUpdate.toFixed(1) : `${r.bytesPerCellUpdate} + CPML`} | ` +
        `${g ? g.dispatchesPerStep : "–"} | ${share} | ${perTBs} | ${r.setupSeconds.toFixed(1)} | ${label} |`,
    );
  }
  return runs;
}

/**
 * The profiled runs: the GPU's µs per step in each kind of pass (the report's passSeconds ÷
 * steps, largest first), their sum, and the step time of the plain run and of this one (the
 * timestamps between passes cost something).
 */
function gpuPassProfiles(grids: GpuGrid[], plain: Map<number, CaseResult>, note: string): void {
  console.log(`\nWhere a step goes, by timestamp queries around each kind of pass${note}:\n`);
  console.log(
    "| grid | steps | GPU µs per step, by pass | sum µs | step µs (plain run) | step µs (this run) |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const { cells, profileSteps } of grids) {
    const r = tryCase<CaseResult>({
      kind: "webgpu",
      cells,
      threads: 1,
      steps: profileSteps,
      profile: true,
    });
    if (!r) {
      console.log(`| ${cells}³ | ${profileSteps} | failed (see stderr) | | | |`);
      continue;
    }
    const micros = (x: number) => x.toFixed(x >= 1000 ? 0 : 1);
    const stepMicros = (c: CaseResult) => micros(c.gridCells / c.mcellsPerSecond);
    const base = plain.get(cells);
    const passes = Object.entries(r.stepping.gpu?.passSeconds ?? {})
      .map(([name, seconds]): [string, number] => [name, (1e6 * seconds) / r.stepsRun])
      .sort((x, y) => y[1] - x[1]);
    const split = passes.map(([name, us]) => `${name} ${micros(us)}`).join(", ");
    const sum = passes.reduce((total, [, us]) => total + us, 0);
    console.log(
      `| ${cells}³ | ${r.stepsRun} | ${split || "– (no pass times in the report)"} | ` +
        `${passes.length > 0 ? micros(sum) : "–"} | ${base ? stepMicros(base) : "–"} | ` +
        `${stepMicros(r)} |`,
    );
  }
}

/**
 * The plain runs again with Dawn toggles set (EMSIM_WEBGPU_TOGGLES of the case's process), one
 * row per run: Mcell/s and its ratio to the plain run's, i.e. what Dawn's robustness (indices
 * clamped in the shaders) and its validation cost.
 */
function gpuToggles(grids: GpuGrid[], plain: Map<number, CaseResult>, note: string): void {
  const toggleSets = ["disable_robustness", "disable_robustness,skip_validation"];
  console.log(`\nWith Dawn toggles set by EMSIM_WEBGPU_TOGGLES${note}:\n`);
  console.log("| grid | steps | toggles | Mcell/s | over the plain run |\n|---|---|---|---|---|");
  const mcells = (x: number) => x.toFixed(x >= 100 ? 0 : 1);
  for (const { cells, toggleSteps } of grids) {
    const base = plain.get(cells);
    for (const toggles of toggleSets) {
      const arg = { kind: "webgpu", cells, threads: 1, steps: toggleSteps };
      const r = tryCase<CaseResult>(arg, { EMSIM_WEBGPU_TOGGLES: toggles });
      const ratio = r && base ? (r.mcellsPerSecond / base.mcellsPerSecond).toFixed(3) : "–";
      console.log(
        `| ${cells}³ | ${toggleSteps} | ${toggles} | ` +
          `${r ? mcells(r.mcellsPerSecond) : "failed (see stderr)"} | ${ratio} |`,
      );
    }
  }
}
