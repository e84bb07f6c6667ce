/**
 * Ports from a GDS layout's port labels through the HTTP API of a real service (SQLite, local
 * storage): a `source_type: "ports"` request with no ports of its own and a gds structure whose
 * labels mark the two ends of a waveguide is stored with those two ports, placed through the
 * layout's hierarchy and the structure's offset; labels that do not fit are a 422 naming the
 * structure. The guide is extended through both ports to past the domain's absorber. Nothing is
 * run (no worker).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { call, startService, type TestService } from "../helpers/service.js";
import { GdsBuilder } from "../../src/fabrication/testing/gds-builder.js";
import type { PolySlabSpec, PortSpec, SimulationSpec } from "../../src/solver/types.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService({ embeddedWorker: false });
  key = await svc.newKey("ports@example.com");
});
after(async () => svc.close());

const UM = 1e-6;

/**
 * GUIDE: a 6 µm × 500 nm waveguide on 1/0 with port labels on 1/10 at the middle of its end
 * faces, o1 at its left end and o2 at its right; TOP places it turned by 180° at (3 µm, 0), so
 * in TOP o1 is the right end (x = 3 µm, facing −x) and o2 the left (x = −3 µm, facing +x).
 */
const layout = () =>
  new GdsBuilder()
    .begin()
    .cell("GUIDE", (b) =>
      b
        .boundary(1, 0, [0, -250, 6000, -250, 6000, 250, 0, 250])
        .text(1, 0, 0, "o1", 10)
        .text(1, 6000, 0, "o2", 10),
    )
    .cell("TOP", (b) => b.sref("GUIDE", 3000, 0, { angle: 180 }).text(66, 0, 0, "title"))
    .end();

async function upload(bytes: Uint8Array): Promise<string> {
  const res = await fetch(`${svc.baseUrl}/v1/fabrication/gds`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/octet-stream" },
    body: bytes,
  });
  const body = (await res.json()) as { gds_url: string };
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.gds_url;
}

/** An 8 × 4 × 1 µm domain at 40 nm, a ports source, and no ports of its own. */
const request = (gds: Record<string, unknown>) => ({
  solver: "fdtd",
  domain: {
    size: [8 * UM, 4 * UM, 1 * UM],
    resolution: 0.04 * UM,
    boundary_conditions: ["pml", "pml", "pml"],
    pml_layers: 8,
  },
  source: { source_type: "ports", wavelength: 1.55 * UM },
  structures: [gds],
  fdtd_settings: { time_steps: 2000 },
});

test("gds ports: a ports source with only the layout's labels is stored with their two ports", async () => {
  const url = await upload(layout());
  const gds = (ports: Record<string, unknown>) => ({
    type: "gds",
    gds_url: url,
    layers: [{ layer: 1, material: "Si", z_min: -0.11 * UM, z_max: 0.11 * UM }],
    offset: [0, 0.2 * UM],
    ports: { layer: 1, texttype: 10, margin: 0.5 * UM, mode_spec: { num_modes: 1 }, ...ports },
  });

  const est = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: request(gds({})),
  });
  assert.equal(est.status, 200, est.text);

  const res = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: request(gds({})) });
  assert.equal(res.status, 202, res.text);
  const job = await svc.service.stores.jobs.getJob(String(res.body.job_id));
  const stored = JSON.parse(job!.requestJson) as { ports: PortSpec[]; structures: unknown[] };
  const spec = JSON.parse(job!.specJson) as SimulationSpec;
  assert.deepEqual(
    stored.structures.map((s) => (s as { type: string }).type),
    ["polyslab"],
  );
  // The guide (x from −3 to 3 µm) runs on through both ports and the absorber: by default to
  // 1 µm past the outermost cell, 4 + 0.04 (rounding) + 8 × 0.04 (absorber) + 1 = 5.36 µm, as
  // one polygon (the joins merged away), with the layer's material and z range.
  for (const slab of [stored.structures[0], spec.structures[0]] as PolySlabSpec[]) {
    assert.deepEqual(
      slab.vertices.map(([x, y]) => [Math.round(x * 1e9), Math.round(y * 1e9)]),
      [
        [-5360, -50],
        [-5360, 450],
        [5360, 450],
        [5360, -50],
      ],
    );
    assert.deepEqual([slab.material, slab.z_min, slab.z_max], ["Si", -0.11 * UM, 0.11 * UM]);
  }
  for (const ports of [stored.ports, spec.ports!]) {
    assert.deepEqual(
      ports.map((p) => [p.name, p.direction]),
      [
        ["o1", "-x"],
        ["o2", "+x"],
      ],
    );
    const round = (v: readonly number[]) => v.map((x) => Math.round(x * 1e9) / 1e3);
    // The end faces' midpoints plus the offset (0, 0.2) µm, at the core's mid-height.
    assert.deepEqual(round(ports[0]!.center), [3, 0.2, 0]);
    assert.deepEqual(round(ports[1]!.center), [-3, 0.2, 0]);
    // 500 nm + 2 × 0.5 µm across, 220 nm + 2 × 0.5 µm high, flat along x.
    for (const p of ports) assert.deepEqual(round(p.size), [0, 1.5, 1.22]);
    assert.equal(ports[0]!.mode_spec?.num_modes, 1);
  }
  // Both ports run, as for explicit ports (run_ports defaults to all of them).
  assert.deepEqual((spec.source as { run_ports: string[] }).run_ports, ["o1", "o2"]);

  // Label layers that do not fit are refused with the structure's path, before anything runs.
  const refused: Array<[Record<string, unknown>, RegExp]> = [
    [{ texttype: 11 }, /no labels on layer 1\/11 \(layers with labels: 1\/10, 66\/0\)/],
    [{ layer: 66, texttype: 0 }, /"title" at \(0, 0\) µm is on no edge of layer 1\/0/],
  ];
  for (const [ports, message] of refused) {
    const bad = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key,
      body: request(gds(ports)),
    });
    assert.equal(bad.status, 422, bad.text);
    const errs = bad.body.errors as Array<{ path: string; message: string }>;
    assert.equal(errs[0]!.path, "structures[0].ports", JSON.stringify(errs));
    assert.match(errs[0]!.message, message);
    assert.match(String(bad.body.detail), /^structures\[0\]\.ports: /);
  }
  const negative = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: request(gds({ extension: -1e-6 })),
  });
  assert.equal(negative.status, 422, negative.text);
  assert.deepEqual(
    (negative.body.errors as Array<{ path: string }>).map((e) => e.path),
    ["structures[0].ports.extension"],
  );
  // A layout port named like an explicit one.
  const clash = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: {
      ...request(gds({})),
      ports: [{ name: "o2", center: [0, 0, 0], size: [0, 2 * UM, 1 * UM], direction: "+x" }],
    },
  });
  assert.equal(clash.status, 422, clash.text);
  assert.match(String(clash.body.detail), /structures\[0\]\.ports: .*"o2" .* ports\[0\]/);
});
