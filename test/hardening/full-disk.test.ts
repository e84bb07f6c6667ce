/**
 * Issue #10, defects 7 and 8: full disks. Each server runs in a private mount namespace with
 * a small tmpfs where its results (or its whole data directory) live, so the disk fills up
 * without anything being mounted on the machine. A job whose result does not fit must never
 * be COMPLETED with a corrupt file: it is retried, then FAILED with a clear error_detail, and
 * leaves no file behind. A database on a full disk answers 503 "nothing was stored", and
 * /health says it takes no writes; both recover when space comes back.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import type Database from "better-sqlite3";
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { shellCli, startServerProcess } from "../helpers/process.js";
import { bigResultJob } from "../helpers/simulations.js";
import {
  call,
  filesUnder,
  freePort,
  smallSimulation,
  startService,
  tempDir,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";

test("a result that does not fit on the disk is retried, then FAILED, and leaves no file", async () => {
  const dataDir = tempDir();
  const keyFile = join(tempDir(), "key");
  const server = await startServerProcess(
    await freePort(),
    dataDir,
    { EMSIM_MAX_ATTEMPTS: "2", EMSIM_RATE_LIMIT_PER_MINUTE: "0" },
    {
      // About 5 MB of result on an 8 MiB disk with 2 MiB left (one larger than the whole
      // disk is a 422 at submission: results-disk-full.test.ts).
      tmpfs: [{ path: join(dataDir, "results"), sizeKiB: 8 * 1024 }],
      before: `${shellCli(["keys", "create", "--email", "disk@example.com", "--name", "d", "--data-dir", dataDir])} > '${keyFile}'`,
    },
  );
  try {
    const key = readFileSync(keyFile, "utf8").trim();
    const results = `/proc/${server.child.pid}/root${join(dataDir, "results")}`;
    const filler = join(results, "filler");
    writeFileSync(filler, Buffer.alloc(6 * 1024 * 1024, 1));
    const submitted = await call(server.baseUrl, "POST", "/v1/simulations", {
      key,
      body: bigResultJob(),
    });
    assert.equal(submitted.status, 202, submitted.text);
    const jobId = String(submitted.body.job_id);
    const job = await waitForStatus(server.baseUrl, key, jobId, ["COMPLETED", "FAILED"], 120_000);
    assert.equal(job.status, "FAILED", `a result that cannot fit was ${String(job.status)}`);
    assert.match(String(job.error_detail), /could not be stored/);
    assert.match(String(job.error_detail), /full, failing or unreachable/);
    assert.match(String(job.error_detail), /2 attempts/);
    assert.doesNotMatch(String(job.error_detail), /\/tmp|emsim-test|ENOSPC/);
    assert.deepEqual(filesUnder(results), [filler], "files were left behind");
    const download = await call(server.baseUrl, "GET", `/v1/simulations/${jobId}/results`, { key });
    assert.equal(download.status, 409);

    // The worker is not wedged: a job whose result fits completes, and h5py reads its file.
    const small = await call(server.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation(),
    });
    assert.equal(small.status, 202, small.text);
    const done = await waitForStatus(
      server.baseUrl,
      key,
      String(small.body.job_id),
      ["COMPLETED", "FAILED"],
      60_000,
    );
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
    const file = filesUnder(results).find((f) => f.endsWith(".h5"));
    assert.ok(file, "the completed job's file is in storage");
    const py = spawnSync(
      "/usr/bin/python3",
      ["-c", "import h5py,sys; f=h5py.File(sys.argv[1]); print(f['monitors/line/Ey'].shape)", file],
      { encoding: "utf8" },
    );
    if (py.status !== 0 && !/No module named/.test(py.stderr)) assert.fail(py.stderr);
  } finally {
    await server.kill("SIGKILL");
  }
});

test("a database on a full disk answers 503 'nothing was stored' and recovers", async () => {
  const dataDir = tempDir();
  const keyFile = join(tempDir(), "key");
  const server = await startServerProcess(
    await freePort(),
    dataDir,
    {
      EMSIM_EMBEDDED_WORKER: "false",
      EMSIM_MAX_ACTIVE_JOBS: "100000",
      EMSIM_RATE_LIMIT_PER_MINUTE: "0",
    },
    {
      tmpfs: [{ path: dataDir, sizeKiB: 4096 }],
      before: `${shellCli(["keys", "create", "--email", "db@example.com", "--name", "d", "--data-dir", dataDir])} > '${keyFile}'`,
    },
  );
  const filler = `/proc/${server.child.pid}/root${join(dataDir, "filler")}`;
  try {
    const key = readFileSync(keyFile, "utf8").trim();
    // Fill the disk to the last byte.
    const fd = openSync(filler, "w");
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, block);
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, "ENOSPC");
    } finally {
      closeSync(fd);
    }
    // The database may still have room in its write-ahead log: submit until it has none,
    // big jobs first, then small ones, so that even a one-page write finds no room.
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof call>> | null = null;
    for (const pad of [200_000, 20_000, 0]) {
      for (let i = 0; i < 200; i++) {
        const res = await call(server.baseUrl, "POST", "/v1/simulations", {
          key,
          body: smallSimulation({ metadata: { pad: "x".repeat(pad) } }),
        });
        if (res.status === 202) {
          accepted++;
          continue;
        }
        refused = res;
        break;
      }
    }
    assert.ok(refused, "the database never refused a write");
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error_code, "service_unavailable");
    assert.match(String(refused.body.detail), /nothing was stored/);
    assert.match(refused.headers.get("retry-after") ?? "", /^\d+$/);
    const health = await call(server.baseUrl, "GET", "/health");
    assert.equal(health.status, 503, health.text);
    assert.equal(health.body.database, "not_writable");
    // Reads still work, and exactly the accepted jobs exist.
    const listed = await call(server.baseUrl, "GET", "/v1/simulations?limit=100", { key });
    assert.equal(listed.status, 200, listed.text);
    const countAll = async () => {
      let n = 0;
      let cursor: string | null = null;
      do {
        const page = await call(
          server.baseUrl,
          "GET",
          `/v1/simulations?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
          { key },
        );
        n += (page.body.jobs as unknown[]).length;
        cursor = page.body.next_cursor as string | null;
      } while (cursor);
      return n;
    };
    assert.equal(await countAll(), accepted);

    // Space comes back: submissions and health recover without a restart.
    rmSync(filler);
    const again = await call(server.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation(),
    });
    assert.equal(again.status, 202, again.text);
    assert.equal(await countAll(), accepted + 1);
    await new Promise((r) => setTimeout(r, 1100)); // past the health probe's one-second memory
    const healthy = await call(server.baseUrl, "GET", "/health");
    assert.equal(healthy.status, 200, healthy.text);
  } finally {
    await server.kill("SIGKILL");
  }
});

test("a server whose log goes to a full disk goes on answering, and stays up", async () => {
  // /dev/full refuses every write with ENOSPC: the log of `emsim server > log` on a full disk.
  const server = await startServerProcess(
    await freePort(),
    tempDir(),
    { EMSIM_LOG_LEVEL: "info" },
    { stdoutTo: "/dev/full" },
  );
  try {
    for (let i = 0; i < 30; i++) {
      const health = await call(server.baseUrl, "GET", "/health", { timeoutMs: 5000 });
      assert.equal(health.status, 200, health.text);
    }
    const refused = await call(server.baseUrl, "GET", "/v1/simulations", { timeoutMs: 5000 });
    assert.equal(refused.status, 401, refused.text);
    assert.equal(server.child.exitCode, null, `the server exited: ${server.stderr()}`);
  } finally {
    await server.kill("SIGKILL");
  }
});

test("a server starts while its database takes no writes, and takes a dead worker's job back later", async () => {
  const dataDir = tempDir();
  // A job RUNNING for a worker of this host whose process is gone (killed with the server).
  const first = await startService({ dataDir, embeddedWorker: false });
  const key = await first.newKey("gone@example.com");
  const sub = await call(first.baseUrl, "POST", "/v1/simulations", {
    key,
    body: smallSimulation(),
  });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const gonePid = spawnSync("true").pid;
  const claimed = await first.service.stores.jobs.claimNextJob(
    `${hostname()}:${gonePid}:dead0000`,
    new Date().toISOString(),
  );
  assert.equal(claimed?.jobId, id);
  await first.close();

  // The next server's database refuses writes (its disk full) while it starts.
  let full = true;
  const second = await startService({ dataDir, heartbeatIntervalMs: 100 }, {}, (service) => {
    const jobs = service.stores.jobs;
    const recover = jobs.recoverJobsOfWorkers.bind(jobs);
    jobs.recoverJobsOfWorkers = (...args) => {
      if (full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      return recover(...args);
    };
  });
  try {
    const health = await call(second.baseUrl, "GET", "/health");
    assert.equal(health.status, 200, health.text);
    const running = await call(second.baseUrl, "GET", `/v1/simulations/${id}`, { key });
    assert.equal(running.body.status, "RUNNING");
    full = false;
    const done = await waitForStatus(second.baseUrl, key, id, ["COMPLETED", "FAILED"], 60_000);
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
  } finally {
    await second.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Sets a job's recorded heartbeat an hour back (its beats failed that long); returns when. */
