/**
 * Batches in a real headless Chromium against a real service (SQLite, solver, storage), issue
 * #30: a thickness × material sweep of a slab with transmission and reflection planes, run for
 * real, submitted through the API with the account's key. The Batches page (reached from the
 * navigation) lists it; its page shows the parameters, the six jobs linking to their pages
 * (each of which links back), the result download (one HDF5 file), and the sweep plot: T at a
 * wavelength against thickness, a curve per material — a silicon slab (n ≈ 3.48) transmits
 * less than a glass one (n ≈ 1.44) at every thickness — redrawn in place when a control
 * changes from the keyboard. The pages fit a phone; markup in a batch's values stays text, and
 * another account reaches none of it. A running batch is cancelled from its page.
 * Saves the plot section as /tmp/emsim-dashboard-batch.png, the page as -batch-page.png and at
 * a phone's width as -batch-phone.png (`EMSIM_SCREENSHOT_DIR` changes the folder).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/auth/passwords.js";
import { decodePng } from "../../src/plot/testing/decode-png.js";
import type { BatchRecord } from "../../src/schema/batch.js";
import {
  call,
  longSimulation,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { HttpClient, launchBrowser, type Browser, signIn, until as waitUntil } from "./helpers.js";

const SCREENSHOTS = process.env.EMSIM_SCREENSHOT_DIR ?? "/tmp";
const EMAIL = "batches-dashboard@example.com";
const PASSWORD = "a long enough password";
const OTHER = "batches-other@example.com";
const BAND = { start: 1.5e-6, stop: 1.6e-6, points: 3 };

let svc: TestService;
let browser: Browser;
let page: Page;
let key: string;
let batchId: string;
const pageErrors: string[] = [];

async function waitForBatch(id: string, statuses: string[], timeoutMs = 180_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(svc.baseUrl, "GET", `/v1/batches/${id}`, { key });
    if (statuses.includes(String(res.body.status))) return res.body as unknown as BatchRecord;
    if (Date.now() > end) throw new Error(`batch ${id} still ${String(res.body.status)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A 1-D column with a slab whose thickness and material are swept, T and R planes around it. */
function slabSweep(): Record<string, unknown> {
  const plane = (name: string, z: number) => ({
    name,
    monitor_type: "flux",
    center: [0, 0, z],
    size: [0.05e-6, 0.05e-6, 0],
    wavelengths: BAND,
  });
  return {
    simulation: smallSimulation({
      // 25 nm: at least 10 cells per wavelength in silicon.
      domain: {
        size: [0.05e-6, 0.05e-6, 3e-6],
        resolution: 0.025e-6,
        boundary_conditions: ["periodic", "periodic", "pml"],
        pml_layers: 12,
      },
      monitors: [plane("T", 1.2e-6), plane("R", -1e-6)],
      fdtd_settings: { time_steps: 20000, check_every_n: 200, convergence_threshold: 1e-5 },
    }),
    parameters: [
      { name: "thickness", path: "/structures/0/size/2", values: [0.3e-6, 0.5e-6, 0.7e-6] },
      { name: "material", path: "/structures/0/material", values: ["SiO2", "Si"] },
    ],
    metadata: { project: "slab sweep" },
  };
}

