/**
 * The job page's field plots, pixel for pixel: a real service runs a small simulation with a
 * box, a sphere and a cylinder, a real headless Chromium draws its plots, and screenshots of the
 * canvas are compared with reference images in fixtures/ (captured from the dashboard before
 * its plotting moved into the shared core, src/plot). A second run's polyslab, which the
 * dashboard outlines since then, has references of its own (plot-polyslab-*.png). A graded
 * grid's map (a payload put in place of the file's) is compared with the same picture on a
 * uniform grid instead. A small per-channel tolerance absorbs antialiasing; a changed colour
 * map, tick, outline or layout changes thousands of pixels.
 *
 * After a deliberate change of the plots' look, capture new references with
 * EMSIM_UPDATE_PLOT_REFERENCES=1 and look at them before committing.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/auth/passwords.js";
import { diverging, sequential, type Colormap } from "../../src/plot/colormap.js";
import { cellEdges, pixelsPerAxis } from "../../src/plot/heatmap.js";
import { planAxisNodes } from "../../src/solver/grid.js";
import { call, startService, waitForStatus, type TestService } from "../helpers/service.js";
import { launchBrowser, type Browser } from "./helpers.js";
import { decodePng, type DecodedPng } from "../cli/helpers.js";
import {
  FIXTURES,
  UPDATE_REFERENCES as UPDATE,
  assertMatchesReference,
  compareImages,
} from "./images.js";
const EMAIL = "plots@example.com";
const PASSWORD = "a long enough password";
/** Largest per-channel difference counted as antialiasing noise. */
const CHANNEL_TOLERANCE = 24;
/** Share of pixels that may differ by more (text rasterisation at a few edges). */
const MAX_DIFFERING = 0.002;

let svc: TestService;
let browser: Browser;
let page: Page;
let jobId: string;
const pageErrors: string[] = [];

/** A 2-D (x–z) run with one structure of each kind the plots outline. */
function shapesSimulation(): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: {
      size: [0.64e-6, 0.04e-6, 2e-6],
      resolution: 0.04e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 8,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures: [
      { type: "box", center: [0, 0, 0.3e-6], size: [0.32e-6, 0.04e-6, 0.4e-6], material: "Si" },
      { type: "sphere", center: [0, 0, -0.3e-6], radius: 0.14e-6, material: "SiO2" },
      {
        type: "cylinder",
        center: [0.16e-6, 0, 0.3e-6],
        radius: 0.06e-6,
        height: 1e-6,
        axis: "y",
        material: "Si",
      },
    ],
    monitors: [
      {
        name: "xz",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0.64e-6, 0, 2e-6],
        components: ["Ex", "Ey", "Ez"],
      },
      {
        name: "zline",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0, 0, 2e-6],
        components: ["Ey"],
      },
    ],
    fdtd_settings: { time_steps: 1500, check_every_n: 200, convergence_threshold: 1e-3 },
    metadata: { project: "plot-screenshot" },
  };
}

/**
 * A 3-D run with one polyslab: an L with a hole, walls sloping in by 8°, cut by a horizontal
 * monitor half-way up and by a vertical one through the slope, the notch and the hole.
 */
function polySlabSimulation(): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: {
      size: [1.2e-6, 1.2e-6, 0.8e-6],
      resolution: 0.04e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 8,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures: [
      {
        type: "polyslab",
        vertices: [
          [-0.5e-6, -0.5e-6],
          [0.5e-6, -0.5e-6],
          [0.5e-6, 0],
          [0, 0],
          [0, 0.5e-6],
          [-0.5e-6, 0.5e-6],
        ],
        holes: [
          [
            [-0.32e-6, -0.32e-6],
            [-0.18e-6, -0.32e-6],
            [-0.18e-6, -0.18e-6],
            [-0.32e-6, -0.18e-6],
          ],
        ],
        z_min: -0.2e-6,
        z_max: 0.2e-6,
        sidewall_angle_deg: 8,
        material: "Si",
      },
    ],
    monitors: [
      {
        name: "xy",
        monitor_type: "field",
        center: [0, 0, 0.1e-6],
        size: [1.2e-6, 1.2e-6, 0],
        components: ["Ey"],
      },
      {
        name: "xz",
        monitor_type: "field",
        center: [0, -0.22e-6, 0],
        size: [1.2e-6, 0, 0.8e-6],
        components: ["Ey"],
      },
    ],
    fdtd_settings: { time_steps: 600, check_every_n: 200, convergence_threshold: 1e-3 },
    metadata: { project: "plot-screenshot" },
  };
}
let polySlabJobId: string;

