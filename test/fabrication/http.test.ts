/**
 * The /v1/fabrication routes over real HTTP against a real service (SQLite, local storage):
 * export a job's geometry, upload files made elsewhere, check them, list kits, make recipes;
 * gds_url resolution (own addresses only, expired ones too, never fetched); and the errors.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readGds } from "../../src/fabrication/gds/reader.js";
import { writeGds } from "../../src/fabrication/gds/writer.js";
import { rectangleRing } from "../../src/fabrication/geometry/polygon.js";
import {
  call,
  postAndHangUp,
  smallSimulation,
  startService,
  type TestService,
} from "../helpers/service.js";
import { GdsBuilder } from "../../src/fabrication/testing/gds-builder.js";
import { denseLayout } from "../../src/fabrication/testing/random-layouts.js";

let svc: TestService;
let key: string;
let otherKey: string;
before(async () => {
  svc = await startService({ embeddedWorker: false });
  key = await svc.newKey("fab@example.com");
  otherKey = await svc.newKey("other@example.com");
});
after(async () => svc.close());

const UM = 1e-6;

async function upload(
  bytes: Uint8Array,
  k = key,
  type = "application/octet-stream",
  baseUrl = svc.baseUrl,
) {
  const res = await fetch(`${baseUrl}/v1/fabrication/gds`, {
    method: "POST",
    headers: { authorization: `Bearer ${k}`, "content-type": type },
    body: bytes,
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    headers: res.headers,
  };
}

/** Two 50 nm lines 50 nm apart on 1/0 and a text label: fails SiEPIC's 60/70 nm Si rules. */
const narrowLines = () =>
  new GdsBuilder()
    .begin()
    .cell("LINE", (b) => b.boundary(1, 0, [0, 0, 50, 0, 50, 2000, 0, 2000]))
    .cell("TOP", (b) => b.sref("LINE", 0, 0).sref("LINE", 100, 0).text(10, 0, 0, "chip"))
    .end();

