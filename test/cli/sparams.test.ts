/**
 * `emsim sparams` as a user runs it (a child process) against a real service that ran a
 * straight two-port guide for real (test/helpers/simulations.ts): a table of |S|² in dB
 * (|S21|² ≈ 0 dB, |S11|² below −40 dB: a straight guide transmits everything), the server's
 * own Touchstone file written under the name given, the plot with the transmission curve
 * above the reflection one, the JSON; a job that ran only o1 shows its column alone and its Touchstone
 * file names the input not run; a job without ports, a wrong extension and a wrong --format
 * are told with their exit codes.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PALETTE } from "../../src/plot/spectrum.js";
import {
  call,
  smallSimulation,
  startService,
  tempDir,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { twoPortWaveguide } from "../helpers/simulations.js";
import { decodePng, runCli, type DecodedPng } from "./helpers.js";

let svc: TestService;
let dir: string;
let key: string;
let env: Record<string, string>;
let both: string;
let onlyO1: string;
let noPorts: string;

async function run(body: Record<string, unknown>): Promise<string> {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  return id;
}

before(async () => {
  svc = await startService();
  key = await svc.newKey("cli-sparams@example.com");
  dir = tempDir("emsim-cli-sparams-");
  env = { EMSIM_BASE_URL: svc.baseUrl, EMSIM_API_KEY: key, EMSIM_CONFIG_DIR: dir };
  both = await run(twoPortWaveguide());
  onlyO1 = await run(twoPortWaveguide(["o1"]));
  noPorts = await run(smallSimulation());
});
after(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The table's header and rows, split into columns. */
function tableOf(stdout: string): string[][] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s{2,}/));
}

test("--help says what the options do", async () => {
  const res = await runCli(["sparams", "--help"]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /--out FILE/);
  assert.match(res.stdout, /\.s2p for 2 ports/);
  const top = await runCli(["--help"]);
  assert.match(top.stdout, /emsim sparams ID/);
});

test("a table of |S|² in dB: S21 ≈ 0 dB, S11 below −40 dB at every wavelength", async () => {
  const res = await runCli(["sparams", both], env);
  assert.equal(res.code, 0, res.stderr);
  const [header, ...rows] = tableOf(res.stdout);
  assert.deepEqual(header, ["λ (µm)", "|S11|² (dB)", "|S21|² (dB)", "|S12|² (dB)", "|S22|² (dB)"]);
  assert.deepEqual(
    rows.map((r) => r[0]),
    ["1.5", "1.55", "1.6"],
  );
  for (const [, s11, s21, s12, s22] of rows.map((r) => r.map(Number))) {
    assert.ok(s21! > -0.01 && s12! > -0.01, `|S21|² ${s21} dB, |S12|² ${s12} dB`);
    assert.ok(s11! < -40 && s22! < -40, `|S11|² ${s11} dB, |S22|² ${s22} dB`);
  }
  assert.match(res.stderr, /2 ports \(o1@0, o2@0\), 3 wavelengths; every input run/);
});

/** Mean row of the pixels of one colour in the middle of the plot's width (not the legend). */
function meanRow(png: DecodedPng, color: readonly number[]): number {
  let [sum, n] = [0, 0];
  for (let y = 0; y < png.height; y++) {
    for (let x = Math.round(png.width * 0.3); x < png.width * 0.7; x++) {
      const i = (y * png.width + x) * 3;
      if (png.rgb[i] === color[0] && png.rgb[i + 1] === color[1] && png.rgb[i + 2] === color[2]) {
        sum += y;
        n++;
      }
    }
  }
  assert.ok(n > 0, `no pixel of ${color}`);
  return sum / n;
}

