/**
 * The SDK against a real emsim service (real SQLite, solver, files and HTTP): the whole round
 * trip, typed errors for 401/404/409/422 and an unreachable server, waiting for a free slot,
 * and downloads that resume after an interruption and refuse a corrupted file. Storage
 * traffic goes through a recording proxy, so the tests see the Range requests and can check
 * that the API key never reaches the storage address.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  EmsimApiError,
  EmsimChecksumError,
  EmsimClient,
  EmsimError,
  EmsimNetworkError,
  type DownloadProgress,
  type JobRecord,
} from "../../src/client/index.js";
import {
  freePort,
  longSimulation,
  smallSimulation,
  startService,
  tempDir,
  type TestService,
} from "../helpers/service.js";
import { startRecordingProxy, storedResultPath, type RecordingProxy } from "./helpers.js";

let svc: TestService;
let proxy: RecordingProxy;
let client: EmsimClient;
let dir: string;
/** A COMPLETED job and the bytes of its result file, shared by the download tests. */
let done: { job: JobRecord; bytes: Buffer };

const sim = () => smallSimulation() as never;
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

before(async () => {
  proxy = await startRecordingProxy();
  svc = await startService({ storageUrl: `${proxy.url}/storage` });
  proxy.target = svc.baseUrl;
  client = new EmsimClient({ baseUrl: svc.baseUrl, apiKey: await svc.newKey("sdk@example.com") });
  dir = tempDir("emsim-sdk-");
});
after(async () => {
  await svc.close();
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
});

const storageRequests = () => proxy.requests.filter((r) => r.url.startsWith("/storage/"));

test("run: submit, wait with progress, download a verified result; 409 and queue meanwhile", async () => {
  const seen: JobRecord[] = [];
  const out = join(dir, "run.h5");
  let submitted!: (id: string) => void;
  const firstId = new Promise<string>((resolve) => (submitted = resolve));
  const running = client.run(sim(), {
    out,
    pollIntervalMs: 200,
    onSubmitted: (ack) => submitted(ack.job_id),
    onProgress: (j) => seen.push(j),
  });
  const activeId = await firstId;

  // While it is active, another submission is refused with the active job's id...
  await assert.rejects(client.submit(sim()), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.status, 409);
    assert.equal(e.code, "simulation_already_running");
    assert.equal(e.activeJobId, activeId);
    assert.ok((e.retryAfterSeconds ?? 0) >= 1);
    return true;
  });
  // ...and with `queue` it waits for that job to end, then gets in.
  const waits: string[] = [];
  // (A long job, so that it is still active when it is cancelled below.)
  const queued = await client.submit(longSimulation() as never, {
    queue: true,
    pollIntervalMs: 100,
    onQueued: (info) => waits.push(info.activeJobId ?? ""),
  });
  assert.ok(waits.length >= 1 && waits.every((id) => id === activeId));
  assert.notEqual(queued.job_id, activeId);

  const { job, file } = await running;
  assert.equal(job.job_id, activeId);
  assert.equal(job.status, "COMPLETED");
  assert.ok(seen.length >= 1);
  assert.ok(seen.every((j) => j.job_id === job.job_id));
  assert.equal(seen.at(-1)!.status, "COMPLETED");
  assert.deepEqual(job.metadata, { project: "test", run: 1 });

  const bytes = readFileSync(out);
  assert.equal(file.path, out);
  assert.equal(file.bytes, bytes.length);
  assert.equal(file.bytes, job.result_bytes);
  assert.equal(file.sha256, job.checksum);
  assert.equal(sha256(bytes), job.checksum);
  assert.equal(bytes.subarray(1, 4).toString("latin1"), "HDF");
  assert.ok(!existsSync(`${out}.part`));

  // The storage address was fetched without the API key.
  const storage = storageRequests();
  assert.equal(storage.length, 1);
  assert.equal(storage[0]!.headers.authorization, undefined);
  done = { job, bytes };

  // Cancel the queued one; a FAILED job has no results (409).
  assert.equal((await client.cancel(queued.job_id)).job_id, queued.job_id);
  const ended = await client.waitFor(queued.job_id, { pollIntervalMs: 100 });
  assert.equal(ended.status, "FAILED");
  await assert.rejects(client.download(queued.job_id, join(dir, "none.h5")), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.status, 409);
    assert.equal(e.code, "results_not_ready");
    return true;
  });
});

test("typed errors: 401, 404, 422 with field errors, unreachable server", async () => {
  const wrongKey = new EmsimClient({ baseUrl: svc.baseUrl, apiKey: "emsim_notavalidkey" });
  await assert.rejects(wrongKey.list(), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.status, 401);
    assert.equal(e.code, "invalid_api_key_format");
    return true;
  });

  await assert.rejects(client.get("00000000-0000-4000-8000-000000000000"), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.status, 404);
    assert.equal(e.code, "job_not_found");
    return true;
  });

  const bad = smallSimulation();
  (bad.domain as { resolution: number }).resolution = -1;
  await assert.rejects(client.submit(bad as never), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.status, 422);
    assert.equal(e.code, "validation_error");
    assert.ok(
      e.fieldErrors.some((f) => f.path === "domain.resolution"),
      JSON.stringify(e.body),
    );
    return true;
  });

  const port = await freePort();
  const nowhere = new EmsimClient({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: "k",
    retries: { retries: 2, minDelayMs: 1 },
  });
  await assert.rejects(nowhere.get("x"), (e: unknown) => {
    assert.ok(e instanceof EmsimNetworkError);
    assert.equal(e.sent, false);
    assert.match(
      e.message,
      new RegExp(
        `the server at http://127\\.0\\.0\\.1:${port} is not reachable \\(connection refused\\)`,
      ),
    );
    return true;
  });
});

