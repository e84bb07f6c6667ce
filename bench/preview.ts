/**
 * `npm run bench:preview`: POST /v1/simulations/preview of a 5.3-million-cell 3-D set-up
 * (issue #31's goal: it answers in under 0.5 s on the 2-core machine). The set-up: a 3 µm cube
 * at 20 nm with 12 absorber cells on every face (174³ = 5 268 024 cells), a silica substrate
 * through the absorber, a gold sphere, a silicon polyslab with 10° walls, a PEC film, a plane
 * wave and a flux plane; the three planes through the origin, 400 samples at most per axis
 * (each plane is 174 × 174 cells, so all of them).
 *
 * The service runs in this process (from the sources, as `createService` builds it, no worker)
 * and is asked over a real socket, one request at a time: the first answer (V8 not yet warmed
 * up on these paths), then BENCH_RUNS more (default 10), each timed from the request to the
 * parsed JSON. Then the parts in-process, as many times: the validation and estimate
 * (JobService.check) and the planes (painting, outlines, the answer's JSON shape:
 * preview/response.ts setupPreview). Prints the best and the median of each, the answer's
 * size and the load average.
 * Run: node --import tsx bench/preview.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { setupPreview } from "../src/preview/response.js";
import type { SimulationRequest } from "../src/schema/simulation.js";
import { createService } from "../src/service.js";
import { freePort } from "../test/helpers/service.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const UM = 1e-6;

const simulation = {
  solver: "fdtd",
  domain: {
    size: [3 * UM, 3 * UM, 3 * UM],
    resolution: 20e-9,
    boundary_conditions: ["pml", "pml", "pml"],
    pml_layers: 12,
  },
  source: { source_type: "plane_wave", wavelength: 1.55 * UM, direction: [0, 0, 1] },
  structures: [
    { type: "box", center: [0, 0, -1 * UM], size: [10 * UM, 10 * UM, 1 * UM], material: "SiO2" },
    { type: "sphere", center: [0.5 * UM, 0, 0], radius: 0.4 * UM, material: "Au" },
    {
      type: "polyslab",
      vertices: [
        [-1 * UM, -0.3 * UM],
        [0, -0.3 * UM],
        [0, 0.3 * UM],
        [-1 * UM, 0.3 * UM],
      ],
      z_min: -0.5 * UM,
      z_max: -0.2 * UM,
      sidewall_angle_deg: 10,
      material: "Si",
    },
    { type: "box", center: [0, 0, 0.8 * UM], size: [1 * UM, 1 * UM, 0.03 * UM], material: "PEC" },
  ],
  monitors: [
    { name: "t", monitor_type: "flux", center: [0, 0, 1.2 * UM], size: [3 * UM, 3 * UM, 0] },
  ],
  fdtd_settings: { time_steps: 1000 },
};

const ms = (t0: number) => performance.now() - t0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const figures = (xs: number[]) =>
  `best ${Math.min(...xs).toFixed(0)} ms, median ${median(xs).toFixed(0)} ms`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "emsim-bench-preview-"));
  const port = await freePort();
  const config = loadConfig(
    { EMSIM_EMBEDDED_WORKER: "false", EMSIM_RATE_LIMIT_PER_MINUTE: "0" },
    { host: "127.0.0.1", port, dataDir, limits: { maxCells: 10_000_000 } as never },
  );
  const service = await createService(config);
  await service.listen();
  try {
    const { key } = await service.accounts.issueKeyFor("bench@example.com", "bench");
    const ask = async () => {
      const t0 = performance.now();
      const res = await fetch(`${config.baseUrl}/v1/simulations/preview`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ simulation }),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${res.status}: ${text.slice(0, 500)}`);
      const body = JSON.parse(text) as { estimate: { cells: number } };
      return { ms: ms(t0), bytes: text.length, cells: body.estimate.cells };
    };
    const first = await ask();
    const http: number[] = [];
    for (let i = 0; i < RUNS; i++) http.push((await ask()).ms);
    const check: number[] = [];
    const planes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      const { spec } = service.jobs.check(simulation as SimulationRequest);
      check.push(ms(t0));
      t0 = performance.now();
      setupPreview(spec, {});
      planes.push(ms(t0));
    }
    console.log(
      `preview of ${first.cells.toLocaleString("en-US")} cells (three 174 × 174 planes), ` +
        `answer ${(first.bytes / 1e6).toFixed(2)} MB`,
    );
    console.log(`  HTTP, first answer: ${first.ms.toFixed(0)} ms`);
    console.log(`  HTTP, ${RUNS} more: ${figures(http)}`);
    console.log(`  of which validation and estimate: ${figures(check)}`);
    console.log(`  of which the planes (painting, outlines, JSON shape): ${figures(planes)}`);
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