test("--out device.s2p writes the server's Touchstone file; --plot draws |S|² in dB", async () => {
  const out = join(dir, "device.s2p");
  const plot = join(dir, "s.png");
  const res = await runCli(["sparams", both, "--out", out, "--plot", plot], env);
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.stdout, "", "a file asked for: no table");
  assert.match(res.stderr, new RegExp(`wrote ${out}\\nwrote ${plot}`));
  const server = await call(
    svc.baseUrl,
    "GET",
    `/v1/simulations/${both}/sparameters?format=touchstone`,
    { key },
  );
  assert.equal(readFileSync(out, "utf8"), server.text);
  const png = decodePng(readFileSync(plot));
  assert.equal(png.text.Title, `S-parameters of job ${both.slice(0, 8)}`);
  // Curves in order S11, S21, S12, S22 (S21 lies under S12, S11 under S22): transmission
  // near 0 dB at the top, reflection below −40 dB far below it.
  const [s12, s22] = [meanRow(png, PALETTE[2]!), meanRow(png, PALETTE[3]!)];
  assert.ok(s22 - s12 > 200, `S12 at row ${s12}, S22 at ${s22}`);
});

test("--format json prints the matrix; --json says what was written", async () => {
  const res = await runCli(["sparams", both, "--format", "json"], env);
  assert.equal(res.code, 0, res.stderr);
  const server = await call(svc.baseUrl, "GET", `/v1/simulations/${both}/sparameters`, { key });
  assert.deepEqual(JSON.parse(res.stdout), server.body);
  const out = join(dir, "s.json");
  const json = await runCli(["sparams", both, "--out", out, "--json"], env);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { files: string[]; s_matrix: unknown };
  assert.deepEqual(report.files, [out]);
  assert.deepEqual(JSON.parse(readFileSync(out, "utf8")), server.body);
});

test("a job that ran only o1: its column alone in the table; the Touchstone file names o2@0", async () => {
  const res = await runCli(["sparams", onlyO1], env);
  assert.equal(res.code, 0, res.stderr);
  const [header, ...rows] = tableOf(res.stdout);
  assert.deepEqual(header, ["λ (µm)", "|S11|² (dB)", "|S21|² (dB)"]);
  assert.ok(rows.every((r) => Number(r[2]) > -0.01));
  assert.match(res.stderr, /not run: o2@0/);
  const out = join(dir, "half.s2p");
  const written = await runCli(["sparams", onlyO1, "--format", "touchstone", "--out", out], env);
  assert.equal(written.code, 0, written.stderr);
  assert.match(readFileSync(out, "utf8"), /! not run \(their columns are 0\): o2@0/);
});

test("mistakes: no ports (4), a Touchstone name for another port count (2), a bad --format", async () => {
  const none = await runCli(["sparams", noPorts], env);
  assert.equal(none.code, 4, none.stderr);
  assert.match(none.stderr, /no S-parameters|sparameters|ports/i);
  const wrong = await runCli(["sparams", both, "--out", join(dir, "device.s4p")], env);
  assert.equal(wrong.code, 2, wrong.stderr);
  assert.match(wrong.stderr, /2 ports .* must end in \.s2p/);
  // A name that says neither Touchstone nor JSON: which was meant is asked, nothing written.
  const txt = join(dir, "device.txt");
  const unsaid = await runCli(["sparams", both, "--out", txt], env);
  assert.equal(unsaid.code, 2, unsaid.stderr);
  assert.match(unsaid.stderr, /\.s2p .*\.json.*--format touchstone/);
  assert.equal(existsSync(txt), false);
  const said = await runCli(["sparams", both, "--out", txt, "--format", "touchstone"], env);
  assert.equal(said.code, 0, said.stderr);
  assert.match(readFileSync(txt, "utf8"), /^# HZ S RI R 50$/m);
  const format = await runCli(["sparams", both, "--format", "csv"], env);
  assert.equal(format.code, 2, format.stderr);
  assert.match(format.stderr, /--format must be touchstone or json/);
  const missing = await runCli(["sparams"], env);
  assert.equal(missing.code, 2, missing.stderr);
});