test("a download cut off mid-body resumes with Range and verifies", async () => {
  const out = join(dir, "cut.h5");
  const cutAt = Math.floor(done.bytes.length / 3);
  proxy.cutNext("/storage/", 1, cutAt);
  const before = storageRequests().length;
  const progress: DownloadProgress[] = [];
  const file = await client.download(done.job.job_id, out, { onProgress: (p) => progress.push(p) });
  const requests = storageRequests().slice(before);
  assert.equal(requests.length, 2);
  assert.equal(requests[0]!.headers.range, undefined);
  assert.equal(requests[0]!.cutAfterBytes, cutAt);
  // It continues where the file on disk stopped: at most the bytes the proxy let through (a
  // web stream that errors may drop chunks it had not handed over yet).
  const resumedAt = Number(/^bytes=(\d+)-$/.exec(requests[1]!.headers.range ?? "")?.[1]);
  assert.ok(resumedAt > 0 && resumedAt <= cutAt, `${requests[1]!.headers.range} after ${cutAt}`);
  assert.equal(requests[1]!.status, 206);
  assert.ok(requests.every((r) => r.headers.authorization === undefined));
  assert.equal(file.sha256, done.job.checksum);
  assert.ok(readFileSync(out).equals(done.bytes));
  assert.equal(progress.at(-1)!.receivedBytes, done.bytes.length);
});

test("a full local disk is said plainly, not taken for a broken connection", async () => {
  const out = join(dir, "full.h5");
  // /dev/full refuses every write with ENOSPC, as a full disk does.
  symlinkSync("/dev/full", `${out}.part`);
  const before = storageRequests().length;
  await assert.rejects(client.download(done.job.job_id, out), (e: unknown) => {
    assert.ok(e instanceof EmsimError && !(e instanceof EmsimNetworkError), String(e));
    assert.match(e.message, /full\.h5\.part: no space left on its disk \(ENOSPC\)/);
    assert.match(e.message, /make room and run it again to resume/);
    return true;
  });
  assert.equal(storageRequests().length - before, 1, "a full disk is not retried");
});

test("a partial .part from an earlier run is resumed; a stale one is replaced", async () => {
  const out = join(dir, "part.h5");
  const half = Math.floor(done.bytes.length / 2);
  writeFileSync(`${out}.part`, done.bytes.subarray(0, half));
  let before = storageRequests().length;
  const file = await client.download(done.job.job_id, out);
  assert.equal(file.resumedFromBytes, half);
  assert.deepEqual(
    storageRequests()
      .slice(before)
      .map((r) => r.headers.range),
    [`bytes=${half}-`],
  );
  assert.ok(readFileSync(out).equals(done.bytes));

  // A .part of another file: the resumed result fails the checksum, so it starts over once.
  const stale = join(dir, "stale.h5");
  writeFileSync(`${stale}.part`, Buffer.alloc(half, 7));
  before = storageRequests().length;
  const again = await client.download(done.job.job_id, stale);
  assert.equal(again.resumedFromBytes, 0);
  assert.deepEqual(
    storageRequests()
      .slice(before)
      .map((r) => r.headers.range),
    [`bytes=${half}-`, undefined],
  );
  assert.ok(readFileSync(stale).equals(done.bytes));

  // A .part longer than the file cannot be its beginning: dropped before asking (it was
  // "resumed" from past the end, with a negative rate shown).
  const long = join(dir, "long.h5");
  writeFileSync(`${long}.part`, Buffer.alloc(done.bytes.length + 1000, 7));
  before = storageRequests().length;
  const seen: number[] = [];
  const fresh = await client.download(done.job.job_id, long, {
    onProgress: (p) => seen.push(p.resumedFromBytes),
  });
  assert.equal(fresh.resumedFromBytes, 0);
  assert.ok(seen.every((r) => r === 0));
  assert.deepEqual(
    storageRequests()
      .slice(before)
      .map((r) => r.headers.range),
    [undefined],
  );
  assert.ok(readFileSync(long).equals(done.bytes));
});

test("a download to a folder, or into a folder that is not there, is refused before any byte", async () => {
  const before = storageRequests().length;
  await assert.rejects(client.download(done.job.job_id, dir), /it is a folder; name the file/);
  const missing = join(dir, "no-such-folder", "r.h5");
  await assert.rejects(client.download(done.job.job_id, missing), /does not exist/);
  assert.equal(storageRequests().length, before, "nothing fetched");
  assert.equal(existsSync(`${dir}.part`), false, "no .part left beside the folder");
});

test("a corrupted stored file is refused and kept aside as .corrupt", async () => {
  const stored = storedResultPath(svc.config.dataDir, done.job.job_id);
  const bytes = readFileSync(stored);
  bytes[bytes.length - 1] ^= 0xff;
  writeFileSync(stored, bytes);
  const out = join(dir, "bad.h5");
  await assert.rejects(client.download(done.job.job_id, out), (e: unknown) => {
    assert.ok(e instanceof EmsimChecksumError);
    assert.equal(e.expected, done.job.checksum);
    assert.equal(e.actual, sha256(bytes));
    assert.equal(e.corruptPath, `${out}.corrupt`);
    assert.match(e.message, /does not match its checksum/);
    return true;
  });
  assert.ok(!existsSync(out));
  assert.ok(!existsSync(`${out}.part`));
  assert.ok(readFileSync(`${out}.corrupt`).equals(bytes));
});
