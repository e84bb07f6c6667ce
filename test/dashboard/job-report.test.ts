/**
 * A completed job's page in a real headless Chromium against a real service (SQLite, solver,
 * storage): the solver report is words and numbers with units, not the report's JSON, and the
 * page fits the window — at 1280 pixels and at a phone's 390 — however long the report's
 * values. The time split is a bar with its words beside it; the set-up names a graded grid's
 * finest step; a flux monitor's spectrum is listed as numbers. It saves the page as
 * /tmp/emsim-dashboard-job.png (and -job-phone.png), the report as -report.png
 * (`EMSIM_SCREENSHOT_DIR` changes the folder).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/auth/passwords.js";
import {
  call,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { launchBrowser, type Browser } from "./helpers.js";

const SCREENSHOTS = process.env.EMSIM_SCREENSHOT_DIR ?? "/tmp";
const EMAIL = "report@example.com";
const PASSWORD = "a long enough password";

let svc: TestService;
let browser: Browser;
let page: Page;
let jobId: string;
const pageErrors: string[] = [];

/** A 1-D column refined over its glass slab, with a field line and two flux planes. */
function gradedFluxColumn(): Record<string, unknown> {
  const band = { start: 1.3e-6, stop: 1.8e-6, points: 6 };
  const plane = (name: string, z: number) => ({
    name,
    monitor_type: "flux",
    center: [0, 0, z],
    size: [0.05e-6, 0.05e-6, 0],
    wavelengths: band,
  });
  const base = smallSimulation();
  return {
    ...base,
    domain: {
      ...(base.domain as Record<string, unknown>),
      mesh_overrides: [
        { center: [0, 0, 0.5e-6], size: [0, 0, 0.6e-6], resolution: [0.05e-6, 0.05e-6, 0.01e-6] },
      ],
    },
    monitors: [...(base.monitors as unknown[]), plane("T", 1.2e-6), plane("R", -1e-6)],
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
    body: gradedFluxColumn(),
  });
  assert.equal(submitted.status, 202, submitted.text);
  jobId = String(submitted.body.job_id);
  await waitForStatus(svc.baseUrl, key, jobId, ["COMPLETED"], 120_000);

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
  await page.locator("#report-title").waitFor();
}

const scrollWidth = async () => Number(await page.evaluate("document.documentElement.scrollWidth"));

test("a completed job's page is no wider than a 1280-pixel window", async () => {
  await openJob(1280);
  const width = await scrollWidth();
  await page.screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-job.png`, fullPage: true });
  assert.ok(width <= 1280, `the page is ${width} pixels wide in a 1280-pixel window`);
});

test("the solver report shows words and units, not the report's JSON or its keys", async () => {
  await openJob(1280);
  const report = page.locator("section[aria-labelledby=report-title]");
  const text = await report.innerText();
  assert.doesNotMatch(text, /[{}]|":/, `raw JSON in the report:\n${text}`);
  // The notes quote request fields (mesh_overrides, time_steps); labels and values never
  // show the report's own keys.
  const labels = await report.locator("dt").allInnerTexts();
  assert.ok(labels.length >= 6, labels.join(" | "));
  for (const label of labels) assert.doesNotMatch(label, /_/, `a raw key as a label: ${label}`);
  assert.doesNotMatch(
    text,
    /grid_step_m|steps_per_sweep|_seconds|memory_bytes|mcells_per_second/,
    `a report key in the report:\n${text}`,
  );
  // Rounded: no float printed with its full 16 digits.
  assert.doesNotMatch(text, /\d\.\d{7,}/, `an unrounded number in the report:\n${text}`);
  assert.match(text, /[\d,]+ of [\d,]+, (converged at step [\d,]+|did not converge)/);
  assert.match(text, /Mcell\/s/);
});

test("the time split is a bar with its parts named beside it", async () => {
  await openJob(1280);
  const report = page.locator("section[aria-labelledby=report-title]");
  await report.screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-report.png` });
  const bar = report.locator("[role=img]");
  const label = (await bar.getAttribute("aria-label")) ?? "";
  assert.match(label, /set-up .*stepping/i, label);
  const segments = await bar.locator("rect").count();
  assert.ok(segments >= 4, `${segments} parts drawn`);
  const box = (await bar.boundingBox())!;
  assert.ok(box.width > 200 && box.height > 4, `the bar is ${box.width} × ${box.height}`);
  const legend = await page.locator(".time-legend").innerText();
  assert.match(legend, /kernel/);
  assert.match(legend, /\d+ %/);
});

test("the set-up names the graded grid and a flux monitor's spectrum is listed", async () => {
  await openJob(1280);
  const setup = await page.locator("#setup-title + dl").innerText();
  assert.match(setup, /50 nm, refined to 10 nm by 1 mesh override/);
  const rows = page.locator("#spectra table").first().locator("tbody tr");
  assert.equal(await rows.count(), 6);
});

test("at a phone's width the page is no wider than the window either", async () => {
  await openJob(390);
  const width = await scrollWidth();
  await page.screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-job-phone.png`, fullPage: true });
  assert.ok(width <= 390, `the page is ${width} pixels wide in a 390-pixel window`);
});

test("the page ran no script into an error", () => {
  assert.deepEqual(pageErrors, []);
});
