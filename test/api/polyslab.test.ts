/**
 * Polyslab structures and GDS II import through the HTTP API of a real service (SQLite, local
 * storage): bad polygons are refused with a 422 naming the structure, and a `type: "gds"`
 * structure referencing an uploaded file is stored as the polyslabs of its merged layers
 * (units, hierarchy, a keyhole hole, offset), while another account's address, an unknown
 * layer or cell are refused.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { call, smallSimulation, startService, type TestService } from "../helpers/service.js";
import { GdsBuilder } from "../../src/fabrication/testing/gds-builder.js";
import type { PolySlabSpec, SimulationSpec } from "../../src/solver/types.js";

let svc: TestService;
let key: string;
let otherKey: string;
let thirdKey: string;
before(async () => {
  svc = await startService({ embeddedWorker: false });
  key = await svc.newKey("poly@example.com");
  otherKey = await svc.newKey("other@example.com");
  thirdKey = await svc.newKey("third@example.com");
});
after(async () => svc.close());

const UM = 1e-6;

/** A domain of 8 × 4 × 1 µm with 40 nm cells and one point monitor. */
const simulation = (structures: unknown[]) =>
  smallSimulation({
    domain: {
      size: [8 * UM, 4 * UM, 1 * UM],
      resolution: 0.04 * UM,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
    },
    structures,
    monitors: [
      { name: "p", monitor_type: "field", center: [0, 0, 0], size: [0, 0, 0], components: ["Ex"] },
    ],
  });

const square = (x0: number, y0: number, s: number): [number, number][] => [
  [x0, y0],
  [x0 + s, y0],
  [x0 + s, y0 + s],
  [x0, y0 + s],
];

async function submit(structures: unknown[], k = key) {
  return call(svc.baseUrl, "POST", "/v1/simulations", { key: k, body: simulation(structures) });
}

test("polyslab: a bad polygon is refused with a 422 naming the structure and the reason", async () => {
  const box = { type: "box", center: [0, 0, 0], size: [1 * UM, 1 * UM, 0.2 * UM], material: "Si" };
  const poly = (extra: Record<string, unknown>) => ({
    type: "polyslab",
    vertices: square(-1 * UM, -1 * UM, 2 * UM),
    z_min: 0,
    z_max: 0.22 * UM,
    material: "Si",
    ...extra,
  });
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [
      poly({
        vertices: [
          [0, 0],
          [1 * UM, 1 * UM],
          [1 * UM, 0],
          [0, 1 * UM],
        ],
      }),
      "structures[1].vertices",
      /not a simple polygon/,
    ],
    [poly({ z_min: 0.3 * UM }), "structures[1].z_max", /greater than z_min/],
    [
      poly({ vertices: square(-1 * UM, -0.1 * UM, 0.2 * UM), sidewall_angle_deg: 80 }),
      "structures[1].sidewall_angle_deg",
      /shrinks to nothing at z = /,
    ],
    [
      poly({ holes: [square(2 * UM, 0, 0.5 * UM)] }),
      "structures[1].holes[0]",
      /inside the outline/,
    ],
    [poly({ vertices: square(5 * UM, 0, 1 * UM) }), "structures[1].vertices", /outside the domain/],
    [
      poly({
        vertices: Array.from({ length: 10_001 }, (_, i) => [
          Math.cos(i / 1600) * UM,
          Math.sin(i / 1600) * UM,
        ]),
      }),
      "structures[1].vertices",
      /more than 10000 items/,
    ],
    [{ ...poly({}), type: "polygon" }, "structures[1].type", /"polyslab", "gds"/],
  ];
  for (const [structure, path, message] of cases) {
    const res = await submit([box, structure]);
    assert.equal(res.status, 422, `${path}: ${res.text}`);
    const errs = res.body.errors as Array<{ path: string; message: string }>;
    assert.ok(
      errs.some((e) => e.path === path && message.test(e.message)),
      `${path} ${message}: ${JSON.stringify(errs)}`,
    );
    assert.ok(String(res.body.detail).startsWith(path), String(res.body.detail));
  }
});

test("polyslab: a valid one is stored with its defaults filled in", async () => {
  const res = await submit(
    [
      {
        type: "polyslab",
        vertices: [...square(-1 * UM, -1 * UM, 2 * UM)].reverse(),
        holes: [square(-0.2 * UM, -0.2 * UM, 0.4 * UM)],
        z_min: -0.11 * UM,
        z_max: 0.11 * UM,
        material: "Si",
      },
    ],
    thirdKey,
  );
  assert.equal(res.status, 202, res.text);
  const job = await svc.service.stores.jobs.getJob(String(res.body.job_id));
  const spec = JSON.parse(job!.specJson) as SimulationSpec;
  const s = spec.structures[0] as PolySlabSpec;
  assert.equal(s.type, "polyslab");
  assert.equal(s.sidewall_angle_deg, 0);
  assert.equal(s.holes?.length, 1);
});

/**
 * Database unit 10 nm. TOP places RECT (1 × 0.5 µm on 1/0) twice side by side (they merge into
 * one 2 × 0.5 µm outline), draws a 1 µm square with a 0.4 µm hole stored as a keyhole polygon
 * on 1/0 and a right triangle on 2/0; OTHER (another top cell) has a square on 1/0.
 */