before(async () => {
  svc = await startService();
  await svc.service.stores.accounts.createAccount({
    email: EMAIL,
    isAdmin: false,
    passwordHash: await hashPassword(PASSWORD),
  });
  key = await svc.newKey(EMAIL);
  const sub = await call(svc.baseUrl, "POST", "/v1/batches", { key, body: slabSweep() });
  assert.equal(sub.status, 202, sub.text);
  batchId = String(sub.body.batch_id);
  const done = await waitForBatch(batchId, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", JSON.stringify(done.jobs));
  assert.equal(done.counts.COMPLETED, 6);

  browser = await launchBrowser({ width: 1280, height: 900 });
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

/** Signs `client` in over plain HTTP (a second session, or another account). */
async function signInOver(client: HttpClient, email: string): Promise<void> {
  const form = await client.get("/dashboard/sign-in");
  const res = await client.post("/dashboard/sign-in", {
    _csrf: HttpClient.csrfIn(form.text),
    email,
    password: PASSWORD,
  });
  assert.equal(res.res.status, 303, res.text);
}

/** Every `…_html` string in a JSON answer, joined. */
function htmlIn(value: unknown): string {
  if (Array.isArray(value)) return value.map(htmlIn).join("");
  if (!value || typeof value !== "object") return "";
  return Object.entries(value)
    .map(([k, v]) => (k.endsWith("_html") && typeof v === "string" ? v : htmlIn(v)))
    .join("");
}

/** `until` (helpers.ts) on this file's page. */
const until = (expression: string, timeoutMs?: number) => waitUntil(page, expression, timeoutMs);

/** The sweep plot's numbers table: header, then rows of cells. */
async function sweepNumbers(): Promise<string[][]> {
  return page.evaluate<string[][]>(
    `[...document.querySelectorAll("#sweep-table tr")].map((tr) =>
      [...tr.querySelectorAll("th, td")].map((c) => (c.textContent ?? "").trim()))`,
  );
}

/** Waits until the plot's script has wired its controls (it is loaded after the page). */
async function controlsLive(): Promise<void> {
  await until(`document.querySelector("form[data-sweep-plot]")?.dataset.sweepLive === "true"`);
}

async function imageLoaded(): Promise<void> {
  await until(
    "(() => { const i = document.querySelector('#sweep-image'); return i && i.complete && i.naturalWidth > 0; })()",
  );
}

test("the Batches page, reached from the navigation, lists the batch", async () => {
  await page.goto(`${svc.baseUrl}/dashboard/jobs`);
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Batches" }).click(),
  ]);
  assert.match(page.url(), /\/dashboard\/batches$/);
  const row = page.locator(`tr[data-batch-id="${batchId}"]`);
  assert.equal(await row.count(), 1);
  const text = await row.innerText();
  assert.match(text, /Completed/);
  assert.match(text, /6 completed/);
  assert.match(text, /thickness\s*×3/);
  assert.match(text, /material\s*×2/);
  const nav = page.getByRole("navigation", { name: "Main" });
  assert.equal(
    await nav.getByRole("link", { name: "Batches" }).getAttribute("aria-current"),
    "page",
  );
});

test("the batch's page: parameters, its jobs (each linking back), and the result file", async () => {
  await page.goto(`${svc.baseUrl}/dashboard/batches`);
  await Promise.all([
    page.waitForNavigation(),
    page.locator(`tr[data-batch-id="${batchId}"] a.job-link`).click(),
  ]);
  assert.match(await page.locator("h1").innerText(), new RegExp(batchId));
  assert.match(await page.locator("#batch-live").innerText(), /All 6 jobs ended: 6 completed/);
  const parameters = await page.locator("#batch-parameters").innerText();
  // A length in µm, its unit said once (the values were metres with none: 3e-7, 5e-7, 7e-7).
  assert.match(parameters, /thickness\s+\/structures\/0\/size\/2\s+3\s+0.3, 0.5, 0.7 µm/);
  assert.match(parameters, /material\s+\/structures\/0\/material\s+2\s+SiO2, Si/);

  const rows = page.locator("#batch-jobs-body tr");
  assert.equal(await rows.count(), 6);
  const first = await rows.nth(0).innerText();
  assert.match(first, /^0\b/);
  assert.match(first, /thickness\s+0.3 µm/);
  assert.match(first, /material\s+SiO2/);
  assert.match(await rows.nth(5).innerText(), /thickness\s+0.7 µm[\s\S]*material\s+Si\b/);
  // Row 3's job page names the batch and the values, and links back.
  const link = rows.nth(3).getByRole("link");
  const jobId = (await link.getAttribute("href"))!.split("/").pop()!;
  await Promise.all([page.waitForNavigation(), link.click()]);
  assert.match(page.url(), new RegExp(`/dashboard/jobs/${jobId}$`));
  const back = page.locator("#job-batch");
  assert.match(
    await back.innerText(),
    /Part of batch [0-9a-f]{8} · thickness = 0.5 µm, material = Si/,
  );
  await Promise.all([page.waitForNavigation(), back.getByRole("link").click()]);
  assert.match(page.url(), new RegExp(`/dashboard/batches/${batchId}$`));

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Download result/ }).click(),
  ]);
  const file = readFileSync((await download.path())!);
  assert.equal(file.subarray(0, 8).toString("latin1"), "\x89HDF\r\n\x1a\n", "an HDF5 file");
});

