/**
 * A PostgreSQL restart that cuts a connection a transaction holds. The driver reports a dropped
 * connection as an 'error' event on its client as well as to the running query; a client taken
 * from the pool has no listener for that event, and an EventEmitter's unheard 'error' ends the
 * process (CI saw the API process close its sockets as the cluster stopped). The transaction
 * must fail with StoreUnavailableError, and the process must live on: the test runner fails a
 * test during which an exception goes uncaught.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { PgDatabase } from "../../src/store/postgres/database.js";
import { StoreUnavailableError } from "../../src/store/errors.js";
import { privateCluster, type PrivateCluster } from "../helpers/postgres.js";
import { freePort } from "../helpers/service.js";

let cluster: PrivateCluster;

before(async () => {
  cluster = privateCluster(await freePort());
});
after(() => cluster?.destroy());

function database(onBackgroundError?: (err: Error) => void): PgDatabase {
  return new PgDatabase({
    connectionString: cluster.url,
    poolMax: 2,
    connectTimeoutMs: 2000,
    statementTimeoutMs: 10_000,
    onBackgroundError,
  });
}

const settle = () => new Promise((r) => setTimeout(r, 300));

/** Once the cluster is back, the same pool answers again (it reconnects by itself). */
async function servesAgain(db: PgDatabase): Promise<void> {
  assert.equal((await db.query<{ n: number }>("SELECT 3 AS n")).rows[0]!.n, 3);
  await db.close();
}

/** The transaction fails as the database being unavailable; then the cluster restarts. */
async function failsThenServesAgain(db: PgDatabase, outcome: Promise<void>): Promise<void> {
  await assert.rejects(outcome, StoreUnavailableError);
  await settle();
  cluster.start();
  await servesAgain(db);
}

test("a connection cut between a transaction's statements fails it; the process lives", async () => {
  const reported: Error[] = [];
  const db = database((err) => reported.push(err));
  const outcome = db.tx(async (c) => {
    await c.query("SELECT 1");
    cluster.stop();
    await settle();
    await c.query("SELECT 2");
  });
  await failsThenServesAgain(db, outcome);
  assert.deepEqual(
    reported.map((err) => err.message),
    ["terminating connection due to administrator command"],
    "the cut is logged once",
  );
});

test("a connection cut during a transaction's statement fails it; the process lives", async () => {
  const db = database();
  const outcome = db.tx(async (c) => {
    await c.query("SELECT 1");
    await c.query("SELECT pg_sleep(5)");
  });
  await settle();
  cluster.stop();
  await failsThenServesAgain(db, outcome);
});

test("an idle connection cut by a restart is reported without the driver's client", async () => {
  const reported: Error[] = [];
  const db = database((err) => reported.push(err));
  await db.query("SELECT 1");
  cluster.stop();
  await settle();
  cluster.start();
  assert.ok(reported.length > 0, "the cut was reported");
  for (const err of reported) {
    assert.ok(err instanceof Error);
    assert.match(err.message, /terminat/);
    assert.equal("client" in err, false, "the pool's client is not carried into the log");
  }
  await servesAgain(db);
});
