/**
 * POST /v1/simulations/preview through the service (issue #31): a key is needed; the three
 * planes through the origin by default, each with its samples, permittivity, materials and the
 * outlines of what it cuts, the set-up's warnings and the estimate /estimate gives; a layout's
 * gds structures resolved as at submission; the same 422s as submission, named under
 * `simulation.`, and a plane outside the grid; nothing is queued. The ε a preview shows on a
 * plane is the ε the run's result file records on it (/permittivity).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import h5wasm, { type Dataset, type Group } from "h5wasm/node";
import {
  call,
  smallSimulation,
  startService,
  tempDir,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { stripOnSilica } from "../helpers/simulations.js";
import { GdsBuilder } from "../../src/fabrication/testing/gds-builder.js";
import type { PreviewResponse } from "../../src/schema/preview.js";

const UM = 1e-6;

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService({
    limits: { maxCells: 2_000_000 } as never,
  });
  key = await svc.newKey("preview@example.com");
});
after(async () => svc.close());

/** The strip on silica (helpers) with a film of gold beside the strip and a flux plane. */
function strip(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const base = stripOnSilica();
  return {
    ...base,
    structures: [
      ...base.structures,
      {
        type: "box",
        center: [0.6 * UM, 0, 0.015 * UM],
        size: [0.3 * UM, 0.3 * UM, 0.03 * UM],
        material: "Au",
      },
    ],
    monitors: [
      { name: "up", monitor_type: "flux", center: [0, 0, 0.6 * UM], size: [2 * UM, 1.6 * UM, 0] },
    ],
    ...extra,
  };
}

const preview = (body: Record<string, unknown>, k: string | null = key) =>
  call(svc.baseUrl, "POST", "/v1/simulations/preview", { key: k, body });

test("a key is needed", async () => {
  const res = await preview({ simulation: strip() }, null);
  assert.equal(res.status, 401, res.text);
});

test("the three planes through the origin, each as the run steps it, with what it cuts", async () => {
  const res = await preview({ simulation: strip() });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  const body = res.body as unknown as PreviewResponse;
  assert.deepEqual(
    body.planes.map((p) => [p.normal, p.axes]),
    [
      ["x", ["y", "z"]],
      ["y", ["x", "z"]],
      ["z", ["x", "y"]],
    ],
  );
  const y = body.planes[1]!;
  // 2 µm at 40 nm and 8 absorber cells either side: 66 cells along x, 56 along z.
  assert.deepEqual(y.cells, [66, 56]);
  assert.equal(y.coords.x!.length, 66);
  assert.equal(y.eps_real.length, 66);
  assert.equal(y.eps_real[0]!.length, 56);
  const at = (x: number, z: number) => {
    const i = y.coords.x!.findIndex((c) => Math.abs(c - x) < 1e-12);
    const j = y.coords.z!.findIndex((c) => Math.abs(c - z) < 1e-12);
    assert.ok(i >= 0 && j >= 0, `(${x}, ${z}) is a node`);
    return { eps: y.eps_real[i]![j]!, material: body.materials[y.material[i]![j]!]! };
  };
  assert.equal(at(0, 0.08 * UM).material.name, "Si");
  assert.ok(Math.abs(at(0, 0.08 * UM).eps - 3.4757 ** 2) < 0.02, `Si: ${at(0, 0.08 * UM).eps}`);
  assert.equal(at(0, -0.52 * UM).material.name, "SiO2");
  assert.equal(at(0, 0.6 * UM).material.name, "vacuum");
  assert.equal(at(0, 0.6 * UM).eps, 1);
  assert.deepEqual(at(0.6 * UM, 0).material, { name: "Au", kind: "metal" });
  assert.ok(at(0.6 * UM, 0).eps < -50, "gold's Re ε at 1.55 µm");
  // The strip's 0.22 µm top at z = 0.22 µm lies between nodes: the node below it is averaged.
  assert.ok(at(0, 0.2 * UM).eps > 1 && at(0, 0.2 * UM).eps < 3.4757 ** 2 - 0.5);

  const kinds = y.objects.map((o) => `${o.kind} ${o.name}`);
  for (const name of [
    "pml pml -x",
    "pml pml +z",
    "structure structures[1]",
    "monitor up",
    "source plane wave: TFSF plane",
  ]) {
    assert.ok(kinds.includes(name), `${name} in ${kinds.join(", ")}`);
  }
  const si = y.objects.find((o) => o.name === "structures[1]")!;
  assert.equal(si.material, "Si");
  assert.deepEqual(si.outline, [
    [
      [-0.25e-6, 0],
      [0.25e-6, 0],
      [0.25e-6, 0.22e-6],
      [-0.25e-6, 0.22e-6],
    ],
  ]);
  const tfsf = y.objects.find((o) => o.kind === "source")!;
  assert.deepEqual(tfsf.direction, [0, 0, -1]);
  assert.equal(tfsf.outline[0]!.length, 2, "the TFSF plane seen edge-on is a segment");
  assert.ok(Math.abs(tfsf.outline[0]![0]![1] - 0.72 * UM) < 1e-12, "two cells inside the top face");

  assert.deepEqual(
    body.warnings.map((w) => [w.code, w.path]),
    [["thin_film", "simulation.structures[2]"]],
  );
  const est = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body: strip() });
  assert.deepEqual(body.estimate.grid, est.body.grid);
  const jobs = await call(svc.baseUrl, "GET", "/v1/simulations", { key });
  assert.deepEqual(jobs.body.jobs, [], "a preview queues nothing");
});