function heartbeatAnHourAgo(svc: TestService, id: string): number {
  const db = (svc.service.stores as unknown as { database: { db: Database.Database } }).database.db;
  const anHourAgo = Date.now() - 3_600_000;
  db.prepare("UPDATE jobs SET heartbeat_at = ? WHERE job_id = ?").run(
    new Date(anHourAgo).toISOString(),
    id,
  );
  return anHourAgo;
}

test("after a spell without database writes, a server's sweep does not take its own running job", async () => {
  // Heartbeats every minute: nothing beats or sweeps during the test but the sweep it calls.
  const svc = await startService({ heartbeatIntervalMs: 60_000 });
  try {
    const key = await svc.newKey("spell@example.com");
    // A run of some seconds: a 3-D cross-section of 10 × 10 cells, a million steps at most.
    const spec = smallSimulation({
      domain: {
        size: [0.5e-6, 0.5e-6, 3e-6],
        resolution: 0.05e-6,
        boundary_conditions: ["periodic", "periodic", "pml"],
        pml_layers: 12,
      },
      fdtd_settings: { time_steps: 1_000_000, check_every_n: 1000, convergence_threshold: 0 },
    });
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: spec });
    assert.equal(sub.status, 202, sub.text);
    const id = String(sub.body.job_id);
    await waitForStatus(svc.baseUrl, key, id, ["RUNNING"], 30_000);
    // Its heartbeats failed for an hour (the disk was full): the row says so.
    const anHourAgo = heartbeatAnHourAgo(svc, id);
    const worker = svc.service.worker as unknown as {
      current: { session: { beatenAt: number } };
      sweepStale(): Promise<void>;
      silentWorkers: { staleCap: number | null; backAt: number | null };
    };
    // The sweeper past its first stale time (a server just started takes nothing back).
    worker.silentWorkers.staleCap = null;
    worker.silentWorkers.backAt = null;
    // … and the worker's session knows its last heartbeat was recorded then.
    worker.current.session.beatenAt = anHourAgo;
    await worker.sweepStale();
    const after = await call(svc.baseUrl, "GET", `/v1/simulations/${id}`, { key });
    assert.equal(after.body.status, "RUNNING", "the sweep took the server's own job");
    await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
  } finally {
    await svc.close();
  }
});

