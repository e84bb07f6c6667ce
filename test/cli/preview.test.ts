/**
 * `emsim preview` as a process (issue #31): a file's set-up drawn without a server — the PNG
 * read back with the tests' own decoder: the perfect conductor and the gold in their flat
 * colours where the file puts them (the conductor left of the origin, the gold right), the
 * source and the monitor in theirs, the grid's cell edges over the vacuum when cells are wide
 * enough to see, the warnings in the margin below the plot; the summary and `--json`'s answer;
 * three panels by default; the mistakes' messages and exit codes.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodePng, runCli, type DecodedPng } from "./helpers.js";

let dir: string;
let simFile: string;
/** No server is started: the command needs none. */
let env: Record<string, string>;

/**
 * A 2-D cross-section (one periodic cell along z): a PEC block at x < 0 reaching past the pec
 * wall at y = 0.5 µm, a gold disc at x > 0, a silica rod, a point dipole, a flux box, 50 nm
 * cells (wide enough at 520 px to show their edges).
 */
const simulation = {
  solver: "fdtd",
  domain: {
    size: [1.2e-6, 1e-6, 0.05e-6],
    resolution: 50e-9,
    boundary_conditions: ["pml", "pec", "periodic"],
    pml_layers: 6,
  },
  source: {
    source_type: "point_dipole",
    wavelength: 1.55e-6,
    center: [0, -0.3e-6, 0],
    polarization: "Ez",
    amplitude: 1,
  },
  structures: [
    { type: "box", center: [-0.3e-6, 0.45e-6, 0], size: [0.3e-6, 0.3e-6, 1], material: "PEC" },
    {
      type: "cylinder",
      center: [0.3e-6, 0, 0],
      radius: 0.15e-6,
      height: 1,
      axis: "z",
      material: "Au",
    },
    { type: "box", center: [-0.3e-6, -0.1e-6, 0], size: [0.2e-6, 0.2e-6, 1], material: "SiO2" },
  ],
  monitors: [{ name: "box", monitor_type: "flux", center: [0, 0, 0], size: [1e-6, 0.8e-6, 0] }],
  fdtd_settings: { time_steps: 1000 },
};

const PEC = [70, 74, 82];
const METAL = [214, 176, 64];
const SOURCE = [215, 35, 35];
const MONITOR = [0, 140, 70];
const WARNING = [176, 72, 0];
/**
 * The vacuum's colour under a grid line, darkened by 12 %: the vacuum is the commonest colour
 * in the image but the white margins (white only where no mixed cell lies below it on the
 * colour scale; the gold disc's edge cells, half metal, reach Re ε 0.5).
 */
function edgeColour(png: DecodedPng): number[] {
  const counts = new Map<number, number>();
  for (let i = 0; i < png.rgb.length; i += 3) {
    const key = (png.rgb[i]! << 16) | (png.rgb[i + 1]! << 8) | png.rgb[i + 2]!;
    if (key !== 0xffffff) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const key = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const vacuum = [key >> 16, (key >> 8) & 255, key & 255];
  // The colour scale's light end: the vacuum is (nearly) its lowest ε.
  assert.ok(
    vacuum.every((v) => v >= 200),
    `vacuum drawn in ${vacuum}`,
  );
  return vacuum.map((v) => Math.round(v * 0.88));
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), "emsim-cli-preview-"));
  simFile = join(dir, "sim.json");
  writeFileSync(simFile, JSON.stringify(simulation));
  env = { EMSIM_CONFIG_DIR: dir };
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The pixels of one colour: how many, and the mean and extent of their x and y. */
function pixelsOf(png: DecodedPng, [r, g, b]: number[]) {
  let n = 0;
  let [sx, sy, x0, x1, y0, y1] = [0, 0, Infinity, -Infinity, Infinity, -Infinity];
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 3;
      if (png.rgb[i] !== r || png.rgb[i + 1] !== g || png.rgb[i + 2] !== b) continue;
      n++;
      sx += x;
      sy += y;
      [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
    }
  }
  return { n, x: sx / n, y: sy / n, x0, x1, y0, y1 };
}

test("--help names the options", async () => {
  const res = await runCli(["preview", "--help"], env);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /--plane AXIS=POS/);
  assert.match(res.stdout, /--out FILE\.png/);
});

