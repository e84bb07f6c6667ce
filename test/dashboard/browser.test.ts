/**
 * The dashboard end to end, as an operator and a user meet it: a real `emsim server` process
 * (real SQLite, real solver), its printed one-time setup address, and a real headless Chromium.
 * The steps run in order and share one browser profile.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Page, Response } from "playwright-core";
import { startServerProcess, type ServerProcess } from "../helpers/process.js";
import { call, freePort, tempDir, waitForStatus } from "../helpers/service.js";
import { crossSectionSimulation } from "../helpers/simulations.js";
import { launchBrowser, waitForMatch, type Browser } from "./helpers.js";

const EMAIL = "operator@example.com";
const PASSWORD = "correct horse battery staple";
const SCREENSHOTS = process.env.EMSIM_SCREENSHOT_DIR ?? "/tmp";

let server: ServerProcess;
let browser: Browser;
let page: Page;
let setupAddress: string;
let apiKey: string;
let jobId: string;
/** Requests the pages made to any origin but the server's. */
const foreignRequests: string[] = [];
/** Console errors (CSP violations among them). */
const consoleErrors: string[] = [];

before(async () => {
  server = await startServerProcess(await freePort(), tempDir(), { EMSIM_LOG_LEVEL: "warn" });
  setupAddress = (
    await waitForMatch(server.stderr, /Create one \(once\) at:\s+(http\S+\/dashboard\/setup\/\S+)/)
  )[1]!;
  browser = await launchBrowser();
  const origin = new URL(server.baseUrl).origin;
  browser.context.on("request", (req) => {
    const url = new URL(req.url());
    if ((url.protocol === "http:" || url.protocol === "https:") && url.origin !== origin) {
      foreignRequests.push(req.url());
    }
  });
  page = await browser.context.newPage();
  page.on("console", (msg) => {
    // Error statuses the tests provoke (401 wrong password, 404 used setup address) are logged
    // as "Failed to load resource"; anything else (a CSP violation, a script error) counts.
    if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource")) {
      consoleErrors.push(msg.text());
    }
  });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
});

after(async () => {
  await browser?.close();
  await server?.kill();
});

async function submitAndWait(action: () => Promise<unknown>): Promise<Response | null> {
  const [response] = await Promise.all([page.waitForNavigation(), action()]);
  return response;
}

test("a signed-out visitor is sent to sign-in", async () => {
  await page.goto(`${server.baseUrl}/`);
  assert.match(page.url(), /\/dashboard\/sign-in$/);
  await page.goto(`${server.baseUrl}/dashboard/jobs`);
  assert.match(page.url(), /\/dashboard\/sign-in\?next=%2Fdashboard%2Fjobs$/);
  assert.equal(await page.getByRole("heading", { name: "Sign in to emsim" }).count(), 1);
});

test("first run: the printed setup address creates the admin account, once", async () => {
  assert.ok(setupAddress.startsWith(server.baseUrl), setupAddress);
  await page.goto(setupAddress);
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat the password").fill(PASSWORD);
  await submitAndWait(() =>
    page.getByRole("button", { name: "Create administrator account" }).click(),
  );
  assert.match(page.url(), /\/dashboard\/jobs\?notice=welcome$/);
  assert.match(await page.locator(".who-email").innerText(), /operator@example\.com/);
  assert.equal(await page.getByRole("link", { name: "Accounts" }).count(), 1);

  const again = await page.goto(setupAddress);
  assert.equal(again?.status(), 404);
  assert.match(await page.locator("h1").innerText(), /no longer valid/);
});

test("security headers are on every dashboard page", async () => {
  const res = await page.goto(`${server.baseUrl}/dashboard/jobs`);
  const headers = res!.headers();
  assert.match(headers["content-security-policy"] ?? "", /script-src 'self'/);
  assert.match(headers["content-security-policy"] ?? "", /frame-ancestors 'none'/);
  assert.doesNotMatch(headers["content-security-policy"] ?? "", /unsafe-inline/);
  assert.equal(headers["x-frame-options"], "DENY");
  assert.equal(headers["x-content-type-options"], "nosniff");
  assert.equal(headers["referrer-policy"], "same-origin");
  assert.equal(headers["cache-control"], "no-store");
});

test("sign out, a wrong password is refused, the right one signs in", async () => {
  await submitAndWait(() => page.getByRole("button", { name: "Sign out" }).click());
  assert.match(page.url(), /\/dashboard\/sign-in\?notice=signed-out$/);
  await page.goto(`${server.baseUrl}/dashboard/keys`);
  assert.match(page.url(), /\/dashboard\/sign-in\?next=%2Fdashboard%2Fkeys$/);

  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill("not the password");
  const refused = await submitAndWait(() => page.getByRole("button", { name: "Sign in" }).click());
  assert.equal(refused?.status(), 401);
  assert.match(await page.getByRole("alert").innerText(), /email or password is not right/);

  await page.getByLabel("Password").fill(PASSWORD);
  await submitAndWait(() => page.getByRole("button", { name: "Sign in" }).click());
  assert.match(page.url(), /\/dashboard\/keys$/, "back where the visitor wanted to go");
});

