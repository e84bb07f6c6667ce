/**
 * The Python client (clients/python) against a real server, with Debian's /usr/bin/python3 and
 * its numpy, h5py, xarray, h5netcdf and tqdm: each unittest module of clients/python/tests as
 * one test here, the package installed with pip the way docs/python.md says, and the
 * notebook-style example in examples/ run end to end.
 *
 * Python is spawned asynchronously: the server runs in this process and must keep answering.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateApiKey } from "../../src/auth/api-keys.js";
import { startService, type TestService } from "../helpers/service.js";

const PYTHON = "/usr/bin/python3";
const ROOT = resolve(import.meta.dirname, "../..");
const PACKAGE = join(ROOT, "clients/python");

const missing = spawnSync(PYTHON, ["-c", "import numpy, h5py, xarray, h5netcdf, tqdm"], {
  encoding: "utf8",
});
const skip =
  missing.status === 0
    ? false
    : `needs ${PYTHON} with numpy, h5py, xarray, h5netcdf and tqdm (.ci/run installs them)`;
if (skip && process.env.CI) throw new Error(`${skip}: ${missing.stderr ?? missing.error}`);

let svc: TestService;
let limited: TestService;
let scratch: string;
let env: Record<string, string>;

before(async () => {
  if (skip) return;
  svc = await startService({ rateLimitPerMinute: 0 });
  // 60 requests a minute with a burst of 60: the 61st in a row gets 429 and Retry-After: 1.
  limited = await startService({ rateLimitPerMinute: 60 });
  scratch = mkdtempSync(join(tmpdir(), "emsim-python-"));
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name, value]) => value !== undefined && !name.startsWith("EMSIM_") && name !== "PYTHONPATH",
    ),
  ) as Record<string, string>;
  env = {
    ...base,
    PYTHONPATH: join(PACKAGE, "src"),
    PYTHONDONTWRITEBYTECODE: "1",
    // An empty profile folder: no key is found unless the test gives one.
    EMSIM_CONFIG_DIR: join(scratch, "config"),
    EMSIM_TEST_BASE_URL: svc.baseUrl,
    EMSIM_TEST_DATA_DIR: svc.config.dataDir,
    EMSIM_TEST_API_KEY: await svc.newKey("python@example.com"),
    EMSIM_TEST_CONFLICT_KEY: await svc.newKey("python-conflict@example.com"),
    EMSIM_TEST_DOWNLOAD_KEY: await svc.newKey("python-download@example.com"),
    EMSIM_TEST_PROGRESS_KEY: await svc.newKey("python-progress@example.com"),
    EMSIM_TEST_SWEEP_KEY: await svc.newKey("python-sweep@example.com"),
    EMSIM_TEST_UNKNOWN_KEY: generateApiKey(),
    EMSIM_TEST_LIMITED_URL: limited.baseUrl,
    EMSIM_TEST_LIMITED_KEY: await limited.newKey(),
  };
});
after(async () => {
  if (skip) return;
  await svc.close();
  await limited.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs a command to its end without blocking this process's event loop. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 180_000);
    child.on("error", fail);
    child.on("close", (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}

async function unittest(module: string): Promise<void> {
  const res = await run(PYTHON, ["-m", "unittest", "-v", module], {
    cwd: join(PACKAGE, "tests"),
    env,
  });
  assert.equal(res.status, 0, `${module}:\n${res.stderr}${res.stdout}`);
  // unittest's summary: every test ran, none was skipped for want of a fixture.
  assert.match(res.stderr, /\nOK\n?$/, res.stderr);
}

test("submit, wait, download and load (xarray and numpy)", { skip }, () =>
  unittest("test_round_trip"),
);

test("typed errors, Retry-After, and one message for an unreachable server", { skip }, () =>
  unittest("test_errors"),
);

test("resumable, checksum-verified downloads", { skip }, () => unittest("test_download"));

test("progress on a terminal, in a log, with tqdm", { skip }, () => unittest("test_progress"));

test("fabrication: upload, design-rule check, recipe, kits and download", { skip }, () =>
  unittest("test_fabrication"),
);

test("modes: a plane's n_eff, and an xarray Dataset of them", { skip }, () =>
  unittest("test_modes"),
);

test(
  "preview: ε on the planes as numpy arrays, the outlines, a plane outside the grid",
  { skip },
  () => unittest("test_preview"),
);

test(
  "S-parameters: the record, S(port_out, port_in, wavelength) from load, to_touchstone",
  { skip },
  () => unittest("test_sparameters"),
);

test(
  "sweeps: a batch followed and loaded with the sweep's dimensions, cancelled, typed errors",
  { skip },
  () => unittest("test_sweep"),
);

test("installs with pip --no-build-isolation, offline, and works installed", { skip }, async () => {
  // A copy, so building leaves nothing in the source tree; a venv that sees Debian's packages
  // (setuptools to build, numpy and friends to load results).
  const source = join(scratch, "package");
  cpSync(PACKAGE, source, {
    recursive: true,
    filter: (p) => !/__pycache__|\.egg-info|\/build$/.test(p),
  });
  const venv = join(scratch, "venv");
  const made = await run(PYTHON, ["-m", "venv", "--system-site-packages", venv], {
    cwd: scratch,
    env,
  });
  assert.equal(made.status, 0, made.stderr);
  const python = join(venv, "bin/python");
  const pip = await run(
    python,
    [
      "-m",
      "pip",
      "install",
      "--no-build-isolation",
      "--no-index",
      "--no-deps",
      "--disable-pip-version-check",
      source,
    ],
    { cwd: scratch, env },
  );
  assert.equal(pip.status, 0, pip.stdout + pip.stderr);
  const { PYTHONPATH: _ignored, ...installedEnv } = env;
  const check = await run(
    python,
    [
      "-c",
      [
        "import os, emsim",
        "print(emsim.__file__)",
        "c = emsim.Client(os.environ['EMSIM_TEST_BASE_URL'], os.environ['EMSIM_TEST_API_KEY'])",
        "print(len(c.materials()), emsim.__version__)",
      ].join("\n"),
    ],
    { cwd: scratch, env: installedEnv },
  );
  assert.equal(check.status, 0, check.stderr);
  const [file, counts] = check.stdout.trim().split("\n");
  assert.ok(file!.startsWith(join(venv, "lib")), `imported from ${file}`);
  assert.match(counts!, /^\d+ 0\.1\.0$/);
});

test(
  "examples/python_round_trip.py runs and finds the plane wave's physics",
  { skip },
  async () => {
    const cwd = mkdtempSync(join(scratch, "example-"));
    const res = await run(PYTHON, [join(ROOT, "examples/python_round_trip.py")], {
      cwd,
      env: {
        ...env,
        EMSIM_BASE_URL: svc.baseUrl,
        EMSIM_API_KEY: await svc.newKey("python-example@example.com"),
        MPLBACKEND: "Agg",
      },
    });
    assert.equal(res.status, 0, res.stderr + res.stdout);
    assert.match(res.stdout, /plane-wave\.h5: sha256 verified/);
    const rows = [
      ...res.stdout.matchAll(
        /(\d+) nm: \|Ey\| = ([\d.]+) V\/m, k \/ \(2 pi \/ wavelength\) = ([\d.]+)/g,
      ),
    ];
    assert.deepEqual(
      rows.map((r) => r[1]),
      ["1500", "1550", "1600"],
    );
    for (const [, nm, amplitude, k] of rows) {
      assert.ok(Math.abs(Number(amplitude) - 1) < 0.01, `${nm} nm: |Ey| ${amplitude}`);
      assert.ok(Math.abs(Number(k) - 1) < 0.005, `${nm} nm: k ratio ${k}`);
    }
  },
);