test("the sweep plot: T against thickness, a curve per material, Si below SiO2", async () => {
  await page.goto(`${svc.baseUrl}/dashboard/batches/${batchId}`);
  await imageLoaded();
  const quantities = await page.locator("#sweep-quantity option").allInnerTexts();
  assert.deepEqual(quantities, ["T (transmittance)", "R (reflectance)"]);
  assert.deepEqual(await page.locator("#sweep-wavelength option").allInnerTexts(), [
    "1.5 µm",
    "1.55 µm",
    "1.6 µm",
  ]);
  assert.equal(await page.locator("#sweep-wavelength").inputValue(), "1");
  assert.match(
    await page.locator("#sweep-caption").innerText(),
    /T \(transmittance\) at 1\.55 µm against thickness, one curve per value of material/,
  );
  await page.locator("#sweep-plot summary").click();
  const [header, ...rows] = await sweepNumbers();
  assert.deepEqual(header, ["thickness (µm)", "material = SiO2", "material = Si"]);
  assert.deepEqual(
    rows.map((r) => r[0]),
    ["0.3", "0.5", "0.7"],
  );
  for (const [t, glass, silicon] of rows.map((r) => r.map(Number))) {
    assert.ok(glass! > 0.85 && glass! <= 1.01, `SiO2 T ${glass} at ${t}`);
    assert.ok(silicon! > 0.1 && silicon! < glass! - 0.05, `Si T ${silicon} at ${t}`);
  }
  // The image is the chart of those numbers, drawn by the spectra's chart.
  const src = (await page.locator("#sweep-image").getAttribute("src"))!;
  const res = await page.request.get(`${svc.baseUrl}${src}`);
  assert.equal(res.status(), 200);
  assert.equal(res.headers()["content-type"], "image/png");
  const png = decodePng(await res.body());
  assert.equal(png.text.Title, `T (transmittance) of batch ${batchId.slice(0, 8)}`);
  await page
    .locator("#sweep-plot")
    .screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-batch.png` });
  await page.screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-batch-page.png`, fullPage: true });
});

test("the plot's controls work from the keyboard and redraw in place", async () => {
  await page.goto(`${svc.baseUrl}/dashboard/batches/${batchId}`);
  await imageLoaded();
  await controlsLive();
  const before = await page.locator("#sweep-image").getAttribute("src");
  const wavelength = page.locator("#sweep-wavelength");
  await wavelength.focus();
  await page.keyboard.press("ArrowDown");
  await until(
    `document.querySelector("#sweep-image")?.getAttribute("src")?.includes("wavelength=2")`,
  );
  await imageLoaded();
  assert.notEqual(await page.locator("#sweep-image").getAttribute("src"), before);
  assert.match(await page.locator("#sweep-caption").innerText(), /at 1\.6 µm/);
  assert.equal(
    await page.evaluate("document.activeElement?.id"),
    "sweep-wavelength",
    "focus stays on the control",
  );
  assert.match(page.url(), /wavelength=2/, "the address follows the choice");

  // Another quantity keeps the wavelength shown (the nearest of its own).
  await page.locator("#sweep-quantity").selectOption({ label: "R (reflectance)" });
  await until(
    `document.querySelector("#sweep-caption")?.textContent?.includes("R (reflectance) at 1.6 µm")`,
  );
  assert.equal(await wavelength.inputValue(), "2");
  // Reloading shows the same choice, rendered by the server.
  await page.reload();
  await controlsLive();
  assert.equal(await page.locator("#sweep-quantity").inputValue(), "flux:R");
  assert.equal(await wavelength.inputValue(), "2");
  assert.equal(await page.locator("[data-sweep-submit]").isVisible(), false, "no Plot button");
});

