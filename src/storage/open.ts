/**
 * The composition root's choice of result storage: local files under the data directory
 * (the embedded default, with HMAC-signed addresses that this server answers), or an
 * S3-compatible bucket from `EMSIM_STORAGE_URL=s3://bucket/prefix`. The AWS SDK is loaded
 * only for S3 (about 0.2 s of CPU that every local process would otherwise spend at start).
 */
import { join } from "node:path";
import type { Config } from "../config.js";
import { LocalFileStorage } from "./local.js";
import type { StorageBackend } from "./types.js";

export interface OpenedStorage {
  storage: StorageBackend;
  /** The local backend, whose signed-download route the server must mount; null for S3. */
  local: LocalFileStorage | null;
  /** Where a worker writes result files before `putFile`. */
  scratchDir: string;
}

export async function openStorage(config: Config, signingSecret: string): Promise<OpenedStorage> {
  if (config.s3) {
    const { S3Storage } = await import("./s3.js");
    // Workers write result files to a scratch folder of their own data directory.
    return {
      storage: new S3Storage(config.s3),
      local: null,
      scratchDir: join(config.dataDir, "scratch"),
    };
  }
  const local = new LocalFileStorage(
    join(config.dataDir, "results"),
    config.storageUrl,
    signingSecret,
  );
  // Inside the results folder, so that storing a finished file is a rename on one disk.
  return { storage: local, local, scratchDir: local.scratchDir() };
}
