/**
 * The S3 storage backend against a real S3-compatible server (s3rver, in this process): a
 * round trip of a real file, a multipart upload read back byte for byte, pre-signed addresses
 * (their expiry, the download name, Range), an unreachable store failing in bounded time, and
 * a failed multipart upload aborted. s3rver implements neither listing nor aborting multipart
 * uploads, so the abort is checked as the request we send (the commands are recorded).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buffer } from "node:stream/consumers";
import { loadConfig } from "../../src/config.js";
import { S3Storage } from "../../src/storage/s3.js";
import { startS3, S3_TEST_CREDENTIALS, type TestS3 } from "../helpers/s3.js";
import { freePort, tempDir } from "../helpers/service.js";

let s3: TestS3;
let storage: S3Storage;
const dir = tempDir("emsim-s3-test-");

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** The S3 operations a backend sends, in order (with their inputs). */
function recordCommands(target: S3Storage): { name: string; input: Record<string, unknown> }[] {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  target.client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({
        name: String(context.commandName),
        input: args.input as Record<string, unknown>,
      });
      return next(args);
    },
    { step: "initialize", name: "recordCommands" },
  );
  return sent;
}

function backend(overrides: Partial<ConstructorParameters<typeof S3Storage>[0]> = {}) {
  return new S3Storage({
    bucket: s3.bucket,
    prefix: "results",
    endpoint: s3.endpoint,
    region: "us-east-1",
    credentials: S3_TEST_CREDENTIALS,
    multipartThresholdBytes: 8 * 1024 * 1024,
    partBytes: 5 * 1024 * 1024,
    ...overrides,
  });
}

before(async () => {
  s3 = await startS3();
  storage = backend();
});
after(async () => s3?.close());

test("EMSIM_STORAGE_URL=s3://bucket/prefix selects S3 with the endpoint and region", () => {
  const config = loadConfig(s3.env, { dataDir: dir });
  assert.deepEqual(config.s3, {
    bucket: s3.bucket,
    prefix: "results",
    endpoint: s3.endpoint,
    region: "us-east-1",
  });
  assert.throws(
    () => loadConfig({ EMSIM_STORAGE_URL: "s3://Bad_Bucket/x" }, { dataDir: dir }),
    /valid bucket name/,
  );
  assert.equal(loadConfig({}, { dataDir: dir }).s3, null);
});

test("a file goes up, is found with its size, read whole and by range, and deleted", async () => {
  const content = randomBytes(300_000);
  const path = join(dir, "small.h5");
  writeFileSync(path, content);
  const stored = await storage.putFile("job-1.h5", path);
  assert.deepEqual(stored, { key: "job-1.h5", bytes: content.length });
  assert.deepEqual(await storage.stat("job-1.h5"), stored);
  const whole: Buffer[] = [];
  for await (const chunk of await storage.read("job-1.h5")) whole.push(chunk as Buffer);
  assert.equal(sha256(Buffer.concat(whole)), sha256(content));
  const part = await buffer(await storage.read("job-1.h5", { start: 1000, end: 1009 }));
  assert.deepEqual(part, content.subarray(1000, 1010));
  await storage.delete("job-1.h5");
  assert.equal(await storage.stat("job-1.h5"), null);
  await assert.rejects(storage.read("job-1.h5"), /S3 download of 'results\/job-1.h5' failed/);
});

test("a large file goes up in parts and reads back byte for byte", async () => {
  const content = randomBytes(23 * 1024 * 1024); // 5 parts of 5 MiB, the last shorter
  const path = join(dir, "large.h5");
  writeFileSync(path, content);
  const multipart = backend();
  const sent = recordCommands(multipart);
  const stored = await multipart.putFile("large.h5", path);
  assert.equal(stored.bytes, content.length);
  assert.deepEqual(
    sent.map((c) => c.name),
    [
      "CreateMultipartUploadCommand",
      ...Array(5).fill("UploadPartCommand"),
      "CompleteMultipartUploadCommand",
      "HeadObjectCommand",
    ],
  );
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read("large.h5")) chunks.push(chunk as Buffer);
  assert.equal(sha256(Buffer.concat(chunks)), sha256(content));
});

test("a pre-signed address: 15 minutes, a download name, whole and ranged GETs", async () => {
  const content = randomBytes(100_000);
  const path = join(dir, "signed.h5");
  writeFileSync(path, content);
  await storage.putFile("signed.h5", path);
  const url = new URL(await storage.signedDownloadUrl("signed.h5", 900, "emsim-abc.h5"));
  assert.equal(url.searchParams.get("X-Amz-Expires"), "900");
  assert.match(url.searchParams.get("X-Amz-Signature") ?? "", /^[0-9a-f]{64}$/);
  assert.match(url.searchParams.get("response-content-disposition") ?? "", /emsim-abc\.h5/);
  assert.equal(url.pathname, `/${s3.bucket}/results/signed.h5`, "path-style address");
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-disposition") ?? "", /filename="emsim-abc\.h5"/);
  assert.equal(sha256(Buffer.from(await res.arrayBuffer())), sha256(content));
  const ranged = await fetch(url, { headers: { range: "bytes=10-19" } });
  assert.equal(ranged.status, 206);
  assert.deepEqual(Buffer.from(await ranged.arrayBuffer()), content.subarray(10, 20));
  // A different expiry is a different signature: the address cannot be stretched by editing it.
  const later = new URL(await storage.signedDownloadUrl("signed.h5", 60, "emsim-abc.h5"));
  assert.equal(later.searchParams.get("X-Amz-Expires"), "60");
  assert.notEqual(
    later.searchParams.get("X-Amz-Signature"),
    url.searchParams.get("X-Amz-Signature"),
  );
});

