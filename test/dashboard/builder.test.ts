/**
 * The New simulation page (issue #31) in a real headless Chromium against a real service
 * (SQLite, solver, storage). A new user builds the README's strip waveguide
 * (examples/si-strip-waveguide.json) in the form alone — the JSON the form wrote has the
 * example's domain, source, structures and monitors — sees its three planes drawn and the
 * estimate (the planes and the 3-D view compared with references in fixtures/; after a
 * deliberate change of their look, EMSIM_UPDATE_PLOT_REFERENCES=1 saves new ones), submits,
 * follows the job's page to COMPLETED, opens its field plot, then "Edit and
 * run again" with the strip 450 nm wide: the second job's stored request has the new width. A
 * monitor reaching into the absorber is warned of before anything is submitted. The page is
 * built, completed in JSON and submitted from the keyboard alone. No new way in: posts without
 * the session's CSRF token are refused (403), a submission while a job is active gets the
 * API's 409, and the account's rate limit gives 429 with Retry-After; another account cannot
 * start from one's job. The time from a change to its planes redrawn is logged, not asserted.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/auth/passwords.js";
import type { Account } from "../../src/store/types.js";
import { longSimulation, startService, type TestService } from "../helpers/service.js";
import { HttpClient, launchBrowser, type Browser, signIn, until as waitUntil } from "./helpers.js";
import { assertMatchesReference } from "./images.js";

const SCREENSHOTS = process.env.EMSIM_SCREENSHOT_DIR ?? "/tmp";
const EMAIL = "builder@example.com";
const OTHER = "builder-other@example.com";
const PASSWORD = "a long enough password";
const EXAMPLE = JSON.parse(
  readFileSync(new URL("../../examples/si-strip-waveguide.json", import.meta.url), "utf8"),
) as Record<string, unknown>;
/** The example's 20 000 steps cut to keep the suite quick; its field is still a standing wave. */
const TIME_STEPS = 4000;
const GDS_FILE = new URL("../../examples/directional-coupler.gds", import.meta.url).pathname;

let svc: TestService;
let browser: Browser;
let page: Page;
let account: Account;
let firstJobId = "";
const pageErrors: string[] = [];

before(async () => {
  svc = await startService();
  account = await svc.service.stores.accounts.createAccount({
    email: EMAIL,
    isAdmin: false,
    passwordHash: await hashPassword(PASSWORD),
  });
  browser = await launchBrowser({ width: 1280, height: 900 });
  page = await browser.context.newPage();
  page.on("pageerror", (err) => pageErrors.push(String(err)));
  page.on("console", (msg) => {
    // A 4xx answer to the page's fetch is the page working (a 422 while typing, the 409).
    const answered = /Failed to load resource: the server responded with a status of 4\d\d/;
    if (msg.type() === "error" && !answered.test(msg.text())) pageErrors.push(msg.text());
  });
  await signIn(page, svc.baseUrl, EMAIL, PASSWORD);
});

after(async () => {
  await browser?.close();
  await svc?.close();
});

/** `until` (helpers.ts) on this file's page. */
const until = (expression: string, timeoutMs?: number) =>
  waitUntil(page, expression, timeoutMs, 40);

/** Opens the builder (optionally from a job) and waits until its script has wired the page. */
async function openBuilder(query = ""): Promise<void> {
  await page.goto(`${svc.baseUrl}/dashboard/simulations/new${query}`);
  await until(`document.querySelector("#builder")?.dataset.builderLive === "true"`);
  await previewsAfter(0);
}

const previews = () =>
  page.evaluate<number>(`Number(document.querySelector("#builder").dataset.previews ?? 0)`);

/** Waits for an answer drawn after the `count`-th, and until no change is pending any more. */
async function previewsAfter(count: number): Promise<void> {
  await until(`Number(document.querySelector("#builder").dataset.previews ?? 0) > ${count}`);
  let seen = await previews();
  for (;;) {
    await new Promise((r) => setTimeout(r, 150));
    const now = await previews();
    if (now === seen) return;
    seen = now;
  }
}