test("pdks: open kits with sources; the API key is required", async () => {
  const res = await call(svc.baseUrl, "GET", "/v1/fabrication/pdks", { key });
  assert.equal(res.status, 200);
  const pdks = res.body.pdks as Array<Record<string, unknown>>;
  assert.deepEqual(
    pdks.map((p) => p.name),
    ["siepic_ebeam", "gdsfactory_generic", "cornerstone_si220", "cornerstone_sin300"],
  );
  for (const p of pdks) {
    assert.ok(Array.isArray(p.layers) && Array.isArray(p.stack) && typeof p.rules === "object");
    assert.match(String((p.source as { url: string }).url), /^https:\/\/github\.com\//);
    assert.equal(typeof p.illustrative, "boolean");
  }
  assert.equal((await call(svc.baseUrl, "GET", "/v1/fabrication/pdks")).status, 401);
});

test("export-gds: a job's structures as GDS II at a signed address, layers and bounding box", async () => {
  const sim = smallSimulation({
    domain: {
      size: [6e-6, 6e-6, 3e-6],
      resolution: 0.04e-6,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
    },
    structures: [
      { type: "box", center: [-1 * UM, 0, 0], size: [2 * UM, 0.5 * UM, 0.22 * UM], material: "Si" },
      { type: "sphere", center: [1.5 * UM, 1 * UM, 0.5 * UM], radius: 0.4 * UM, material: "SiO2" },
      {
        type: "cylinder",
        center: [1.5 * UM, -1 * UM, 0],
        radius: 0.3 * UM,
        height: 0.22 * UM,
        axis: "z",
        material: "Si",
      },
      {
        type: "box",
        center: [0, 2 * UM, 0],
        size: [1 * UM, 0.3 * UM, 0.2 * UM],
        material: "Si3N4",
      },
      // A TiN heater strip above the silicon (the library's TiN, as in the kits' stacks).
      {
        type: "box",
        center: [-1 * UM, 0, 1 * UM],
        size: [1 * UM, 0.3 * UM, 0.1 * UM],
        material: "TiN",
      },
    ],
  });
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: sim });
  assert.equal(sub.status, 202, sub.text);
  const jobId = String(sub.body.job_id);
  const res = await call(svc.baseUrl, "POST", "/v1/fabrication/export-gds", {
    key,
    body: {
      job_id: jobId,
      layer_mapping: { Si: { layer: 1, datatype: 0 }, SiO2: { layer: 2, datatype: 0 } },
      grid_resolution_nm: 5,
    },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.layers, [1, 2]);
  assert.equal(res.body.polygon_count, 3);
  assert.deepEqual(res.body.unmapped_materials, ["Si3N4", "TiN"]);
  assert.deepEqual(res.body.bbox_um, [-2, -1.3, 1.9, 1.4]);
  assert.deepEqual(res.body.bounding_box_um, [3.9, 2.7]);
  assert.equal(res.body.cut_plane_um, null);
  const url = String(res.body.gds_url);
  assert.ok(url.startsWith(`${svc.config.storageUrl}/objects/gds/`));
  // The address serves the file without an API key, like result downloads.
  const download = await fetch(url);
  assert.equal(download.status, 200);
  assert.equal(download.headers.get("content-type"), "application/octet-stream");
  const layout = readGds(new Uint8Array(await download.arrayBuffer()));
  assert.deepEqual(layout.topCells, [`JOB_${jobId.replace(/-/g, "").slice(0, 8)}`]);
  assert.deepEqual([...layout.layers.keys()].sort(), ["1/0", "2/0"]);
  for (const rings of layout.layers.values()) {
    for (const r of rings) for (const v of r) assert.ok(v % 5 === 0, `${v} on the 5 nm grid`);
  }

  // Another account's job is not found; bad fields are named.
  const other = await call(svc.baseUrl, "POST", "/v1/fabrication/export-gds", {
    key: otherKey,
    body: { job_id: jobId, layer_mapping: {}, grid_resolution_nm: 1 },
  });
  assert.equal(other.status, 404);
  const grid = await call(svc.baseUrl, "POST", "/v1/fabrication/export-gds", {
    key,
    body: { job_id: jobId, layer_mapping: {}, grid_resolution_nm: 2.5 },
  });
  assert.equal(grid.status, 422);
  assert.deepEqual(
    (grid.body.errors as Array<{ path: string }>).map((e) => e.path),
    ["grid_resolution_nm"],
  );
  const layer = await call(svc.baseUrl, "POST", "/v1/fabrication/export-gds", {
    key,
    body: {
      job_id: jobId,
      layer_mapping: { Si: { layer: 40000, datatype: 0 } },
      grid_resolution_nm: 1,
    },
  });
  assert.equal(layer.status, 422);
  const extra = await call(svc.baseUrl, "POST", "/v1/fabrication/export-gds", {
    key,
    body: { job_id: jobId, layer_mapping: {}, grid_resolution_nm: 1, colour: "red" },
  });
  assert.equal(extra.status, 422);

  // A recipe straight from the job: its Si maps to the kit's silicon layer.
  const recipe = await call(svc.baseUrl, "POST", "/v1/fabrication/recipe", {
    key,
    body: { job_id: jobId, pdk: "siepic_ebeam" },
  });
  assert.equal(recipe.status, 200, recipe.text);
  assert.deepEqual(recipe.body.layers_used, ["1/0", "1/5"]);
  // On a kit with TiN heaters, the job's TiN maps to the heater layer (SiEPIC's is TiW).
  const heater = await call(svc.baseUrl, "POST", "/v1/fabrication/recipe", {
    key,
    body: { job_id: jobId, pdk: "cornerstone_si220" },
  });
  assert.equal(heater.status, 200, heater.text);
  assert.deepEqual(heater.body.layers_used, ["3/0", "39/0"]);
  // A mapping of some materials leaves the others to the kit (the TiN was dropped), and a
  // material on no layer is named in the warnings.
  const partial = await call(svc.baseUrl, "POST", "/v1/fabrication/recipe", {
    key,
    body: {
      job_id: jobId,
      pdk: "cornerstone_si220",
      layer_mapping: { si: { layer: 3, datatype: 0 } },
    },
  });
  assert.equal(partial.status, 200, partial.text);
  assert.deepEqual(partial.body.layers_used, ["3/0", "39/0"]);
  const warnings = partial.body.warnings as string[];
  assert.ok(
    warnings.some((w) => /^Si3N4 \(structures\[\d\]\) is on no layer/.test(w)),
    warnings.join("\n"),
  );
});

