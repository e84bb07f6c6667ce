/**
 * The set-up's 3-D view (static/setup-3d.js, issue #31) in a real headless Chromium, which
 * draws WebGL with SwiftShader, against a real service: on a signed-in dashboard page (so
 * under the dashboard's CSP) the view is imported as the builder imports it, with three.js
 * served beside it, and mounted with the scene of examples/si-strip-waveguide.json as the
 * service's own check gives it (src/preview/scene.ts). The picture has the Si strip in the
 * middle over the SiO2 substrate below (translucent tints of their colours), the arrow keys,
 * a drag and the wheel change it and 0 brings it back, a second update replaces the objects rather than adding to them, and a
 * browser without WebGL gets a sentence instead. Saves the view as
 * /tmp/emsim-dashboard-setup-3d.png (`EMSIM_SCREENSHOT_DIR` changes the folder).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/auth/passwords.js";
import { setupScene, type SetupScene } from "../../src/preview/scene.js";
import type { SimulationRequest } from "../../src/schema/simulation.js";
import { startService, type TestService } from "../helpers/service.js";
import { launchBrowser, type Browser, signIn } from "./helpers.js";

const SCREENSHOTS = process.env.EMSIM_SCREENSHOT_DIR ?? "/tmp";
const EMAIL = "setup-3d@example.com";
const PASSWORD = "a long enough password";

let svc: TestService;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

/** An example's scene, through the service's own check (what the builder's preview does). */
function exampleScene(name: string): SetupScene {
  const request = JSON.parse(
    readFileSync(new URL(`../../examples/${name}.json`, import.meta.url), "utf8"),
  ) as SimulationRequest;
  return setupScene(svc.service.jobs.check(request).spec);
}

before(async () => {
  svc = await startService();
  await svc.service.stores.accounts.createAccount({
    email: EMAIL,
    isAdmin: false,
    passwordHash: await hashPassword(PASSWORD),
  });
  browser = await launchBrowser({ width: 1000, height: 800 });
  page = await browser.context.newPage();
  page.on("pageerror", (err) => pageErrors.push(String(err)));
  page.on("console", (msg) => {
    if (msg.type() === "error") pageErrors.push(msg.text());
  });
  await signIn(page, svc.baseUrl, EMAIL, PASSWORD);
});

after(async () => {
  await browser?.close();
  await svc?.close();
});

interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The canvas's pixels (RGBA), read back after the next frame (base64: a fast transfer). */
async function canvasPixels(): Promise<Pixels> {
  const { width, height, base64 } = await page.evaluate<{
    width: number;
    height: number;
    base64: string;
  }>(`(async () => {
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    const gl = document.querySelector("#setup-3d-test canvas");
    const copy = document.createElement("canvas");
    copy.width = gl.width;
    copy.height = gl.height;
    const ctx = copy.getContext("2d");
    ctx.drawImage(gl, 0, 0);
    const bytes = ctx.getImageData(0, 0, copy.width, copy.height).data;
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return { width: copy.width, height: copy.height, base64: btoa(binary) };
  })()`);
  return { width, height, data: Buffer.from(base64, "base64") };
}

/** Pixels of a box (fractions of the canvas) that `pick` accepts. */
function countIn(
  p: Pixels,
  box: [number, number, number, number],
  pick: (r: number, g: number, b: number) => boolean,
): number {
  let n = 0;
  const [x0, y0, x1, y1] = box;
  for (let y = Math.floor(y0 * p.height); y < y1 * p.height; y++) {
    for (let x = Math.floor(x0 * p.width); x < x1 * p.width; x++) {
      const i = 4 * (y * p.width + x);
      if (pick(p.data[i]!, p.data[i + 1]!, p.data[i + 2]!)) n++;
    }
  }
  return n;
}

/** The share of pixels whose red differs by more than 30 between two pictures. */
function changedShare(a: Pixels, b: Pixels): number {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i]! - b.data[i]!) > 30) changed++;
  }
  return changed / (a.width * a.height);
}

const reddish = (r: number, g: number, b: number) => r - g > 25 && r - b > 20;
const bluish = (r: number, _g: number, b: number) => b - r > 25;

type Stats = { objects: number; geometries: number; labels: number };

