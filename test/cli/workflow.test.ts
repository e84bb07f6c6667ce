/**
 * The CLI as a user runs it (a child process from source) against a real service in this
 * process: 409 with and without --queue, the full `submit --wait --out` round trip with a
 * verified file, status/list/estimate, resumed downloads (a `.part` left behind, and a
 * connection cut mid-body by a proxy), plot and inspect of the result, and a corrupted file
 * refused. Storage traffic goes through a recording proxy to see Range and Authorization.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EmsimClient, type JobRecord } from "../../src/client/index.js";
import { smallSimulation, startService, tempDir, type TestService } from "../helpers/service.js";
import { startRecordingProxy, storedResultPath, type RecordingProxy } from "../client/helpers.js";
import { crossSectionSimulation } from "../helpers/simulations.js";
import { runPlot } from "../../src/cli/commands/plot.js";
import { captureIo, coloursIn, decodePng, runCli } from "./helpers.js";

let svc: TestService;
let proxy: RecordingProxy;
let client: EmsimClient;
let dir: string;
let env: Record<string, string>;
let simFile: string;
/** The job the round trip ran, and its verified result file. */
let done: { job: JobRecord; path: string; bytes: Buffer };

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const storageRequests = () => proxy.requests.filter((r) => r.url.startsWith("/storage/"));

before(async () => {
  proxy = await startRecordingProxy();
  svc = await startService({ storageUrl: `${proxy.url}/storage` });
  proxy.target = svc.baseUrl;
  const key = await svc.newKey("cli@example.com");
  client = new EmsimClient({ baseUrl: svc.baseUrl, apiKey: key });
  dir = tempDir("emsim-cli-");
  env = { EMSIM_BASE_URL: svc.baseUrl, EMSIM_API_KEY: key, EMSIM_CONFIG_DIR: dir };
  simFile = join(dir, "plane.json");
  writeFileSync(simFile, JSON.stringify(crossSectionSimulation(), null, 2));
});
after(async () => {
  await svc.close();
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
});