const requestInEditor = async () =>
  JSON.parse(await page.locator("#builder-json").inputValue()) as Record<string, unknown>;

async function fillVector(prefix: string, values: string[]): Promise<void> {
  for (const [k, axis] of ["x", "y", "z"].entries()) {
    await page.getByLabel(`${prefix} ${axis} (µm)`, { exact: true }).fill(values[k]!);
  }
}

/** The README's strip waveguide, typed into the form (µm), with fewer time steps. */
async function buildStripWaveguide(): Promise<void> {
  await fillVector("Domain size", ["3", "0.025", "3"]);
  await page.getByLabel("Grid step (µm)").fill("0.025");
  await page.getByLabel("PML layers").fill("12");
  await page.getByLabel("Boundary x").selectOption("pml");
  await page.getByLabel("Boundary y").selectOption("periodic");
  await page.getByLabel("Boundary z").selectOption("pml");
  await page.getByLabel("Wavelength (µm)").fill("1.55");
  await page.getByLabel("Polarization").selectOption("te");
  for (const [axis, value] of [
    ["x", "0"],
    ["y", "0"],
    ["z", "-1"],
  ]) {
    await page.getByLabel(`Direction ${axis}`, { exact: true }).fill(value!);
  }
  const addBox = page.getByRole("button", { name: "Add box" });
  await addBox.click();
  await page.getByLabel("Structure 1 material").selectOption("SiO2");
  await fillVector("Structure 1 centre", ["0", "0", "-1000000"]);
  await fillVector("Structure 1 size", ["10000000", "10000000", "2000000"]);
  await addBox.click();
  await page.getByLabel("Structure 2 material").selectOption("Si");
  await fillVector("Structure 2 centre", ["0", "0", "0.11"]);
  await fillVector("Structure 2 size", ["0.5", "10000000", "0.22"]);
  await page.getByRole("button", { name: "Add field monitor" }).click();
  await page.getByLabel("Monitor 1 name").fill("xz");
  await fillVector("Monitor 1 centre", ["0", "0", "0"]);
  await fillVector("Monitor 1 size", ["2.8", "0", "2.8"]);
  await page.getByLabel("Time steps").fill(String(TIME_STEPS));
  await page.getByLabel("Convergence threshold").fill("1e-5");
  await page.getByLabel("Check every (steps)").fill("500");
}

/** Distinct colours on a canvas (sampled): more than a blank or one-colour picture has. */
async function coloursOn(id: string): Promise<number> {
  return page.evaluate<number>(`(() => {
    const c = document.getElementById(${JSON.stringify(id)});
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let k = 0; k < data.length; k += 4 * 7) seen.add(data[k] + "," + data[k + 1] + "," + data[k + 2]);
    return seen.size;
  })()`);
}

