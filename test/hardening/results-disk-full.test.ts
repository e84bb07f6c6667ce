/**
 * A results disk that is already full to the last byte, while the database (in the data
 * directory, another disk) still takes writes: audit findings F2 and F4. Each server runs in a
 * private mount namespace with a small tmpfs as its results folder (as in full-disk.test.ts),
 * which the test fills through /proc/<pid>/root.
 *
 * - F2: a job whose result file meets the full disk is a result not stored — retried, then
 *   FAILED with "could not be stored" — never a solver fault ("report job … to the
 *   operators") on its first attempt; no file is left behind.
 * - F4: a COMPLETED batch's results first asked for while the disk is full get 503
 *   service_unavailable with a detail and Retry-After, not 500; nothing is left under
 *   results/, and once there is room the same request gets the file, whose SHA-256 is the
 *   batch's checksum.
 * - F8: a result larger than the whole disk is refused at submission (422: it could never be
 *   stored); one larger than the disk's free space is refused before it is written, so its
 *   attempts never fill the disk (which the database, and every other job's result, may
 *   share); it is still retried, then FAILED as not stored.
 *
 * Mounting needs root (CI runs as root on Debian); elsewhere these tests are skipped.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  closeSync,
  openSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { shellCli, startServerProcess, type ServerProcess } from "../helpers/process.js";
import { bigResultJob } from "../helpers/simulations.js";
import {
  call,
  filesUnder,
  freePort,
  smallSimulation,
  tempDir,
  waitForStatus,
} from "../helpers/service.js";

const NEEDS_ROOT =
  process.getuid?.() === 0 ? false : "needs root to mount a tmpfs (unshare -m, mount)";

/** A server whose results folder is a small tmpfs of its own, and an API key for it. */
async function serverWithSmallResultsDisk(
  env: Record<string, string>,
  sizeKiB = 1024,
): Promise<{ server: ServerProcess; key: string; results: string }> {
  const dataDir = tempDir();
  const keyFile = join(tempDir(), "key");
  const keys = shellCli([
    "keys",
    "create",
    "--email",
    "full@example.com",
    "--name",
    "d",
    "--data-dir",
    dataDir,
  ]);
  const server = await startServerProcess(
    await freePort(),
    dataDir,
    { EMSIM_RATE_LIMIT_PER_MINUTE: "0", ...env },
    {
      tmpfs: [{ path: join(dataDir, "results"), sizeKiB }],
      before: `${keys} > '${keyFile}'`,
    },
  );
  const key = readFileSync(keyFile, "utf8").trim();
  return { server, key, results: `/proc/${server.child.pid}/root${join(dataDir, "results")}` };
}

/** Fills the disk of `path` to the last byte; returns the filler's path. */
function fillDisk(folder: string): string {
  const filler = join(folder, "filler");
  const fd = openSync(filler, "w");
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, "ENOSPC");
  } finally {
    closeSync(fd);
  }
  return filler;
}

test(
  "a result meeting a full results disk is retried, then FAILED as not stored",
  {
    skip: NEEDS_ROOT,
  },
  async () => {
    const { server, key, results } = await serverWithSmallResultsDisk({ EMSIM_MAX_ATTEMPTS: "2" });
    try {
      const filler = fillDisk(results);
      const submitted = await call(server.baseUrl, "POST", "/v1/simulations", {
        key,
        body: smallSimulation(),
      });
      assert.equal(submitted.status, 202, submitted.text);
      const jobId = String(submitted.body.job_id);
      const job = await waitForStatus(server.baseUrl, key, jobId, ["COMPLETED", "FAILED"], 120_000);
      assert.equal(job.status, "FAILED");
      const detail = String(job.error_detail);
      assert.doesNotMatch(detail, /internal error|report job/, "read as a solver fault");
      assert.match(detail, /could not be stored/);
      assert.match(detail, /2 attempts/);
      assert.equal(job.attempts, 2);
      assert.deepEqual(
        filesUnder(results).filter((f) => f !== filler),
        [],
        "files were left behind",
      );
    } finally {
      await server.kill("SIGKILL");
    }
  },
);

