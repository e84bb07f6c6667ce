/**
 * `npm run bench:sparams` (issue #29): a 2-port 3-D S-parameter job, a straight 500 × 220 nm Si
 * wire in SiO2 (examples/si-wire-sparameters.json's device, laid along x), in emsim and in Meep
 * (Debian's python3-meep, serial: scripts/validation/meep_ports.py) on the same 40 nm grid,
 * time step (S = 0.99/√3), PML thickness (10 cells), pulse and stopping rule (the mode
 * monitors' relative change below 1e-6, checked every 500 steps after the pulse: see
 * scripts/validation/two-port.ts), interleaved in one run. Both codes make one run from o1
 * (the device is reciprocal and symmetric end to end, so S12 = S21 and S22 = S11) and record
 * 11 wavelengths over 1.5–1.6 µm.
 *
 * Two cases: the quarter grid (mirror planes y = 0 and z = 0 with the TE0 mode's parity, in
 * both codes: emsim `symmetry: ["none", "pec", "pmc"]`, Meep `Mirror(Y, −1)`, `Mirror(Z, +1)`)
 * and the whole grid (no symmetry in either). emsim runs in-process (wasm backend, 2 threads
 * and 1 thread) and, when the build is there (`npm run build`, which the npm script runs),
 * through the HTTP API of a fresh embedded server (submitted → COMPLETED, polled every 50 ms;
 * the table adds the job's own report of its set-up, the port planes' mode solves in it, and
 * its kernel time).
 * Meep's time is its script's (cell set-up, MPB, stepping, mode coefficients; the Python start
 * and `import meep` left out) and the whole process's.
 *
 * Each round's wire is 20 nm narrower than the round's before (500, 480, … nm), in both codes:
 * a later round is a warm server's job of a device it has not solved before, whose port planes
 * no mode cache holds, which is what a user's next job mostly is. With BENCH_SAME_DEVICE=1
 * every round runs the 500 nm wire, and a later round finds its port planes' modes in the mode
 * cache, as a sweep over what does not touch the ports would.
 *
 *   npm run bench:sparams            # BENCH_REPEAT=2 for two rounds, BENCH_CASES=quarter
 */
import { existsSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { execSync, type ChildProcess } from "node:child_process";
import { runSimulation } from "../src/solver/index.js";
import { permittivityAt } from "../src/solver/materials.js";
import type { SimulationSpec } from "../src/solver/types.js";
import {
  emsimSpec,
  fromSMatrix,
  meepTwoPort,
  power,
  type TwoPortProblem,
} from "../scripts/validation/two-port.js";
import { tempDir } from "../test/helpers/service.js";
import { emsim, startServer, stop } from "./processes.js";

const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1) || 1);
const CASES = (process.env.BENCH_CASES ?? "quarter,whole").split(",");
const SAME_DEVICE = process.env.BENCH_SAME_DEVICE === "1";
const WAVELENGTHS_M = Array.from({ length: 11 }, (_, i) => 1.5e-6 + i * 0.01e-6);

/** The wire of round `round` (module comment): 500 nm wide, 20 nm less each round after. */
function wireWidthM(round: number): number {
  return SAME_DEVICE ? 0.5e-6 : 0.5e-6 - 0.02e-6 * (round - 1);
}

function wire(symmetry: boolean, w: number): TwoPortProblem {
  const t = 0.22e-6;
  return {
    dims: 3,
    stepM: 40e-9,
    roiM: [2.4e-6, 1.6e-6, 1.2e-6],
    pmlCells: 10,
    eps: { core: permittivityAt("Si", 1.55e-6).re, cladding: permittivityAt("SiO2", 1.55e-6).re },
    clad: "cladding",
    cores: [
      {
        verticesM: [
          [-10e-6, -w / 2],
          [10e-6, -w / 2],
          [10e-6, w / 2],
          [-10e-6, w / 2],
        ],
        zMinM: -t / 2,
        zMaxM: t / 2,
        material: "core",
      },
    ],
    portXM: 0.8e-6,
    meepSourceBackCells: 5,
    wavelengthM: 1.55e-6,
    wavelengthsM: WAVELENGTHS_M,
    threshold: 1e-6,
    checkEvery: 500,
    maxSteps: 40000,
    symmetry,
  };
}

/**
 * The request both emsim paths run: the problem with its materials as constants (named apart
 * from the library's Si and SiO2, which a request may not redefine).
 */
function request(p: TwoPortProblem): SimulationSpec {
  return {
    ...emsimSpec(p),
    materials: Object.fromEntries(
      Object.entries(p.eps).map(([name, eps]) => [name, { permittivity: eps }]),
    ),
  };
}

interface Row {
  round: number;
  case: string;
  code: string;
  seconds: number;
  processSeconds?: number;
  steps: number;
  s21: number;
  s11: number;
  /** An API job's own report: its set-up (the port planes' mode solves in it) and kernel. */
  server?: { setupSeconds: number; gridSeconds: number; kernelSeconds: number };
}

async function inProcess(p: TwoPortProblem, threads: number) {
  const started = performance.now();
  const result = await runSimulation(request(p), { backend: "wasm", threads });
  const seconds = (performance.now() - started) / 1000;
  const s = fromSMatrix(result.sMatrix!);
  return { seconds, steps: result.report.stepsRun, ...worst(s.s11, s.s21) };
}

/** The smallest |S21|² and the largest |S11|² over the band. */
function worst(s11: [number, number][], s21: [number, number][]) {
  return { s21: Math.min(...s21.map(power)), s11: Math.max(...s11.map(power)) };
}

