/**
 * A write the database refuses when it commits (a full disk) must fail, never report success
 * for a row that was not stored: a key printed once that never works, a heartbeat the worker
 * believes while the job's goes stale (durability audit, F1). The writes tried are those that
 * return the row they wrote (INSERT/UPDATE … RETURNING outside a transaction).
 *
 * SQLite: a real full disk, a small tmpfs in a private mount namespace (`unshare -m`, needs
 * root, as test/hardening/full-disk.test.ts), with the stores opened in a process inside it
 * (full-disk-writes.ts). `PRAGMA max_page_count` is no substitute: it refuses the page while
 * the statement steps, which was always raised, not the commit. PostgreSQL: a commit refused
 * with SQLSTATE 53100 (disk_full) by a deferred constraint trigger, since a real full disk
 * would stop the shared cluster.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { storeUnavailability } from "../../src/store/errors.js";
import { openPostgresStores } from "../../src/store/postgres/index.js";
import { freshPgDatabase } from "../helpers/postgres.js";
import { tempDir } from "../helpers/service.js";

const notRoot = process.getuid?.() !== 0 && "mounting a tmpfs in a mount namespace needs root";

/** What full-disk-writes.ts saw: on a 1 MiB tmpfs of its own, filled, then freed. */
interface FullDiskOutcome {
  claimedAt: string;
  /** Per write: null where it reported success, else its error's code and 503 reason. */
  onFullDisk: Record<string, { code: string; reason: string | null } | null>;
  stored: { account: boolean; apiKeys: number; heartbeatAt: string | null };
  afterSpace: Record<string, unknown>;
}

function writeOnFullDisk(): FullDiskOutcome {
  const dir = tempDir();
  const child = new URL("./full-disk-writes.ts", import.meta.url).pathname;
  const script = `mount -t tmpfs -o size=1024k tmpfs "$1" && exec "$0" --import tsx "$2" "$1"`;
  const res = spawnSync("unshare", ["-m", "sh", "-c", script, process.execPath, dir, child], {
    encoding: "utf8",
    timeout: 120_000,
  });
  rmSync(dir, { recursive: true, force: true }); // the mount point, empty once the writer ended
  assert.equal(res.status, 0, `the writer failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").at(-1)!) as FullDiskOutcome;
}

test(
  "SQLite on a full disk: createAccount, createApiKey and heartbeat throw, storing nothing",
  {
    skip: notRoot,
  },
  () => {
    const out = writeOnFullDisk();
    for (const write of ["createAccount", "createApiKey", "heartbeat"]) {
      assert.ok(out.onFullDisk[write], `${write} reported success on a full disk`);
      assert.match(out.onFullDisk[write]!.code, /^SQLITE_FULL/, write);
      assert.equal(out.onFullDisk[write]!.reason, "full", `${write}: answered 503, disk full`);
    }
    assert.deepEqual(out.stored, { account: false, apiKeys: 0, heartbeatAt: out.claimedAt });
    assert.deepEqual(out.afterSpace, {
      account: "new@example.com",
      apiKey: "emsim_full",
      heartbeat: { cancelRequested: false },
    });
  },
);

test("PostgreSQL: the same writes throw when the commit is refused, and store nothing", async () => {
  const db = await freshPgDatabase();
  const stores = await openPostgresStores({
    connectionString: db.url,
    poolMax: 2,
    connectTimeoutMs: 5000,
    statementTimeoutMs: 15_000,
  });
  try {
    const owner = await stores.accounts.createAccount({ email: "o@example.com", isAdmin: false });
    const jobId = randomUUID();
    const job = { jobId, accountId: owner.id, solver: "fdtd", requestJson: "{}", specJson: "{}" };
    await stores.jobs.admitJob(
      { ...job, metadata: {}, createdAt: new Date().toISOString() },
      { limit: 1, scope: "account" },
    );
    const claimed = await stores.jobs.claimNextJob("w", "2030-01-01T00:00:00.000Z");
    const refuse = (table: string) =>
      `CREATE CONSTRAINT TRIGGER refuse_commit AFTER INSERT OR UPDATE ON ${table}
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_commit()`;
    await stores.database.pool.query(
      `CREATE FUNCTION refuse_commit() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN RAISE EXCEPTION 'no space left (test)' USING ERRCODE = 'disk_full'; END $$`,
    );
    for (const table of ["accounts", "api_keys", "jobs"]) {
      await stores.database.pool.query(refuse(table));
    }
    const refused = async (write: () => Promise<unknown>, what: string) => {
      const err = await write().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(err, `${what} reported success for a refused commit`);
      assert.equal(storeUnavailability(err), "full", `${what}: answered 503, disk full`);
    };
    await refused(
      () => stores.accounts.createAccount({ email: "n@example.com", isAdmin: false }),
      "createAccount",
    );
    await refused(
      () =>
        stores.accounts.createApiKey({
          accountId: owner.id,
          name: "laptop",
          keyHash: "f".repeat(64),
          displayPrefix: "emsim_full",
        }),
      "createApiKey",
    );
    await refused(
      () => stores.jobs.heartbeat(jobId, "w", "2030-01-01T00:00:09.000Z", null),
      "heartbeat",
    );
    for (const table of ["accounts", "api_keys", "jobs"]) {
      await stores.database.pool.query(`DROP TRIGGER refuse_commit ON ${table}`);
    }
    assert.equal(await stores.accounts.findAccountByEmail("n@example.com"), null);
    assert.deepEqual(await stores.accounts.listApiKeys(owner.id), []);
    assert.equal((await stores.jobs.getJob(jobId))?.heartbeatAt, claimed?.heartbeatAt);
  } finally {
    await stores.close();
    await db.drop();
  }
});