async function waitForJob(jobId: string, statuses: string[], timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const row = await svc.service.stores.jobs.getJob(jobId);
    if (row && statuses.includes(row.status)) return row;
    if (Date.now() > end) throw new Error(`job ${jobId} still ${row?.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Submits from the page and returns the new job's id from the page it opens. */
async function submitFromPage(): Promise<string> {
  await Promise.all([
    page.waitForURL(/\/dashboard\/jobs\/[0-9a-f-]{36}$/, { timeout: 15_000 }),
    page.getByRole("button", { name: "Submit" }).click(),
  ]);
  return page.url().split("/").pop()!;
}

/** The redraw time of one change (a log line, not a limit: the machine is shared). */
async function logRedraw(what: string): Promise<void> {
  const [total, answer, draw] = await page.evaluate<string[]>(
    `(({ redrawMs, answerMs, drawMs }) => [redrawMs, answerMs, drawMs])(document.querySelector("#builder").dataset)`,
  );
  console.log(
    `builder redraw after ${what}: ${total} ms from the change to its planes drawn (25 ms quiet time, the answer ${answer} ms, drawing ${draw} ms)`,
  );
}

test("a new user builds the strip waveguide in the form, sees it, runs it and plots it", async () => {
  await page.goto(`${svc.baseUrl}/dashboard/jobs`);
  await Promise.all([
    page.waitForNavigation(),
    page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "New simulation" })
      .click(),
  ]);
  await until(`document.querySelector("#builder")?.dataset.builderLive === "true"`);
  await previewsAfter(0);
  await buildStripWaveguide();
  await until(
    `document.querySelector("#builder-json").value.includes('"time_steps": ${TIME_STEPS}')`,
  );
  const built = await requestInEditor();
  for (const key of ["solver", "domain", "source", "structures", "monitors"]) {
    assert.deepEqual(built[key], EXAMPLE[key], key);
  }
  assert.deepEqual(built.fdtd_settings, {
    ...(EXAMPLE.fdtd_settings as object),
    time_steps: TIME_STEPS,
  });
  await previewsAfter(0);
  await until(`document.querySelector("#plane-y").getAttribute("aria-label").includes("monitors")
    || document.querySelector("#plane-y").getAttribute("aria-label").includes("xz")`);
  for (const axis of ["x", "y", "z"]) {
    assert.ok((await coloursOn(`plane-${axis}`)) >= 3, `the ${axis} plane is drawn`);
    assert.match(
      (await page.locator(`#plane-${axis}`).getAttribute("aria-label"))!,
      // The node plane nearest 0: y = −12.5 nm, half a cell, on the one-cell periodic y.
      new RegExp(`^Re ε on the plane ${axis} = (0|−0\\.0125) µm`),
    );
  }
  assert.match(
    (await page.locator("#plane-y").getAttribute("aria-label")) ?? "",
    /structures\[1\].*xz/,
  );
  const { estimate } = svc.service.jobs.check({
    ...EXAMPLE,
    fdtd_settings: built.fdtd_settings,
  } as never);
  assert.equal(
    await page.locator('[data-estimate="cells"]').innerText(),
    estimate.cells.toLocaleString("en"),
  );
  assert.equal(await page.locator('[data-estimate="grid"]').innerText(), "144 × 1 × 144");
  assert.equal(await page.locator("#builder-errors li").count(), 0);
  await until(`document.querySelector("#setup-3d canvas") !== null`);

  // The redraw of a change, logged (the issue asks 100 ms; this is a shared machine).
  const count = await previews();
  await page.getByLabel("Structure 2 size x (µm)", { exact: true }).fill("0.6");
  await previewsAfter(count);
  await logRedraw("the strip's width typed");
  await page.getByLabel("Structure 2 size x (µm)", { exact: true }).fill("0.5");
  await previewsAfter(count + 1);
  await logRedraw("the strip's width typed back");

  // Tall enough for the whole preview column (it scrolls on its own in a shorter window).
  await page.setViewportSize({ width: 1280, height: 2000 });
  await new Promise((r) => setTimeout(r, 200)); // the planes redrawn for the new width
  await page
    .locator(".builder-view")
    .screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-builder-view.png` });
  // The planes and the 3-D view as references show them (fixtures/builder-*.png).
  assertMatchesReference(
    "builder-planes.png",
    await page.locator("#builder-planes .builder-plane-grid").screenshot(),
  );
  assertMatchesReference("builder-3d.png", await page.locator("#setup-3d canvas").screenshot());
  await page.setViewportSize({ width: 1280, height: 900 });
  // The estimate the page last showed (its preview's answer) is the one the job keeps.
  const shownEstimate = page
    .waitForResponse((r) => r.url().endsWith("/dashboard/api/simulations/preview"))
    .then(async (r) => {
      assert.equal(r.headers()["content-type"], "application/json; charset=utf-8");
      return ((await r.json()) as { estimate: unknown }).estimate;
    });
  await page.getByLabel("Structure 2 size x (µm)", { exact: true }).fill("0.50");
  const shown = await shownEstimate;
  await previewsAfter(count + 2);
  firstJobId = await submitFromPage();
  const row = await waitForJob(firstJobId, ["QUEUED", "RUNNING", "COMPLETED"]);
  assert.deepEqual(JSON.parse(row.requestJson).structures, EXAMPLE.structures);
  assert.deepEqual(row.estimate, shown, "the job record's estimate is the one shown");
  // The job's page follows the run by itself and shows the result when it ends.
  await page.locator("#job-live .badge-completed").waitFor({ timeout: 60_000 });
  await page.locator("#plots").scrollIntoViewIfNeeded();
  await until(`document.querySelector("#plot-canvas")?.dataset.state === "ready"`, 30_000);
  assert.match((await page.locator("#plot-monitor option").allInnerTexts()).join(), /^xz\b/);
});

test("Edit and run again starts from the job's request; the second job has the new width", async () => {
  assert.ok(firstJobId, "the first test ran a job");
  await page.goto(`${svc.baseUrl}/dashboard/jobs/${firstJobId}`);
  await Promise.all([
    page.waitForURL(/\/dashboard\/simulations\/new\?from=/),
    page.getByRole("link", { name: "Edit and run again" }).click(),
  ]);
  await until(`document.querySelector("#builder")?.dataset.builderLive === "true"`);
  await previewsAfter(0);
  assert.match(await page.locator("#builder-from").innerText(), new RegExp(firstJobId.slice(0, 8)));
  const width = page.getByLabel("Structure 2 size x (µm)", { exact: true });
  assert.equal(await width.inputValue(), "0.5");
  assert.equal(await page.getByLabel("Time steps").inputValue(), String(TIME_STEPS));
  assert.equal(await page.locator("#form-note").isHidden(), true, "nothing the form hides");
  const count = await previews();
  await width.fill("0.45");
  await previewsAfter(count);
  const secondId = await submitFromPage();
  assert.notEqual(secondId, firstJobId);
  const [first, second] = await Promise.all(
    [firstJobId, secondId].map(async (id) =>
      JSON.parse((await svc.service.stores.jobs.getJob(id))!.requestJson),
    ),
  );
  assert.equal(second.structures[1].size[0], 0.45e-6);
  second.structures[1].size[0] = first.structures[1].size[0];
  assert.deepEqual(second, first, "nothing else changed");
  await waitForJob(secondId, ["COMPLETED"]);
  // The job's page reloads itself once the job has ended: let it, or that reload can cut
  // into the next test's navigation.
  await page.locator('#job-live[data-status="COMPLETED"]').waitFor({ timeout: 30_000 });
  await page.waitForLoadState("load");
});

test("a monitor reaching into the absorber is warned of before submission", async () => {
  const before = (await svc.service.jobs.list(account.id, { limit: 100 })).jobs.length;
  await openBuilder();
  assert.equal(await page.locator("#builder-warnings li").count(), 0);
  // 2.01 µm at 50 nm rounds to 40 cells: the grid's region of interest is ±1 µm along z, and
  // a monitor as long as the domain reaches 5 nm into the absorber (a longer one is refused).
  await page.getByLabel("Domain size z (µm)", { exact: true }).fill("2.01");
  await page.getByRole("button", { name: "Add field monitor" }).click();
  const count = await previews();
  await page.getByLabel("Monitor 1 size z (µm)", { exact: true }).fill("2.01");
  await previewsAfter(count);
  const warning = page.locator("#builder-warnings li");
  assert.equal(await warning.count(), 1);
  assert.match(
    await warning.innerText(),
    /^monitors\[0\] monitor "field1" reaches into the absorber along z/,
  );
  assert.equal((await svc.service.jobs.list(account.id, { limit: 100 })).jobs.length, before);
});

test("a plane outside the grid is the plane's problem: the estimate and the 3-D view stand", async () => {
  await openBuilder();
  const cells = await page.locator('[data-estimate="cells"]').innerText();
  assert.notEqual(cells, "—");
  const count = await previews();
  const x = page.getByLabel("Position of the x plane (µm)");
  await x.fill("100");
  await previewsAfter(count);
  assert.match(await page.locator("#builder-errors").innerText(), /planes\[0\]\.position/);
  assert.equal(await x.getAttribute("aria-invalid"), "true");
  assert.equal(await page.locator('[data-estimate="cells"]').innerText(), cells);
  assert.equal(await page.locator("#setup-3d.stale").count(), 0);
});

test("an invalid field is named next to its control; a JSON edit the form cannot show makes it read-only", async () => {
  await openBuilder();
  let count = await previews();
  await page.getByLabel("Grid step (µm)").fill("-1");
  await previewsAfter(count);
  assert.match(await page.locator("#builder-errors").innerText(), /domain\.resolution/);
  const field = page.locator('[data-field-for="domain.resolution"]');
  assert.match(await field.locator(".field-error").innerText(), /./);
  assert.equal(await page.getByLabel("Grid step (µm)").getAttribute("aria-invalid"), "true");
  // The estimate of the last valid set-up is not left standing beside the problems.
  assert.equal(await page.locator('[data-estimate="cells"]').innerText(), "—");
  assert.match(await page.locator("#estimate-notes").innerText(), /No estimate until/);
  const request = await requestInEditor();
  // What the form does not show is kept, and said so.
  count = await previews();
  await page.locator("#builder-json").fill(JSON.stringify({ ...request, metadata: { run: 1 } }));
  await previewsAfter(count);
  assert.match(await page.locator("#form-note").innerText(), /^Kept from the JSON.*: metadata\.$/);
  // So is a field inside a structure's or a monitor's row.
  const monitor = {
    name: "line",
    monitor_type: "field",
    center: [0, 0, 0],
    size: [0, 0, 1e-6],
    components: ["Ey"],
    wavelengths: [1.5e-6, 1.55e-6],
  };
  count = await previews();
  await page
    .locator("#builder-json")
    .fill(JSON.stringify({ ...request, monitors: [monitor], metadata: { run: 1 } }));
  await previewsAfter(count);
  assert.match(
    await page.locator("#form-note").innerText(),
    /^Kept from the JSON.*: metadata, monitors\[0\]\.wavelengths\.$/,
  );
  count = await previews();
  await page.locator("#builder-json").fill(
    JSON.stringify(
      {
        ...request,
        domain: { ...(request.domain as object), resolution: 0.05e-6 },
        source: {
          source_type: "point_dipole",
          center: [0, 0, 0],
          wavelength: 1.55e-6,
          polarization: "Ez",
        },
      },
      null,
      2,
    ),
  );
  await previewsAfter(count);
  assert.equal(await page.getByLabel("Grid step (µm)").isDisabled(), true);
  assert.match(
    await page.locator("#form-note").innerText(),
    /read-only: the request has source_type "point_dipole"; the form shows plane-wave sources only/,
  );
  assert.equal(await page.locator("#builder-errors li").count(), 0, "the dipole is valid");
  // A value a number field cannot show as typed (the form would rewrite it) also makes it so.
  count = await previews();
  const domain = { ...(request.domain as object), pml_layers: "12" };
  await page.locator("#builder-json").fill(JSON.stringify({ ...request, domain }, null, 2));
  await previewsAfter(count);
  assert.match(
    await page.locator("#form-note").innerText(),
    /read-only: domain\.pml_layers is not a number/,
  );
});

test("built, completed and submitted from the keyboard alone", async () => {
  await openBuilder();
  const focused = () => page.evaluate<string>("document.activeElement?.id ?? ''");
  const tabTo = async (id: string, most = 60) => {
    for (let k = 0; k < most && (await focused()) !== id; k++) await page.keyboard.press("Tab");
    assert.equal(await focused(), id, `Tab reaches #${id}`);
  };
  const typeOver = async (text: string) => {
    await page.keyboard.press("Control+A");
    await page.keyboard.type(text);
  };
  await tabTo("domain-size-x");
  for (const id of ["domain-size-x", "domain-size-y", "domain-size-z"]) {
    assert.equal(await focused(), id);
    await typeOver("1");
    await page.keyboard.press("Tab");
  }
  // To the Add box button, Enter: the new row's first control has the focus.
  for (let k = 0; k < 40; k++) {
    const text = await page.evaluate<string>("document.activeElement?.textContent?.trim() ?? ''");
    if (text === "Add box") break;
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await until(`document.activeElement?.id === "structure-0-material"`);
  // The material chosen with the arrow keys: typing its name is a type-ahead search that a
  // loaded machine's pause between two keys restarts ("S", then "i" → InP; CI saw it).
  await page.keyboard.press("Home");
  for (let k = 0; k < 40; k++) {
    if ((await page.locator("#structure-0-material").inputValue()) === "SiO2") break;
    await page.keyboard.press("ArrowDown");
  }
  assert.equal(await page.locator("#structure-0-material").inputValue(), "SiO2");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  assert.equal(await focused(), "structure-0-center-z");
  await typeOver("0.2");
  await until(`document.querySelector("#builder-json").value.includes('"material": "SiO2"')`);
  const built = await requestInEditor();
  assert.deepEqual((built.domain as { size: number[] }).size, [1e-6, 1e-6, 1e-6]);
  assert.deepEqual((built.structures as { center: number[] }[])[0]!.center, [0, 0, 0.2e-6]);

  // The JSON editor offers field names: after `{` + Enter, "fdtd" → fdtd_settings (Enter),
  // then in its object "ti" → time_steps (Tab).
  await tabTo("builder-json");
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type('"fdtd');
  await until(`!document.querySelector("#json-complete").hidden`);
  assert.match(await page.locator("#json-complete").innerText(), /fdtd_settings/);
  await page.keyboard.press("Enter");
  await page.keyboard.type('{"ti');
  await until(`document.querySelector("#json-complete li")?.textContent.startsWith("time_steps")`);
  await page.keyboard.press("Tab");
  await page.keyboard.type("1000},");
  assert.match(
    await page.locator("#builder-json").inputValue(),
    /^\{\n"fdtd_settings": \{"time_steps": 1000\},\n/,
  );
  await until(`document.querySelector("#run-steps").value === "1000"`);

  await tabTo("builder-submit");
  await Promise.all([
    page.waitForURL(/\/dashboard\/jobs\/[0-9a-f-]{36}$/, { timeout: 15_000 }),
    page.keyboard.press("Enter"),
  ]);
  const id = page.url().split("/").pop()!;
  const stored = JSON.parse((await svc.service.stores.jobs.getJob(id))!.requestJson);
  assert.equal(stored.fdtd_settings.time_steps, 1000);
  await waitForJob(id, ["COMPLETED"]);
  // Its page reloads itself once the job has ended (as in the edit-and-run test): let it, or
  // that reload cuts into the next test's navigation (CI saw the GDS test's goto interrupted).
  await page.locator('#job-live[data-status="COMPLETED"]').waitFor({ timeout: 30_000 });
});

