/**
 * An S3 store that stops answering while a worker stores a finished result (a restart of the
 * object store). The result waits for it and the job completes in its first attempt: before,
 * each failed upload threw the result away and ran the job again at once, and three of them
 * (a 12 s outage) FAILED the job.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startS3, S3_TEST_CREDENTIALS } from "../helpers/s3.js";
import { call, smallSimulation, startService, waitForStatus } from "../helpers/service.js";

test("a result finished while S3 is down is stored once S3 answers again, in the same attempt", async () => {
  // The SDK reads its credentials from the environment (s3rver does not check them).
  process.env.AWS_ACCESS_KEY_ID = S3_TEST_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3_TEST_CREDENTIALS.secretAccessKey;
  const s3 = await startS3();
  const svc = await startService({ heartbeatIntervalMs: 500 }, s3.env);
  try {
    const key = await svc.newKey("s3-outage@example.com");
    const worker = svc.service.worker as unknown as {
      storage: { putFile(key: string, path: string): Promise<unknown> };
    };
    // The store goes down as the first result is about to go up, for three seconds.
    const putFile = worker.storage.putFile.bind(worker.storage);
    let tries = 0;
    let back: Promise<void> = Promise.resolve();
    worker.storage.putFile = async (k, path) => {
      if (++tries === 1) {
        await s3.pause();
        back = new Promise((resolve) => setTimeout(resolve, 3000)).then(() => s3.resume());
      }
      return putFile(k, path);
    };
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation(),
    });
    assert.equal(sub.status, 202, sub.text);
    const id = String(sub.body.job_id);
    const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"], 60_000);
    await back;
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
    assert.equal(done.attempts, 1, "the job ran again");
    assert.ok(tries > 1, "the upload was tried again");
    const download = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, {
      key,
      redirect: "follow",
    });
    assert.equal(download.status, 200);
  } finally {
    await svc.close();
    await s3.close();
  }
});
