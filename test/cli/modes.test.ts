/**
 * `emsim modes` as a user runs it (a child process) against a real service: a 500 × 220 nm Si
 * strip in SiO2 from a simulation file, its plane given as ranges, prints TE0 and TM0 with the
 * group index, writes the whole answer and a heat map per mode whose brightest part lies on
 * the strip, outlined; the whole cross-section (`--plane y=0`) over a band gives n_eff falling
 * with wavelength; mistakes in the options and a plane outside the domain are told without
 * asking the server.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, startService, tempDir, type TestService } from "../helpers/service.js";
import { EXAMPLE_MODES_REQUEST } from "../../src/http/openapi-examples.js";
import { decodePng, runCli, type DecodedPng } from "./helpers.js";

let svc: TestService;
let dir: string;
let env: Record<string, string>;
let simFile: string;

before(async () => {
  svc = await startService({ embeddedWorker: false });
  const key = await svc.newKey("cli-modes@example.com");
  dir = tempDir("emsim-cli-modes-");
  env = { EMSIM_BASE_URL: svc.baseUrl, EMSIM_API_KEY: key, EMSIM_CONFIG_DIR: dir };
  simFile = join(dir, "strip.json");
  // A simulation of the strip as a user would have it: the source's wavelength is the default.
  const { domain, structures } = EXAMPLE_MODES_REQUEST;
  const simulation = {
    solver: "fdtd",
    domain,
    structures,
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 1, 0] },
    monitors: [{ name: "xz", monitor_type: "field", center: [0, 0, 0], size: [2e-6, 0, 2e-6] }],
  };
  writeFileSync(simFile, JSON.stringify(simulation, null, 2));
});
after(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The table's rows below its header, split into columns. */
function rows(stdout: string): string[][] {
  return stdout
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s{2,}/));
}

/** The sequential map's brightest colours (its top, #fdf3c4): the peak of |E|. */
const isHot = (png: DecodedPng, x: number, y: number) => {
  const i = (y * png.width + x) * 3;
  return (
    png.rgb[i]! > 240 && png.rgb[i + 1]! > 220 && png.rgb[i + 2]! > 150 && png.rgb[i + 2]! < 225
  );
};
const isWhite = (png: DecodedPng, x: number, y: number) => {
  const i = (y * png.width + x) * 3;
  return png.rgb[i] === 255 && png.rgb[i + 1] === 255 && png.rgb[i + 2] === 255;
};

/** Where the map lies: the box of the plot's dark (low |E|) pixels, left of the colour bar. */
function mapBox(png: DecodedPng): [number, number, number, number] {
  let [x0, y0, x1, y1] = [png.width, png.height, 0, 0];
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width * 0.75; x++) {
      const i = (y * png.width + x) * 3;
      // The sequential map's dark end (#0a0c24): far from the guide |E| is near zero.
      if (png.rgb[i]! < 40 && png.rgb[i + 1]! < 40 && png.rgb[i + 2]! > png.rgb[i]! + 12) {
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      }
    }
  }
  return [x0, y0, x1, y1];
}

test("--help says how to give the plane", async () => {
  const res = await runCli(["modes", "--help"]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /--plane SPEC/);
  assert.match(res.stdout, /y=0,x=-0\.8um:0\.8um/);
});