test("Generate New Key shows the plaintext once; reloading does not show it again", async () => {
  await page.goto(`${server.baseUrl}/dashboard/keys`);
  await page.getByLabel("Name").fill("browser test");
  const created = await submitAndWait(() =>
    page.getByRole("button", { name: "Generate New Key" }).click(),
  );
  assert.equal(created?.headers()["cache-control"], "no-store");
  apiKey = await page.locator("#new-key-value").inputValue();
  assert.match(apiKey, /^emsim_[0-9A-Za-z]{38}$/);
  assert.match(await page.locator(".new-key").innerText(), /shown only once/);

  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: server.baseUrl,
  });
  await page.getByRole("button", { name: "Copy" }).click();
  await page.getByRole("button", { name: "Copied" }).waitFor();
  assert.equal(await page.evaluate("navigator.clipboard.readText()"), apiKey);

  // A reload repeats the POST: it must neither show this key nor make another one.
  await page.reload();
  assert.equal((await page.content()).includes(apiKey), false);
  assert.equal(await page.locator("#new-key-value").count(), 0);
  await page.goto(`${server.baseUrl}/dashboard/keys`);
  assert.equal((await page.content()).includes(apiKey), false);
  const rows = page.locator("#keys-table tbody tr");
  assert.equal(await rows.count(), 1, "one key, not two");
  assert.match(await rows.first().innerText(), new RegExp(apiKey.slice(0, 14)));
  assert.match(await rows.first().innerText(), /Active/);
});

test("the new key works on the API", async () => {
  const res = await call(server.baseUrl, "GET", "/v1/simulations", { key: apiKey });
  assert.equal(res.status, 200);
});

test("a submitted job appears, runs and completes on the jobs page by itself", async () => {
  await page.goto(`${server.baseUrl}/dashboard/jobs`);
  await page.evaluate("window.stillHere = true");
  const submitted = await call(server.baseUrl, "POST", "/v1/simulations", {
    key: apiKey,
    body: crossSectionSimulation(),
  });
  assert.equal(submitted.status, 202, submitted.text);
  jobId = String(submitted.body.job_id);
  const row = page.locator(`#job-${jobId}`);
  await row.waitFor({ timeout: 20_000 });
  await row.locator(".badge-completed").waitFor({ timeout: 90_000 });
  assert.equal(await page.evaluate("window.stillHere"), true, "updated in place, no reload");
  assert.match(await row.innerText(), /dashboard-test/);
  await page.screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-jobs.png`, fullPage: true });
  await waitForStatus(server.baseUrl, apiKey, jobId, ["COMPLETED"]);
  // Table headers are drawn as written: a case transform would turn µ into Μ and λ into Λ.
  const transforms = (await page.evaluate(`[...document.querySelectorAll("table th")]
    .map((th) => getComputedStyle(th).textTransform)`)) as string[];
  assert.ok(transforms.length > 0);
  assert.deepEqual([...new Set(transforms)], ["none"]);
});

/**
 * Distinct colours inside the plot canvas (a blank or single-colour canvas has very few). The
 * page-side code is a string: the tests are type-checked without the DOM library.
 */
async function canvasColours(): Promise<number> {
  return (await page.evaluate(`(() => {
    const canvas = document.getElementById("plot-canvas");
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] !== 0) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    }
    return seen.size;
  })()`)) as number;
}

test("the completed job's fields are plotted: heat map and line plot", async () => {
  await page.locator(`#job-${jobId}`).getByRole("link", { name: "Plots" }).click();
  await page.waitForURL(new RegExp(`/dashboard/jobs/${jobId}#plots$`));
  const canvas = page.locator("#plot-canvas[data-state=ready]");
  await canvas.waitFor({ timeout: 20_000 });
  assert.equal(await page.locator("#plot-monitor").inputValue(), "xz");
  assert.equal(await page.locator("#plot-quantity").inputValue(), "E");
  assert.match((await canvas.getAttribute("aria-label")) ?? "", /Heat map of \|E\|/);
  assert.ok((await canvasColours()) > 100, "the heat map is not blank");
  await page.screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-plot.png`, fullPage: true });
  const heatMap = await page.locator("#plot-stage").screenshot();
  assert.ok(heatMap.length > 10_000);

  await page.locator("#plot-quantity").selectOption("Ey");
  await page.locator('#plot-canvas[data-quantity="Ey"]').waitFor();
  assert.match((await canvas.getAttribute("aria-label")) ?? "", /Heat map of Re Ey/);

  await page.locator("#plot-monitor").selectOption("zline");
  await page.locator('#plot-canvas[aria-label^="Line plot"]').waitFor();
  assert.match((await canvas.getAttribute("aria-label")) ?? "", /\|E\| and Re Ey along z/);
  assert.ok((await canvasColours()) > 10, "the line plot is drawn");
  await page.locator("#plot-stage").screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-line.png` });
});

test("the result downloads through the pre-signed address", async () => {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Download result/ }).click(),
  ]);
  const path = await download.path();
  const bytes = readFileSync(path);
  assert.equal(bytes.subarray(0, 8).toString("latin1"), "\x89HDF\r\n\x1a\n");
  assert.match(download.suggestedFilename(), new RegExp(`emsim-${jobId}\\.h5`));
});

test("Revoke asks for confirmation, then the key gets 401 at once", async () => {
  await page.goto(`${server.baseUrl}/dashboard/keys`);
  await page.getByRole("button", { name: "Revoke key browser test" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /cannot be undone/);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  assert.equal((await call(server.baseUrl, "GET", "/v1/simulations", { key: apiKey })).status, 200);

  await page.getByRole("button", { name: "Revoke key browser test" }).click();
  await submitAndWait(() => dialog.getByRole("button", { name: "Revoke key" }).click());
  assert.match(await page.getByRole("status").innerText(), /revoked/);
  assert.match(await page.locator("#keys-table tbody tr").first().innerText(), /Revoked/);
  const res = await call(server.baseUrl, "GET", "/v1/simulations", { key: apiKey });
  assert.equal(res.status, 401);
});

test("the pages loaded nothing from other origins and broke no policy", () => {
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(consoleErrors, []);
});
