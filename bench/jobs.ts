/**
 * `npm run bench:jobs`: jobs a user can submit, timed from submission to COMPLETED through the
 * HTTP API and the worker of a fresh embedded server (compiled, `dist/`, its own process), each
 * next to Meep (Debian's python3-meep, bench/meep_job.py) on the same grid for the same number
 * of time steps in the same run. Per job: the server's estimate before submitting, the measured
 * duration, where the time went (set-up and its painting, the kernel's sweeps, the per-step work
 * outside them, result writing, the rest: queueing, storing, polling), the stepping rate in
 * Mcell/s and its ratio to Meep's.
 *
 * Jobs: the README's strip waveguide (examples/si-strip-waveguide.json, a cross-section one cell
 * thick), a periodic unit cell with a sphere (small 3-D), and 150³ and 250³ grids (whole grid,
 * PML included) at 20 nm, about 40 cells per wavelength in Si3N4, and a 200³ grid with 1 000
 * spheres for painting at scale. BENCH_QUICK=1 leaves out the 250³ job and runs the spheres for
 * 200 steps. BENCH_ONLY=strip,unit runs only the jobs whose names contain one of the words,
 * BENCH_REPEAT=3 each job three times in a row (one row each: on a shared machine the spread
 * says more than one figure). Meep is left out, with a note, where `import meep` fails.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { applyDefaults } from "../src/schema/validate.js";
import type { SolverReport } from "../src/schema/responses.js";
import type { SimulationRequest } from "../src/schema/simulation.js";
import { permittivityAt } from "../src/solver/materials.js";
import { freePort, tempDir } from "../test/helpers/service.js";
import { emsim, stop, waitUp } from "./processes.js";

const QUICK = process.env.BENCH_QUICK === "1";
const ONLY = (process.env.BENCH_ONLY ?? "").split(",").filter((w) => w.length > 0);
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1) || 1);
const PYTHON = "/usr/bin/python3";

function cube(totalCells: number, steps: number): SimulationRequest {
  const h = 20e-9;
  const pml = 12;
  const interior = (totalCells - 2 * pml) * h;
  return {
    solver: "fdtd",
    domain: {
      size: [interior, interior, interior],
      resolution: h,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: pml,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures: [
      {
        type: "box",
        center: [0, 0, 0],
        size: [interior / 3, interior / 3, interior / 3],
        material: "Si3N4",
      },
    ],
    monitors: [
      {
        name: "transmitted",
        monitor_type: "field",
        center: [0, 0, interior / 3],
        size: [interior, interior, 0],
        components: ["Ex", "Ey"],
      },
    ],
    fdtd_settings: { time_steps: steps, convergence_threshold: 0, check_every_n: 100 },
  };
}

const unitCell: SimulationRequest = {
  solver: "fdtd",
  domain: {
    size: [0.6e-6, 0.6e-6, 2.4e-6],
    resolution: 20e-9,
    boundary_conditions: ["periodic", "periodic", "pml"],
    pml_layers: 12,
  },
  source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
  structures: [{ type: "sphere", center: [0, 0, 0], radius: 0.2e-6, material: "Si3N4" }],
  monitors: [
    {
      name: "transmitted",
      monitor_type: "field",
      center: [0, 0, 0.8e-6],
      size: [0.6e-6, 0.6e-6, 0],
      components: ["Ex", "Ey"],
    },
  ],
  fdtd_settings: { time_steps: 6000, convergence_threshold: 1e-5, check_every_n: 200 },
};

/**
 * Painting at scale (issue #15: under 10 % of a 1 000-step run): a 200³ grid with a 10 × 10 × 10
 * lattice of Si3N4 spheres, 1 000 steps. Meep is not run for it (its own painting of 1 000
 * spheres is not what is compared).
 */
function sphereLattice(steps: number): SimulationRequest {
  const base = cube(200, steps);
  const L = base.domain.size[0];
  const pitch = L / 10;
  const at = (m: number) => -L / 2 + (m + 0.5) * pitch;
  const structures: SimulationRequest["structures"] = [];
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) {
      for (let k = 0; k < 10; k++) {
        structures.push({
          type: "sphere",
          center: [at(i), at(j), at(k)],
          radius: 0.4 * pitch,
          material: "Si3N4",
        });
      }
    }
  }
  return { ...base, structures };
}

const JOBS: { name: string; request: SimulationRequest; meep?: false }[] = [
  {
    name: "strip waveguide (README), 1 cell thick",
    request: JSON.parse(
      readFileSync("examples/si-strip-waveguide.json", "utf8"),
    ) as SimulationRequest,
  },
  { name: "unit cell with a sphere, periodic", request: unitCell },
  { name: "150³ grid, 1000 steps", request: cube(150, 1000) },
  ...(QUICK ? [] : [{ name: "250³ grid, 400 steps", request: cube(250, 400) }]),
  {
    name: `200³ grid, 1 000 spheres, ${QUICK ? 200 : 1000} steps`,
    request: sphereLattice(QUICK ? 200 : 1000),
    meep: false,
  },
];

interface Measured {
  name: string;
  cells: number;
  steps: number;
  /** The estimate's expected_seconds (and steps) before submitting. */
  estimateSeconds: number;
  expectedSteps: number;
  seconds: number;
  setup: number;
  painting: number;
  stepping: number;
  kernel: number;
  writing: number;
  rate: number;
  threads: number;
  meep: { seconds: number; rate: number } | null;
}

const meepMissing = spawnSync(PYTHON, ["-c", "import meep"], { encoding: "utf8" }).status !== 0;

