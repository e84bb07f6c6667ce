/**
 * The SDK's batches against a real emsim service (real SQLite, solver, files and HTTP): a
 * sweep's round trip to one verified file whose monitors carry the sweep's dimension, the 409
 * a running batch gives other submissions and `queue` waiting for the whole batch, cancelling,
 * typed errors (404, 422 naming the variant, a batch that FAILED), and a corrupted batch file
 * refused. Storage traffic goes through a recording proxy, to check that the API key never
 * reaches the storage address.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import h5wasm, { type Dataset } from "h5wasm/node";
import {
  EmsimApiError,
  EmsimBatchFailedError,
  EmsimChecksumError,
  EmsimClient,
  type BatchRecord,
  type QueueWaitInfo,
} from "../../src/client/index.js";
import {
  longSimulation,
  smallSimulation,
  startService,
  tempDir,
  type TestService,
} from "../helpers/service.js";
import { startRecordingProxy, type RecordingProxy } from "./helpers.js";

let svc: TestService;
let proxy: RecordingProxy;
let client: EmsimClient;
let dir: string;
/** The COMPLETED batch of the round trip, shared by the later tests. */
let done: BatchRecord;

const sim = () => smallSimulation() as never;
const THICKNESS_M = [0.3e-6, 0.5e-6, 0.7e-6];
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

before(async () => {
  proxy = await startRecordingProxy();
  svc = await startService({ storageUrl: `${proxy.url}/storage` });
  proxy.target = svc.baseUrl;
  client = new EmsimClient({
    baseUrl: svc.baseUrl,
    apiKey: await svc.newKey("sdk-batches@example.com"),
  });
  dir = tempDir("emsim-sdk-batches-");
});
after(async () => {
  await svc.close();
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
});

test("sweep: submit, follow the batch, download its one verified file; 409 and queue meanwhile", async () => {
  const seen: BatchRecord[] = [];
  const out = join(dir, "sweep.h5");
  let submitted!: (id: string) => void;
  const batchId = new Promise<string>((resolve) => (submitted = resolve));
  const sweeping = client.sweep(
    sim(),
    { "/structures/0/size/2": THICKNESS_M },
    {
      out,
      metadata: { study: "slab" },
      pollIntervalMs: 200,
      onSubmitted: (ack) => {
        assert.equal(ack.job_count, 3);
        submitted(ack.batch_id);
      },
      onProgress: (b) => seen.push(b),
    },
  );
  const id = await batchId;

  // While it runs, a job is refused with the batch named...
  await assert.rejects(client.submit(sim()), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.status, 409);
    assert.equal(e.code, "simulation_already_running");
    assert.equal(e.activeBatchId, id);
    return true;
  });
  // ...and a queued batch waits for the whole batch, not only its running job, then gets in.
  const waits: QueueWaitInfo[] = [];
  const queued = await client.submitBatch(
    {
      simulation: longSimulation() as never,
      parameters: [{ name: "t", path: "/structures/0/size/2", values: [0.2e-6, 0.4e-6] }],
    },
    { queue: true, pollIntervalMs: 100, onQueued: (info) => waits.push(info) },
  );
  assert.ok(waits.length >= 1 && waits.every((w) => w.activeBatchId === id), `${waits}`);

  const { batch, file } = await sweeping;
  assert.equal(batch.batch_id, id);
  assert.equal(batch.status, "COMPLETED");
  assert.deepEqual(batch.counts, { QUEUED: 0, RUNNING: 0, COMPLETED: 3, FAILED: 0 });
  assert.deepEqual(batch.parameters, [
    { name: "structures_0_size_2", path: "/structures/0/size/2", values: THICKNESS_M },
  ]);
  assert.deepEqual(batch.metadata, { study: "slab" });
  assert.ok(seen.length >= 1 && seen.at(-1)!.status === "COMPLETED");
  // The queued batch was admitted only once every job of this one had ended.
  const lastJob = await client.get(batch.jobs.at(-1)!.job_id);
  const queuedRecord = await client.getBatch(queued.batch_id);
  assert.ok(queuedRecord.created_at >= lastJob.finished_at!, "admitted after the last job");

  // The file: verified, renamed from .part, the batch's checksum, the sweep's dimension first.
  const bytes = readFileSync(out);
  assert.equal(file.path, out);
  assert.equal(file.bytes, bytes.length);
  assert.equal(file.sha256, sha256(bytes));
  assert.equal(
    batch.checksum,
    file.sha256,
    "the record returned carries the built file's checksum",
  );
  assert.ok(!existsSync(`${out}.part`));
  await h5wasm.ready;
  const h5 = new h5wasm.File(out, "r");
  try {
    assert.equal(h5.attrs.format!.value, "emsim-batch-result");
    const scale = h5.get("monitors/line/structures_0_size_2") as Dataset;
    assert.deepEqual(Array.from(scale.value as Float64Array), THICKNESS_M);
    assert.equal((h5.get("monitors/line/Ex") as Dataset).shape![0], 3);
  } finally {
    h5.close();
  }
  const storage = proxy.requests.filter((r) => r.url.startsWith("/storage/"));
  assert.equal(storage.length, 1);
  assert.equal(storage[0]!.headers.authorization, undefined);
  done = batch;

  // Cancel the queued batch: its jobs FAILED, so the batch FAILED and has no file (409).
  const cancelled = await client.cancelBatch(queued.batch_id);
  assert.equal(cancelled.cancel_requested, true);
  const ended = await client.waitForBatch(queued.batch_id, { pollIntervalMs: 100 });
  assert.equal(ended.status, "FAILED");
  assert.equal(ended.counts.FAILED, 2);
  await assert.rejects(
    client.downloadBatch(queued.batch_id, join(dir, "none.h5")),
    (e: unknown) => {
      assert.ok(e instanceof EmsimApiError);
      assert.equal(e.status, 409);
      assert.equal(e.code, "results_not_ready");
      return true;
    },
  );
});