test("an uploaded GDS II layout becomes a gds structure, previewed", async () => {
  await openBuilder();
  // Silicon needs 10 cells a wavelength: 40 nm rather than the starter's 50.
  await page.getByLabel("Grid step (µm)").fill("0.04");
  await page.setInputFiles("#gds-file", GDS_FILE);
  // With the server out of reach the upload says so, and no error escapes the page's script.
  const errorsBefore = pageErrors.length;
  await page.route("**/dashboard/api/gds", (route) => route.abort(), { times: 1 });
  await page.getByRole("button", { name: "Upload as a structure" }).click();
  await until(`document.querySelector("#gds-status").textContent.includes("could not be reached")`);
  const failed = pageErrors.splice(errorsBefore);
  assert.ok(
    failed.every((e) => /Failed to load resource: net::/.test(e)),
    failed.join("\n"),
  );
  const count = await previews();
  await page.getByRole("button", { name: "Upload as a structure" }).click();
  await until(`document.querySelector("#gds-status").textContent.includes("added as structure 1")`);
  assert.match(
    await page.locator("#gds-status").innerText(),
    /^directional-coupler\.gds: layers 1\/0/,
  );
  const [structure] = (await requestInEditor()).structures as Record<string, unknown>[];
  assert.equal(structure!.type, "gds");
  assert.match(String(structure!.gds_url), /^http/);
  assert.deepEqual(structure!.layers, [
    { layer: 1, datatype: 0, material: "Si", z_min: 0, z_max: 0.22e-6 },
  ]);
  assert.equal(await page.getByLabel("Structure 1 material").inputValue(), "Si");
  // Cut through the layer: the z plane at 0.1 µm (the node plane at 0.12) shows the layout's
  // pieces, a polyslab each once the file is read (the request's structures[0], its polygons
  // 1 and 2: the coupler's arms).
  // The preview of the new structure may still be on its way when the status is shown (the
  // suite on a busy host read the count before it came).
  await previewsAfter(count);
  const uploaded = await previews();
  await page.getByLabel("Position of the z plane (µm)").fill("0.1");
  await previewsAfter(uploaded);
  assert.match(
    (await page.locator("#plane-z").getAttribute("aria-label"))!,
    /z = 0\.12 µm.*structures\[0\] polygon 1, structures\[0\] polygon 2/,
  );
  assert.ok((await coloursOn("plane-z")) >= 3);
});