before(async () => {
  svc = await startService();
  await svc.service.stores.accounts.createAccount({
    email: EMAIL,
    isAdmin: false,
    passwordHash: await hashPassword(PASSWORD),
  });
  const key = await svc.newKey(EMAIL);
  const submitted = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: shapesSimulation(),
  });
  assert.equal(submitted.status, 202, submitted.text);
  jobId = String(submitted.body.job_id);
  await waitForStatus(svc.baseUrl, key, jobId, ["COMPLETED"], 120_000);
  const slab = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: polySlabSimulation(),
  });
  assert.equal(slab.status, 202, slab.text);
  polySlabJobId = String(slab.body.job_id);
  await waitForStatus(svc.baseUrl, key, polySlabJobId, ["COMPLETED"], 120_000);

  browser = await launchBrowser({ width: 1280, height: 900 });
  page = await browser.context.newPage();
  page.on("pageerror", (err) => pageErrors.push(String(err)));
  page.on("console", (msg) => {
    if (msg.type() === "error") pageErrors.push(msg.text());
  });
  await page.goto(`${svc.baseUrl}/dashboard/sign-in`);
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  await page.goto(`${svc.baseUrl}/dashboard/jobs/${jobId}#plots`);
  await page.locator("#plot-canvas[data-state=ready]").waitFor({ timeout: 20_000 });
});

after(async () => {
  await browser?.close();
  await svc?.close();
});

/** The canvas as the browser shows it, compared with (or, when updating, saved as) `name`. */
async function matchesReference(name: string, shot?: Buffer): Promise<void> {
  const png = shot ?? (await page.locator("#plot-canvas").screenshot());
  assertMatchesReference(name, png, {
    channelTolerance: CHANNEL_TOLERANCE,
    maxDiffering: MAX_DIFFERING,
  });
}

test("the |E| heat map with the structures outlined looks as before", async () => {
  assert.equal(await page.locator("#plot-monitor").inputValue(), "xz");
  assert.equal(await page.locator("#plot-quantity").inputValue(), "E");
  await matchesReference("plot-xz-abs-e.png");
});

test("the Re Ey heat map (diverging colour map) looks as before", async () => {
  await page.locator("#plot-quantity").selectOption("Ey");
  await page.locator('#plot-canvas[data-quantity="Ey"]').waitFor();
  await matchesReference("plot-xz-re-ey.png");
});

test("the line plot with the structures it crosses looks as before", async () => {
  await page.locator("#plot-monitor").selectOption("zline");
  await page.locator('#plot-canvas[aria-label^="Line plot"]').waitFor();
  await matchesReference("plot-zline.png");
});

/**
 * The plot of `monitor` of the polyslab job as shown, and as shown when the summary lists no
 * structures (the answer rewritten on its way to the page): what differs is the outlines.
 */
async function withAndWithoutStructures(monitor: string): Promise<[Buffer, Buffer]> {
  const shots: Buffer[] = [];
  for (const strip of [false, true]) {
    if (strip) {
      await page.route("**/dashboard/api/jobs/*/result", async (route) => {
        const response = await route.fetch();
        const summary = (await response.json()) as { structures: unknown[] };
        await route.fulfill({ response, json: { ...summary, structures: [] } });
      });
    }
    const target = `${svc.baseUrl}/dashboard/jobs/${polySlabJobId}#plots`;
    // The same address again would only move to the fragment, not load the page.
    if (page.url() === target) await page.reload();
    else await page.goto(target);
    await page.locator("#plot-canvas[data-state=ready]").waitFor({ timeout: 20_000 });
    if ((await page.locator("#plot-monitor").inputValue()) !== monitor) {
      await page.locator("#plot-monitor").selectOption(monitor);
      await page.locator(`#plot-canvas[aria-label*="monitor ${monitor},"]`).waitFor();
    }
    shots.push(await page.locator("#plot-canvas").screenshot());
    if (strip) await page.unroute("**/dashboard/api/jobs/*/result");
  }
  return [shots[0]!, shots[1]!];
}