test("409 names the active job; --queue waits for it, then --wait runs and downloads", async () => {
  // A job that would run for a long time holds the account's one active slot.
  const blocker = await client.submit(
    smallSimulation({
      fdtd_settings: { time_steps: 1_000_000, convergence_threshold: 0 },
    }) as never,
  );

  // With --json the error is an object on stdout; the message is on stderr either way.
  const refused = await runCli(["submit", simFile, "--json"], env);
  assert.equal(refused.code, 5, refused.stderr);
  assert.match(refused.stderr, /emsim: A simulation is already running/);
  assert.match(refused.stderr, new RegExp(`Active job: ${blocker.job_id}; retry in about \\d+ s`));
  assert.match(refused.stderr, /--queue/);
  const body = JSON.parse(refused.stdout) as { error: Record<string, unknown>; exit_code: number };
  assert.equal(body.exit_code, 5);
  assert.equal(body.error.status, 409);
  assert.equal(body.error.error_code, "simulation_already_running");
  assert.equal(body.error.active_job_id, blocker.job_id);

  // --queue: once it says it is waiting, end the blocker; the CLI then gets in.
  const out = join(dir, "r.h5");
  let cancelled = false;
  const run = await runCli(["submit", simFile, "--queue", "--wait", "--out", out], env, {
    onStderr: (soFar) => {
      if (!cancelled && /is active; waiting up to \d+ s/.test(soFar)) {
        cancelled = true;
        void client.cancel(blocker.job_id);
      }
    },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.ok(cancelled, "the CLI said it was waiting for the active job");
  assert.match(run.stderr, new RegExp(`job ${blocker.job_id} is active`));
  // Progress on a non-TTY: plain lines (status, step, percent, change, elapsed, ETA).
  assert.match(run.stderr, /job [0-9a-f]{8} (QUEUED|RUNNING)/);
  assert.match(run.stderr, /COMPLETED in [\d.]+ s, \d+ steps \(converged\)/);
  assert.match(run.stderr, /wrote .*r\.h5 \([\d.]+ KiB, sha256 [0-9a-f]{12}… verified\)/);
  assert.equal(run.stdout.trim(), out);

  const jobs = (await client.list({ limit: 5 })).jobs;
  const job = jobs[0]!;
  assert.equal(job.status, "COMPLETED");
  assert.notEqual(job.job_id, blocker.job_id);
  const bytes = readFileSync(out);
  assert.equal(sha256(bytes), job.checksum);
  assert.ok(!existsSync(`${out}.part`));
  assert.ok(storageRequests().every((r) => r.headers.authorization === undefined));
  done = { job, path: out, bytes };
});

test("status, list and estimate print readable summaries", async () => {
  const id = done.job.job_id;
  const [status, list, estimate] = await Promise.all([
    runCli(["status", id], env),
    runCli(["list", "--limit", "5"], env),
    runCli(["estimate", simFile], env),
  ]);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, new RegExp(`job: +${id}`));
  assert.match(status.stdout, /status: +COMPLETED/);
  assert.match(status.stdout, /checksum: +sha256 [0-9a-f]{64}/);
  assert.match(status.stdout, /solver: +\d+ of 3000 steps, converged at step \d+/);

  assert.equal(list.code, 0, list.stderr);
  const lines = list.stdout.trim().split("\n");
  assert.match(lines[0]!, /^JOB ID +STATUS +CREATED +DURATION/);
  assert.ok(lines.some((l) => l.startsWith(id) && l.includes("COMPLETED")));
  assert.ok(
    lines.some((l) => l.includes("FAILED") && /cancel/i.test(l)),
    list.stdout,
  );

  assert.equal(estimate.code, 0, estimate.stderr);
  assert.match(
    estimate.stdout,
    /grid: +16 × 1 × 70 cells with PML \(16 × 1 × 50 inside the domain\)/,
  );
  assert.match(estimate.stdout, /cells: +1,120/);
  assert.match(estimate.stdout, /run time: +at most about/);
});

test("download resumes a .part file and a connection cut mid-body, without the API key", async () => {
  const id = done.job.job_id;
  const half = Math.floor(done.bytes.length / 2);
  const partOut = join(dir, "part.h5");
  writeFileSync(`${partOut}.part`, done.bytes.subarray(0, half));
  let before = storageRequests().length;
  const resumed = await runCli(["download", id, "--out", partOut, "--json"], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const partRanges = storageRequests()
    .slice(before)
    .map((r) => r.headers.range);
  assert.deepEqual(
    partRanges,
    [`bytes=${half}-`],
    `${JSON.stringify(partRanges)}\n${resumed.stderr}`,
  );
  assert.match(resumed.stderr, /resumed at/);
  // snake_case, as the API's objects: the job, and the bytes taken over from the .part file.
  const taken = JSON.parse(resumed.stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(taken).sort(), [
    "bytes",
    "job_id",
    "path",
    "resumed_from_bytes",
    "sha256",
  ]);
  assert.deepEqual([taken.job_id, taken.path, taken.resumed_from_bytes], [id, partOut, half]);
  assert.ok(readFileSync(partOut).equals(done.bytes));

  const cutOut = join(dir, "cut.h5");
  const cutAt = Math.floor(done.bytes.length / 4);
  proxy.cutNext("/storage/", 1, cutAt);
  before = storageRequests().length;
  const cut = await runCli(["download", id, "--out", cutOut, "--json"], env);
  assert.equal(cut.code, 0, cut.stderr);
  const requests = storageRequests().slice(before);
  // The second request continues where the file on disk stopped: at most the bytes the proxy
  // let through (a stream that errors may drop chunks it had not handed over yet).
  const ranges = requests.map((r) => r.headers.range);
  assert.equal(ranges.length, 2, JSON.stringify(ranges));
  assert.equal(ranges[0], undefined);
  const resumedAt = Number(/^bytes=(\d+)-$/.exec(ranges[1] ?? "")?.[1]);
  assert.ok(resumedAt > 0 && resumedAt <= cutAt, `${ranges[1]} after a cut at ${cutAt}`);
  assert.ok(requests.every((r) => r.headers.authorization === undefined));
  const file = JSON.parse(cut.stdout) as { sha256: string; bytes: number };
  assert.equal(file.sha256, done.job.checksum);
  assert.ok(readFileSync(cutOut).equals(done.bytes));
});

test("a download that stops after its retries says how to resume, and the same command resumes", async () => {
  const id = done.job.job_id;
  const out = join(dir, "stopped.h5");
  const half = Math.floor(done.bytes.length / 2);
  writeFileSync(`${out}.part`, done.bytes.subarray(0, half));
  proxy.failNext("/storage/", 50, 503); // every try refused: no progress, the retries spent
  const stopped = await runCli(["download", id, "--out", out], env);
  proxy.failNext("/storage/", 0, 503);
  assert.notEqual(stopped.code, 0, stopped.stderr);
  assert.match(
    stopped.stderr,
    new RegExp(`run the same command again to resume from .*stopped\\.h5\\.part`),
  );
  const again = await runCli(["download", id, "--out", out], env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /resumed at/);
  assert.ok(readFileSync(out).equals(done.bytes));
});

test("plot writes a PNG heat map; inspect lists the monitors", async () => {
  const png = join(dir, "r.png");
  const real = join(dir, "real.png");
  const [plot, plotReal, inspect] = await Promise.all([
    runCli(["plot", done.path, "--out", png], env),
    runCli(
      [
        "plot",
        done.path,
        "--monitor",
        "xz",
        "--component",
        "Ex",
        "--part",
        "real",
        "--wavelength",
        "1550nm",
        "--out",
        real,
        "--json",
      ],
      env,
    ),
    runCli(["inspect", done.path], env),
  ]);
  assert.equal(plot.code, 0, plot.stderr);
  assert.match(plot.stderr, /plotted \|Ey\| of monitor 'xz' at 1\.55 µm/);
  const image = decodePng(readFileSync(png));
  // The monitor is 0.64 µm × 2 µm: a tall plot, drawn to scale.
  assert.ok(image.height >= 400 && image.width >= 300, `${image.width} × ${image.height}`);
  assert.ok(image.height > image.width, `${image.width} × ${image.height}`);
  // The plot area fills the middle of the image; the silicon block makes it anything but
  // uniform.
  const middle = coloursIn(
    image,
    Math.floor(image.width * 0.25),
    Math.floor(image.height * 0.3),
    Math.floor(image.width * 0.6),
    Math.floor(image.height * 0.7),
  );
  assert.ok(middle.size > 20, `${middle.size} colours in the plot area`);

  assert.equal(plotReal.code, 0, plotReal.stderr);
  const info = JSON.parse(plotReal.stdout) as Record<string, unknown>;
  assert.equal(info.component, "Ex");
  assert.equal(info.part, "real");
  assert.deepEqual(info.axes, ["x", "z"]);
  assert.ok(decodePng(readFileSync(real)).width > 0);

  // The refusals, run in this process (they need no server and no new child process).
  const point = captureIo();
  assert.equal(await runPlot([done.path, "--monitor", "probe"], point.io), 1);
  assert.match(point.stderr(), /monitor 'probe' records a single point/);
  const missing = captureIo();
  assert.equal(await runPlot([done.path, "--monitor", "nope"], missing.io), 2);
  assert.match(missing.stderr(), /no monitor 'nope' in .*; it has probe, xz, zline/);
  const wrongWavelength = captureIo();
  assert.equal(await runPlot([done.path, "--wavelength", "1.3um"], wrongWavelength.io), 2);
  assert.match(wrongWavelength.stderr(), /did not record 1\.3 µm; it has 1\.55 µm/);
  await assert.rejects(
    runPlot([done.path, "--part", "phase"], captureIo().io),
    /--part must be one of abs, real, imag/,
  );

  assert.equal(inspect.code, 0, inspect.stderr);
  assert.match(inspect.stdout, new RegExp(`job ${done.job.job_id}`));
  // The set-up and the solver report in the dashboard's words (src/plot/job-setup.ts,
  // src/plot/run-report.ts): labels, units, rounding, the time split by phase.
  assert.match(inspect.stdout, /^Setup\ndomain: +[\d.]+ × [\d.]+ × [\d.]+ µm$/m);
  assert.match(inspect.stdout, /^source: +plane wave, λ = 1\.55 µm, TE, direction/m);
  assert.match(inspect.stdout, /^Solver report\nsteps: +[\d,]+ of 3,000, converged at step /m);
  assert.match(inspect.stdout, /^time split: +set-up [\d.]+ m?s \(\d+ %\): grid and monitors /m);
  assert.match(inspect.stdout, /^ +stepping [\d.]+ m?s \(\d+ %\): kernel [\d.]+ m?s/m);
  assert.match(inspect.stdout, /^speed: +[\d.,]+ Mcell\/s while stepping$/m);
  assert.doesNotMatch(inspect.stdout, /\d\.\d{7,}/, "an unrounded number");
  assert.match(inspect.stdout, /Si +12\.08\d+/);
  assert.match(inspect.stdout, /xz +plane +16 × 1 × 50 +Ex Ey Ez +1\.55/);
  assert.match(inspect.stdout, /probe +point +1 × 1 × 1 +Ey/);
  assert.match(inspect.stdout, /Point monitor 'probe'/);
});

test("a corrupted download is refused: exit 8, file kept as .corrupt", async () => {
  const stored = storedResultPath(svc.config.dataDir, done.job.job_id);
  const bytes = readFileSync(stored);
  bytes[Math.floor(bytes.length / 2)] ^= 0x01;
  writeFileSync(stored, bytes);
  const out = join(dir, "bad.h5");
  const res = await runCli(["download", done.job.job_id, "--out", out], env);
  assert.equal(res.code, 8, res.stderr);
  assert.match(res.stderr, /checksum mismatch: refusing the download of job/);
  assert.match(res.stderr, new RegExp(`expected sha256 ${done.job.checksum}`));
  assert.match(res.stderr, /kept aside as .*bad\.h5\.corrupt/);
  assert.ok(!existsSync(out));
  assert.ok(readFileSync(`${out}.corrupt`).equals(bytes));
});