test("lists, 404 batch_not_found, 422 naming the variant, and a sweep whose batch FAILED", async () => {
  const ids: string[] = [];
  for await (const b of client.batches({ limit: 1 })) ids.push(b.batch_id);
  assert.equal(ids.length, 2, "both batches, one page at a time");
  assert.equal(ids[1], done.batch_id, "newest first");
  const page = await client.listBatches({ limit: 1 });
  assert.equal(page.batches.length, 1);
  assert.equal(page.next_cursor, page.batches[0]!.batch_id);

  await assert.rejects(client.getBatch("00000000-0000-4000-8000-000000000000"), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.status, 404);
    assert.equal(e.code, "batch_not_found");
    return true;
  });

  await assert.rejects(
    client.submitBatch({
      simulation: sim(),
      parameters: [{ name: "t", path: "/structures/0/size/2", values: [0.3e-6, -1] }],
    }),
    (e: unknown) => {
      assert.ok(e instanceof EmsimApiError);
      assert.equal(e.status, 422);
      assert.deepEqual(
        e.fieldErrors.map((f) => f.path),
        ["variants[1].structures[0].size[2]"],
      );
      return true;
    },
  );

  // Every job cancelled as soon as the batch is seen: the sweep throws with the batch's record.
  await assert.rejects(
    client.sweep(
      longSimulation() as never,
      [{ name: "t", path: "/structures/0/size/2", values: [0.2e-6] }],
      {
        out: join(dir, "never.h5"),
        pollIntervalMs: 100,
        onProgress: (b) => {
          if (!b.cancel_requested) void client.cancelBatch(b.batch_id);
        },
      },
    ),
    (e: unknown) => {
      assert.ok(e instanceof EmsimBatchFailedError, String(e));
      assert.equal(e.batch.status, "FAILED");
      assert.match(e.message, /FAILED: none of its 1 jobs completed \(job 0: .*[Cc]ancel/);
      return true;
    },
  );
  assert.ok(!existsSync(join(dir, "never.h5")));
});

test("a corrupted stored batch file is refused and kept aside as .corrupt", async () => {
  const stored = join(svc.config.dataDir, "results", "batches");
  const name = readdirSync(stored).find((n) => n.startsWith(done.batch_id));
  assert.ok(name, `the batch's file in ${stored}`);
  const original = readFileSync(join(stored, name));
  const bad = Buffer.from(original);
  bad[bad.length - 1] ^= 0xff;
  writeFileSync(join(stored, name), bad);
  const out = join(dir, "corrupt.h5");
  try {
    await assert.rejects(client.downloadBatch(done.batch_id, out), (e: unknown) => {
      assert.ok(e instanceof EmsimChecksumError);
      assert.equal(e.kind, "batch");
      assert.equal(e.jobId, done.batch_id);
      assert.equal(e.expected, done.checksum);
      assert.match(e.message, /the download of batch [0-9a-f-]{36} does not match/);
      return true;
    });
    assert.ok(!existsSync(out));
    assert.deepEqual(readFileSync(`${out}.corrupt`), bad);
  } finally {
    writeFileSync(join(stored, name), original);
  }
  // Restored, it downloads again to the same path.
  const again = await client.downloadBatch(done.batch_id, out);
  assert.equal(again.sha256, done.checksum);
});
