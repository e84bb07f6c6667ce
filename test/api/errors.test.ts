/** DESIGN §4: every status code the API uses, each with a JSON body {detail, error_code}. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { call, smallSimulation, startService, type TestService } from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
  key = await svc.newKey();
});
after(async () => svc.close());

const submit = (opts: Parameters<typeof call>[3]) =>
  call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, ...opts });

test("400 for malformed JSON and for an empty JSON body", async () => {
  const bad = await submit({
    rawBody: '{"solver": "fdtd",',
    headers: { "content-type": "application/json" },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error_code, "malformed_json");
  const empty = await submit({ rawBody: "", headers: { "content-type": "application/json" } });
  assert.equal(empty.status, 400);
  const proto = await submit({
    rawBody: '{"__proto__": {"x": 1}}',
    headers: { "content-type": "application/json" },
  });
  assert.equal(proto.status, 400);
});

test("a route that takes no body takes an empty one sent with the JSON content type", async () => {
  const json = { "content-type": "application/json" };
  for (const path of [
    "/v1/simulations/00000000-0000-4000-8000-000000000000/cancel",
    "/v1/batches/00000000-0000-4000-8000-000000000000/cancel",
  ]) {
    const res = await call(svc.baseUrl, "POST", path, { key, rawBody: "", headers: json });
    // Past the body parser to the route, which finds no such job or batch.
    assert.equal(res.status, 404, `${path}: ${res.text}`);
  }
});

test("413 for a body above the limit", async () => {
  const big = JSON.stringify({
    ...smallSimulation(),
    metadata: { pad: "x".repeat(2 * 1024 * 1024) },
  });
  const res = await submit({ rawBody: big, headers: { "content-type": "application/json" } });
  assert.equal(res.status, 413);
  assert.equal(res.body.error_code, "body_too_large");
});

test("415 for a body that is not JSON or has no content type", async () => {
  const text = await submit({ rawBody: "hello", headers: { "content-type": "text/plain" } });
  assert.equal(text.status, 415);
  assert.equal(text.body.error_code, "unsupported_media_type");
  const form = await submit({
    rawBody: "a=1",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  assert.equal(form.status, 415);
  const none = await call(svc.baseUrl, "POST", "/v1/simulations", { key });
  assert.equal(none.status, 415);
});

test("422 names the field and the bound, never coerces or strips", async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...smallSimulation(), extra: 1 }, /^extra: is not an allowed field/],
    [{ ...smallSimulation(), solver: "fem" }, /^solver: must be "fdtd"/],
    [{ ...smallSimulation(), domain: { size: [1e-6, 1e-6], resolution: 1e-8 } }, /^domain\.size/],
    [
      { ...smallSimulation(), domain: { size: [1e-6, 1e-6, -1e-6], resolution: 1e-8 } },
      /^domain\.size\[2\]: must be > 0/,
    ],
    [
      { ...smallSimulation(), domain: { size: [1e-6, 1e-6, 1e-6], resolution: "5e-8" } },
      /^domain\.resolution: must be number/,
    ],
    [
      { ...smallSimulation(), fdtd_settings: { time_steps: "100" } },
      /^fdtd_settings\.time_steps: must be integer/,
    ],
    [
      { ...smallSimulation(), fdtd_settings: { courant_factor: 1.5 } },
      /^fdtd_settings\.courant_factor: must be <= 1/,
    ],
    [
      { ...smallSimulation(), source: { source_type: "plane_wave", wavelength: 1.55e-6 } },
      /^source\.direction: is required/,
    ],
    [
      { ...smallSimulation(), structures: [{ type: "torus" }] },
      /^structures\[0\]\.type: must be one of/,
    ],
    [
      {
        ...smallSimulation(),
        structures: [
          { type: "box", center: [0, 0, 0], size: [1e-7, 1e-7, 1e-7], material: "unobtainium" },
        ],
      },
      /^structures\[0\]\.material/,
    ],
    [
      {
        ...smallSimulation(),
        domain: { size: [0.05e-6, 0.05e-6, 3e-6], resolution: 0.05e-6, pml_layers: 0 },
      },
      /^domain\.pml_layers: must be >= 1/,
    ],
  ];
  for (const [body, pattern] of cases) {
    const res = await submit({ body });
    assert.equal(res.status, 422, JSON.stringify(body).slice(0, 200));
    assert.equal(res.body.error_code, "validation_error");
    assert.match(res.body.detail!, pattern);
    assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0);
  }
});

test("422 for a job above the deployment's limits, with the estimate and the limit", async () => {
  const res = await submit({
    body: { ...smallSimulation(), domain: { size: [1e-3, 1e-3, 1e-3], resolution: 1e-8 } },
  });
  assert.equal(res.status, 422);
  assert.match(res.body.detail!, /limit/);
});

test("422 for a grid above the solver's own memory bound, whatever the deployment allows", async () => {
  const roomy = await startService({
    rateLimitPerMinute: 0,
    limits: { ...svc.config.limits, maxCells: 1e10, maxMemoryBytes: 1e13 },
  });
  try {
    const k = await roomy.newKey();
    // A cube of `cells` per axis with PML (12 layers), 40 nm cells; oblique: Bloch-periodic.
    const cube = (cells: number, oblique = false) => {
      const side = (cells - 24) * 40e-9;
      return {
        solver: "fdtd",
        domain: {
          size: [side, side, side],
          resolution: 40e-9,
          boundary_conditions: oblique ? ["periodic", "periodic", "pml"] : ["pml", "pml", "pml"],
        },
        source: {
          source_type: "plane_wave",
          wavelength: 1e-6,
          direction: oblique ? [0.3, 0, 1] : [0, 0, 1],
        },
        fdtd_settings: { time_steps: 100 },
      };
    };
    const estimate = (body: object) =>
      call(roomy.baseUrl, "POST", "/v1/simulations/estimate", { key: k, body });
    // 24 B per cell (48 with two field sets): 540³ and 430³ fit in 4 GiB, 560³ and 460³ not.
    for (const [cells, oblique, fits] of [
      [540, false, true],
      [560, false, false],
      [430, true, true],
      [460, true, false],
    ] as const) {
      const res = await estimate(cube(cells, oblique));
      assert.equal(res.status, fits ? 200 : 422, `${cells}³ oblique=${oblique}: ${res.text}`);
      if (!fits) {
        const errors = res.body.errors as { path: string }[];
        assert.deepEqual(
          errors.map((e) => e.path),
          ["domain.resolution"],
        );
        assert.match(res.body.detail!, /needs an estimated \d+\.\d+ GiB of solver memory/);
        assert.match(res.body.detail!, /solver's limit of 4\.00 GiB/);
      }
    }
  } finally {
    await roomy.close();
  }
});

test("404 for an unknown job and an unknown route, with JSON bodies", async () => {
  const job = await call(
    svc.baseUrl,
    "GET",
    "/v1/simulations/6f1c1a57-1111-4c4c-9999-123456789abc",
    { key },
  );
  assert.equal(job.status, 404);
  assert.equal(job.body.error_code, "job_not_found");
  const route = await call(svc.baseUrl, "GET", "/nope");
  assert.equal(route.status, 404);
  assert.equal(typeof route.body.detail, "string");
});

test("405 with Allow for a path that exists under other methods, before authentication", async () => {
  const cases: [string, string, string][] = [
    ["DELETE", "/v1/simulations/6f1c1a57-1111-4c4c-9999-123456789abc", "GET, HEAD"],
    ["PUT", "/v1/simulations", "GET, HEAD, POST"],
    ["GET", "/v1/modes", "POST"],
    ["GET", "/v1/batches/b/cancel", "POST"],
    // A fixed path is no id: these went to GET /v1/simulations/{job_id} (404 job_not_found)
    // while their 405 to PUT said GET was allowed.
    ["GET", "/v1/simulations/estimate", "POST"],
    ["PUT", "/v1/simulations/estimate", "POST"],
    ["GET", "/v1/simulations/preview", "POST"],
    ["GET", "/v1/batches/estimate", "POST"],
  ];
  for (const [method, path, allow] of cases) {
    const res = await call(svc.baseUrl, method, path);
    assert.equal(res.status, 405, `${method} ${path}`);
    assert.equal(res.headers.get("allow"), allow);
    assert.equal(res.body.error_code, "method_not_allowed");
    assert.match(String(res.body.detail), new RegExp(`^${method} is not allowed on ${path}`));
  }
  const unknown = await call(svc.baseUrl, "DELETE", "/v1/nothing-here");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get("allow"), null);
});

test("a path with a trailing slash is no route (404), not a 405 that names the refused method as allowed", async () => {
  // POST /v1/modes/ was "POST is not allowed on /v1/modes/; it answers POST".
  const cases: [string, string][] = [
    ["POST", "/v1/modes/"],
    ["POST", "/v1/simulations/"],
    ["POST", "/v1/simulations/estimate/"],
    ["GET", "/v1/simulations/6f1c1a57-1111-4c4c-9999-123456789abc/sparameters/"],
    // These went to the routes with an id, as an empty one ("No simulation job with id ''").
    ["GET", "/v1/simulations/"],
    ["GET", "/v1/batches/"],
  ];
  for (const [method, path] of cases) {
    const res = await call(svc.baseUrl, method, path, { key });
    assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error_code, "not_found", `${method} ${path}`);
    assert.equal(res.headers.get("allow"), null);
    // The detail says which path is there.
    assert.match(String(res.body.detail), new RegExp(`the path is ${path.slice(0, -1)}\\.$`));
  }
});

test("an empty id in the middle of a path is no route either", async () => {
  for (const path of ["/v1/simulations//results", "/v1/batches//cancel"]) {
    const method = path.endsWith("cancel") ? "POST" : "GET";
    const res = await call(svc.baseUrl, method, path, { key });
    assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error_code, "not_found");
  }
});

test("a query parameter given twice is said to be so, on every endpoint alike", async () => {
  for (const path of [
    "/v1/simulations?limit=1&limit=2",
    "/v1/simulations?status=QUEUED&status=FAILED",
    "/v1/batches?limit=1&limit=2",
  ]) {
    const res = await call(svc.baseUrl, "GET", path, { key });
    assert.equal(res.status, 422, `${path}: ${res.text}`);
    const name = /\?(\w+)=/.exec(path)![1];
    assert.equal(res.body.detail, `query.${name}: is given more than once; give it once`);
  }
});

test("every response carries X-Correlation-ID, echoing a valid one from the client", async () => {
  const mine = await call(svc.baseUrl, "GET", "/health", {
    headers: { "x-correlation-id": "abc-123" },
  });
  assert.equal(mine.headers.get("x-correlation-id"), "abc-123");
  const fresh = await call(svc.baseUrl, "GET", "/v1/simulations", { key });
  assert.match(fresh.headers.get("x-correlation-id") ?? "", /^[0-9a-f-]{36}$/);
  const hostile = await call(svc.baseUrl, "GET", "/health", {
    headers: { "x-correlation-id": "a b<c>" },
  });
  assert.notEqual(hostile.headers.get("x-correlation-id"), "a b<c>");
});

test("429 with Retry-After once a key exceeds its rate", async () => {
  const limited = await startService({ rateLimitPerMinute: 5 });
  try {
    const k = await limited.newKey();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await call(limited.baseUrl, "GET", "/v1/simulations", { key: k })).status);
    }
    assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
    const res = await call(limited.baseUrl, "GET", "/v1/simulations", { key: k });
    assert.equal(res.status, 429);
    assert.equal(res.body.error_code, "rate_limited");
    assert.ok(Number(res.headers.get("retry-after")) >= 1);
  } finally {
    await limited.close();
  }
});