test("upload, check against a kit, override rules, recipe from the stored file", async () => {
  const up = await upload(narrowLines());
  assert.equal(up.status, 201, JSON.stringify(up.body));
  assert.deepEqual(up.body.layers, [1]);
  assert.deepEqual(up.body.layer_keys, ["1/0"]);
  assert.deepEqual(up.body.cells, ["LINE", "TOP"]);
  assert.deepEqual(up.body.top_cells, ["TOP"]);
  assert.equal(up.body.polygon_count, 2);
  assert.deepEqual(up.body.bounding_box_um, [0.15, 2]);
  assert.ok((up.body.warnings as string[]).some((w) => /TEXT/.test(w)));
  const gdsUrl = String(up.body.gds_url);

  const drc = await call(svc.baseUrl, "POST", "/v1/fabrication/drc", {
    key,
    body: { gds_url: gdsUrl, pdk: "siepic_ebeam" },
  });
  assert.equal(drc.status, 200, drc.text);
  assert.equal(drc.body.passed, false);
  const violations = drc.body.violations as Array<Record<string, unknown>>;
  // Two lines of 50 nm < 60 nm, one gap of 50 nm < 70 nm.
  assert.deepEqual(
    violations.map((v) => [v.rule, v.actual_nm, v.required_nm, v.layer, v.severity]),
    [
      ["min_feature", 50, 60, "1/0", "error"],
      ["min_feature", 50, 60, "1/0", "error"],
      ["min_spacing", 50, 70, "1/0", "error"],
    ],
  );
  assert.deepEqual(violations[2]!.location, [0.075, 1]);
  assert.match(
    String(drc.body.summary),
    /Failed: 3 violation\(s\).*1\/0: 2 min_feature, 1 min_spacing/,
  );
  assert.equal(typeof drc.body.summary_details, "object");

  // The request's rules override the kit's; radius with no curves says so in the summary.
  const relaxed = await call(svc.baseUrl, "POST", "/v1/fabrication/drc", {
    key,
    body: {
      gds_url: gdsUrl,
      pdk: "siepic_ebeam",
      rules: { min_feature_nm: 40, min_spacing_nm: 40, min_radius_nm: 5000 },
    },
  });
  assert.equal(relaxed.status, 200, relaxed.text);
  assert.equal(relaxed.body.passed, true);
  assert.match(String(relaxed.body.summary), /no curved features on 1\/0/);

  const unknown = await call(svc.baseUrl, "POST", "/v1/fabrication/drc", {
    key,
    body: { gds_url: gdsUrl, pdk: "acme_secret" },
  });
  assert.equal(unknown.status, 422);
  assert.match(String(unknown.body.detail), /pdk: unknown process design kit/);

  const recipe = await call(svc.baseUrl, "POST", "/v1/fabrication/recipe", {
    key,
    body: { gds_url: gdsUrl, pdk: "siepic_ebeam" },
  });
  assert.equal(recipe.status, 200, recipe.text);
  assert.deepEqual(recipe.body.layers_used, ["1/0"]);
  const neither = await call(svc.baseUrl, "POST", "/v1/fabrication/recipe", {
    key,
    body: { pdk: "siepic_ebeam" },
  });
  assert.equal(neither.status, 422);
});

