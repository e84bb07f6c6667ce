/**
 * The job page's Fabrication panel in a real headless Chromium against a real service (real
 * SQLite, solver and storage): the layer mapping prefilled from the kit, the GDS export and its
 * download, the layout drawn from the exported file, the DRC violation of a 50 nm gap drawn
 * in the gap and listed, a passing kit after re-export, and the POSTs' CSRF check.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/auth/passwords.js";
import { readGds } from "../../src/fabrication/gds/reader.js";
import { twoBlockSimulation } from "../helpers/fabrication.js";
import { call, startService, waitForStatus, type TestService } from "../helpers/service.js";
import { HttpClient, launchBrowser, type Browser } from "./helpers.js";

const EMAIL = "fab-dashboard@example.com";
const PASSWORD = "a long enough password";

let svc: TestService;
let browser: Browser;
let page: Page;
let jobId: string;
const pageErrors: string[] = [];

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
    body: twoBlockSimulation(),
  });
  assert.equal(submitted.status, 202, submitted.text);
  jobId = String(submitted.body.job_id);
  await waitForStatus(svc.baseUrl, key, jobId, ["COMPLETED", "FAILED"], 120_000);

  browser = await launchBrowser();
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

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Boxes of drawn SVG elements in the drawing's own units (nm, y down as SVG draws it: the
 * panel draws y up by negating y), from getBBox, which leaves the strokes out.
 */
/** Screen boxes of the drawn polygons, left to right. */
async function screenBoxes(): Promise<Box[]> {
  const boxes = [];
  for (const poly of await page.locator("#fab-layout path.fab-poly").all()) {
    boxes.push((await poly.boundingBox())!);
  }
  return boxes.sort((a, b) => a.x - b.x);
}

async function drawnBoxes(selector: string): Promise<Box[]> {
  const boxes = await page.$$eval(selector, (els) =>
    els.map((e) => {
      const b = (e as unknown as { getBBox(): Box }).getBBox();
      return { x: b.x, y: b.y, width: b.width, height: b.height };
    }),
  );
  return boxes.sort((a, b) => a.x - b.x);
}

test("the panel offers the kits and prefills the kit's layer for each material", async () => {
  await page.goto(`${svc.baseUrl}/dashboard/jobs/${jobId}`);
  const panel = page.locator("#fabrication");
  await panel.getByRole("heading", { name: "Fabrication" }).waitFor();
  await page.locator("#fab-pdk:not([disabled])").waitFor();
  assert.equal(await page.locator("#fab-pdk").inputValue(), "siepic_ebeam");
  assert.equal(await page.getByLabel("GDS layer for Si", { exact: true }).inputValue(), "1/0");
  // SiEPIC has no silica layer to pattern: left out unless the user gives one.
  assert.equal(await page.getByLabel("GDS layer for SiO2").inputValue(), "");

  await page.locator("#fab-pdk").selectOption("cornerstone_si220");
  assert.equal(await page.getByLabel("GDS layer for Si", { exact: true }).inputValue(), "3/0");
  await page.locator("#fab-pdk").selectOption("siepic_ebeam");
});

test("export draws the two blocks and links the GDS file", async () => {
  await page.getByRole("button", { name: "Export GDS" }).click();
  await page.locator("#fab-download").waitFor();
  assert.match(await page.locator("#fab-summary").innerText(), /2 polygons on 1\/0/);
  assert.match(await page.locator("#fab-summary").innerText(), /left out: SiO2/);
  assert.equal(await page.locator("#fab-layout path.fab-poly").count(), 2);
  assert.equal(await page.locator('#fab-layout g[data-layer="1/0"]').count(), 1);

  // The link serves the file itself: two rectangles on 1/0, 50 nm apart.
  const href = (await page.locator("#fab-download").getAttribute("href"))!;
  const file = await page.request.get(href);
  assert.equal(file.status(), 200);
  const layout = readGds(new Uint8Array(await file.body()));
  assert.deepEqual([...layout.layers.keys()], ["1/0"]);
  assert.equal(layout.polygonCount, 2);

  // Drawn where the file has them (y up: SVG's y is -y), the gap between them.
  assert.deepEqual(await drawnBoxes("#fab-layout path.fab-poly"), [
    { x: -525, y: -200, width: 500, height: 400 },
    { x: 25, y: -200, width: 500, height: 400 },
  ]);
  // On screen: side by side, to scale, in the visible drawing.
  const svgBox = (await page.locator("#fab-layout").boundingBox())!;
  assert.ok(svgBox.width > 300 && svgBox.height > 200, JSON.stringify(svgBox));
  const [left, right] = await screenBoxes();
  assert.ok(left!.x >= svgBox.x && right!.x + right!.width <= svgBox.x + svgBox.width);
  assert.ok(left!.width > 100, "drawn large enough to see");
  const gap = right!.x - (left!.x + left!.width);
  assert.ok(gap > 0, "the gap is visible");
});