test("a plane asked for, sampled to max_samples along each axis", async () => {
  const res = await preview({
    simulation: strip(),
    planes: [{ normal: "z", position: 0.11 * UM }],
    max_samples: 10,
  });
  assert.equal(res.status, 200, res.text);
  const [z] = (res.body as unknown as PreviewResponse).planes;
  assert.equal(z!.position, 0.12e-6, "the node plane nearest 0.11 µm");
  assert.deepEqual(z!.cells, [66, 56]);
  assert.equal(z!.coords.x!.length, 10);
  assert.equal(z!.coords.x![0], z!.extent.x![0], "the grid's first node");
  assert.equal(z!.eps_imag.length, 10);
});

test("gds structures are resolved as at submission, and named as sent", async () => {
  // Two rectangles on layer 1/0 (database unit 10 nm): 1 × 0.4 µm and 0.2 × 0.2 µm.
  const bytes = new GdsBuilder()
    .begin(1e-8)
    .cell("TOP", (b) =>
      b
        .boundary(1, 0, [-50, -20, 50, -20, 50, 20, -50, 20])
        .boundary(1, 0, [-10, 40, 10, 40, 10, 60, -10, 60]),
    )
    .end();
  const upload = await fetch(`${svc.baseUrl}/v1/fabrication/gds`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/octet-stream" },
    body: bytes,
  });
  const { gds_url: url } = (await upload.json()) as { gds_url: string };
  const [substrate] = strip().structures as Record<string, unknown>[];
  const gds = {
    type: "gds",
    gds_url: url,
    cell: "TOP",
    layers: [{ layer: 1, material: "Si", z_min: 0, z_max: 0.22 * UM }],
  };
  const film = (material: string) => ({
    type: "box",
    center: [0, 0.7 * UM, 0.015 * UM],
    size: [0.3 * UM, 0.2 * UM, 0.03 * UM],
    material,
  });
  const simulation = strip({ structures: [substrate, gds, film("Au")] });
  const res = await preview({ simulation, planes: [{ normal: "z", position: 0.01 * UM }] });
  assert.equal(res.status, 200, res.text);
  const answer = res.body as unknown as PreviewResponse;
  const objects = answer.planes[0]!.objects.filter((o) => o.kind === "structure");
  const spans = objects
    .filter((o) => o.material === "Si")
    .map((o) => o.outline[0]!.map((p) => p[0]))
    .map((xs) => [Math.min(...xs), Math.max(...xs)]);
  assert.deepEqual(
    spans.sort((a, b) => a[0]! - b[0]!),
    [
      [-0.5 * UM, 0.5 * UM],
      [-0.1 * UM, 0.1 * UM],
    ],
  );
  // The layout's two polyslabs are the request's structures[1]; the film after it is [2].
  assert.deepEqual(
    objects.map((o) => `${o.name} ${o.material}`),
    [
      "structures[0] SiO2",
      "structures[1] polygon 1 Si",
      "structures[1] polygon 2 Si",
      "structures[2] Au",
    ],
  );
  const thin = answer.warnings.filter((w) => w.code === "thin_film");
  assert.deepEqual(
    thin.map((w) => w.path),
    ["simulation.structures[2]"],
  );
  // A 422 about a structure after the layout names it as sent too.
  const bad = await preview({
    simulation: strip({ structures: [substrate, gds, film("Kryptonite")] }),
  });
  assert.equal(bad.status, 422, bad.text);
  const errs = bad.body.errors as { path: string }[];
  assert.ok(
    errs.every((e) => e.path.startsWith("simulation.structures[2]")),
    JSON.stringify(errs),
  );
});

test("the same 422s as submission, under simulation., and a plane outside the grid", async () => {
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [
      { simulation: strip({ source: { source_type: "plane_wave", wavelength: "1.55um" } }) },
      "simulation.source",
      /./,
    ],
    [
      {
        simulation: strip({
          monitors: [
            { name: "far", monitor_type: "flux", center: [0, 0, 5 * UM], size: [1e-6, 1e-6, 0] },
          ],
        }),
      },
      "simulation.monitors[0].center",
      /outside the domain along z/,
    ],
    [
      { simulation: strip({ domain: { ...(strip().domain as object), resolution: 10e-9 } }) },
      "simulation.domain",
      /cells/,
    ],
    [
      { simulation: strip(), planes: [{ normal: "x", position: 3 * UM }] },
      "planes[0].position",
      /3e-6 m is outside the grid, which spans \[-1\.32e-6, 1\.32e-6\] m along x/,
    ],
    [{ simulation: strip(), planes: [{ normal: "w", position: 0 }] }, "planes[0].normal", /./],
    [{ simulation: strip(), max_samples: 1 }, "max_samples", /./],
  ];
  for (const [body, path, message] of cases) {
    const res = await preview(body);
    assert.equal(res.status, 422, `${path}: ${res.text}`);
    const errs = res.body.errors as { path: string; message: string }[];
    assert.ok(
      errs.some((e) => e.path.startsWith(path) && message.test(e.message)),
      `${path} ${message}: ${JSON.stringify(errs)}`,
    );
  }
  // The example simulation of other tests passes: the wrapper is all that is new.
  const ok = await preview({ simulation: smallSimulation() });
  assert.equal(ok.status, 200, ok.text);
});