const layout = () =>
  new GdsBuilder()
    .begin(1e-8)
    .cell("RECT", (b) => b.boundary(1, 0, [0, 0, 100, 0, 100, 50, 0, 50]))
    .cell("TOP", (b) =>
      b
        .sref("RECT", 0, 0)
        .sref("RECT", 100, 0)
        .boundary(
          1,
          0,
          [
            250, 0, 350, 0, 350, 100, 250, 100, 250, 50, 280, 50, 280, 70, 320, 70, 320, 30, 280,
            30, 280, 50, 250, 50,
          ],
        )
        .boundary(2, 0, [0, 100, 100, 100, 0, 200]),
    )
    .cell("OTHER", (b) => b.boundary(1, 0, [500, 500, 600, 500, 600, 600, 500, 600]))
    .end();

async function upload(bytes: Uint8Array, k: string): Promise<string> {
  const res = await fetch(`${svc.baseUrl}/v1/fabrication/gds`, {
    method: "POST",
    headers: { authorization: `Bearer ${k}`, "content-type": "application/octet-stream" },
    body: bytes,
  });
  const body = (await res.json()) as { gds_url: string };
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.gds_url;
}

test("gds: layers of an uploaded file become polyslabs in the stored job; bad references are 422", async () => {
  const url = await upload(layout(), key);
  const othersUrl = await upload(layout(), otherKey);
  const gds = (extra: Record<string, unknown> = {}) => ({
    type: "gds",
    gds_url: url,
    cell: "TOP",
    layers: [
      { layer: 1, material: "Si", z_min: -0.11 * UM, z_max: 0.11 * UM },
      {
        layer: 2,
        datatype: 0,
        material: "SiO2",
        z_min: -0.11 * UM,
        z_max: 0.11 * UM,
        sidewall_angle_deg: 10,
      },
    ],
    offset: [-2 * UM, -1 * UM],
    ...extra,
  });

  const refused: Array<[Record<string, unknown>, string, RegExp]> = [
    [gds({ gds_url: othersUrl }), "structures[0].gds_url", /not a GDS address .* your account/],
    [
      gds({ gds_url: "https://example.com/layout.gds" }),
      "structures[0].gds_url",
      /not a GDS address/,
    ],
    [
      gds({ layers: [{ layer: 7, material: "Si", z_min: 0, z_max: 0.1 * UM }] }),
      "structures[0].layers[0]",
      /no shapes on layer 7\/0 \(its layers: 1\/0, 2\/0\)/,
    ],
    [gds({ cell: "NOPE" }), "structures[0].cell", /no cell named "NOPE" .*RECT, TOP, OTHER/],
  ];
  for (const [structure, path, message] of refused) {
    const res = await submit([structure]);
    assert.equal(res.status, 422, `${path}: ${res.text}`);
    const errs = res.body.errors as Array<{ path: string; message: string }>;
    assert.ok(
      errs.some((e) => e.path === path && message.test(e.message)),
      `${path} ${message}: ${JSON.stringify(errs)}`,
    );
  }

  // The estimate resolves it the same way.
  const est = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: simulation([gds()]),
  });
  assert.equal(est.status, 200, est.text);

  const res = await submit([
    { type: "box", center: [0, 0, -0.3 * UM], size: [8 * UM, 4 * UM, 0.4 * UM], material: "SiO2" },
    gds(),
  ]);
  assert.equal(res.status, 202, res.text);
  const job = await svc.service.stores.jobs.getJob(String(res.body.job_id));
  for (const json of [job!.specJson, job!.requestJson]) {
    const structures = (JSON.parse(json) as SimulationSpec).structures;
    assert.deepEqual(
      structures.map((s) => [s.type, s.material]),
      [
        ["box", "SiO2"],
        ["polyslab", "Si"],
        ["polyslab", "Si"],
        ["polyslab", "SiO2"],
      ],
    );
    const slabs = structures.slice(1) as PolySlabSpec[];
    const box = (s: PolySlabSpec) => {
      const xs = s.vertices.map((v) => v[0]);
      const ys = s.vertices.map((v) => v[1]);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map(
        (v) => Math.round(v * 1e9) / 1e3,
      );
    };
    const merged = slabs.find((s) => !s.holes && s.material === "Si")!;
    const ring = slabs.find((s) => s.holes)!;
    const triangle = slabs[2]!;
    // The two placements merged into one rectangle (four vertices), offset by (−2, −1) µm.
    assert.equal(merged.vertices.length, 4);
    assert.deepEqual(box(merged), [-2, -1, 0, -0.5]);
    assert.deepEqual(box(ring), [0.5, -1, 1.5, 0]);
    assert.equal(ring.holes!.length, 1);
    assert.equal(ring.vertices.length, 4);
    assert.deepEqual(box({ ...ring, vertices: ring.holes![0]! }), [0.8, -0.7, 1.2, -0.3]);
    assert.deepEqual(box(triangle), [-2, 0, -1, 1]);
    assert.equal(triangle.sidewall_angle_deg, 10);
    assert.equal(triangle.z_max, 0.11 * UM);
    // Nothing of the unused top cell OTHER.
    assert.ok(slabs.every((s) => box(s)[2]! < 3));
  }
});
