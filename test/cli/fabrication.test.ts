/**
 * `emsim gds`, `drc`, `recipe` and `pdks` as a user runs them (child processes) against a
 * real service in this process: a job's layout exported and saved, a local file uploaded and
 * checked (exit 0 when it passes, 11 with a table of violations when it does not), rules
 * overriding the kit's, a recipe from a file and from a job, and the error conventions.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EmsimClient } from "../../src/client/index.js";
import { readGds } from "../../src/fabrication/gds/reader.js";
import { GdsBuilder } from "../../src/fabrication/testing/gds-builder.js";
import { GAP_NM, twoBlockSimulation } from "../helpers/fabrication.js";
import { startService, tempDir, type TestService } from "../helpers/service.js";
import { runCli } from "./helpers.js";

let svc: TestService;
let dir: string;
let env: Record<string, string>;
let jobId: string;
let chip: string;

before(async () => {
  svc = await startService({ embeddedWorker: false });
  const key = await svc.newKey("fab-cli@example.com");
  dir = tempDir("emsim-cli-fab-");
  env = { EMSIM_BASE_URL: svc.baseUrl, EMSIM_API_KEY: key, EMSIM_CONFIG_DIR: dir };
  const client = new EmsimClient({ baseUrl: svc.baseUrl, apiKey: key });
  jobId = (await client.submit(twoBlockSimulation() as never)).job_id;
  chip = join(dir, "chip.gds");
});
after(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

test("gds: exports the job's layout to --out and prints layers, polygons, box, unmapped", async () => {
  const run = await runCli(
    ["gds", jobId, "--map", "Si=1/0", "--map", "Au=5/0", "--grid", "5", "--out", chip],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /file: +.*chip\.gds/);
  assert.match(run.stdout, /layers: +1\/0 \(Si: 2\)/);
  assert.match(run.stdout, /polygons: +2 \(2 after merging\)/);
  assert.match(
    run.stdout,
    /bounding box: +\[-0\.525, -0\.2, 0\.525, 0\.2\] µm \(1\.05 × 0\.4 µm\)/,
  );
  assert.match(run.stdout, /unmapped: +SiO2/);
  const layout = readGds(new Uint8Array(readFileSync(chip)));
  assert.deepEqual([...layout.layers.keys()], ["1/0"]);
  assert.equal(layout.polygonCount, 2);
  assert.ok(!existsSync(`${chip}.part`));

  const json = await runCli(
    ["gds", jobId, "--map", "Si=1", "--map", "SiO2=2/0", "--out", join(dir, "both.gds"), "--json"],
    env,
  );
  assert.equal(json.code, 0, json.stderr);
  const body = JSON.parse(json.stdout) as Record<string, unknown>;
  assert.deepEqual(body.layers, [1, 2]);
  assert.equal(body.polygon_count, 3);
  assert.deepEqual(body.unmapped_materials, []);
  assert.equal(body.bytes, readFileSync(join(dir, "both.gds")).length);
});

test("drc: a local file is uploaded; violations exit 11 with a table; rules override", async () => {
  const failed = await runCli(["drc", chip, "--pdk", "siepic_ebeam"], env);
  assert.equal(failed.code, 11, failed.stderr);
  assert.match(failed.stderr, /uploaded .*chip\.gds: 2 polygons on 1\/0/);
  const lines = failed.stdout.split("\n");
  assert.match(
    lines[0]!,
    /^RULE +LAYER +LOCATION \(µm\) +ACTUAL \(nm\) +REQUIRED \(nm\) +SEVERITY$/,
  );
  const rows = lines.filter((l) => l.startsWith("min_"));
  assert.ok(rows.length >= 1, failed.stdout);
  for (const row of rows) {
    assert.match(row, new RegExp(`^min_spacing +1/0 +\\(0, -?[\\d.]+\\) +${GAP_NM} +70 +error$`));
  }
  assert.match(failed.stdout, /Failed: \d+ violation\(s\)/);

  const passed = await runCli(["drc", chip, "--pdk", "siepic_ebeam", "--min-spacing", "45"], env);
  assert.equal(passed.code, 0, passed.stderr + passed.stdout);
  assert.doesNotMatch(passed.stdout, /RULE/);
  assert.match(passed.stdout, /Passed: no violations on 1\/0/);

  // A gds_url is checked directly, and --json prints the whole answer (exit code kept).
  const json = await runCli(["drc", chip, "--pdk", "siepic_ebeam", "--json"], env);
  assert.equal(json.code, 11);
  const body = JSON.parse(json.stdout) as { gds_url: string; passed: boolean; violations: [] };
  assert.equal(body.passed, false);
  assert.equal(body.violations.length, rows.length);
  const byUrl = await runCli(["drc", body.gds_url, "--pdk", "siepic_ebeam"], env);
  assert.equal(byUrl.code, 11);
  assert.doesNotMatch(byUrl.stderr, /uploaded/);
});

test("drc: an unreadable file, an unknown kit, a missing file and usage mistakes", async () => {
  const junk = join(dir, "junk.gds");
  writeFileSync(junk, "this is not GDS II");
  const bad = await runCli(["drc", junk, "--pdk", "siepic_ebeam"], env);
  assert.equal(bad.code, 6, bad.stderr);
  assert.match(bad.stderr, /emsim: the server refused the request/);

  const kit = await runCli(["drc", chip, "--pdk", "nope"], env);
  assert.equal(kit.code, 6);
  assert.match(kit.stderr, /pdk: unknown process design kit; known: siepic_ebeam/);

  const missing = await runCli(["drc", join(dir, "absent.gds"), "--pdk", "siepic_ebeam"], env);
  assert.equal(missing.code, 2, "an unreadable input file is a usage error (cli.md)");
  assert.match(missing.stderr, /cannot read .*absent\.gds: no such file/);

  const noPdk = await runCli(["drc", chip], env);
  assert.equal(noPdk.code, 2);
  assert.match(noPdk.stderr, /drc needs --pdk/);
  const badMap = await runCli(["gds", jobId, "--map", "Si:1"], env);
  assert.equal(badMap.code, 2);
  assert.match(badMap.stderr, /--map takes MATERIAL=LAYER\/DATATYPE/);
  const unknownJob = await runCli(
    ["gds", "00000000-0000-0000-0000-000000000000", "--map", "Si=1/0"],
    env,
  );
  assert.equal(unknownJob.code, 4);
});

test("recipe from a file and from a job; pdks lists the kits", async () => {
  const nitride = join(dir, "nitride.gds");
  writeFileSync(
    nitride,
    new GdsBuilder()
      .begin()
      .cell("TOP", (b) =>
        b.boundary(1, 0, [0, 0, 1000, 0, 1000, 500, 0, 500]).box(99, 0, 0, 0, 10, 10),
      )
      .end(),
  );
  const fromFile = await runCli(["recipe", nitride, "--pdk", "siepic_ebeam"], env);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  assert.match(fromFile.stdout, /^SiEPIC EBeam .* — layers 1\/0/);
  const steps = fromFile.stdout.trim().split("\n").slice(1);
  assert.ok(steps.length >= 5, fromFile.stdout);
  steps.forEach((s, i) => assert.match(s, new RegExp(`^ *${i + 1}\\. `)));
  assert.ok(steps.some((s) => /lithography .*mask 1\/0/.test(s)));
  assert.ok(steps.some((s) => /etch .*depth 220 nm/.test(s)));
  // The floor-plan marker (99/0) is not fabricated: left out with a warning.
  assert.match(fromFile.stderr, /warning: .*99\/0/);

  const fromJob = await runCli(["recipe", "--job", jobId, "--pdk", "siepic_ebeam", "--json"], env);
  assert.equal(fromJob.code, 0, fromJob.stderr);
  assert.deepEqual((JSON.parse(fromJob.stdout) as { layers_used: string[] }).layers_used, ["1/0"]);

  const pdks = await runCli(["pdks"], env);
  assert.equal(pdks.code, 0, pdks.stderr);
  assert.match(pdks.stdout, /^NAME +LAYERS +ILLUSTRATIVE +TITLE/);
  assert.match(pdks.stdout, /\nsiepic_ebeam +Si 1\/0, SiN 1\/5/);
  assert.match(pdks.stdout, /\ncornerstone_sin300 /);
});
