/**
 * A database closed to connections for maintenance (`ALTER DATABASE … ALLOW_CONNECTIONS
 * false`, its sessions ended) refuses a new connection with SQLSTATE 55000, "database … is
 * not currently accepting connections". That is the database being unavailable, as a server
 * that is down is: the API answers 503 with Retry-After and a worker keeps its finished job
 * until the database is back. It was taken for a bug: 500s, and a worker that gave up storing
 * a finished result and ran the job again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { PgDatabase } from "../../src/store/postgres/database.js";
import { StoreUnavailableError } from "../../src/store/errors.js";
import { freshPgDatabase, PG_ADMIN_URL } from "../helpers/postgres.js";

test("a database closed to connections is unavailable, and served again once open", async () => {
  const fresh = await freshPgDatabase();
  const name = new URL(fresh.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const db = new PgDatabase({
    connectionString: fresh.url,
    poolMax: 2,
    connectTimeoutMs: 2000,
    statementTimeoutMs: 10_000,
    onBackgroundError: () => undefined, // the ended sessions are reported; not what is tested
  });
  try {
    assert.equal((await db.query<{ n: number }>("SELECT 1 AS n")).rows[0]!.n, 1);
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [
      name,
    ]);
    await new Promise((r) => setTimeout(r, 300));
    const refused = await db.query("SELECT 2").then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(
      refused instanceof StoreUnavailableError,
      `a closed database was ${String(refused)}, not unavailable`,
    );
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    assert.equal((await db.query<{ n: number }>("SELECT 3 AS n")).rows[0]!.n, 3);
  } finally {
    await db.close();
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin.end();
    await fresh.drop();
  }
});
