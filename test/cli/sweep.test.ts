/**
 * `emsim sweep` and `emsim batch` as a user runs them (a child process from source) against a
 * real service in this process: a sweep followed with a progress bar over the batch to its one
 * verified file, a batch request file with more parameters zipped onto it, a batch left
 * running that other submissions meet as a 409 naming it, shown, cancelled and waited for;
 * and the mistakes caught before anything is sent (usage 2, invalid request 6).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import h5wasm, { type Dataset } from "h5wasm/node";
import { EmsimClient, type BatchRecord } from "../../src/client/index.js";
import { runSweep } from "../../src/cli/commands/sweep.js";
import { runBatch } from "../../src/cli/commands/batch.js";
import {
  longSimulation,
  smallSimulation,
  startService,
  tempDir,
  type TestService,
} from "../helpers/service.js";
import { captureIo, runCli } from "./helpers.js";

let svc: TestService;
let client: EmsimClient;
let dir: string;
let env: Record<string, string>;
let simFile: string;

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

before(async () => {
  svc = await startService();
  const key = await svc.newKey("cli-sweep@example.com");
  client = new EmsimClient({ baseUrl: svc.baseUrl, apiKey: key });
  dir = tempDir("emsim-cli-sweep-");
  env = { EMSIM_BASE_URL: svc.baseUrl, EMSIM_API_KEY: key, EMSIM_CONFIG_DIR: dir };
  simFile = join(dir, "slab.json");
  writeFileSync(simFile, JSON.stringify(smallSimulation(), null, 2));
});
after(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

test("sweep --wait: a progress bar over the batch, then its one verified file", async () => {
  const out = join(dir, "sweep.h5");
  const run = await runCli(
    ["sweep", simFile, "--param", "/structures/0/size/2=0.3e-6:0.7e-6:3", "--wait", "--out", out],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), out);
  const id = /Submitted batch ([0-9a-f-]{36}): 3 jobs\./.exec(run.stderr)?.[1];
  assert.ok(id, run.stderr);
  // Plain lines on a pipe: the batch's state, then its verdict and the verified file.
  assert.match(run.stderr, /batch [0-9a-f]{8} (QUEUED|RUNNING) /);
  assert.match(run.stderr, /batch [0-9a-f]{8} COMPLETED: 3 of 3 jobs completed, elapsed/);
  assert.match(run.stderr, /writes the batch's result file/);
  assert.match(run.stderr, /wrote .*sweep\.h5 \([\d.]+ KiB, sha256 [0-9a-f]{12}… verified\)/);

  const batch = await client.getBatch(id);
  assert.equal(sha256(readFileSync(out)), batch.checksum);
  assert.equal(batch.parameters[0]!.name, "structures_0_size_2", "named after its pointer");
  await h5wasm.ready;
  const h5 = new h5wasm.File(out, "r");
  try {
    const scale = h5.get("monitors/line/structures_0_size_2") as Dataset;
    const values = Array.from(scale.value as Float64Array);
    assert.equal(values.length, 3);
    [0.3e-6, 0.5e-6, 0.7e-6].forEach((v, i) => assert.ok(Math.abs(values[i]! - v) < 1e-18));
  } finally {
    h5.close();
  }
  // inspect and plot read one job's file: a batch's says so and where to read it instead.
  for (const command of ["inspect", "plot"]) {
    const r = await runCli([command, out], env);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /is a batch's file .*read a batch's with the Python client's emsim\.load/,
    );
  }
});

test("a batch request file takes more --param, named by --name and zipped with --zip", async () => {
  const file = join(dir, "batch.json");
  writeFileSync(
    file,
    JSON.stringify({
      simulation: smallSimulation(),
      parameters: [{ name: "t", path: "/structures/0/size/2", values: [0.3e-6, 0.5e-6] }],
      metadata: { from: "file" },
    }),
  );
  const out = join(dir, "zip.h5");
  const run = await runCli(
    [
      ...["sweep", file, "--param", "/source/wavelength=1.5e-6,1.6e-6", "--name", "wl"],
      ...["--zip", "--wait", "--quiet", "--json", "--out", out],
    ],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "", "--quiet: nothing on stderr");
  const { batch, file: saved } = JSON.parse(run.stdout) as {
    batch: BatchRecord;
    file: { path: string; sha256: string };
  };
  assert.equal(batch.status, "COMPLETED");
  assert.equal(batch.combine, "zip");
  // The zip's other parameter is in the record too (it named only t).
  assert.deepEqual(batch.parameters, [
    {
      name: "t",
      path: "/structures/0/size/2",
      values: [0.3e-6, 0.5e-6],
      along: [{ name: "wl", path: "/source/wavelength", values: [1.5e-6, 1.6e-6] }],
    },
  ]);
  assert.deepEqual(
    batch.jobs.map((j) => j.parameters),
    [
      { t: 0.3e-6, wl: 1.5e-6 },
      { t: 0.5e-6, wl: 1.6e-6 },
    ],
  );
  assert.deepEqual(batch.metadata, { from: "file" });
  assert.equal(saved.path, out);
  assert.equal(saved.sha256, batch.checksum);
});

test("a group the variants hold in different shapes is not stacked, and sweep --out says so", async () => {
  const out = join(dir, "spans.h5");
  const run = await runCli(
    ["sweep", simFile, "--param", "/monitors/0/size/2=1e-6,2e-6", "--wait", "--out", out],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /emsim: warning: monitors\/line is not stacked: .*; each job's own result file has it\n/,
  );
  await h5wasm.ready;
  const h5 = new h5wasm.File(out, "r");
  try {
    assert.equal(h5.get("monitors/line"), null, "left out of the file, as the warning says");
  } finally {
    h5.close();
  }
});

test("without --wait: the batch's id; a 409 names it; emsim batch shows, cancels and waits", async () => {
  const longFile = join(dir, "long.json");
  writeFileSync(longFile, JSON.stringify(longSimulation()));
  const sweep = await runCli(["sweep", longFile, "--param", "/structures/0/size/2=2e-7,4e-7"], env);
  assert.equal(sweep.code, 0, sweep.stderr);
  const id = sweep.stdout.trim();
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.match(sweep.stderr, new RegExp(`Follow it with 'emsim batch ${id} --wait'`));

  const refused = await runCli(["submit", simFile], env);
  assert.equal(refused.code, 5, refused.stderr);
  assert.match(refused.stderr, new RegExp(`Active batch: ${id} \\(now at job [0-9a-f-]{36}\\)`));

  const [shown, early] = await Promise.all([
    runCli(["batch", id], env),
    runCli(["batch", id, "--out", join(dir, "early.h5")], env),
  ]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, new RegExp(`batch: +${id}`));
  assert.match(shown.stdout, /status: +(QUEUED|RUNNING)/);
  assert.match(shown.stdout, /sweep: +structures_0_size_2 = 2e-7, 4e-7/);
  assert.match(shown.stdout, /^#\s+JOB ID\s+STATUS\s+STRUCTURES_0_SIZE_2\s+ERROR$/m);
  assert.equal(early.code, 5, "no file before the batch has ended");
  assert.match(early.stderr, /results_not_ready|is (QUEUED|RUNNING)/);

  const cancel = await runCli(["batch", id, "--cancel"], env);
  assert.equal(cancel.code, 0, cancel.stderr);
  assert.match(cancel.stdout, /cancellation requested: batch/);
  const waited = await runCli(["batch", id, "--wait"], env);
  assert.equal(waited.code, 10, "every job FAILED");
  assert.match(waited.stdout, /status: +FAILED/);
  assert.match(waited.stdout, /jobs: +2: 2 FAILED/);
  assert.match(waited.stderr, /batch [0-9a-f]{8} FAILED: 0 of 2 jobs completed, 2 FAILED/);
  // Cancelling it again, alone, exits 5 as `emsim cancel` does of a finished job (was 0).
  const again = await runCli(["batch", id, "--cancel"], env);
  assert.equal(again.code, 5, again.stderr);
  assert.match(again.stderr, /already finished/);

  const unknown = await runCli(["batch", "00000000-0000-4000-8000-000000000000"], env);
  assert.equal(unknown.code, 4);
  assert.match(unknown.stderr, /not found: No batch with id/);
});

test("estimate on a batch request file: the whole sweep's jobs and run time; an invalid one exits 6", async () => {
  const file = join(dir, "estimate-batch.json");
  const parameters = [
    { name: "t", path: "/structures/0/size/2", values: [0.3e-6, 0.5e-6, 0.7e-6] },
  ];
  writeFileSync(file, JSON.stringify({ simulation: smallSimulation(), parameters }));
  const text = await runCli(["estimate", file], env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^jobs: +3 \(one per variant\)$/m);
  assert.match(text.stdout, /^run time: +about \d+:\d\d in all/m);
  const json = await runCli(["estimate", file, "--json"], env);
  assert.equal(json.code, 0, json.stderr);
  const e = JSON.parse(json.stdout) as { job_count: number; time_steps: number };
  assert.equal(e.job_count, 3);
  const one = await runCli(["estimate", simFile, "--json"], env);
  assert.equal(e.time_steps, 3 * (JSON.parse(one.stdout) as { time_steps: number }).time_steps);

  writeFileSync(
    file,
    JSON.stringify({
      simulation: smallSimulation(),
      parameters: [{ name: "t", path: "/structures/9/size/2", values: [1e-7] }],
    }),
  );
  const bad = await runCli(["estimate", file], env);
  assert.equal(bad.code, 6, bad.stderr);
  assert.match(bad.stderr, /is not a valid batch request:[\s\S]*points to nothing/);
});

test("mistakes are caught before anything is sent: usage 2, an invalid batch 6", async () => {
  const usage = [
    [[simFile], /sweep needs a parameter: --param POINTER=START:STOP:POINTS/],
    [[simFile, "--param", "structures/0=1"], /cannot read --param 'structures\/0=1'/],
    [[simFile, "--param", "/a=0:1:x"], /START:STOP:POINTS takes two numbers/],
    [[simFile, "--param", "/a=1", "--out", "x.h5"], /--out needs --wait/],
    [[simFile, "--param", "/a=1", "--name", "a", "--name", "b"], /2 --name options for 1/],
  ] as const;
  for (const [args, message] of usage) {
    await assert.rejects(runSweep([...args], captureIo().io), message);
  }
  await assert.rejects(runBatch([], captureIo().io), /usage: emsim batch <batch id>/);

  const invalid = [
    [
      ["/structures/9/size/2=1e-7"],
      /parameters\[0\]\.path: "\/structures\/9\/size\/2" points to nothing/,
    ],
    [
      ["/structures/0/size/2=3e-7,-1"],
      /variants\[1\]\.structures\[0\]\.size\[2\]: .*\(parameters\[0\] "structures_0_size_2" = -1\)/,
    ],
    [["/source/wavelength=1.5e-6", "--name", "wavelength"], /parameters\[0\]\.name: "wavelength"/],
  ] as const;
  for (const [[param, ...rest], message] of invalid) {
    const cap = captureIo();
    const code = await runSweep([simFile, "--param", param, ...rest], cap.io);
    assert.equal(code, 6, cap.stderr());
    assert.match(cap.stderr(), /slab\.json with its --param options is not a valid batch request:/);
    assert.match(cap.stderr(), message);
  }
});