test("without scripts the JSON is a plain form: refusals shown with it, a job opened", async () => {
  await openBuilder();
  const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
  const post = (simulation: string) =>
    page.request.post(`${svc.baseUrl}/dashboard/simulations`, {
      form: { _csrf: csrf, simulation },
      maxRedirects: 0,
    });
  const refused = await post('{"solver": "fdtd", "domain": ');
  assert.equal(refused.status(), 400);
  const body = await refused.text();
  assert.match(body, /The request body is not valid JSON/);
  assert.ok(body.includes("{&quot;solver&quot;: &quot;fdtd&quot;, &quot;domain&quot;: </textarea"));
  const starter = await requestInEditor();
  const accepted = await post(JSON.stringify({ ...starter, fdtd_settings: { time_steps: 200 } }));
  assert.equal(accepted.status(), 303);
  const id = /^\/dashboard\/jobs\/([0-9a-f-]{36})$/.exec(accepted.headers().location ?? "")?.[1];
  assert.ok(id, accepted.headers().location);
  await waitForJob(id, ["COMPLETED"]);
});

test("posts without the session's CSRF token are refused (403)", async () => {
  const before = (await svc.service.jobs.list(account.id, { limit: 100 })).jobs.length;
  const simulation = JSON.stringify(EXAMPLE);
  const paths = [
    "/dashboard/simulations",
    "/dashboard/api/simulations/preview",
    "/dashboard/api/gds",
  ];
  for (const path of paths) {
    const forms: Record<string, string>[] = [
      { simulation, file: "AAAA" },
      { simulation, file: "AAAA", _csrf: "forged" },
    ];
    for (const form of forms) {
      const res = await page.request.post(`${svc.baseUrl}${path}`, {
        form,
        headers: { accept: "application/json" },
      });
      assert.equal(res.status(), 403, `${path} with ${Object.keys(form).join(", ")}`);
    }
  }
  assert.equal((await svc.service.jobs.list(account.id, { limit: 100 })).jobs.length, before);
});