test("one plane: ε, metal and PEC where the file puts them, objects, cell edges, warnings", async () => {
  const png = join(dir, "z.png");
  const res = await runCli(["preview", simFile, "--out", png, "--plane", "z=0"], env);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^plane\s+cells\s+samples\s+objects\n/);
  // 1.2 µm at 50 nm and 6 absorber cells either side along x; 1 µm between pec walls along y;
  // the one periodic cell along z has its node at −25 nm.
  assert.match(res.stdout, /z = -0\.025 µm\s+36 × 20\s+36 × 20/);
  assert.match(res.stdout, /materials: vacuum \(dielectric\), PEC \(pec\), Au \(metal\), SiO2/);
  assert.match(
    res.stdout,
    /warning: simulation\.structures\[0\]: .* the part beyond the pec wall is cut off/,
  );
  assert.match(res.stdout, new RegExp(`wrote ${png.replace(/[.]/g, "\\.")}`));

  const image = decodePng(readFileSync(png));
  assert.equal(image.text.Title, "emsim set-up preview");
  const [pec, metal, source, monitor, warning, edge] = [
    PEC,
    METAL,
    SOURCE,
    MONITOR,
    WARNING,
    edgeColour(image),
  ].map((c) => pixelsOf(image, c));
  assert.ok(pec.n > 500 && metal.n > 500, `PEC ${pec.n} px, gold ${metal.n} px`);
  // The legend's swatches are right of the plot; the plot's own pixels dominate the means.
  assert.ok(pec.x < metal.x, "the PEC block (x < 0) left of the gold disc (x > 0)");
  assert.ok(pec.y < metal.y, "the PEC block (y ≈ 0.45 µm) above the disc (y = 0)");
  assert.ok(source.n > 20 && monitor.n > 200, `source ${source.n} px, monitor ${monitor.n} px`);
  assert.ok(edge.n > 1000, `${edge.n} px of cell edges over the vacuum`);
  assert.ok(warning.n > 50, "the warnings are written");
  assert.ok(warning.y0 > Math.max(pec.y1, monitor.y1), "below the plot, in the margin");
});

test("--json: the answer the API gives, but the estimate; three planes by default", async () => {
  const png = join(dir, "three.png");
  const res = await runCli(
    ["preview", simFile, "--out", png, "--json", "--max-samples", "30"],
    env,
  );
  assert.equal(res.code, 0, res.stderr);
  const answer = JSON.parse(res.stdout) as {
    planes: {
      normal: string;
      axes: string[];
      coords: Record<string, number[]>;
      eps_real: number[][];
      material: number[][];
      objects: { kind: string; name: string }[];
    }[];
    materials: { name: string }[];
    warnings: { code: string }[];
    png: string;
  };
  assert.deepEqual(
    answer.planes.map((p) => p.normal),
    ["x", "y", "z"],
  );
  const z = answer.planes[2]!;
  assert.equal(z.coords.x!.length, 30, "sampled to 30 of 36 cells");
  const silica = answer.materials.findIndex((m) => m.name === "SiO2");
  const inSilica = z.eps_real.flatMap((row, i) =>
    row.filter((_, j) => z.material[i]![j] === silica),
  );
  assert.ok(inSilica.length > 0, "samples in the silica rod");
  assert.ok(
    inSilica.some((eps) => Math.abs(eps - 2.085) < 0.01),
    "inside it, silica's ε at 1.55 µm",
  );
  assert.ok(z.objects.some((o) => o.kind === "source" && o.name === "point dipole (Ez)"));
  assert.equal(answer.png, png);
  const wide = decodePng(readFileSync(png));
  assert.ok(wide.width > 1000, `three panels side by side: ${wide.width} px wide`);
});

test("mistakes: a bad plane, a plane outside the grid, an invalid file, a gds structure", async () => {
  const bad = await runCli(["preview", simFile, "--plane", "w=0"], env);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--plane: cannot read 'w=0'/);
  const infinite = await runCli(["preview", simFile, "--plane", "z=1e400um"], env);
  assert.equal(infinite.code, 2, infinite.stderr);
  assert.match(infinite.stderr, /--plane: '1e400um' is not a finite length/);
  const hex = await runCli(["preview", simFile, "--max-samples", "0x10"], env);
  assert.equal(hex.code, 2, hex.stderr);
  assert.match(hex.stderr, /--max-samples must be a whole number from 2 to \d+, not '0x10'/);

  const outside = await runCli(["preview", simFile, "--plane", "x=5um"], env);
  assert.equal(outside.code, 6, outside.stderr);
  assert.match(outside.stderr, /planes\[0\]\.position: 5e-6 m is outside the grid/);

  const invalidFile = join(dir, "invalid.json");
  writeFileSync(invalidFile, JSON.stringify({ ...simulation, monitors: [{ name: "m" }] }));
  const invalid = await runCli(["preview", invalidFile], env);
  assert.equal(invalid.code, 6, invalid.stderr);
  assert.match(invalid.stderr, /is not a valid simulation request/);

  const gdsFile = join(dir, "gds.json");
  const gds = {
    type: "gds",
    gds_url: "https://example.com/x.gds",
    layers: [{ layer: 1, material: "SiO2", z_min: 0, z_max: 0.2e-6 }],
  };
  writeFileSync(gdsFile, JSON.stringify({ ...simulation, structures: [gds] }));
  const withGds = await runCli(["preview", gdsFile], env);
  assert.equal(withGds.code, 6, withGds.stderr);
  assert.match(withGds.stderr, /POST \/v1\/simulations\/preview/);
});
