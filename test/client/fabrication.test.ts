/**
 * The SDK's fabrication methods against a real service (SQLite, local storage, real HTTP):
 * export a job's layout and save the file (without sending the key to storage), upload a file
 * as application/octet-stream (retried after a refused connection like any request), check it
 * against a kit and with overriding rules, make a recipe, list the kits, and the typed errors.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EmsimApiError, EmsimClient, type GdsExport } from "../../src/client/index.js";
import { readGds } from "../../src/fabrication/gds/reader.js";
import { GdsBuilder } from "../../src/fabrication/testing/gds-builder.js";
import { GAP_NM, SILICON_BLOCKS_NM, twoBlockSimulation } from "../helpers/fabrication.js";
import { startService, tempDir, type TestService } from "../helpers/service.js";
import { startRecordingProxy, type RecordingProxy } from "./helpers.js";

let svc: TestService;
let proxy: RecordingProxy;
let client: EmsimClient;
let key: string;
let dir: string;
let jobId: string;
let exported: GdsExport;

before(async () => {
  proxy = await startRecordingProxy();
  // No worker: exporting needs only the job's request, not its result.
  svc = await startService({ storageUrl: `${proxy.url}/storage`, embeddedWorker: false });
  proxy.target = svc.baseUrl;
  key = await svc.newKey("fab-sdk@example.com");
  client = new EmsimClient({ baseUrl: svc.baseUrl, apiKey: key, retries: 2 });
  dir = tempDir("emsim-sdk-fab-");
  jobId = (await client.submit(twoBlockSimulation() as never)).job_id;
});
after(async () => {
  await svc.close();
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Bounding box of a ring of integer nm, [xmin, ymin, xmax, ymax]. */
function boxOf(ring: ArrayLike<number>): number[] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < ring.length; i += 2) {
    xs.push(ring[i]!);
    ys.push(ring[i + 1]!);
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

test("exportGds and downloadGds: the two blocks on 1/0, the key never sent to storage", async () => {
  exported = await client.exportGds({
    job_id: jobId,
    layer_mapping: { Si: { layer: 1, datatype: 0 } },
    grid_resolution_nm: 5,
  });
  assert.deepEqual(exported.layers, [1]);
  assert.equal(exported.polygon_count, 2);
  assert.deepEqual(exported.unmapped_materials, ["SiO2"]);
  assert.deepEqual(exported.bbox_um, [-0.525, -0.2, 0.525, 0.2]);
  assert.deepEqual(exported.bounding_box_um, [1.05, 0.4]);
  assert.match(exported.gds_url, /\/storage\//);

  const path = join(dir, "chip.gds");
  const saved = await client.downloadGds(exported.gds_url, path);
  assert.equal(saved.path, path);
  const bytes = readFileSync(path);
  assert.equal(saved.bytes, bytes.length);
  const layout = readGds(new Uint8Array(bytes));
  assert.deepEqual([...layout.layers.keys()], ["1/0"]);
  const boxes = layout.layers
    .get("1/0")!
    .map(boxOf)
    .sort((a, b) => a[0]! - b[0]!);
  assert.deepEqual(
    boxes,
    SILICON_BLOCKS_NM.map((b) => [...b]),
  );
  const storage = proxy.requests.filter((r) => r.url.startsWith("/storage/"));
  assert.equal(storage.length, 1);
  assert.equal(storage[0]!.headers.authorization, undefined);
});

test("drc: the kit's rules find the 50 nm gap; a request rule overrides them", async () => {
  const failed = await client.drc({ gds_url: exported.gds_url, pdk: "siepic_ebeam" });
  assert.equal(failed.passed, false);
  assert.ok(failed.violations.length >= 1);
  for (const v of failed.violations) {
    assert.equal(v.rule, "min_spacing");
    assert.equal(v.layer, "1/0");
    assert.equal(v.actual_nm, GAP_NM);
    assert.equal(v.required_nm, 70);
    assert.ok(Math.abs(v.location[0]!) < 1e-9, `the gap is at x = 0, got ${v.location[0]}`);
  }
  assert.equal(failed.summary_details.pdk, "siepic_ebeam");
  assert.equal(failed.summary_details.by_rule.min_spacing, failed.violations.length);
  assert.match(failed.summary, /Failed/);

  const passed = await client.drc({
    gds_url: exported.gds_url,
    pdk: "siepic_ebeam",
    rules: { min_spacing_nm: 40 },
  });
  assert.equal(passed.passed, true);
  assert.deepEqual(passed.violations, []);
});

test("uploadGds sends the file as application/octet-stream, retried after a refused connection", async () => {
  const file = new GdsBuilder()
    .begin()
    .cell("WG", (b) => b.boundary(1, 0, [0, 0, 2000, 0, 2000, 500, 0, 500]))
    .cell("TOP", (b) => b.sref("WG", 0, 0).sref("WG", 0, 540))
    .end();
  let attempts = 0;
  const sent: Array<{ type: string | null; bytes: number }> = [];
  const flaky = new EmsimClient({
    baseUrl: svc.baseUrl,
    apiKey: key,
    retries: 2,
    sleep: async () => {},
    fetch: async (url, init) => {
      attempts++;
      if (attempts === 1) {
        const cause = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
        throw new TypeError("fetch failed", { cause });
      }
      const headers = new Headers(init?.headers);
      sent.push({
        type: headers.get("content-type"),
        bytes: (init?.body as Uint8Array).byteLength,
      });
      assert.equal(headers.get("authorization"), `Bearer ${key}`);
      return fetch(url, init);
    },
  });
  const uploaded = await flaky.uploadGds(file);
  assert.equal(attempts, 2);
  assert.deepEqual(sent, [{ type: "application/octet-stream", bytes: file.byteLength }]);
  assert.deepEqual(uploaded.cells, ["WG", "TOP"]);
  assert.deepEqual(uploaded.top_cells, ["TOP"]);
  assert.deepEqual(uploaded.layer_keys, ["1/0"]);
  assert.equal(uploaded.polygon_count, 2);
  assert.deepEqual(uploaded.bbox_um, [0, 0, 2, 1.04]);

  // 40 nm apart: one spacing violation pair against SiEPIC's 70 nm.
  const drc = await client.drc({ gds_url: uploaded.gds_url, pdk: "siepic_ebeam" });
  assert.equal(drc.passed, false);
  assert.deepEqual(
    drc.violations.map((v) => [v.rule, v.actual_nm]),
    [["min_spacing", 40]],
  );
});

test("recipe from a file and from a job; listPdks", async () => {
  const fromFile = await client.recipe({ gds_url: exported.gds_url, pdk: "siepic_ebeam" });
  assert.deepEqual(fromFile.layers_used, ["1/0"]);
  const litho = fromFile.steps.filter((s) => s.step === "lithography");
  assert.equal(litho.length, 1);
  assert.deepEqual(litho[0]!.mask_layers, ["1/0"]);
  const etch = fromFile.steps.find((s) => s.step === "etch");
  assert.equal(etch?.depth_nm, 220);
  assert.deepEqual(
    fromFile.steps.map((s) => s.index),
    fromFile.steps.map((_, i) => i + 1),
  );

  const fromJob = await client.recipe({ job_id: jobId, pdk: "siepic_ebeam" });
  assert.deepEqual(fromJob.layers_used, ["1/0"]);

  const pdks = await client.listPdks();
  assert.ok(pdks.some((p) => p.name === "siepic_ebeam" && p.rules["1/0"]?.min_spacing_nm === 70));
});

test("errors are typed: an unreadable upload, an unknown kit, another address", async () => {
  await assert.rejects(
    client.uploadGds(new TextEncoder().encode("not a GDS II file at all")),
    (err: unknown) =>
      err instanceof EmsimApiError && err.status === 422 && err.code === "gds_invalid",
  );
  await assert.rejects(
    client.drc({ gds_url: exported.gds_url, pdk: "no_such_kit" }),
    (err: unknown) =>
      err instanceof EmsimApiError &&
      err.status === 422 &&
      err.fieldErrors.some((e) => e.path === "pdk"),
  );
  await assert.rejects(
    client.drc({ gds_url: "https://example.com/chip.gds", pdk: "siepic_ebeam" }),
    (err: unknown) =>
      err instanceof EmsimApiError && err.fieldErrors.some((e) => e.path === "gds_url"),
  );
  await assert.rejects(
    client.downloadGds(`${exported.gds_url}tampered`, join(dir, "x.gds")),
    (err: unknown) => err instanceof EmsimApiError && err.status === 403,
  );
});