function meep(request: SimulationRequest, steps: number) {
  if (meepMissing) return null;
  const spec = applyDefaults(request);
  const eps: Record<string, number> = {};
  for (const s of spec.structures) {
    eps[s.material] = permittivityAt(s.material, spec.source.wavelength).re;
  }
  const r = spawnSync(PYTHON, ["bench/meep_job.py", JSON.stringify({ spec, eps, steps })], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`Meep failed: ${r.stderr.slice(-2000)}`);
  const line = r.stdout.split("\n").find((l) => l.startsWith('{"seconds"'));
  const out = JSON.parse(line!) as { seconds: number; steps: number; cells: number };
  return { seconds: out.seconds, rate: (out.cells * out.steps) / out.seconds / 1e6 };
}

/**
 * fetch, tried once more when the connection fails: while Meep runs (over a minute for 250³)
 * the server closes the idle keep-alive connection, and the next request may race that.
 */
/**
 * fetch, tried again on a socket error: while Meep runs for minutes the server closes the idle
 * keep-alive sockets (keepAliveTimeoutMs), and the client's pool may hold several of them.
 */
async function request(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (!(err instanceof TypeError) || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function main() {
  const dataDir = tempDir("emsim-bench-jobs-");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ["dist/cli/main.js", "server", "--port", String(port), "--data-dir", dataDir],
    { stdio: "ignore", env: { ...process.env, EMSIM_DATA_DIR: dataDir } },
  );
  try {
    await waitUp(`${base}/health`);
    const key = emsim(["keys", "create", "--email", "bench@example.com", "--name", "bench"], {
      EMSIM_DATA_DIR: dataDir,
    });
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const rows: Measured[] = [];
    const jobs = JOBS.filter((j) => ONLY.length === 0 || ONLY.some((w) => j.name.includes(w)));
    for (const job of jobs.flatMap((j) => Array<typeof j>(REPEAT).fill(j))) {
      const estimate = (await (
        await request(`${base}/v1/simulations/estimate`, {
          method: "POST",
          headers,
          body: JSON.stringify(job.request),
        })
      ).json()) as { expected_seconds: number; expected_steps: number };
      const started = performance.now();
      const ack = (await (
        await request(`${base}/v1/simulations`, {
          method: "POST",
          headers,
          body: JSON.stringify(job.request),
        })
      ).json()) as { job_id: string };
      let record: Record<string, unknown>;
      for (;;) {
        record = (await (
          await request(`${base}/v1/simulations/${ack.job_id}`, { headers })
        ).json()) as Record<string, unknown>;
        if (record.status === "COMPLETED" || record.status === "FAILED") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const seconds = (performance.now() - started) / 1000;
      if (record.status !== "COMPLETED")
        throw new Error(`${job.name}: ${String(record.error_detail)}`);
      const report = record.solver_report as SolverReport;
      rows.push({
        name: job.name,
        cells: report.cells,
        steps: report.steps_run,
        estimateSeconds: estimate.expected_seconds,
        expectedSteps: estimate.expected_steps,
        seconds,
        setup: report.setup_seconds ?? 0,
        painting: report.setup?.painting_seconds ?? 0,
        stepping: report.stepping_seconds ?? 0,
        kernel: report.stepping?.kernel_seconds ?? 0,
        writing: report.result_writing_seconds ?? 0,
        rate: report.mcells_per_second,
        threads: report.threads,
        meep: job.meep === false ? null : meep(job.request, report.steps_run),
      });
      console.error(`${job.name}: ${seconds.toFixed(2)} s`);
    }
    print(rows);
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(rows: Measured[]) {
  const [l1, l5] = loadavg();
  console.log(
    `# bench:jobs — ${new Date().toISOString()}, ${cpus()[0]?.model ?? "unknown CPU"}, ` +
      `${availableParallelism()} cores, load average ${l1.toFixed(1)} / ${l5.toFixed(1)}\n`,
  );
  console.log(
    "| job | cells | steps (expected) | estimate (s) | submitted → COMPLETED (s) | ÷ estimate | " +
      "set-up (s) | of which painting | kernel (s) | per-step work outside the kernel (s) | " +
      "result writing (s) | rest (s) | threads | Mcell/s | Meep Mcell/s | ÷ Meep |",
  );
  console.log(`|${" --- |".repeat(16)}`);
  for (const r of rows) {
    const outside = r.stepping - r.kernel;
    const rest = r.seconds - r.setup - r.stepping - r.writing;
    console.log(
      `| ${r.name} | ${r.cells} | ${r.steps} (${r.expectedSteps}) | ${r.estimateSeconds} | ` +
        `${r.seconds.toFixed(2)} | ${(r.seconds / r.estimateSeconds).toFixed(2)} | ` +
        `${r.setup.toFixed(2)} | ${r.painting.toFixed(2)} | ${r.kernel.toFixed(2)} | ` +
        `${outside.toFixed(2)} | ${r.writing.toFixed(2)} | ${rest.toFixed(2)} | ${r.threads} | ` +
        `${r.rate.toFixed(0)} | ${r.meep ? r.meep.rate.toFixed(0) : "—"} | ` +
        `${r.meep ? (r.rate / r.meep.rate).toFixed(1) : "—"} |`,
    );
  }
  if (meepMissing)
    console.log(
      `\nMeep left out: ${PYTHON} cannot import meep (apt-get install python3-meep python3-matplotlib: Debian's meep imports matplotlib without depending on it).`,
    );
}

await main();