test("after a spell without database writes, a server's sweep does not take its own job while it stores the result", async () => {
  // Heartbeats every minute: nothing beats or sweeps during the test but the sweep it calls.
  const svc = await startService({ heartbeatIntervalMs: 60_000 });
  let release = () => {};
  try {
    const key = await svc.newKey("settling@example.com");
    const worker = svc.service.worker as unknown as {
      storage: { putFile(key: string, path: string): Promise<unknown> };
      sweepStale(): Promise<void>;
      settling: { beatenAt: number } | null;
      silentWorkers: { staleCap: number | null; backAt: number | null };
    };
    // The sweeper past its first stale time (a server just started takes nothing back).
    worker.silentWorkers.staleCap = null;
    worker.silentWorkers.backAt = null;
    // Storing the result waits until the test lets it go (a slow store, a full disk).
    const gate = new Promise<void>((resolve) => (release = resolve));
    let storing = () => {};
    const reached = new Promise<void>((resolve) => (storing = resolve));
    const putFile = worker.storage.putFile.bind(worker.storage);
    worker.storage.putFile = async (k, path) => {
      storing();
      await gate;
      return putFile(k, path);
    };
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation(),
    });
    assert.equal(sub.status, 202, sub.text);
    const id = String(sub.body.job_id);
    await reached;
    // Its heartbeats failed for an hour (the disk was full) while it stored the result.
    const anHourAgo = heartbeatAnHourAgo(svc, id);
    assert.ok(worker.settling, "the worker knows the job it is settling");
    worker.settling.beatenAt = anHourAgo;
    await worker.sweepStale();
    const during = await call(svc.baseUrl, "GET", `/v1/simulations/${id}`, { key });
    assert.equal(during.body.status, "RUNNING", "the sweep took the server's own job");
    release();
    const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"], 30_000);
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
    assert.equal(done.attempts, 1, "the job ran again");
  } finally {
    release();
    await svc.close();
  }
});
