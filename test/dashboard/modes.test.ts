/**
 * The dashboard's Modes page over plain HTTP against a real service: signed out it sends to
 * sign-in; signed in, the silicon strip's request and plane give TE0 and TM0 in the table and
 * a PNG of each mode (read back: the plot of `emsim modes --png`); mistakes in the form and
 * the API's field errors come back beside the form, which keeps what was typed; a POST without
 * the CSRF token is refused.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { hashPassword } from "../../src/auth/passwords.js";
import { EXAMPLE_MODES_REQUEST } from "../../src/http/openapi-examples.js";
import { decodePng } from "../../src/plot/testing/decode-png.js";
import { startService, type TestService } from "../helpers/service.js";
import { HttpClient } from "./helpers.js";

const PASSWORD = "a long enough password";
let svc: TestService;
let client: HttpClient;

const { domain, structures } = EXAMPLE_MODES_REQUEST;
const simulation = JSON.stringify({
  solver: "fdtd",
  domain,
  structures,
  source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 1, 0] },
});
const PLANE = "y=0,x=-0.8um:0.8um,z=-0.69um:0.91um";

before(async () => {
  svc = await startService({ embeddedWorker: false });
  await svc.service.stores.accounts.createAccount({
    email: "modes@example.com",
    isAdmin: false,
    passwordHash: await hashPassword(PASSWORD),
  });
  client = new HttpClient(svc.baseUrl);
  const page = await client.get("/dashboard/sign-in");
  const res = await client.post("/dashboard/sign-in", {
    _csrf: HttpClient.csrfIn(page.text),
    email: "modes@example.com",
    password: PASSWORD,
  });
  assert.equal(res.res.status, 303, res.text);
});
after(async () => svc.close());

async function solve(form: Record<string, string>) {
  const page = await client.get("/dashboard/modes");
  return client.post("/dashboard/modes", { _csrf: HttpClient.csrfIn(page.text), ...form });
}

/** The table's rows as cell texts. */
function tableRows(page: string): string[][] {
  const body = /<table class="table" id="modes-table">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(
    page,
  );
  assert.ok(body, "a table of modes");
  return [...body[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>\s*([\s\S]*?)\s*<\/td>/g)].map((cell) => cell[1]!),
  );
}

test("signed out, the page sends to sign-in", async () => {
  const res = await new HttpClient(svc.baseUrl).get("/dashboard/modes");
  assert.equal(res.res.status, 303);
  assert.match(res.res.headers.get("location") ?? "", /sign-in/);
});

test("the strip's TE0 and TM0: a table and a picture of each", async () => {
  const page = await client.get("/dashboard/modes");
  assert.equal(page.res.status, 200);
  assert.match(page.text, /aria-current="page">Modes</);
  const res = await solve({ request: simulation, plane: PLANE, num_modes: "2" });
  assert.equal(res.res.status, 200, res.text);
  const [te, tm] = tableRows(res.text);
  assert.equal(te![0], "1.55");
  assert.ok(Math.abs(Number(te![2]) - 2.4455) < 5e-3, `TE0 ${te![2]}`);
  assert.ok(Number(te![4]) > 0.9 && Number(tm![4]) < 0.3);
  const images = [...res.text.matchAll(/src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/g)];
  assert.equal(images.length, 2);
  for (const [k, image] of images.entries()) {
    const png = decodePng(Buffer.from(image[1]!, "base64"));
    assert.match(png.text.Title!, new RegExp(`\\|E\\| of mode ${k} at`));
    assert.ok(png.width > 300 && png.height > 250, `${png.width} × ${png.height}`);
  }
  // The form keeps what was sent, for the next try.
  assert.ok(res.text.includes(`value="${PLANE}"`));
});

test("mistakes are told beside the form, which keeps what was typed", async () => {
  const bad = async (form: Record<string, string>, status: number, message: RegExp) => {
    const res = await solve({ request: simulation, plane: PLANE, num_modes: "1", ...form });
    assert.equal(res.res.status, status, res.text);
    const errors = /<ul class="form-error-list" id="modes-errors">([\s\S]*?)<\/ul>/.exec(res.text);
    assert.ok(errors, "the reasons are listed");
    assert.match(errors[1]!, message);
    assert.doesNotMatch(res.text, /id="modes-table"/);
  };
  await bad({ request: "{not json" }, 400, /not JSON/);
  const poisoned = simulation.replace("{", '{"constructor": {"prototype": {}}, ');
  await bad({ request: poisoned }, 400, /key &quot;__proto__&quot;/);
  await bad({ plane: "y=0,x=0" }, 400, /Plane: y and x are both given one position/);
  await bad({ num_modes: "50" }, 400, /from 1 to 20/);
  await bad({ wavelength_um: "abc" }, 400, /must be a positive number of µm, not &#39;abc&#39;/);
  // The API's own checks: a plane outside the domain is a field error on plane.
  await bad({ plane: "y=3um" }, 422, /plane/);
  const res = await solve({ request: simulation, plane: "y=3um", num_modes: "1" });
  assert.ok(res.text.includes("&quot;solver&quot;"), "the pasted request is shown again");
});

test("a POST without the CSRF token is refused", async () => {
  const res = await client.post("/dashboard/modes", { request: simulation, plane: PLANE });
  assert.equal(res.res.status, 403, res.text);
});

test("leaving the page before the answer stops the solve: the next one is not refused", async () => {
  // One solve at a time (the default): before, an abandoned solve of seconds held the slot to
  // its end and the next form post got 503 modes_busy.
  const fine = JSON.stringify({
    ...JSON.parse(simulation),
    domain: { ...domain, resolution: 1e-8 },
  });
  const page = await client.get("/dashboard/modes");
  const form = {
    _csrf: HttpClient.csrfIn(page.text),
    request: fine,
    plane: PLANE,
    num_modes: "12",
  };
  const gone = new AbortController();
  const abandoned = client.post("/dashboard/modes", form, {}, gone.signal).catch((e: Error) => e);
  await new Promise((r) => setTimeout(r, 400));
  gone.abort();
  assert.ok((await abandoned) instanceof Error, "the solve was still running when left");
  await new Promise((r) => setTimeout(r, 200));
  const res = await solve({ request: simulation, plane: PLANE, num_modes: "1" });
  assert.equal(res.res.status, 200, res.text.slice(0, 600));
});