test("the store refuses a pre-signed address once it has expired", async () => {
  const path = join(dir, "expiring.h5");
  writeFileSync(path, randomBytes(1000));
  await storage.putFile("expiring.h5", path);
  // X-Amz-Date is whole seconds, so a lifetime of 1 s can be over a few ms after signing: 3 s.
  const url = await storage.signedDownloadUrl("expiring.h5", 3, "x.h5");
  assert.equal((await fetch(url)).status, 200);
  await new Promise((r) => setTimeout(r, 4200));
  const late = await fetch(url);
  assert.equal(late.status, 403);
  assert.match(await late.text(), /expired/i);
});

test("resolveSignedUrl: our own pre-signed addresses back to their keys, expired too; nothing else", async () => {
  // 3 s: X-Amz-Date is whole seconds, so a 1 s address signed late in a second had expired
  // by the time it was resolved a few ms later (a flaky failure in CI).
  const url = await storage.signedDownloadUrl("gds/acct/layout.gds", 3, "layout.gds");
  assert.deepEqual(await storage.resolveSignedUrl(url), {
    key: "gds/acct/layout.gds",
    expired: false,
  });
  assert.match(new URL(url).searchParams.get("response-content-type") ?? "", /octet-stream/);
  const edited = (name: string, value: string) => {
    const u = new URL(url);
    u.searchParams.set(name, value);
    return u.toString();
  };
  // Any edit breaks the signature: the key, the lifetime, the signature itself.
  assert.equal(await storage.resolveSignedUrl(url.replace("/acct/", "/other/")), null);
  assert.equal(await storage.resolveSignedUrl(edited("X-Amz-Expires", "604800")), null);
  assert.equal(await storage.resolveSignedUrl(edited("X-Amz-Signature", "0".repeat(64))), null);
  // Another backend's (other credentials) or another bucket's address is not ours.
  const stranger = backend({
    credentials: { accessKeyId: "OTHER", secretAccessKey: "other-secret-key" },
  });
  const theirs = await stranger.signedDownloadUrl("gds/acct/layout.gds", 60, "layout.gds");
  assert.equal(await storage.resolveSignedUrl(theirs), null);
  assert.equal(await storage.resolveSignedUrl(url.replace(`/${s3.bucket}/`, "/elsewhere/")), null);
  assert.equal(await storage.resolveSignedUrl("not an address"), null);
  await new Promise((r) => setTimeout(r, 4100));
  assert.deepEqual(await storage.resolveSignedUrl(url), {
    key: "gds/acct/layout.gds",
    expired: true,
  });
});

test("an unreachable store fails an upload within seconds, with a clear message", async () => {
  const port = await freePort(); // nothing listens there
  const dead = backend({
    endpoint: `http://127.0.0.1:${port}`,
    connectTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    maxAttempts: 2,
  });
  const path = join(dir, "x.h5");
  writeFileSync(path, randomBytes(1000));
  const t0 = Date.now();
  await assert.rejects(dead.putFile("x.h5", path), (err: Error) => {
    assert.match(err.message, /^S3 upload of 'results\/x\.h5' failed/);
    assert.doesNotMatch(err.message, /S3RVER|Signature|Credential/);
    return true;
  });
  assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms`);
});

test("a multipart upload that fails midway is aborted, and nothing is stored", async () => {
  const content = randomBytes(12 * 1024 * 1024);
  const path = join(dir, "broken.h5");
  writeFileSync(path, content);
  const failing = backend();
  const sent = recordCommands(failing);
  // The second part fails for good, as a store that went away would.
  failing.client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { PartNumber?: number };
      if (context.commandName === "UploadPartCommand" && input.PartNumber === 2) {
        throw Object.assign(new Error("socket hang up"), { name: "NetworkingError" });
      }
      return next(args);
    },
    { step: "initialize", name: "failSecondPart" },
  );
  await assert.rejects(
    failing.putFile("broken.h5", path),
    /S3 multipart upload of 'results\/broken\.h5' failed/,
  );
  const create = sent.find((c) => c.name === "CreateMultipartUploadCommand");
  const abort = sent.find((c) => c.name === "AbortMultipartUploadCommand");
  assert.ok(create && abort, sent.map((c) => c.name).join(", "));
  assert.ok(abort.input.UploadId, "the abort names the upload");
  assert.equal(sent.filter((c) => c.name === "CompleteMultipartUploadCommand").length, 0);
  assert.equal(await storage.stat("broken.h5"), null);
});