for (const monitor of ["xy", "xz"]) {
  test(`a polyslab is outlined where the ${monitor} plane cuts it`, async () => {
    const [outlined, bare] = await withAndWithoutStructures(monitor);
    const diff = compareImages(decodePng(outlined), decodePng(bare), CHANNEL_TOLERANCE)!;
    // The outline of a section about 1 µm across on a plot some 500 px wide: a few thousand
    // pixels of halo, dash and label; none would mean the polyslab was left out.
    assert.ok(diff.differing > 1500, `${monitor}: only ${diff.differing} pixels outline it`);
    await matchesReference(`plot-polyslab-${monitor}.png`, outlined);
  });
}

/** Cell centres in µm, rounded like the dashboard's payloads, of a graded axis [lo, hi]. */
function gradedAxisUm(lo: number, hi: number, fineLo: number, fineHi: number): number[] {
  const nodes = planAxisNodes(lo, hi, 40e-9, [{ loM: fineLo, hiM: fineHi, stepM: 8e-9 }], 1.2);
  return Array.from(
    { length: nodes.length - 1 },
    (_, i) => Math.round(((nodes[i]! + nodes[i + 1]!) / 2) * 1e12) / 1e6,
  );
}

/** `n` equally spaced coordinates whose cells span [lo, hi]. */
const evenlyUm = (lo: number, hi: number, n: number) =>
  Array.from({ length: n }, (_, i) => lo + ((i + 0.5) * (hi - lo)) / n);

/** An |E| payload of the xz monitor with the given samples (row-major, x slowest). */
function magnitudePayload(x: number[], z: number[], values: number[]): Record<string, unknown> {
  const scale = 1 / 32767;
  const ints = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => ints.writeInt16LE(Math.round(v / scale), 2 * i));
  return {
    monitor: "xz",
    quantity: "E",
    wavelength_m: 1.55e-6,
    kind: "plane",
    axes: ["x", "z"],
    coords_um: [x, z],
    shape: [x.length, z.length],
    full_shape: [x.length, z.length],
    slice: null,
    from_components: ["Ex", "Ey", "Ez"],
    encoding: "int16le-base64",
    scale,
    max_abs: 1,
    abs: ints.toString("base64"),
  };
}

/** The xz heat map of the first job as drawn from `payload` in place of the file's fields. */
async function mapOf(payload: Record<string, unknown>): Promise<Buffer> {
  await page.route(
    (url) => url.pathname.endsWith("/field"),
    (route) => route.fulfill({ json: payload }),
  );
  try {
    const target = `${svc.baseUrl}/dashboard/jobs/${jobId}#plots`;
    if (page.url() === target) await page.reload();
    else await page.goto(target);
    await page.locator("#plot-canvas[data-state=ready]").waitFor({ timeout: 20_000 });
    assert.equal(await page.locator("#plot-monitor").inputValue(), "xz");
    return await page.locator("#plot-canvas").screenshot();
  } finally {
    await page.unroute((url) => url.pathname.endsWith("/field"));
  }
}

