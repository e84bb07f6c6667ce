/**
 * A disk that refuses a write is 503 service_unavailable with a detail and a time to come back
 * (audit F4), as a database on a full disk is: the request stored nothing and may succeed once
 * there is room. The refusal is real: a write to /dev/full fails with ENOSPC as a full disk's
 * does. A result file that HDF5 quietly refused arrives as DiskWriteError (src/batches/
 * results.ts) and is answered the same way; anything else is still a 500.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import Fastify, { type FastifyInstance } from "fastify";
import { DiskWriteError } from "../storage/errors.js";
import { S3StorageError } from "../storage/s3.js";
import { installErrorHandling } from "./error-handler.js";

let app: FastifyInstance;

before(async () => {
  app = Fastify({ logger: false });
  installErrorHandling(app, 1024);
  app.get("/full", async () => {
    await writeFile("/dev/full", "a result");
    return {};
  });
  app.get("/refused", async () => {
    throw new DiskWriteError("batch file: HDF5 did not create /monitors/T");
  });
  app.get("/s3-down", async () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:9000"), {
      code: "ECONNREFUSED",
    });
    throw new S3StorageError("download", "results/secret-job.h5", cause);
  });
  app.get("/bug", async () => {
    throw new Error("something else at /srv/emsim");
  });
  await app.ready();
});
after(() => app.close());

const FULL = existsSync("/dev/full") ? false : "no /dev/full on this machine";

test(
  "a write the disk refuses (ENOSPC) is 503 with a detail and Retry-After",
  { skip: FULL },
  async () => {
    const res = await app.inject({ method: "GET", url: "/full" });
    assert.equal(res.statusCode, 503, res.body);
    const body = res.json() as { detail: string; error_code: string; retry_after: number };
    assert.equal(body.error_code, "service_unavailable");
    assert.match(body.detail, /disk of the server is full/);
    assert.match(body.detail, /nothing was stored/);
    assert.doesNotMatch(body.detail, /ENOSPC|\/dev\/full/);
    assert.equal(body.retry_after, 30);
    assert.equal(res.headers["retry-after"], "30");
  },
);

test("a file HDF5 refused to write is answered the same way", async () => {
  const res = await app.inject({ method: "GET", url: "/refused" });
  assert.equal(res.statusCode, 503, res.body);
  assert.equal((res.json() as { error_code: string }).error_code, "service_unavailable");
  assert.equal(res.headers["retry-after"], "30");
});

test("object storage that cannot be reached is a 503 with Retry-After, naming nothing of it", async () => {
  const res = await app.inject({ method: "GET", url: "/s3-down" });
  assert.equal(res.statusCode, 503, res.body);
  const body = res.json() as { detail: string; error_code: string };
  assert.equal(body.error_code, "service_unavailable");
  assert.match(body.detail, /storage cannot be used right now/);
  assert.doesNotMatch(body.detail, /10\.0\.0\.5|secret-job|ECONNREFUSED/);
  assert.equal(res.headers["retry-after"], "30");
});

test("any other failure is still a 500 that names nothing of the server", async () => {
  const res = await app.inject({ method: "GET", url: "/bug" });
  assert.equal(res.statusCode, 500, res.body);
  assert.equal((res.json() as { error_code: string }).error_code, "internal_error");
  assert.doesNotMatch(res.body, /srv/);
});
