/**
 * Every CLI failure has its own exit code and a message that says what to do: usage (2),
 * no or rejected key (3), unknown job (4), invalid request locally and on the server (6),
 * server not reachable (7); 409 (5) and checksum (8) are in workflow.test.ts. Also `login`:
 * the profile it writes (mode 0600), and environment variables overriding it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  freePort,
  smallSimulation,
  startService,
  tempDir,
  type TestService,
} from "../helpers/service.js";
import { runDownload } from "../../src/cli/commands/download.js";
import { runEstimate } from "../../src/cli/commands/estimate.js";
import { runList } from "../../src/cli/commands/list.js";
import { runSubmit } from "../../src/cli/commands/submit.js";
import { captureIo, ENTRY, runCli } from "./helpers.js";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

let svc: TestService;
let key: string;
let dir: string;
let env: Record<string, string>;

before(async () => {
  svc = await startService();
  key = await svc.newKey("errors@example.com");
  dir = tempDir("emsim-cli-errors-");
  env = { EMSIM_BASE_URL: svc.baseUrl, EMSIM_API_KEY: key, EMSIM_CONFIG_DIR: dir };
});
after(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

test("usage mistakes exit 2 with the reason and the command's help", async () => {
  const noFile = await runCli(["submit"], env);
  assert.equal(noFile.code, 2);
  assert.match(noFile.stderr, /emsim: submit takes one simulation file/);
  assert.match(noFile.stderr, /emsim submit sim\.json \[--wait\]/); // the command's lines follow
  assert.doesNotMatch(noFile.stderr, /emsim drc/); // not every command's
  assert.match(noFile.stderr, /'emsim help' lists every command/);
  const unknown = await runCli(["frobnicate"], env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command 'frobnicate'[\s\S]*emsim drc/); // the whole list
  // More of the same, in this process: the command throws the UsageError main turns into 2.
  await assert.rejects(
    runList(["--limit", "0"], captureIo().io),
    /--limit must be an integer 1–100, got '0'/,
  );
  await assert.rejects(
    runList(["--status", "done"], captureIo().io),
    /--status must be one of QUEUED/,
  );
  await assert.rejects(
    runSubmit(["a.json", "--out", "r.h5"], captureIo().io),
    /--out needs --wait/,
  );
  await assert.rejects(runDownload([], captureIo().io), /usage: emsim download <job id>/);
});

test("--help after any command prints that command's lines and exits 0, doing nothing", async () => {
  for (const [command, line] of [
    ["submit", /emsim submit sim\.json/],
    ["list", /emsim list \[--limit N\]/],
    ["keys", /emsim keys create[\s\S]*emsim keys revoke/],
    ["download", /emsim download ID/],
  ] as const) {
    const r = await runCli([command, "--help"], env);
    assert.equal(r.code, 0, `${command}: ${r.stderr}`);
    assert.match(r.stdout, line);
    assert.doesNotMatch(r.stdout, /Fabrication/);
    assert.match(r.stdout, /take --json/, "a command's help says --json too");
  }
  // The options cli.md lists for submit are in its help (--quiet and --skip-validation were not).
  const submit = await runCli(["submit", "--help"], env);
  assert.match(submit.stdout, /--quiet\] \[--skip-validation\]/);
});

test("--version prints package.json's version", async () => {
  const version = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
  ).version;
  for (const flag of ["--version", "version"]) {
    const r = await runCli([flag], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `emsim ${version}\n`);
  }
});

test("output piped into a reader that stops early (| head) ends quietly, with no stack", async () => {
  // 66 kB of JSON, more than the pipe holds: the CLI is still writing when head has gone.
  const example = join(ROOT, "examples/slab-thickness-sweep.json");
  const cli = [process.execPath, ...ENTRY, "preview", example, "--json"].join(" ");
  const r = spawnSync("bash", ["-c", `${cli} | head -c 10 > /dev/null; exit \${PIPESTATUS[0]}`], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(r.stderr, "");
  assert.equal(r.status, 0);
});

test("an input file that is not there, or is a folder, is exit 2 saying so (was ENOENT, exit 1)", async () => {
  const cases: [string[], RegExp][] = [
    [
      ["drc", join(dir, "nofile.gds"), "--pdk", "siepic_ebeam"],
      /cannot read .*nofile\.gds: no such file/,
    ],
    [["recipe", dir, "--pdk", "siepic_ebeam"], /cannot read .*: it is a folder/],
    [["estimate", join(dir, "nofile.json")], /cannot read .*nofile\.json: no such file/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args, env);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});

test("a batch file given to submit points to sweep; a file with a byte-order mark is read", async () => {
  const batchFile = join(ROOT, "examples/slab-thickness-sweep.json");
  const r = await runCli(["submit", batchFile], env);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /is a batch request \(a sweep\): run 'emsim sweep .*slab-thickness-sweep\.json'/,
  );
  const bom = join(dir, "bom.json");
  writeFileSync(bom, `\uFEFF${JSON.stringify(smallSimulation())}`);
  const estimate = await runCli(["estimate", bom], env);
  assert.equal(estimate.code, 0, estimate.stderr);
});

test("a usage error under --json is a JSON error on stdout too, as every other error", async () => {
  for (const args of [
    ["list", "--limit", "0", "--json"],
    ["submit", "--json"],
    ["submit", "x.json", "--bogus", "--json"],
  ]) {
    const r = await runCli(args, env);
    assert.equal(r.code, 2, args.join(" "));
    const out = JSON.parse(r.stdout) as {
      error: { error_code: string; detail: string };
      exit_code: number;
    };
    assert.equal(out.exit_code, 2);
    assert.equal(out.error.error_code, "usage");
    assert.ok(r.stderr.includes(out.error.detail), r.stderr);
  }
});

test("an output file that cannot be written is refused before any work: exit 2", async () => {
  const missing = join(dir, "no-such-folder", "r.h5");
  const job = "00000000-0000-4000-8000-000000000000";
  const simFile = join(dir, "small.json");
  writeFileSync(simFile, JSON.stringify(smallSimulation()));
  const cases: [string[], RegExp][] = [
    [
      ["submit", simFile, "--wait", "--out", missing],
      /--out .*the folder .*no-such-folder does not exist/,
    ],
    [["download", job, "--out", dir], /--out .*that is a folder; name the file to write/],
    [["sparams", job, "--plot", missing], /--plot .*does not exist/],
    [["modes", simFile, "--plane", "z=0", "--png", missing], /--png .*does not exist/],
    // A folder that does not exist yet, named with a trailing slash: the job ran, then ENOENT.
    [
      ["submit", simFile, "--wait", "--out", `${join(dir, "new-folder")}/`],
      /--out .*new-folder\/: names a folder; name the file to write/,
    ],
    [["sparams", job, "--plot", "new-folder/"], /--plot new-folder\/: names a folder/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args, env);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  // Nothing was submitted: the job list is as empty as before.
  const list = await runCli(["list", "--json"], env);
  assert.deepEqual((JSON.parse(list.stdout) as { jobs: unknown[] }).jobs, []);
});

test("plot and inspect of a missing file, a folder or a non-HDF5 file: one line, exit 2", async () => {
  const text = join(dir, "notes.h5");
  writeFileSync(text, "not an HDF5 file\n");
  for (const [file, reason] of [
    [join(dir, "missing.h5"), "no such file"],
    [dir, "not a file"],
    [text, "not an HDF5 file"],
  ] as const) {
    for (const command of ["inspect", "plot"]) {
      const args =
        command === "plot" ? [command, file, "--out", join(dir, "x.png")] : [command, file];
      const r = await runCli(args, env);
      assert.equal(r.code, 2, `${command} ${file}: ${r.stderr}`);
      assert.equal(r.stderr.trim(), `emsim: cannot open ${file}: ${reason}`);
    }
  }
});

test("no key, or a rejected key, exits 3 and says how to fix it", async () => {
  const [none, malformed] = await Promise.all([
    runCli(["list"], { EMSIM_BASE_URL: svc.baseUrl, EMSIM_CONFIG_DIR: join(dir, "empty") }),
    runCli(["status", "x", "--json"], { ...env, EMSIM_API_KEY: "not-a-key" }),
  ]);
  assert.equal(none.code, 3);
  assert.match(none.stderr, /no API key: set EMSIM_API_KEY, or run 'emsim login'/);
  assert.equal(malformed.code, 3);
  assert.match(malformed.stderr, /authentication failed: The API key format is invalid\./);
  assert.match(malformed.stderr, /run 'emsim login'/);
  const body = JSON.parse(malformed.stdout) as { error: Record<string, unknown> };
  assert.equal(body.error.status, 401);
  assert.equal(body.error.error_code, "invalid_api_key_format");
});

test("an unknown job exits 4", async () => {
  const res = await runCli(["status", "00000000-0000-4000-8000-000000000000"], env);
  assert.equal(res.code, 4);
  assert.match(
    res.stderr,
    /not found: No simulation job with id '00000000-0000-4000-8000-000000000000'/,
  );
});

test("invalid requests exit 6 and list the field errors, locally and from the server", async () => {
  const bad = smallSimulation();
  (bad.domain as Record<string, unknown>).resolution = -1e-9;
  (bad.source as Record<string, unknown>).polarization = "circular";
  const badFile = join(dir, "bad.json");
  writeFileSync(badFile, JSON.stringify(bad));
  const notJson = join(dir, "broken.json");
  writeFileSync(notJson, "{ solver: fdtd");
  const [local, server] = await Promise.all([
    runCli(["submit", badFile], env),
    runCli(["submit", badFile, "--skip-validation"], env),
  ]);
  // Files that cannot be read fail before any request: checked in this process.
  const broken = captureIo();
  assert.equal(await runEstimate([notJson], broken.io), 6);
  assert.match(broken.stderr(), /broken\.json is not valid JSON/);
  const missing = captureIo();
  assert.equal(await runSubmit([join(dir, "nope.json")], missing.io), 2);
  assert.match(missing.stderr(), /cannot read .*nope\.json: no such file/);
  assert.equal(local.code, 6);
  assert.match(local.stderr, /bad\.json is not a valid simulation request:/);
  assert.match(local.stderr, /\n {2}domain\.resolution: must be > 0/);
  assert.match(local.stderr, /\n {2}source\.polarization: must be one of "te", "tm"/);

  assert.equal(server.code, 6);
  assert.match(server.stderr, /the server refused the request as invalid:/);
  assert.match(
    server.stderr,
    /\n {2}domain\.resolution: must be > 0\n {2}source\.polarization: must be one of "te", "tm"/,
  );
});

test("a server that is not there exits 7 and names the address", async () => {
  const url = `http://127.0.0.1:${await freePort()}`;
  const res = await runCli(["list", "--json"], { ...env, EMSIM_BASE_URL: url });
  assert.equal(res.code, 7);
  assert.match(
    res.stderr,
    new RegExp(
      `the server at ${url.replace(/\./g, "\\.")} is not reachable \\(connection refused\\)`,
    ),
  );
  assert.match(res.stderr, /Is emsim running there\?/);
  const body = JSON.parse(res.stdout) as { error: Record<string, unknown>; exit_code: number };
  assert.equal(body.error.error_code, "unreachable");
  assert.equal(body.exit_code, 7);
});

test("login checks the key, stores a 0600 profile; environment variables override it", async () => {
  const configDir = join(dir, "login");
  const base = { EMSIM_CONFIG_DIR: configDir };
  // A wrong key is refused and nothing is written.
  const refused = await runCli(["login", "--key", "emsim_wrong", "--base-url", svc.baseUrl], base);
  assert.equal(refused.code, 3);
  assert.ok(!existsSync(join(configDir, "profile.json")));

  // The key typed on stdin (not a terminal here).
  const ok = await runCli(["login", "--base-url", `${svc.baseUrl}/`], base, { input: `${key}\n` });
  assert.equal(ok.code, 0, ok.stderr);
  const path = join(configDir, "profile.json");
  assert.match(
    ok.stdout,
    /Logged in to http:\/\/127\.0\.0\.1:\d+; profile written to .*profile\.json \(mode 0600\)/,
  );
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.doesNotMatch(ok.stderr, /precedence/);
  // The note names only the variable that is set.
  const noted = await runCli(
    ["login", "--base-url", svc.baseUrl],
    {
      ...base,
      EMSIM_BASE_URL: svc.baseUrl,
    },
    { input: `${key}\n` },
  );
  assert.equal(noted.code, 0, noted.stderr);
  assert.match(
    noted.stderr,
    /^Note: EMSIM_BASE_URL is set in this shell and takes precedence over the profile\.$/m,
  );
  const profile = JSON.parse(readFileSync(path, "utf8")) as Record<string, string>;
  assert.equal(profile.base_url, svc.baseUrl);
  assert.equal(profile.api_key, key);

  const [fromProfile, overridden] = await Promise.all([
    runCli(["list", "--json"], base),
    runCli(["list"], { ...base, EMSIM_API_KEY: "emsim_overridden" }),
  ]);
  assert.equal(fromProfile.code, 0, fromProfile.stderr);
  assert.ok(Array.isArray((JSON.parse(fromProfile.stdout) as { jobs: unknown[] }).jobs));
  assert.equal(overridden.code, 3);

  const out = await runCli(["logout"], base);
  assert.equal(out.code, 0);
  assert.ok(!existsSync(path));
});

test("submit without --wait prints the job id; cancel stops the job", async () => {
  const simFile = join(dir, "long.json");
  writeFileSync(
    simFile,
    JSON.stringify(
      smallSimulation({ fdtd_settings: { time_steps: 1_000_000, convergence_threshold: 0 } }),
    ),
  );
  const sub = await runCli(["submit", simFile], env);
  assert.equal(sub.code, 0, sub.stderr);
  const id = sub.stdout.trim();
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.match(sub.stderr, new RegExp(`Follow it with 'emsim status ${id}'`));
  const cancel = await runCli(["cancel", id], env);
  assert.equal(cancel.code, 0, cancel.stderr);
  assert.match(
    cancel.stdout,
    new RegExp(`(cancellation requested: job ${id}|cancelled job ${id})`),
  );
  // Once it has ended, cancelling again is a 409: --json's status is the HTTP one, the job's
  // is record_status.
  const ended = await runCli(["status", id, "--wait"], env);
  assert.equal(ended.code, 10, ended.stderr);
  const again = await runCli(["cancel", id, "--json"], env);
  assert.equal(again.code, 5, again.stderr);
  const body = JSON.parse(again.stdout) as { error: Record<string, unknown> };
  assert.equal(body.error.status, 409);
  assert.equal(body.error.record_status, "FAILED");
  assert.equal(body.error.error_code, "job_finished");
});
