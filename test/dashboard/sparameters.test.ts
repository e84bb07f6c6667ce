/**
 * A completed ports job's page over plain HTTP against a real service that ran a straight
 * two-port guide for real (test/helpers/simulations.ts): the S-parameters section with its
 * plot (a PNG read back: |S12|² near 0 dB far above |S22|² below −40 dB, a straight guide
 * transmitting everything), the numbers, and a Touchstone download that is the API's own
 * file under the API's name; a job without ports has no section and no plot; signed out, the
 * plot and the file send to sign-in.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { hashPassword } from "../../src/auth/passwords.js";
import { PALETTE } from "../../src/plot/spectrum.js";
import { decodePng, type DecodedPng } from "../../src/plot/testing/decode-png.js";
import {
  call,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { twoPortWaveguide } from "../helpers/simulations.js";
import { HttpClient } from "./helpers.js";

const EMAIL = "sparams-dashboard@example.com";
const PASSWORD = "a long enough password";
let svc: TestService;
let client: HttpClient;
let key: string;
let ports: string;
let plain: string;

async function run(body: Record<string, unknown>): Promise<string> {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  return id;
}

before(async () => {
  svc = await startService();
  await svc.service.stores.accounts.createAccount({
    email: EMAIL,
    isAdmin: false,
    passwordHash: await hashPassword(PASSWORD),
  });
  key = await svc.newKey(EMAIL);
  client = new HttpClient(svc.baseUrl);
  const page = await client.get("/dashboard/sign-in");
  const res = await client.post("/dashboard/sign-in", {
    _csrf: HttpClient.csrfIn(page.text),
    email: EMAIL,
    password: PASSWORD,
  });
  assert.equal(res.res.status, 303, res.text);
  ports = await run(twoPortWaveguide());
  plain = await run(smallSimulation());
});
after(async () => svc.close());

async function bytes(path: string, signedIn = true): Promise<Response> {
  return fetch(svc.baseUrl + path, {
    headers: signedIn ? { cookie: client.cookieHeader() } : {},
    redirect: "manual",
  });
}

/** Mean row of the pixels of one colour in the middle of the plot's width (not the legend). */
function meanRow(png: DecodedPng, color: readonly number[]): number {
  let [sum, n] = [0, 0];
  for (let y = 0; y < png.height; y++) {
    for (let x = Math.round(png.width * 0.3); x < png.width * 0.7; x++) {
      const i = (y * png.width + x) * 3;
      if (png.rgb[i] === color[0] && png.rgb[i + 1] === color[1] && png.rgb[i + 2] === color[2]) {
        sum += y;
        n++;
      }
    }
  }
  assert.ok(n > 0, `no pixel of ${color}`);
  return sum / n;
}

test("a ports job's page: the S-parameters plot, the numbers and the Touchstone link", async () => {
  const page = await client.get(`/dashboard/jobs/${ports}`);
  assert.equal(page.res.status, 200, page.text);
  const section = /<section class="card" id="sparameters"[\s\S]*?<\/section>/.exec(page.text);
  assert.ok(section, "an S-parameters section");
  assert.match(section[0], /src="\/dashboard\/jobs\/[0-9a-f-]+\/sparameters\.png"/);
  assert.match(section[0], /o1@0, o2@0/);
  const link = /<a[^>]*id="touchstone-download"[^>]*>/.exec(section[0]);
  assert.ok(link, "a Touchstone link");
  assert.match(link[0], new RegExp(`href="/dashboard/jobs/${ports}/touchstone"`));
  assert.match(link[0], new RegExp(`download="emsim-${ports}\\.s2p"`));
  // The numbers: 3 wavelengths, |S21|² ≈ 0 dB.
  const rows = [...section[0].matchAll(/<tr>\s*<td class="num">([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[0].matchAll(/<td class="num">([^<]*)<\/td>/g)].map((c) => c[1]!.trim()),
  );
  assert.deepEqual(
    rows.map((r) => r[0]),
    ["1.5", "1.55", "1.6"],
  );
  assert.ok(
    rows.every((r) => Number(r[2]) > -0.01 && Number(r[1]) < -40),
    JSON.stringify(rows),
  );
});

test("the plot: transmission near 0 dB far above reflection", async () => {
  const res = await bytes(`/dashboard/jobs/${ports}/sparameters.png`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/png");
  // Private data: not kept in the browser past sign-out.
  assert.equal(res.headers.get("cache-control"), "no-store");
  const png = decodePng(Buffer.from(await res.arrayBuffer()));
  assert.equal(png.text.Title, `S-parameters of job ${ports.slice(0, 8)}`);
  // Curves S11, S21, S12, S22 in palette order; S12 covers S21 and S22 covers S11.
  const [s12, s22] = [meanRow(png, PALETTE[2]!), meanRow(png, PALETTE[3]!)];
  assert.ok(s22 - s12 > 200, `S12 at row ${s12}, S22 at ${s22}`);
});

test("the Touchstone download is the API's file under the API's name", async () => {
  const res = await bytes(`/dashboard/jobs/${ports}/touchstone`);
  assert.equal(res.status, 200);
  const api = await call(
    svc.baseUrl,
    "GET",
    `/v1/simulations/${ports}/sparameters?format=touchstone`,
    { key },
  );
  assert.equal(res.headers.get("content-disposition"), api.headers.get("content-disposition"));
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
  assert.equal(await res.text(), api.text);
  for (const r of [res, api]) assert.equal(r.headers.get("cache-control"), "no-store");
});

test("a job without ports: no section, no plot, no file", async () => {
  const page = await client.get(`/dashboard/jobs/${plain}`);
  assert.equal(page.res.status, 200);
  assert.doesNotMatch(page.text, /id="sparameters"/);
  assert.equal((await bytes(`/dashboard/jobs/${plain}/sparameters.png`)).status, 404);
  assert.equal((await bytes(`/dashboard/jobs/${plain}/touchstone`)).status, 404);
});

test("signed out, the plot and the file send to sign-in", async () => {
  for (const path of ["sparameters.png", "touchstone"]) {
    const res = await bytes(`/dashboard/jobs/${ports}/${path}`, false);
    assert.equal(res.status, 303, path);
    assert.match(res.headers.get("location") ?? "", /sign-in/);
  }
});