/** fetch, tried again on a socket error (the server closes idle sockets while Meep runs). */
async function call(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (!(err instanceof TypeError) || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function throughApi(
  p: TwoPortProblem,
  base: string,
  headers: Record<string, string>,
  round: number,
) {
  const started = performance.now();
  // The round in the metadata: a request equal to a completed job's is answered from its
  // stored result without running (issue #30), which is not what this measures.
  const body = { ...request(p), metadata: { bench_round: round } };
  const ack = (await (
    await call(`${base}/v1/simulations`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    })
  ).json()) as { job_id?: string; detail?: string };
  if (!ack.job_id) throw new Error(`submission refused: ${JSON.stringify(ack)}`);
  let record: Record<string, unknown>;
  for (;;) {
    record = (await (
      await call(`${base}/v1/simulations/${ack.job_id}`, { headers })
    ).json()) as Record<string, unknown>;
    if (record.status === "COMPLETED" || record.status === "FAILED") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  if (record.status !== "COMPLETED") throw new Error(`API job: ${String(record.error_detail)}`);
  const sp = (await (
    await call(`${base}/v1/simulations/${ack.job_id}/sparameters`, { headers })
  ).json()) as { s: ([number, number] | null)[][][] };
  const report = record.solver_report as {
    steps_run: number;
    setup_seconds: number;
    setup: { grid_seconds: number };
    stepping: { kernel_seconds: number };
  };
  const s11 = sp.s[0]![0]!.map((z) => z!);
  const s21 = sp.s[1]![0]!.map((z) => z!);
  const server = {
    setupSeconds: report.setup_seconds,
    gridSeconds: report.setup.grid_seconds,
    kernelSeconds: report.stepping.kernel_seconds,
  };
  return { seconds, steps: report.steps_run, server, ...worst(s11, s21) };
}

async function main() {
  const uptime = () => execSync("uptime").toString().trim();
  const before = uptime();
  let server: { child: ChildProcess; base: string; headers: Record<string, string> } | null = null;
  let dataDir: string | null = null;
  if (existsSync("dist/cli/main.js")) {
    dataDir = tempDir("emsim-bench-sparams-");
    const { child, baseUrl } = await startServer(dataDir, { EMSIM_DATA_DIR: dataDir });
    const key = emsim(["keys", "create", "--email", "bench@example.com", "--name", "bench"], {
      EMSIM_DATA_DIR: dataDir,
    });
    server = {
      child,
      base: baseUrl,
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    };
  }
  const rows: Row[] = [];
  try {
    for (let round = 1; round <= REPEAT; round++) {
      for (const name of CASES) {
        const width = wireWidthM(round);
        const p = wire(name === "quarter", width);
        const add = (code: string, r: Omit<Row, "round" | "case" | "code">) => {
          rows.push({ round, case: `${name}, ${Math.round(width * 1e9)} nm`, code, ...r });
          console.error(`${round} ${name} ${code}: ${r.seconds.toFixed(2)} s (${r.steps} steps)`);
        };
        add("emsim in-process, 2 threads", await inProcess(p, 2));
        const started = performance.now();
        const m = meepTwoPort(p);
        add("Meep (serial)", {
          seconds: m.seconds,
          processSeconds: (performance.now() - started) / 1000,
          steps: m.steps,
          ...worst(m.s11, m.s21),
        });
        if (server) {
          add("emsim through the API", await throughApi(p, server.base, server.headers, round));
        }
        add("emsim in-process, 1 thread", await inProcess(p, 1));
      }
    }
  } finally {
    if (server) await stop(server.child);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  print(rows, before, uptime());
}

function print(rows: Row[], before: string, after: string) {
  const [l1, l5] = loadavg();
  console.log(
    `# bench:sparams — ${new Date().toISOString()}, ${cpus()[0]?.model ?? "unknown CPU"}, ` +
      `${availableParallelism()} cores, load average now ${l1.toFixed(2)} / ${l5.toFixed(2)}\n`,
  );
  console.log(`uptime before: ${before}\nuptime after:  ${after}\n`);
  console.log(
    "| round | case | code | seconds | Meep ÷ this | steps | min \\|S21\\|² | max \\|S11\\|² | server: set-up (modes) / kernel (s) |",
  );
  console.log(`|${" --- |".repeat(9)}`);
  for (const r of rows) {
    const meep = rows.find(
      (x) => x.round === r.round && x.case === r.case && x.code.startsWith("Meep"),
    );
    const seconds =
      r.processSeconds === undefined
        ? r.seconds.toFixed(2)
        : `${r.seconds.toFixed(2)} (process ${r.processSeconds.toFixed(2)})`;
    console.log(
      `| ${r.round} | ${r.case} | ${r.code} | ${seconds} | ` +
        `${meep && meep !== r ? (meep.seconds / r.seconds).toFixed(1) : "—"} | ${r.steps} | ` +
        `${r.s21.toFixed(5)} | ${r.s11.toExponential(1)} | ${serverSplit(r)} |`,
    );
  }
}

/** An API job's set-up (its mode solves) and kernel seconds, from the job's own report. */
function serverSplit(r: Row): string {
  if (!r.server) return "—";
  const { setupSeconds, gridSeconds, kernelSeconds } = r.server;
  return `${setupSeconds.toFixed(2)} (${gridSeconds.toFixed(2)}) / ${kernelSeconds.toFixed(2)}`;
}

await main();