test("the strip's TE0 and TM0: a table, the answer as JSON and a heat map per mode", async () => {
  const out = join(dir, "modes.json");
  const png = join(dir, "mode.png");
  const plane = "y=0,x=-0.8um:0.8um,z=-0.69um:0.91um";
  const res = await runCli(
    [
      "modes",
      simFile,
      "--plane",
      plane,
      "--modes",
      "2",
      "--group-index",
      "--out",
      out,
      "--png",
      png,
    ],
    env,
  );
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^λ \(µm\)\s+mode\s+n_eff\s+k_eff\s+TE fraction\s+group index\n/);
  const [te, tm] = rows(res.stdout);
  assert.equal(te![0], "1.55");
  assert.equal(te![1], "0");
  // The converged TE0 of this strip at 1.55 µm is 2.4455; its group index ≈ 4.2.
  assert.ok(Math.abs(Number(te![2]) - 2.4455) < 5e-3, `TE0 ${te![2]}`);
  assert.ok(Number(te![4]) > 0.9 && Number(tm![4]) < 0.3, res.stdout);
  assert.ok(Number(te![5]) > 3.8 && Number(te![5]) < 4.6, `ng ${te![5]}`);
  assert.match(res.stderr, /plane y = 0 µm: 80 × 79 cells along x, z/);

  const saved = JSON.parse(readFileSync(out, "utf8")) as {
    modes: { n_eff: number; fields?: Record<string, unknown> }[];
    grid: Record<string, number[]>;
  };
  assert.equal(saved.modes.length, 2);
  assert.ok(saved.modes[0]!.fields?.Ex, "--png asks for the fields, and --out keeps them");
  assert.equal(saved.grid.x_m!.length, 80);

  for (const [k, name] of ["mode-mode0.png", "mode-mode1.png"].entries()) {
    const image = decodePng(readFileSync(join(dir, name)));
    assert.match(image.text.Title!, new RegExp(`\\|E\\| of mode ${k} at .*1\\.55`));
    const [x0, y0, x1, y1] = mapBox(image);
    assert.ok(x1 - x0 > 200 && y1 - y0 > 200, `the map spans ${x1 - x0} × ${y1 - y0} px`);
    // The strip (|x| < 0.25 µm, 0 < z < 0.22 µm) is the middle of the plane: the bright
    // pixels, and the strip's white outline, lie within its middle third each way.
    const inMiddle = (x: number, y: number) =>
      Math.abs(x - (x0 + x1) / 2) < (x1 - x0) / 3 && Math.abs(y - (y0 + y1) / 2) < (y1 - y0) / 3;
    let [hot, hotInMiddle, outline] = [0, 0, 0];
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        if (isHot(image, x, y)) {
          hot++;
          if (inMiddle(x, y)) hotInMiddle++;
        }
        if (isWhite(image, x, y) && inMiddle(x, y)) outline++;
      }
    }
    assert.ok(hot > 0 && hotInMiddle === hot, `mode ${k}: ${hotInMiddle} of ${hot} bright px`);
    assert.ok(outline > 100, `mode ${k}: ${outline} outline px`);
  }
  assert.equal(existsSync(png), false, "two modes: one file each, none under the bare name");
});

test("the whole cross-section over a band: n_eff falls with wavelength", async () => {
  const res = await runCli(
    ["modes", simFile, "--plane", "y=0", "--wavelengths", "1.5um:1.6um:3", "--json"],
    env,
  );
  assert.equal(res.code, 0, res.stderr);
  const answer = JSON.parse(res.stdout) as {
    plane: { cells: number[] };
    wavelengths_m: number[];
    modes: { n_eff: number; te_fraction: number; fields?: unknown }[];
    png: string[];
    out: string | null;
  };
  // The domain is 2 × 2 µm across at 20 nm.
  assert.deepEqual(answer.plane.cells, [100, 100]);
  assert.equal(answer.wavelengths_m.length, 3);
  const nEff = answer.modes.map((m) => m.n_eff);
  assert.ok(nEff[0]! > nEff[1]! && nEff[1]! > nEff[2]!, `n_eff ${nEff.join(", ")}`);
  assert.ok(answer.modes.every((m) => m.te_fraction > 0.9 && m.fields === undefined));
  assert.deepEqual(answer.png, []);
  assert.equal(answer.out, null);
});

test("mistakes are told before anything is sent", async () => {
  // No server listens here: only a local refusal can answer.
  const nowhere = { ...env, EMSIM_BASE_URL: `http://127.0.0.1:${await freePort()}` };
  const usage = async (args: string[], message: RegExp) => {
    const res = await runCli(["modes", simFile, ...args], nowhere);
    assert.equal(res.code, 2, `${args.join(" ")}: ${res.stderr}`);
    assert.match(res.stderr, message);
  };
  await usage([], /modes needs --plane/);
  await usage(["--plane", "y=0,x=0"], /--plane: y and x are both given one position/);
  await usage(["--plane", "y=0.5"], /plain numbers are metres; add a unit, e.g\. 0\.5um/);
  await usage(["--plane", "x=-1um:1um"], /--plane: the normal axis needs one position/);
  await usage(["--plane", "y=0", "--component", "Ex", "--part", "phase"], /--part must be/);
  await usage(["--plane", "y=0", "--part", "real"], /needs a single component/);
  await usage(["--plane", "y=0", "--wavelength", "1.55um", "--wavelengths", "1:2:3"], /give one/);
  await usage(["--plane", "y=0", "--bend-axis", "0"], /--bend-axis needs --bend-radius/);
  await usage(["--plane", "y=0", "--bend-radius", "2"], /--bend-radius: .*add a unit/);
  await usage(["--plane", "y=0", "--bend-radius", "2um", "--bend-axis", "2"], /must be 0 or 1/);

  const outside = await runCli(["modes", simFile, "--plane", "y=3um"], nowhere);
  assert.equal(outside.code, 6, outside.stderr);
  assert.match(outside.stderr, /is not a valid mode request:\n\s+plane/);
});