test("a submission while a job is active gets the API's 409, on the page and as JSON", async () => {
  const running = await svc.service.jobs.submit(account.id, longSimulation() as never);
  try {
    await openBuilder();
    await page.getByRole("button", { name: "Submit" }).click();
    await until(`document.querySelector("#submit-status").textContent.includes("already running")`);
    assert.match(await page.locator("#submit-status").innerText(), new RegExp(running.jobId));
    assert.match(page.url(), /\/dashboard\/simulations\/new$/, "the page stays");
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const res = await page.request.post(`${svc.baseUrl}/dashboard/simulations`, {
      form: { _csrf: csrf, simulation: await page.locator("#builder-json").inputValue() },
      headers: { accept: "application/json" },
    });
    assert.equal(res.status(), 409);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.error_code, "simulation_already_running");
    assert.equal(body.active_job_id, running.jobId);
    assert.ok(Number(res.headers()["retry-after"]) >= 1);
  } finally {
    await svc.service.jobs.cancel(account.id, running.jobId);
    await waitForJob(running.jobId, ["FAILED"]);
  }
});

test("the account's rate limit: 429 with Retry-After, previews counted apart", async () => {
  const limited = await startService({ rateLimitPerMinute: 2 });
  try {
    await limited.service.stores.accounts.createAccount({
      email: EMAIL,
      isAdmin: false,
      passwordHash: await hashPassword(PASSWORD),
    });
    const client = new HttpClient(limited.baseUrl);
    const form = await client.get("/dashboard/sign-in");
    await client.post("/dashboard/sign-in", {
      _csrf: HttpClient.csrfIn(form.text),
      email: EMAIL,
      password: PASSWORD,
    });
    const builder = await client.get("/dashboard/simulations/new");
    const csrf = HttpClient.csrfIn(builder.text);
    const json = { accept: "application/json" };
    const statuses: number[] = [];
    let last: Awaited<ReturnType<HttpClient["post"]>> | null = null;
    for (let k = 0; k < 3; k++) {
      last = await client.post("/dashboard/simulations", { _csrf: csrf, simulation: "{}" }, json);
      statuses.push(last.res.status);
    }
    assert.deepEqual(statuses, [422, 422, 429]);
    assert.ok(Number(last!.res.headers.get("retry-after")) >= 1);
    assert.match(JSON.parse(last!.text).detail, /Too many requests/);
    const preview = await client.post(
      "/dashboard/api/simulations/preview",
      { _csrf: csrf, simulation: "{}" },
      json,
    );
    assert.equal(preview.res.status, 422, "previews have a bucket of their own");
  } finally {
    await limited.close();
  }
});