/** Waits until the batch has ended; returns its record. */
async function waitForBatch(baseUrl: string, key: string, id: string) {
  const end = Date.now() + 120_000;
  for (;;) {
    const res = await call(baseUrl, "GET", `/v1/batches/${id}`, { key });
    assert.equal(res.status, 200, res.text);
    if (["COMPLETED", "FAILED"].includes(String(res.body.status))) return res.body;
    if (Date.now() > end) throw new Error(`batch ${id} still ${String(res.body.status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test(
  "a batch's results asked for on a full results disk: 503 with a detail, then the file",
  {
    skip: NEEDS_ROOT,
  },
  async () => {
    const { server, key, results } = await serverWithSmallResultsDisk({});
    try {
      const thickness = { name: "thickness", path: "/structures/0/size/2", values: [3e-7, 5e-7] };
      const submitted = await call(server.baseUrl, "POST", "/v1/batches", {
        key,
        body: { simulation: smallSimulation(), parameters: [thickness] },
      });
      assert.equal(submitted.status, 202, submitted.text);
      const id = String(submitted.body.batch_id);
      assert.equal((await waitForBatch(server.baseUrl, key, id)).status, "COMPLETED");
      const jobFiles = filesUnder(results);

      const filler = fillDisk(results);
      const refused = await call(server.baseUrl, "GET", `/v1/batches/${id}/results`, { key });
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.error_code, "service_unavailable");
      assert.match(String(refused.body.detail), /disk/);
      assert.match(String(refused.body.detail), /full/);
      assert.doesNotMatch(String(refused.body.detail), /\/tmp|\/proc|ENOSPC/);
      assert.match(refused.headers.get("retry-after") ?? "", /^\d+$/);
      assert.equal(typeof refused.body.retry_after, "number");
      // Nothing half-written is left where the batch's file or its pieces would be.
      assert.deepEqual(filesUnder(results).sort(), [...jobFiles, filler].sort());
      const batch = await call(server.baseUrl, "GET", `/v1/batches/${id}`, { key });
      assert.equal(batch.body.checksum, null);

      // Room again: the same request builds and stores the file.
      rmSync(filler);
      const found = await call(server.baseUrl, "GET", `/v1/batches/${id}/results`, { key });
      assert.equal(found.status, 302, found.text);
      const download = await fetch(found.headers.get("location")!);
      assert.equal(download.status, 200);
      const bytes = Buffer.from(await download.arrayBuffer());
      const stored = await call(server.baseUrl, "GET", `/v1/batches/${id}`, { key });
      assert.equal(createHash("sha256").update(bytes).digest("hex"), stored.body.checksum);
    } finally {
      await server.kill("SIGKILL");
    }
  },
);

test(
  "a result larger than the disk's free space is refused before it fills the disk",
  {
    skip: NEEDS_ROOT,
  },
  async () => {
    // About 5 MB of result on an 8 MiB disk with 2 MiB left.
    const { server, key, results } = await serverWithSmallResultsDisk(
      { EMSIM_MAX_ATTEMPTS: "2" },
      8 * 1024,
    );
    try {
      const filler = join(results, "filler");
      writeFileSync(filler, Buffer.alloc(6 * 1024 * 1024, 1));
      const submitted = await call(server.baseUrl, "POST", "/v1/simulations", {
        key,
        body: bigResultJob(),
      });
      assert.equal(submitted.status, 202, submitted.text);
      const jobId = String(submitted.body.job_id);
      // The disk's free space, sampled while the job runs and is retried.
      let leastFree = Infinity;
      const sampler = setInterval(() => {
        const disk = statfsSync(results);
        leastFree = Math.min(leastFree, disk.bavail * disk.bsize);
      }, 10);
      let job: Record<string, unknown>;
      try {
        job = await waitForStatus(server.baseUrl, key, jobId, ["COMPLETED", "FAILED"], 120_000);
      } finally {
        clearInterval(sampler);
      }
      assert.equal(job.status, "FAILED");
      assert.match(String(job.error_detail), /could not be stored/);
      assert.match(String(job.error_detail), /2 attempts/);
      assert.ok(leastFree > 1024 * 1024, `the disk was filled to ${leastFree} bytes free`);
      // The worker's log (JSON lines on stdout) gives the cause of each attempt's refusal.
      const log = server.stdout() + server.stderr();
      const refusals = log.split("\n").filter((line) => line.includes("writing a result failed"));
      assert.equal(refusals.length, 2, log);
      for (const line of refusals) assert.match(line, /needs at least \d+ bytes/);
      assert.deepEqual(filesUnder(results), [filler], "files were left behind");
    } finally {
      await server.kill("SIGKILL");
    }
  },
);

test(
  "a result larger than the whole results disk is refused at submission",
  {
    skip: NEEDS_ROOT,
  },
  async () => {
    const { server, key } = await serverWithSmallResultsDisk({});
    try {
      for (const [path, body] of [
        ["/v1/simulations", bigResultJob()],
        [
          "/v1/batches",
          {
            simulation: bigResultJob(),
            parameters: [{ name: "t", path: "/fdtd_settings/time_steps", values: [200, 210] }],
          },
        ],
      ] as const) {
        const refused = await call(server.baseUrl, "POST", path, { key, body });
        assert.equal(refused.status, 422, refused.text);
        assert.match(refused.text, /monitors/);
        assert.match(refused.text, /more than the whole disk results are stored on \(1\.0 MiB\)/);
      }
      const listed = await call(server.baseUrl, "GET", "/v1/simulations", { key });
      assert.deepEqual(listed.body.jobs, [], "something was queued");
    } finally {
      await server.kill("SIGKILL");
    }
  },
);
