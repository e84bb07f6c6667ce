/**
 * The shipped examples stay valid (the server's own validation with default limits) and small
 * enough to run in well under a minute on two cores; docs/getting-started.md relies on them.
 * Running them is left to `emsim submit examples/<name>.json --wait` (times in
 * examples/README.md): the suite runs jobs of the same kind in workflow.test.ts. An example
 * whose gds structure names a layout file beside it is checked as a user's `emsim estimate`
 * sends it (the file uploaded, then resolved by a real service), and its layout is checked to
 * be what its script writes. A batch request (`{simulation, parameters}`, run with
 * `emsim sweep`) is checked as POST /v1/batches checks it, each variant within the same budget
 * (sweeps run in sweep.test.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { couplerGds } from "../../scripts/examples/make-coupler-gds.js";
import { checkBatchRequest, isBatchRequestBody } from "../../src/cli/sweep-request.js";
import { loadConfig } from "../../src/config.js";
import { validateSimulationRequest } from "../../src/schema/validate.js";
import type { Vec3 } from "../../src/solver/types.js";
import { startService, tempDir } from "../helpers/service.js";
import { runCli } from "./helpers.js";

const DIR = fileURLToPath(new URL("../../examples/", import.meta.url));

/** The budget of cell updates (the estimate's expected steps) an example may take. */
const CELL_STEPS = 25_000 * 5000;

/**
 * Examples allowed a larger budget, each with why. A grating coupler's grid must hold a
 * fibre's beam (10.4 µm across) and a 70 nm etch (25 nm cells): 181 000 cells of a
 * cross-section, which takes 15 s on the embedded server's default (wasm) backend
 * (examples/README.md), not the reference kernel's minutes. The same coupler as an emitter
 * rings down longer (its mode's 1 W leaves through the grating over 16 000 steps): 17 s.
 */
const LARGER_BUDGETS: Record<string, number> = {
  "grating-coupler-2d.json": 181_056 * 5000,
  "grating-coupler-2d-emission.json": 181_056 * 21_000,
};

/** Whether a request's gds structure names a local layout file rather than a gds_url. */
function namesLocalGds(body: { structures?: Array<{ type?: string; gds_url?: string }> }) {
  return (body.structures ?? []).some(
    (s) => s.type === "gds" && !/^https?:\/\//.test(s.gds_url ?? ""),
  );
}

/** A sweep's jobs run one after another: a dozen example-sized ones at most. */
const SWEEP_JOBS = 12;

/** A batch request example: every variant valid and within the budget, a dozen at most. */
function checkSweepExample(file: string, body: unknown): void {
  const outcome = checkBatchRequest(body);
  assert.ok(outcome.ok, `${file}: ${JSON.stringify(!outcome.ok && outcome.errors)}`);
  assert.ok(outcome.jobCount <= SWEEP_JOBS, `${file}: ${outcome.jobCount} jobs`);
  outcome.estimates.forEach((estimate, i) => {
    const { totalCells, expectedSteps } = estimate!;
    assert.ok(
      totalCells * expectedSteps <= (LARGER_BUDGETS[file] ?? CELL_STEPS),
      `${file} variant ${i}: ${totalCells} cells × ${expectedSteps} expected steps`,
    );
  });
}

test("every example is a valid, modest simulation request", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".json"));
  for (const name of [
    "plane-wave-vacuum",
    "sin-slab-fabry-perot",
    "si-strip-waveguide",
    "dipole-above-gold-film",
    "focused-beam-on-grating",
    "si-wire-sparameters",
    "directional-coupler-sparameters",
  ]) {
    assert.ok(files.includes(`${name}.json`), `examples/${name}.json exists`);
  }
  for (const file of files) {
    const body = JSON.parse(readFileSync(DIR + file, "utf8")) as Parameters<
      typeof namesLocalGds
    >[0] & { metadata?: { example?: string } };
    if (isBatchRequestBody(body)) {
      assert.equal(body.metadata?.example, file.replace(/\.json$/, ""));
      checkSweepExample(file, body);
      continue;
    }
    // Checked by the next test, through a service that holds its layout.
    if (namesLocalGds(body)) continue;
    const outcome = validateSimulationRequest(body, loadConfig({}).limits);
    assert.ok(outcome.ok, `${file}: ${JSON.stringify(!outcome.ok && outcome.errors)}`);
    assert.equal(body.metadata?.example, file.replace(/\.json$/, ""));
    // At the reference kernel's few Mcells/s, 25 000 cells for 5000 steps take well under a
    // minute: a budget of cell updates (the estimate's expected steps), which the 3-D dipole
    // example meets with 83 000 cells converging in 1200 steps (18 s on the reference kernel).
    const { totalCells, expectedSteps } = outcome.estimate;
    assert.ok(
      totalCells * expectedSteps <= (LARGER_BUDGETS[file] ?? CELL_STEPS),
      `${file}: ${totalCells} cells × ${expectedSteps} expected steps`,
    );
  }
});