test("another account cannot start from one's job; the page fits a phone", async () => {
  await svc.service.stores.accounts.createAccount({
    email: OTHER,
    isAdmin: false,
    passwordHash: await hashPassword(PASSWORD),
  });
  const other = new HttpClient(svc.baseUrl);
  const form = await other.get("/dashboard/sign-in");
  await other.post("/dashboard/sign-in", {
    _csrf: HttpClient.csrfIn(form.text),
    email: OTHER,
    password: PASSWORD,
  });
  const res = await other.get(`/dashboard/simulations/new?from=${firstJobId}`);
  assert.equal(res.res.status, 404);
  assert.ok(!res.text.includes("builder-json"), "no editor, no request");

  await page.setViewportSize({ width: 390, height: 900 });
  try {
    await openBuilder(`?from=${firstJobId}`);
    const width = Number(await page.evaluate("document.documentElement.scrollWidth"));
    assert.ok(width <= 390, `the builder is ${width} pixels wide in a 390-pixel window`);
    await page.screenshot({
      path: `${SCREENSHOTS}/emsim-dashboard-builder-phone.png`,
      fullPage: true,
    });
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await openBuilder(`?from=${firstJobId}`);
  await page.screenshot({ path: `${SCREENSHOTS}/emsim-dashboard-builder.png`, fullPage: true });
});

test("the starting request takes a box of the default material (Si) without a problem", async () => {
  await openBuilder();
  const count = await previews();
  await page.getByRole("button", { name: "Add box" }).click();
  await previewsAfter(count);
  assert.equal(((await requestInEditor()).structures as unknown[]).length, 1);
  assert.equal(await page.locator("#builder-errors li").count(), 0);
});

test("the pages ran no script into an error", () => {
  assert.deepEqual(pageErrors, []);
});
