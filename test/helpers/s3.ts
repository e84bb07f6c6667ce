/**
 * An S3-compatible server for tests: s3rver from npm, in this process, on a free port, with a
 * bucket of our own, its objects in a temporary folder. It implements the S3 API but does not
 * check signatures (enforcing them is the object store's job), so tests check what emsim
 * controls: uploads, ranges, pre-signed addresses and their expiry, deletion.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { freePort } from "./service.js";

export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Environment for an emsim process using this store (prefix `results`). */
  env: Record<string, string>;
  /** Stops answering (connections refused), its objects kept: an outage of the store. */
  pause(): Promise<void>;
  /** Answers again on the same port, with the objects it had. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startS3(bucket = "emsim-test"): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "emsim-s3-"));
  const port = await freePort();
  const serve = async () => {
    const s3 = new S3rver({
      port,
      address: "127.0.0.1",
      directory,
      silent: true,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    await s3.run();
    return s3;
  };
  let server: S3rver | null = await serve();
  const endpoint = `http://127.0.0.1:${port}`;
  let closed = false;
  return {
    endpoint,
    bucket,
    env: {
      EMSIM_STORAGE_URL: `s3://${bucket}/results`,
      EMSIM_S3_ENDPOINT: endpoint,
      EMSIM_S3_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    },
    async pause() {
      await server?.close();
      server = null;
    },
    async resume() {
      server ??= await serve();
    },
    async close() {
      if (closed) return;
      closed = true;
      await server?.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