test("the batch's page and the list fit a 390-pixel phone", async () => {
  await page.setViewportSize({ width: 390, height: 900 });
  try {
    for (const path of [`/dashboard/batches/${batchId}`, "/dashboard/batches"]) {
      await page.goto(`${svc.baseUrl}${path}`);
      const width = Number(await page.evaluate("document.documentElement.scrollWidth"));
      assert.ok(width <= 390, `${path} is ${width} pixels wide in a 390-pixel window`);
    }
    await page.goto(`${svc.baseUrl}/dashboard/batches/${batchId}`);
    await imageLoaded();
    await page.screenshot({
      path: `${SCREENSHOTS}/emsim-dashboard-batch-phone.png`,
      fullPage: true,
    });
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
});

test("a plot the batch does not have is a 404; signed out, sign-in", async () => {
  const base = `${svc.baseUrl}/dashboard/batches/${batchId}/plot.png`;
  assert.equal((await page.request.get(`${base}?quantity=flux:nope`)).status(), 404);
  assert.equal((await page.request.get(`${base}?wavelength=3`)).status(), 404);
  const signedOut = await fetch(base, { redirect: "manual" });
  assert.equal(signedOut.status, 303);
  assert.match(signedOut.headers.get("location") ?? "", /sign-in/);
});

test("markup in a batch's values and metadata stays text; another account reaches none of it", async () => {
  const xss = `"'><img src=x onerror=alert(1)><script>alert(2)</script>`;
  const sub = await call(svc.baseUrl, "POST", "/v1/batches", {
    key,
    body: {
      simulation: smallSimulation(),
      parameters: [{ name: "tag", path: "/metadata/project", values: [xss, "plain"] }],
      metadata: { [xss]: xss },
    },
  });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.batch_id);
  await waitForBatch(id, ["COMPLETED", "FAILED"]);
  const owner = new HttpClient(svc.baseUrl);
  await signInOver(owner, EMAIL);
  for (const path of [
    `/dashboard/batches/${id}`,
    "/dashboard/batches",
    `/dashboard/api/batches/${id}`,
    "/dashboard/api/batches",
  ]) {
    const { res, text: body } = await owner.get(path);
    assert.equal(res.status, 200, path);
    // JSON carries data as data; only its server-rendered HTML goes into a page.
    const text = path.includes("/api/") ? htmlIn(JSON.parse(body)) : body;
    if (path.includes(id)) assert.ok(text.includes("alert(1)"), `${path} shows the value`);
    for (const marker of ["<img src=x", "<script>alert", `"'><`]) {
      assert.ok(!text.includes(marker), `${path} has ${marker} unescaped`);
    }
  }

  await svc.service.stores.accounts.createAccount({
    email: OTHER,
    isAdmin: false,
    passwordHash: await hashPassword(PASSWORD),
  });
  const other = new HttpClient(svc.baseUrl);
  await signInOver(other, OTHER);
  for (const path of [
    `/dashboard/batches/${batchId}`,
    `/dashboard/batches/${batchId}/plot.png`,
    `/dashboard/batches/${batchId}/download`,
    `/dashboard/api/batches/${batchId}`,
    `/dashboard/api/batches/${batchId}/plot`,
  ]) {
    assert.equal((await other.get(path)).res.status, 404, path);
  }
  const list = await other.get("/dashboard/batches");
  assert.ok(!list.text.includes(batchId), "not in another account's list");
  const token = HttpClient.csrfIn(list.text);
  const cancel = await other.post(`/dashboard/batches/${batchId}/cancel`, {
    _csrf: token,
    confirm: "yes",
  });
  assert.equal(cancel.res.status, 404);
});

test("a running batch is cancelled from its page", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/batches", {
    key,
    body: {
      simulation: longSimulation(),
      parameters: [
        {
          name: "wl",
          path: "/source/wavelength",
          range: { start: 1.5e-6, stop: 1.6e-6, points: 3 },
        },
      ],
    },
  });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.batch_id);
  const running = await waitForBatch(id, ["RUNNING"]);
  await waitForStatus(svc.baseUrl, key, running.jobs[0]!.job_id, ["RUNNING"]);
  await page.goto(`${svc.baseUrl}/dashboard/batches/${id}`);
  assert.match(await page.locator("#batch-live").innerText(), /Running/);
  await page.getByRole("button", { name: `Cancel batch ${id.slice(0, 8)}` }).click();
  const dialog = page.getByRole("dialog");
  assert.match(await dialog.innerText(), /queued or running jobs end FAILED/);
  await Promise.all([
    page.waitForNavigation(),
    dialog.getByRole("button", { name: "Cancel batch" }).click(),
  ]);
  assert.match(page.url(), new RegExp(`/dashboard/batches/${id}\\?notice=batch-cancelled$`));
  assert.match(await page.getByRole("status").first().innerText(), /Batch cancelled/);
  const ended = await waitForBatch(id, ["FAILED"], 15_000);
  assert.equal(ended.counts.FAILED, 3);
  // The page follows by itself: it reloads once the batch has ended.
  await page.locator("#batch-live .badge-failed").waitFor({ timeout: 15_000 });
  const rows = await page.locator("#batch-jobs-body").innerText();
  assert.match(rows, /Cancelled with its batch before it started\./);
  assert.equal(await page.getByRole("button", { name: /Cancel batch/ }).count(), 0);
});

test("the pages ran no script into an error", () => {
  assert.deepEqual(pageErrors, []);
});