test("gds_url: only this service's own addresses for the same account, expired ones included", async () => {
  const up = await upload(narrowLines());
  const gdsUrl = String(up.body.gds_url);
  const drcWith = (url: string, k = key) =>
    call(svc.baseUrl, "POST", "/v1/fabrication/drc", {
      key: k,
      body: { gds_url: url, pdk: "siepic_ebeam" },
    });
  const refused = async (url: string, k = key) => {
    const res = await drcWith(url, k);
    assert.equal(res.status, 422, `${url}: ${res.text}`);
    assert.deepEqual(
      (res.body.errors as Array<{ path: string }>).map((e) => e.path),
      ["gds_url"],
    );
  };
  await refused(gdsUrl, otherKey);
  await refused(gdsUrl.replace(/signature=[^&]+/, "signature=AAAA"));
  await refused(gdsUrl.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 1000}`));
  await refused("https://example.com/layout.gds");
  await refused(`${svc.config.storageUrl}/objects/../../etc/passwd?expires=1&name=x&signature=y`);
  await refused("not a url");
  // A result download address is signed too, but is not a GDS file of this account.
  const res = await drcWith(gdsUrl.replace("/gds/", "/results/"));
  assert.equal(res.status, 422);

  // An expired address still resolves for its own account (downloads refuse it).
  const short = await startService({ embeddedWorker: false, downloadUrlTtlSeconds: 1 });
  try {
    const k = await short.newKey("ttl@example.com");
    const stored = await fetch(`${short.baseUrl}/v1/fabrication/gds`, {
      method: "POST",
      headers: { authorization: `Bearer ${k}`, "content-type": "application/octet-stream" },
      body: narrowLines(),
    });
    const url = String(((await stored.json()) as { gds_url: string }).gds_url);
    await new Promise((r) => setTimeout(r, 2100));
    assert.equal((await fetch(url)).status, 403);
    const drc = await call(short.baseUrl, "POST", "/v1/fabrication/drc", {
      key: k,
      body: { gds_url: url, pdk: "siepic_ebeam" },
    });
    assert.equal(drc.status, 200, drc.text);
    assert.equal(drc.body.passed, false);
  } finally {
    await short.close();
  }
});

test("upload: wrong content type 415, empty or broken files 422 with the reader's reason, 413 above the limit", async () => {
  const json = await upload(narrowLines(), key, "application/json");
  assert.equal(json.status, 415);
  assert.match(
    String(json.body.detail),
    /must be application\/octet-stream, got 'application\/json'/,
  );
  const text = await upload(narrowLines(), key, "text/plain");
  assert.equal(text.status, 415);
  const empty = await upload(new Uint8Array(0));
  assert.equal(empty.status, 422);
  assert.equal(empty.body.error_code, "gds_invalid");
  const file = narrowLines();
  const truncated = await upload(file.subarray(0, file.length - 10));
  assert.equal(truncated.status, 422);
  assert.equal(truncated.body.reason, "truncated");
  const cycle = await upload(
    new GdsBuilder()
      .begin()
      .cell("A", (b) => b.sref("B", 0, 0))
      .cell("B", (b) => b.sref("A", 0, 0))
      .end(),
  );
  assert.equal(cycle.status, 422);
  assert.equal(cycle.body.reason, "reference_cycle");
  assert.match(String(cycle.body.detail), /cycle: (A → B → A|B → A → B)/);
  const unauthenticated = await upload(file, "emsim_nope");
  assert.equal(unauthenticated.status, 401);

  const small = await startService({ embeddedWorker: false }, { EMSIM_GDS_MAX_BYTES: "2048" });
  try {
    const k = await small.newKey("small@example.com");
    const big = writeGds({
      cellName: "BIG",
      layers: [
        {
          layer: 1,
          datatype: 0,
          polygons: Array.from({ length: 100 }, (_, i) =>
            rectangleRing(i * 100, 0, i * 100 + 50, 50),
          ),
        },
      ],
    }).bytes;
    const res = await fetch(`${small.baseUrl}/v1/fabrication/gds`, {
      method: "POST",
      headers: { authorization: `Bearer ${k}`, "content-type": "application/octet-stream" },
      body: big,
    });
    assert.equal(res.status, 413);
    assert.match(String(((await res.json()) as { detail: string }).detail), /2048 bytes/);
  } finally {
    await small.close();
  }
});

/** 60 000 random shapes on layers 1 and 2 (seed 3): seconds to read and to check. */
function denseGds(): Uint8Array {
  const layers = denseLayout(60_000, 3);
  return writeGds({
    cellName: "DENSE",
    layers: layers.map((polygons, i) => ({ layer: i + 1, datatype: 0, polygons })),
  }).bytes;
}

test("a check past its time limit is stopped with 422, the server keeps answering", async () => {
  const slow = await startService(
    { embeddedWorker: false },
    { EMSIM_FABRICATION_TIMEOUT_SECONDS: "1" },
  );
  try {
    const k = await slow.newKey("slow@example.com");
    const bytes = denseGds();
    const up = await fetch(`${slow.baseUrl}/v1/fabrication/gds`, {
      method: "POST",
      headers: { authorization: `Bearer ${k}`, "content-type": "application/octet-stream" },
      body: bytes,
    });
    const body = (await up.json()) as { gds_url?: string; error_code?: string };
    if (up.status === 201) {
      const started = Date.now();
      const drc = await call(slow.baseUrl, "POST", "/v1/fabrication/drc", {
        key: k,
        body: { gds_url: body.gds_url, pdk: "gdsfactory_generic" },
      });
      assert.equal(drc.status, 422, drc.text);
      assert.equal(drc.body.error_code, "layout_too_large");
      assert.ok(Date.now() - started < 5000, "stopped near its limit");
    } else {
      // Reading alone already took more than a second on this machine.
      assert.equal(up.status, 422);
      assert.equal(body.error_code, "layout_too_large");
    }
    assert.equal((await call(slow.baseUrl, "GET", "/v1/fabrication/pdks", { key: k })).status, 200);
  } finally {
    await slow.close();
  }
});

test("a caller that hangs up during a check or a layout's read frees its slot for the next", async () => {
  // One check at a time: a check of many seconds whose caller had gone held the slot to its
  // end, and every other caller got 503 fabrication_busy meanwhile. The same for a layout read
  // for a simulation's gds structure (an estimate's, a submission's and a batch's, which then
  // store nothing: their caller never learnt the id).
  const single = await startService(
    { embeddedWorker: false },
    { EMSIM_FABRICATION_CONCURRENCY: "1" },
  );
  try {
    const k = await single.newKey("single@example.com");
    const stored = await upload(denseGds(), k, undefined, single.baseUrl);
    assert.equal(stored.status, 201, JSON.stringify(stored.body));
    const gdsUrl = stored.body.gds_url;
    const layout = { type: "gds", gds_url: gdsUrl, layers: [1, 2].map(onLayer) };
    const estimate = { ...smallSimulation(), structures: [layout] };
    const wavelengths = [1.5e-6, 1.55e-6, 1.6e-6];
    const sweep = {
      simulation: estimate,
      parameters: [{ name: "source_wavelength", path: "/source/wavelength", values: wavelengths }],
    };
    const abandoned: Array<[string, unknown]> = [
      ["/v1/fabrication/drc", { gds_url: gdsUrl, pdk: "gdsfactory_generic" }],
      ["/v1/simulations/estimate", estimate],
      ["/v1/simulations", estimate],
      ["/v1/batches/estimate", sweep],
      ["/v1/batches", sweep],
    ];
    for (const [path, body] of abandoned) {
      await postAndHangUp(`${single.baseUrl}${path}`, k, body, 300);
      // A busy slot is refused at once (503), never waited for: a 201 is the slot freed.
      const small = await upload(narrowLines(), k, undefined, single.baseUrl);
      assert.equal(small.status, 201, `after ${path}: ${JSON.stringify(small.body)}`);
    }
    const listed = await call(single.baseUrl, "GET", "/v1/simulations", { key: k });
    assert.deepEqual(listed.body.jobs, [], "the abandoned submissions stored no job");
    const batches = await call(single.baseUrl, "GET", "/v1/batches", { key: k });
    assert.deepEqual(batches.body.batches, [], "nor a batch");
  } finally {
    await single.close();
  }
});

/** A layer of the dense layout as a thin silicon slab. */
function onLayer(layer: number) {
  return { layer, material: "Si", z_min: -0.11 * UM, z_max: 0.11 * UM };
}