test("the view draws the strip waveguide, turns with the keys, and replaces its objects", async () => {
  const strip = exampleScene("si-strip-waveguide");
  const film = exampleScene("dipole-above-gold-film");
  await page.goto(`${svc.baseUrl}/dashboard/jobs`);
  const first = await page.evaluate<{
    stats: Stats;
    label: string | null;
    tabIndex: number;
    labels: string[];
    legend: string | undefined;
  }>(`(async () => {
    const box = document.createElement("div");
    box.id = "setup-3d-test";
    Object.assign(box.style, { width: "800px", height: "500px" });
    document.body.prepend(box);
    const { mountSetupView } = await import("/dashboard/static/setup-3d.js");
    const view = mountSetupView(box);
    window.setupView = view;
    view.update(${JSON.stringify(strip)});
    const canvas = box.querySelector("canvas");
    return {
      stats: view.stats(),
      label: canvas.getAttribute("aria-label"),
      tabIndex: canvas.tabIndex,
      labels: [...box.querySelectorAll(".setup-3d-label")].map((e) => e.textContent),
      legend: box.querySelector(".setup-3d-legend")?.textContent,
    };
  })()`);
  assert.deepEqual(pageErrors, []);
  assert.equal(first.tabIndex, 0);
  assert.match(first.label ?? "", /3 µm × 25 nm × 3 µm/);
  assert.match(first.label ?? "", /2 structures \(SiO2, Si\)/);
  assert.ok(first.labels.includes("xz"), first.labels.join());
  assert.ok(
    first.labels.some((t) => /^y \(drawn ×/.test(t ?? "")),
    "the thin y axis says so",
  );
  assert.match(first.legend ?? "", /Si \(ε 12\.08\)/);

  const before = await canvasPixels();
  // The strip (Si, red) in the middle, just above the origin the camera looks at; the
  // substrate (SiO2, blue) over the lower half; the region above the domain left white.
  const middle = countIn(before, [0.45, 0.4, 0.55, 0.5], reddish);
  const substrate = countIn(before, [0.2, 0.55, 0.8, 0.75], bluish);
  const sky = countIn(before, [0.0, 0.0, 1.0, 0.05], (r, g, b) => r + g + b < 740);
  assert.ok(middle > 100, `strip pixels in the middle: ${middle}`);
  assert.ok(substrate > 5000, `substrate pixels: ${substrate}`);
  assert.equal(sky, 0, "the top rows are background");

  await page.locator("#setup-3d-test canvas").focus();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowUp");
  const turned = await canvasPixels();
  assert.ok(changedShare(before, turned) > 0.01, "the arrow keys turn the view");
  await page.keyboard.press("0");
  const reset = await canvasPixels();
  assert.ok(changedShare(before, reset) < 0.001, "0 goes back to the first view");
  // A drag turns it too, and the wheel zooms.
  const at = (await page.locator("#setup-3d-test canvas").boundingBox())!;
  await page.mouse.move(at.x + 400, at.y + 250);
  await page.mouse.down();
  await page.mouse.move(at.x + 480, at.y + 230, { steps: 4 });
  await page.mouse.up();
  const dragged = await canvasPixels();
  assert.ok(changedShare(reset, dragged) > 0.01, "a drag turns the view");
  await page.mouse.wheel(0, -200);
  assert.ok(changedShare(dragged, await canvasPixels()) > 0.01, "the wheel zooms");
  await page.keyboard.press("0");

  await page
    .locator("#setup-3d-test")
    .screenshot({ path: join(SCREENSHOTS, "emsim-dashboard-setup-3d.png") });

  const counts = await page.evaluate<{ other: Stats; again: Stats }>(`(() => {
    const view = window.setupView;
    view.update(${JSON.stringify(film)});
    const other = view.stats();
    view.update(${JSON.stringify(strip)});
    view.update(${JSON.stringify(strip)});
    return { other, again: view.stats() };
  })()`);
  assert.notDeepEqual(counts.other, first.stats, "the film's scene is another picture");
  assert.deepEqual(counts.again, first.stats, "updates replace the objects, nothing piles up");
  assert.deepEqual(pageErrors, []);
});

test("without WebGL the container says so in words", async () => {
  const scene = exampleScene("si-strip-waveguide");
  const text = await page.evaluate<{ text: string | null; canvases: number }>(`(async () => {
    const original = HTMLCanvasElement.prototype.getContext;
    // A browser without WebGL: every WebGL context refused.
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return kind.startsWith("webgl") ? null : original.call(this, kind, ...rest);
    };
    try {
      const box = document.createElement("div");
      document.body.append(box);
      const { mountSetupView } = await import("/dashboard/static/setup-3d.js");
      mountSetupView(box).update(${JSON.stringify(scene)});
      return { text: box.textContent, canvases: box.querySelectorAll("canvas").length };
    } finally {
      HTMLCanvasElement.prototype.getContext = original;
    }
  })()`);
  assert.equal(text.canvases, 0);
  assert.match(text.text ?? "", /cannot draw the 3-D view.*WebGL is unavailable/);
  assert.match(text.text ?? "", /2 structures \(SiO2, Si\)/);
  assert.deepEqual(pageErrors, []);
});