test("the coupler example, its layout uploaded by `emsim estimate`, is valid and modest", async () => {
  // The layout is what scripts/examples/make-coupler-gds.ts writes, byte for byte.
  const file = `${DIR}directional-coupler-sparameters.json`;
  const body = JSON.parse(readFileSync(file, "utf8")) as {
    metadata: { example: string };
    structures: Array<{ type: string; gds_url?: string }>;
  };
  assert.equal(body.metadata.example, "directional-coupler-sparameters");
  const gds = body.structures.find((s) => s.type === "gds")!;
  assert.deepEqual(new Uint8Array(readFileSync(DIR + gds.gds_url!)), couplerGds());

  const svc = await startService({ embeddedWorker: false });
  const config = tempDir("emsim-examples-");
  try {
    const env = {
      EMSIM_BASE_URL: svc.baseUrl,
      EMSIM_API_KEY: await svc.newKey("examples@example.com"),
      EMSIM_CONFIG_DIR: config,
    };
    // Answered only once the server has read the uploaded layout, taken the ports from its
    // labels and extended its guides.
    const run = await runCli(["estimate", file, "--json"], env);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const estimate = JSON.parse(run.stdout) as { cells: number; expected_steps: number };
    assert.ok(
      estimate.cells * estimate.expected_steps <= CELL_STEPS,
      `${estimate.cells} cells × ${estimate.expected_steps} expected steps`,
    );
  } finally {
    await svc.close();
    rmSync(config, { recursive: true, force: true });
  }
});

test("the sweep example varies the slab's thickness through its first full transmission", () => {
  const body = JSON.parse(readFileSync(`${DIR}slab-thickness-sweep.json`, "utf8")) as {
    simulation: { structures: { material: string }[]; monitors: { monitor_type: string }[] };
    parameters: { path: string; range: { start: number; stop: number } }[];
  };
  assert.ok(isBatchRequestBody(body));
  assert.equal(body.simulation.structures[0]!.material, "Si3N4");
  assert.deepEqual(
    body.simulation.monitors.map((m) => m.monitor_type),
    ["flux", "flux"],
  );
  const [thickness] = body.parameters;
  assert.equal(thickness!.path, "/structures/0/size/2");
  // T = 1 where 2·n·d = λ: d = 1.55 µm / (2 × 1.996) ≈ 0.39 µm lies inside the range.
  const d = 1.55e-6 / (2 * 1.996);
  assert.ok(thickness!.range.start < d && d < thickness!.range.stop);
});

test("the sin slab example records several wavelengths on one monitor", () => {
  const body = JSON.parse(readFileSync(`${DIR}sin-slab-fabry-perot.json`, "utf8")) as {
    structures: { material: string }[];
    monitors: { wavelengths?: number[] }[];
  };
  assert.equal(body.structures[0]!.material, "Si3N4");
  assert.ok(body.monitors.every((m) => (m.wavelengths?.length ?? 0) >= 3));
});

test("the dipole example measures the Purcell factor in vacuum and the pattern above the film", () => {
  const body = JSON.parse(readFileSync(`${DIR}dipole-above-gold-film.json`, "utf8")) as {
    source: { source_type: string; center: Vec3 };
    structures: { material: string; center: Vec3; size: Vec3 }[];
    monitors: { name: string; monitor_type: string; center: Vec3; size: Vec3 }[];
  };
  assert.equal(body.source.source_type, "point_dipole");
  const film = body.structures[0]!;
  assert.equal(film.material, "Au");
  const filmTop = film.center[2] + film.size[2] / 2;
  const lo = (m: { center: Vec3; size: Vec3 }, a: number) => m.center[a] - m.size[a] / 2;
  const hi = (m: { center: Vec3; size: Vec3 }, a: number) => m.center[a] + m.size[a] / 2;
  const byName = new Map(body.monitors.map((m) => [m.name, m]));
  // The Purcell box: around the dipole and wholly in vacuum, so that the power out of it is
  // all the dipole gives (radiated, absorbed in the gold, or carried along the film).
  const box = byName.get("purcell")!;
  assert.equal(box.monitor_type, "flux");
  for (let a = 0; a < 3; a++) {
    assert.ok(lo(box, a) < body.source.center[a] && body.source.center[a] < hi(box, a));
  }
  assert.ok(lo(box, 2) > filmTop, "the Purcell box lies above the film");
  // The far field: a plane (projecting the half-space above it), wholly above the film.
  const pattern = byName.get("pattern")!;
  assert.equal(pattern.monitor_type, "far_field");
  assert.deepEqual(
    pattern.size.map((s) => s === 0),
    [false, false, true],
  );
  assert.ok(pattern.center[2] > body.source.center[2] && pattern.center[2] > filmTop);
});

test("the grating example focuses a beam on lines its mirror planes keep whole", () => {
  const body = JSON.parse(readFileSync(`${DIR}focused-beam-on-grating.json`, "utf8")) as {
    domain: { symmetry: string[] };
    source: { source_type: string; center: Vec3; waist_distance: number; direction: Vec3 };
    structures: { center: Vec3; size: Vec3 }[];
    monitors: { name: string; monitor_type: string; center: Vec3 }[];
  };
  assert.equal(body.source.source_type, "gaussian_beam");
  assert.deepEqual(body.domain.symmetry, ["pmc", "pec", "none"]);
  // The focus sits within the lines' height (0 … 0.4 µm), below the injection plane.
  const focusZ = body.source.center[2] + body.source.waist_distance * body.source.direction[2];
  const lines = body.structures.slice(1);
  for (const line of lines) {
    assert.ok(Math.abs(focusZ - line.center[2]) <= line.size[2] / 2, "the focus is on the lines");
  }
  // Lines 1 µm apart, mirror images of one another about x = 0.
  const xs = lines.map((l) => l.center[0]).sort((p, q) => p - q);
  assert.deepEqual(xs, [-1e-6, 0, 1e-6]);
  const orders = body.monitors.find((m) => m.name === "orders")!;
  assert.equal(orders.monitor_type, "far_field");
  assert.ok(orders.center[2] > body.source.center[2], "the far field looks at the reflection");
});
