/**
 * Run by refused-writes.test.ts inside a private mount namespace (`unshare -m`) where
 * `argv[2]` is a small tmpfs: SQLite resolves symbolic links in a database's path, so the
 * test's own process cannot reach that mount through /proc/<pid>/root and the stores must be
 * opened from inside. Fills the disk to the last byte, then tries the writes whose commit a
 * full disk refuses, frees the space and reads back what was stored. Prints one JSON line.
 */
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { storeUnavailability } from "../../src/store/errors.js";
import { openSqliteStores } from "../../src/store/sqlite/index.js";

const dir = process.argv[2]!;
const stores = openSqliteStores(join(dir, "emsim.sqlite"));
const owner = await stores.accounts.createAccount({ email: "owner@example.com", isAdmin: false });
const jobId = "0b7f2a8e-1c1e-4a55-9d49-2f4f2a0c9e01";
await stores.jobs.admitJob(
  {
    jobId,
    accountId: owner.id,
    solver: "fdtd",
    requestJson: "{}",
    specJson: "{}",
    metadata: {},
    createdAt: new Date().toISOString(),
  },
  { limit: 1, scope: "account" },
);
const claimed = await stores.jobs.claimNextJob("w", "2030-01-01T00:00:00.000Z");
// An empty write-ahead log: the next commit must grow a file, which the full disk refuses
// (a log with room left would take a small commit without asking the file system).
stores.database.db.pragma("wal_checkpoint(TRUNCATE)");

const filler = join(dir, "filler");
const fd = openSync(filler, "w");
try {
  for (;;) writeSync(fd, Buffer.alloc(64 * 1024, 1));
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
} finally {
  closeSync(fd);
}

const writes = {
  createAccount: () => stores.accounts.createAccount({ email: "new@example.com", isAdmin: false }),
  createApiKey: () =>
    stores.accounts.createApiKey({
      accountId: owner.id,
      name: "laptop",
      keyHash: "f".repeat(64),
      displayPrefix: "emsim_full",
    }),
  heartbeat: () => stores.jobs.heartbeat(jobId, "w", "2030-01-01T00:00:09.000Z", null),
};
/** Per write: null where it reported success, else its error's code and 503 reason. */
const onFullDisk: Record<string, { code: unknown; reason: string | null } | null> = {};
for (const [name, write] of Object.entries(writes)) {
  try {
    await write();
    onFullDisk[name] = null;
  } catch (err) {
    onFullDisk[name] = { code: (err as { code?: unknown }).code, reason: storeUnavailability(err) };
  }
}

rmSync(filler);
const stored = {
  account: (await stores.accounts.findAccountByEmail("new@example.com")) !== null,
  apiKeys: (await stores.accounts.listApiKeys(owner.id)).length,
  heartbeatAt: (await stores.jobs.getJob(jobId))?.heartbeatAt ?? null,
};
// With space again, the same writes go through.
const afterSpace = {
  account: (await writes.createAccount()).email,
  apiKey: (await writes.createApiKey()).displayPrefix,
  heartbeat: await writes.heartbeat(),
};
await stores.close();
console.log(
  JSON.stringify({ claimedAt: claimed?.heartbeatAt ?? null, onFullDisk, stored, afterSpace }),
);