test("DRC marks the 50 nm gap on the drawing and lists it", async () => {
  await page.getByRole("button", { name: "Run DRC" }).click();
  await page.locator("#fab-drc-result:not([hidden])").waitFor();
  assert.match(await page.locator("#fab-drc-summary").innerText(), /^Failed: 1 violation/);
  assert.match(await page.locator("#fab-status").innerText(), /DRC failed: 1 violation/);

  const rows = page.locator("#fab-violations tbody tr");
  assert.equal(await rows.count(), 1);
  const cells = await rows.first().locator("td").allInnerTexts();
  assert.deepEqual(cells, ["1", "min_spacing", "1/0", "(0, 0)", "50", "70", "error"]);

  const marks = page.locator("#fab-layout .fab-violation");
  assert.equal(await marks.count(), 1);
  assert.equal(await marks.first().getAttribute("data-rule"), "min_spacing");
  // The ring is centred in the gap between the blocks, and the two edges drawn are the
  // blocks' facing sides (x = -25 and x = 25 nm, over their 400 nm height).
  const [ring] = await drawnBoxes("#fab-layout .fab-violation circle");
  assert.ok(
    Math.abs(ring!.x + ring!.width / 2) < 1e-6 && Math.abs(ring!.y + ring!.height / 2) < 1e-6,
  );
  const edges = await drawnBoxes("#fab-layout .fab-violation line");
  assert.deepEqual(
    edges.map((e) => [e.x, e.width, e.height]),
    [
      [-25, 0, 400],
      [25, 0, 400],
    ],
  );
  // On screen, the ring's centre lies between the drawn blocks.
  const [left, right] = await screenBoxes();
  const onScreen = (await page.locator("#fab-layout .fab-violation circle").boundingBox())!;
  const ringX = onScreen.x + onScreen.width / 2;
  const ringY = onScreen.y + onScreen.height / 2;
  assert.ok(ringX > left!.x + left!.width / 2 && ringX < right!.x + right!.width / 2);
  assert.ok(Math.abs(ringX - (left!.x + left!.width + right!.x) / 2) < 2, `ring at x ${ringX}`);
  assert.ok(Math.abs(ringY - (left!.y + left!.height / 2)) < 2, `ring at y ${ringY}`);

  await page.screenshot({
    path: `${process.env.EMSIM_SCREENSHOT_DIR ?? "/tmp"}/emsim-fabrication.png`,
    fullPage: true,
  });
});

test("rules of another kit: more violations, each drawn and listed; the recipe", async () => {
  // gdsfactory's generic kit asks 150 nm on WG 1/0: the gap (50 nm) fails spacing. Its
  // layer for Si is 1/0 too.
  await page.locator("#fab-pdk").selectOption("gdsfactory_generic");
  assert.equal(await page.getByLabel("GDS layer for Si", { exact: true }).inputValue(), "1/0");
  assert.equal(await page.locator("#fab-layout .fab-violation").count(), 0, "old marks cleared");
  await page.getByRole("button", { name: "Export GDS" }).click();
  await page.locator("#fab-status", { hasText: "Exported" }).waitFor();
  await page.getByRole("button", { name: "Run DRC" }).click();
  await page.locator("#fab-drc-result:not([hidden])").waitFor();
  const rows = await page.locator("#fab-violations tbody tr").allInnerTexts();
  assert.ok(rows.length >= 1);
  assert.ok(
    rows.every((r) => /min_spacing\s+1\/0\s+\(0, 0\)\s+50\s+150\s+error/.test(r)),
    rows.join("\n"),
  );
  assert.equal(await page.locator("#fab-layout .fab-violation").count(), rows.length);
  assert.match(await page.locator("#fab-drc-summary").innerText(), /^Failed.*gdsfactory_generic/);

  await page.getByRole("button", { name: "Recipe" }).click();
  await page.locator("#fab-recipe-steps:not([hidden])").waitFor();
  assert.match(await page.locator("#fab-recipe-steps").innerText(), /lithography/);
  assert.deepEqual(pageErrors, []);
});

test("the panel's POSTs need the session's CSRF token, and a session", async () => {
  const http = new HttpClient(svc.baseUrl);
  const signInPage = await http.get("/dashboard/sign-in");
  await http.post("/dashboard/sign-in", {
    _csrf: HttpClient.csrfIn(signInPage.text),
    email: EMAIL,
    password: PASSWORD,
  });
  const jobPage = await http.get(`/dashboard/jobs/${jobId}`);
  assert.match(jobPage.text, /id="fabrication"/);
  const csrf = HttpClient.csrfIn(jobPage.text);
  const path = `/dashboard/api/jobs/${jobId}/fabrication/export`;
  const origin = { origin: svc.baseUrl };

  const noToken = await http.post(path, { "map.Si": "1/0" }, origin);
  assert.equal(noToken.res.status, 403);
  const wrongToken = await http.post(path, { _csrf: "x", "map.Si": "1/0" }, origin);
  assert.equal(wrongToken.res.status, 403);
  const ok = await http.post(path, { _csrf: csrf, "map.Si": "1/0", grid_nm: "10" }, origin);
  assert.equal(ok.res.status, 200, ok.text);
  const body = JSON.parse(ok.text) as { export: { polygon_count: number; gds_url: string } };
  assert.equal(body.export.polygon_count, 2);

  const badLayer = await http.post(path, { _csrf: csrf, "map.Si": "one" }, origin);
  assert.equal(badLayer.res.status, 400);
  assert.match(badLayer.text, /LAYER\/DATATYPE/);

  // Signed out: 401 JSON, not a page.
  const anonymous = await fetch(`${svc.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: svc.baseUrl },
    body: new URLSearchParams({ _csrf: csrf, "map.Si": "1/0" }).toString(),
  });
  assert.ok([401, 403].includes(anonymous.status), String(anonymous.status));
});
