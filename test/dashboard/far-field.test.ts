/**
 * A completed far-field job's page in a real headless Chromium against a real service (SQLite,
 * solver, storage): a z-directed point dipole in vacuum with a far-field box around it, run for
 * real. Its page shows the monitor's radiation pattern at the source wavelength — the image
 * loads, its curves follow the dipole's sin²θ (I(θ) = I_max·sin²θ; within 3 % of the radius
 * plus the line's width at 20 cells per wavelength) — with the other wavelength behind a
 * disclosure, and the page fits a 1280-pixel window and a 390-pixel phone. It saves the
 * section as /tmp/emsim-dashboard-far-field.png, the page at a phone's width as
 * -far-field-phone.png and the image itself as -far-field-pattern.png (`EMSIM_SCREENSHOT_DIR`
 * changes the folder).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/auth/passwords.js";
import { call, startService, waitForStatus, type TestService } from "../helpers/service.js";
import { decodePng } from "../cli/helpers.js";
import { checkCurve, curvePixels, deg, FIRST, SECOND } from "../cli/polar-curve.js";
import { launchBrowser, type Browser } from "./helpers.js";

const SCREENSHOTS = process.env.EMSIM_SCREENSHOT_DIR ?? "/tmp";
const EMAIL = "far-field@example.com";
const PASSWORD = "a long enough password";

let svc: TestService;
let browser: Browser;
let page: Page;
let jobId: string;
const pageErrors: string[] = [];

/** A z dipole at the origin (1 µm) in vacuum, a far-field box around it: θ every 10°. */
function dipoleFarField(): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: { size: [0.8e-6, 0.8e-6, 0.8e-6], resolution: 0.05e-6 },
    source: {
      source_type: "point_dipole",
      wavelength: 1e-6,
      center: [0, 0, 0],
      polarization: "Ez",
    },
    monitors: [
      {
        name: "pattern",
        monitor_type: "far_field",
        center: [0, 0, 0],
        size: [0.5e-6, 0.5e-6, 0.5e-6],
        wavelengths: [0.9e-6, 1e-6],
        theta_deg: { start: 0, stop: 180, points: 19 },
        phi_deg: [0, 90, 180, 270],
      },
    ],
    fdtd_settings: { time_steps: 20000, check_every_n: 200, convergence_threshold: 1e-5 },
  };
}

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
    body: dipoleFarField(),
  });
  assert.equal(submitted.status, 202, submitted.text);
  jobId = String(submitted.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, jobId, ["COMPLETED", "FAILED"], 240_000);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));

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
});

after(async () => {
  await browser?.close();
  await svc?.close();
});

async function openJob(width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${svc.baseUrl}/dashboard/jobs/${jobId}`);
  await page.locator("#far-field-title").waitFor();
}

const scrollWidth = async () => Number(await page.evaluate("document.documentElement.scrollWidth"));

/** The first pattern image on the page, once loaded: its address and shown and natural sizes. */
async function shownImage() {
  const img = page.locator("#far-field img.far-field").first();
  await page.waitForFunction(
    "(() => { const i = document.querySelector('#far-field img.far-field'); return i && i.complete && i.naturalWidth > 0; })()",
  );
  const natural = Number(
    await page.evaluate("document.querySelector('#far-field img.far-field').naturalWidth"),
  );
  const box = (await img.boundingBox())!;
  return { img, src: (await img.getAttribute("src"))!, natural, box };
}

test("the job's page shows the pattern at the source wavelength, within a 1280-pixel window", async () => {
  await openJob(1280);
  const { img, src, natural, box } = await shownImage();
  assert.match(src, /far-field\.png\?monitor=pattern&wavelength=1$/);
  assert.match((await img.getAttribute("alt")) ?? "", /pattern at 1 µm/);
  assert.ok(natural > 400 && box.width > 400, `drawn ${box.width} wide of ${natural}`);
  const more = page.locator("#far-field details.far-field-more");
  assert.match(await more.locator("summary").innerText(), /Other wavelengths of pattern \(1\)/);
  assert.match((await more.locator("img").getAttribute("src")) ?? "", /wavelength=0$/);
  await page
    .locator("#far-field")
    .screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-far-field.png` });
  const width = await scrollWidth();
  assert.ok(width <= 1280, `the page is ${width} pixels wide in a 1280-pixel window`);
});

test("the drawn pattern is the dipole's sin²θ in both cuts", async () => {
  await openJob(1280);
  const { src } = await shownImage();
  const res = await page.request.get(`${svc.baseUrl}${src}`);
  assert.equal(res.status(), 200);
  assert.equal(res.headers()["content-type"], "image/png");
  const body = await res.body();
  writeFileSync(`${SCREENSHOTS}/emsim-dashboard-far-field-pattern.png`, body);
  const image = decodePng(body);
  const sin2 = (t: number) => Math.sin(deg(t)) ** 2;
  // The line's half-width and rounding, and 3 % of the radius for the solver's error.
  const tolerancePx = 2.5 + 0.03 * 200;
  // The φ = 90° cut is drawn over the φ = 0° one: for a z dipole they coincide, so the second
  // is checked whole and what shows of the first (inside the polar area) in the same frame.
  const second = curvePixels(image, SECOND);
  const frame = checkCurve(second, sin2, "φ = 90° cut", { tolerancePx });
  assert.ok(Math.abs(frame.radius - 200) < 8, `radius ${frame.radius}`);
  const first = curvePixels(image, FIRST).filter(
    ([x, y]) => Math.hypot(x - frame.cx, y - frame.cy) < frame.radius + 10,
  );
  checkCurve(first, sin2, "φ = 0° cut", { tolerancePx, frame, partial: true });
});

test("a missing monitor or wavelength is a 404", async () => {
  const base = `${svc.baseUrl}/dashboard/jobs/${jobId}/far-field.png`;
  assert.equal((await page.request.get(`${base}?monitor=nope`)).status(), 404);
  assert.equal((await page.request.get(`${base}?monitor=pattern&wavelength=2`)).status(), 404);
  assert.equal((await page.request.get(`${base}?monitor=pattern&wavelength=x`)).status(), 404);
});

test("at a phone's width the pattern shrinks to fit and the page is no wider than the window", async () => {
  await openJob(390);
  const { box } = await shownImage();
  assert.ok(
    box.x >= 0 && box.x + box.width <= 390,
    `the image spans ${box.x} to ${box.x + box.width}`,
  );
  const width = await scrollWidth();
  await page.screenshot({
    path: `${SCREENSHOTS}/emsim-dashboard-far-field-phone.png`,
    fullPage: true,
  });
  assert.ok(width <= 390, `the page is ${width} pixels wide in a 390-pixel window`);
});

test("the page ran no script into an error", () => {
  assert.deepEqual(pageErrors, []);
});