test(
  "a graded grid's heat map places each sample at its coordinate",
  { skip: UPDATE },
  async () => {
    // Stripes sampled as a graded grid would sample them: 8 nm apart over the overrides (x within
    // ±80 nm, z from 0.1 to 0.5 µm), 40 nm apart elsewhere, the steps growing by up to 1.2×.
    const x = gradedAxisUm(-0.32e-6, 0.32e-6, -0.08e-6, 0.08e-6);
    const z = gradedAxisUm(-1e-6, 1e-6, 0.1e-6, 0.5e-6);
    const stripes = (u: number, w: number) =>
      0.5 + 0.5 * Math.cos((2 * Math.PI * u) / 0.16) * Math.cos((2 * Math.PI * w) / 0.4);
    const graded = x.flatMap((u) => z.map((w) => stripes(u, w)));
    // The same picture on a uniform grid as fine as the finest cells: each of its samples blends
    // the graded samples around it linearly by coordinate (holding the outermost ones beyond
    // them), as the canvas blends a uniform grid's samples when it scales them up.
    const between = (coords: number[], c: number): [number, number] => {
      if (c <= coords[0]!) return [0, 0];
      let i = 0;
      while (i + 1 < coords.length && coords[i + 1]! <= c) i++;
      return i + 1 < coords.length ? [i, (c - coords[i]!) / (coords[i + 1]! - coords[i]!)] : [i, 0];
    };
    const blended = (u: number, w: number) => {
      const [a, ta] = between(x, u);
      const [b, tb] = between(z, w);
      const at = (i: number, j: number) => graded[i * z.length + j]!;
      const row = (j: number) => (ta > 0 ? at(a, j) + (at(a + 1, j) - at(a, j)) * ta : at(a, j));
      return tb > 0 ? row(b) + (row(b + 1) - row(b)) * tb : row(b);
    };
    const [xLo, xHi] = cellEdges(x);
    const [zLo, zHi] = cellEdges(z);
    const xFine = evenlyUm(xLo, xHi, pixelsPerAxis(x));
    const zFine = evenlyUm(zLo, zHi, pixelsPerAxis(z));
    assert.ok(
      xFine.length > x.length && zFine.length > z.length,
      `${x.length} × ${z.length} samples, ${xFine.length} × ${zFine.length} pixels`,
    );
    const uniform = xFine.flatMap((u) => zFine.map((w) => blended(u, w)));
    const expected = decodePng(await mapOf(magnitudePayload(xFine, zFine, uniform)));
    const shown = decodePng(await mapOf(magnitudePayload(x, z, graded)));
    const diff = compareImages(shown, expected, CHANNEL_TOLERANCE)!;
    assert.ok(diff.differing <= MAX_DIFFERING * diff.total, JSON.stringify(diff));
    // Drawn by index, the overrides' samples would fill most of the map: the check would see it.
    const byIndex = magnitudePayload(
      evenlyUm(xLo, xHi, x.length),
      evenlyUm(zLo, zHi, z.length),
      graded,
    );
    const misplaced = compareImages(decodePng(await mapOf(byIndex)), expected, CHANNEL_TOLERANCE)!;
    assert.ok(
      misplaced.differing > 20 * MAX_DIFFERING * misplaced.total,
      JSON.stringify(misplaced),
    );
  },
);

test("the pages broke no policy and threw nothing", () => {
  assert.deepEqual(pageErrors, []);
});

/** The image with every colour near an entry of map `from` replaced by that entry of `to`. */
function recoloured(image: DecodedPng, from: Colormap, to: Colormap): DecodedPng {
  const data = Uint8Array.from(image.rgb);
  for (let p = 0; p < data.length; p += 3) {
    let best = -1;
    let bestDistance = 12;
    for (let i = 0; i < 256; i++) {
      const d =
        Math.abs(data[p]! - from.lut[3 * i]!) +
        Math.abs(data[p + 1]! - from.lut[3 * i + 1]!) +
        Math.abs(data[p + 2]! - from.lut[3 * i + 2]!);
      if (d < bestDistance) [best, bestDistance] = [i, d];
    }
    if (best >= 0) data.set(to.lut.subarray(3 * best, 3 * best + 3), p);
  }
  return { ...image, rgb: data };
}

test("the comparison would notice another colour map", { skip: UPDATE }, () => {
  const reference = decodePng(readFileSync(new URL("plot-xz-abs-e.png", FIXTURES)));
  const diff = compareImages(recoloured(reference, sequential, diverging), reference, 24)!;
  assert.ok(diff.differing > 20 * MAX_DIFFERING * diff.total, JSON.stringify(diff));
});
