/**
 * The SDK's `preview` against a real service (issue #31): the strip's three planes through the
 * origin typed as the server answers them (silicon's ε where the strip is, the outlines, the
 * estimate `estimate` gives, nothing queued); `planes` and `maxSamples` sent as the API's
 * `planes` and `max_samples`; a layout uploaded with `uploadGds` resolved as at submission;
 * the 422s as `EmsimApiError` naming `simulation.…` and `planes[0].position`.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  EmsimApiError,
  EmsimClient,
  type PreviewPlaneResult,
  type SimulationRequest,
} from "../../src/client/index.js";
import { GdsBuilder } from "../../src/fabrication/testing/gds-builder.js";
import { startService, type TestService } from "../helpers/service.js";
import { stripOnSilica } from "../helpers/simulations.js";

const UM = 1e-6;

let svc: TestService;
let client: EmsimClient;

before(async () => {
  // No worker: a preview never queues, and nothing here runs.
  svc = await startService({ embeddedWorker: false });
  client = new EmsimClient({
    baseUrl: svc.baseUrl,
    apiKey: await svc.newKey("preview-sdk@example.com"),
  });
});
after(async () => svc.close());

/** The strip on silica (helpers), or the same domain and source with other structures. */
function strip(structures?: SimulationRequest["structures"]): SimulationRequest {
  const base = stripOnSilica();
  return { ...base, structures: structures ?? base.structures } as SimulationRequest;
}

/** The sample of a plane nearest (u, v) metres: its ε and material index. */
function sampleAt(plane: PreviewPlaneResult, u: number, v: number) {
  const nearest = (cs: number[], c: number) =>
    cs.reduce((best, x, k) => (Math.abs(x - c) < Math.abs(cs[best]! - c) ? k : best), 0);
  const i = nearest(plane.coords[plane.axes[0]]!, u);
  const j = nearest(plane.coords[plane.axes[1]]!, v);
  return { eps: plane.eps_real[i]![j]!, material: plane.material[i]![j]! };
}

test("preview: the three planes through the origin, ε as the run steps it, nothing queued", async () => {
  const answer = await client.preview(strip());
  assert.deepEqual(
    answer.planes.map((p) => [p.normal, p.axes]),
    [
      ["x", ["y", "z"]],
      ["y", ["x", "z"]],
      ["z", ["x", "y"]],
    ],
  );
  const y = answer.planes[1]!;
  // 2 µm at 40 nm and 8 absorber cells either side: 66 cells along x; 1.6 µm: 56 along z.
  assert.deepEqual(y.cells, [66, 56]);
  assert.equal(y.eps_real.length, 66);
  assert.equal(y.eps_imag[0]!.length, 56);
  const si = sampleAt(y, 0, 0.08 * UM);
  assert.equal(answer.materials[si.material]!.name, "Si");
  // Silicon's library ε at 1.55 µm is 3.4757² ≈ 12.08, inside the strip away from its faces.
  assert.ok(Math.abs(si.eps - 3.4757 ** 2) < 0.02, `Si: ${si.eps}`);
  assert.equal(sampleAt(y, 0, 0.6 * UM).eps, 1, "vacuum above");
  const outline = y.objects.find((o) => o.name === "structures[1]");
  assert.equal(outline?.material, "Si");
  assert.deepEqual(answer.estimate.grid, (await client.estimate(strip())).grid);
  assert.deepEqual((await client.list()).jobs, [], "a preview queues nothing");
});

test("preview: planes and maxSamples go as the API's planes and max_samples", async () => {
  const answer = await client.preview(strip(), {
    planes: [{ normal: "z", position: 0.11 * UM }],
    maxSamples: 10,
  });
  assert.equal(answer.planes.length, 1);
  const [z] = answer.planes;
  assert.equal(z!.position, 0.12e-6, "the node plane nearest 0.11 µm");
  assert.deepEqual(z!.cells, [66, 56]);
  assert.equal(z!.coords.x!.length, 10);
  assert.equal(z!.eps_real.length, 10);
});

test("preview: a layout uploaded with uploadGds is resolved as at submission", async () => {
  // A 1 × 0.4 µm rectangle on layer 1/0 (database unit 10 nm).
  const bytes = new GdsBuilder()
    .begin(1e-8)
    .cell("TOP", (b) => b.boundary(1, 0, [-50, -20, 50, -20, 50, 20, -50, 20]))
    .end();
  const { gds_url } = await client.uploadGds(bytes);
  const answer = await client.preview(
    strip([
      {
        type: "gds",
        gds_url,
        cell: "TOP",
        layers: [{ layer: 1, material: "Si", z_min: 0, z_max: 0.22 * UM }],
      },
    ]),
    { planes: [{ normal: "z", position: 0.1 * UM }] },
  );
  const slab = answer.planes[0]!.objects.find((o) => o.kind === "structure")!;
  assert.equal(slab.material, "Si");
  const xs = slab.outline[0]!.map((p) => p[0]);
  assert.deepEqual([Math.min(...xs), Math.max(...xs)], [-0.5 * UM, 0.5 * UM]);
});

test("preview: the simulation's 422 under simulation., a plane outside the grid", async () => {
  const outside: SimulationRequest = {
    ...strip(),
    monitors: [
      { name: "far", monitor_type: "flux", center: [0, 0, 5 * UM], size: [1e-6, 1e-6, 0] },
    ],
  };
  // Thunks: a rejection made before assert.rejects awaits it would be an unhandled one.
  const cases: [() => Promise<unknown>, string][] = [
    [() => client.preview(outside), "simulation.monitors[0].center"],
    [
      () => client.preview(strip(), { planes: [{ normal: "x", position: 3 * UM }] }),
      "planes[0].position",
    ],
  ];
  for (const [call, path] of cases) {
    await assert.rejects(call, (e: unknown) => {
      assert.ok(e instanceof EmsimApiError, String(e));
      assert.equal(e.status, 422);
      assert.equal(e.code, "validation_error");
      assert.ok(
        e.fieldErrors.some((f) => f.path.startsWith(path)),
        `${path}: ${JSON.stringify(e.body)}`,
      );
      return true;
    });
  }
});