/**
 * A cross-section one cell thick (y periodic): a silica substrate, a silicon polyslab with
 * sloped walls, a gold patch and a PEC block; a field monitor on the plane y = 0.
 */
function crossSection(): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: {
      size: [1.2 * UM, 0.04 * UM, 1.2 * UM],
      resolution: 40e-9,
      boundary_conditions: ["pml", "periodic", "pml"],
      pml_layers: 8,
    },
    source: { source_type: "plane_wave", wavelength: 1.55 * UM, direction: [0, 0, -1] },
    structures: [
      {
        type: "box",
        center: [0, 0, -0.5 * UM],
        size: [9 * UM, 9 * UM, 0.6 * UM],
        material: "SiO2",
      },
      {
        type: "polyslab",
        vertices: [
          [-0.33 * UM, -1 * UM],
          [0.17 * UM, -1 * UM],
          [0.17 * UM, 1 * UM],
          [-0.33 * UM, 1 * UM],
        ],
        z_min: -0.2 * UM,
        z_max: 0.03 * UM,
        sidewall_angle_deg: 12,
        material: "Si",
      },
      {
        type: "box",
        center: [0.39 * UM, 0, 0.1 * UM],
        size: [0.13 * UM, 9 * UM, 0.07 * UM],
        material: "Au",
      },
      {
        type: "box",
        center: [-0.4 * UM, 0, 0.3 * UM],
        size: [0.1 * UM, 9 * UM, 0.1 * UM],
        material: "PEC",
      },
    ],
    monitors: [
      {
        name: "xz",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [1.2 * UM, 0, 1.2 * UM],
        components: ["Ey"],
      },
    ],
    fdtd_settings: { time_steps: 200 },
  };
}

test("the ε a preview shows on a monitor's plane is what the run's result file records there", async () => {
  const simulation = crossSection();
  const submitted = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: simulation });
  assert.equal(submitted.status, 202, submitted.text);
  const jobId = String(submitted.body.job_id);
  const shown = await preview({
    simulation,
    planes: [{ normal: "y", position: 0 }],
    max_samples: 1000,
  });
  assert.equal(shown.status, 200, shown.text);
  const plane = (shown.body as unknown as PreviewResponse).planes[0]!;
  await waitForStatus(svc.baseUrl, key, jobId, ["COMPLETED"]);
  const res = await fetch(`${svc.baseUrl}/v1/simulations/${jobId}/results`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(res.status, 200);
  const path = join(tempDir(), "result.h5");
  writeFileSync(path, Buffer.from(await res.arrayBuffer()));
  await h5wasm.ready;
  const file = new h5wasm.File(path, "r");
  try {
    const g = file.get("permittivity/xz") as Group;
    assert.equal(g.attrs.normal!.value, "y");
    const read = (name: string) => Array.from((g.get(name) as Dataset).value as ArrayLike<number>);
    // The preview's answer writes 7 significant digits.
    for (const axis of ["x", "z"]) {
      const [mine, its] = [read(axis), plane.coords[axis]!];
      assert.equal(mine.length, its.length, `nodes along ${axis}`);
      mine.forEach((c, i) => assert.ok(Math.abs(c - its[i]!) < 1e-12 * UM, `${axis}[${i}]`));
    }
    const [re, im, pec] = [read("eps_real"), read("eps_imag"), read("pec_components")];
    assert.equal(re.length, plane.coords.x!.length * plane.coords.z!.length);
    let worst = 0;
    plane.eps_real.flat().forEach((eps, k) => {
      worst = Math.max(worst, Math.abs(eps - re[k]!), Math.abs(plane.eps_imag.flat()[k]! - im[k]!));
    });
    // The preview paints the plane alone: interface cells share table entries by their state
    // rounded to 1/8192 (medium.ts), so the first cell of a bucket painted sets its value.
    assert.ok(worst < 2e-3, `|Δε| up to ${worst}`);
    assert.deepEqual(pec, plane.pec.flat(), "the perfect conductor's cells");
    assert.ok(Math.min(...re) < -50, "gold's Re ε on the plane");
    assert.ok(
      pec.some((n) => n === 3),
      "the PEC block on the plane",
    );
    const mixed = re.filter((e) => e > 1.05 && Math.abs(e - 2.085) > 0.01 && e < 12);
    assert.ok(mixed.length > 10, "averaged interface cells on the plane");
  } finally {
    file.close();
  }
});
