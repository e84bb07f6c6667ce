/**
 * The API's security properties over real HTTP: no account reaches another's jobs (404 on every
 * route, the same answer as an unknown job), what counts as an Authorization header, correlation
 * ids that cannot inject headers, error bodies that disclose nothing internal, and requests that
 * are cheap to send but must not cost a 500.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import {
  call,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { assertNoInternals, rawRequest } from "./helpers.js";

let svc: TestService;
let alice: string;
let bob: string;
let aliceJob: string;

before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
  alice = await svc.newKey("alice@example.com");
  bob = await svc.newKey("bob@example.com");
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key: alice,
    body: smallSimulation(),
  });
  assert.equal(sub.status, 202, sub.text);
  aliceJob = String(sub.body.job_id);
  await waitForStatus(svc.baseUrl, alice, aliceJob, ["COMPLETED"]);
});
after(async () => svc.close());

/** A body with the job id replaced, to compare "another's job" with "no such job". */
const masked = (text: string, id: string) => text.split(id).join("<id>");

describe("isolation between accounts", () => {
  test("another account's job is a 404 on every route, worded as for an unknown job", async () => {
    const unknown = randomUUID();
    const routes: [string, string][] = [
      ["GET", "/v1/simulations/{id}"],
      ["GET", "/v1/simulations/{id}/results"],
      ["POST", "/v1/simulations/{id}/cancel"],
    ];
    for (const [method, template] of routes) {
      const theirs = await call(svc.baseUrl, method, template.replace("{id}", aliceJob), {
        key: bob,
      });
      const none = await call(svc.baseUrl, method, template.replace("{id}", unknown), {
        key: bob,
      });
      assert.equal(theirs.status, 404, `${method} ${template}`);
      assert.equal(theirs.body.error_code, "job_not_found");
      assert.equal(theirs.headers.get("location"), null, "no signed address");
      assert.equal(masked(theirs.text, aliceJob), masked(none.text, unknown));
    }
    // Alice's job is untouched by Bob's cancel, and still hers.
    const own = await call(svc.baseUrl, "GET", `/v1/simulations/${aliceJob}`, { key: alice });
    assert.equal(own.body.status, "COMPLETED");
    assert.equal(own.body.cancel_requested, false);
    // Its id in upper case is the same id (UUID text is case-insensitive), to her alone.
    const upper = `/v1/simulations/${aliceJob.toUpperCase()}`;
    assert.equal((await call(svc.baseUrl, "GET", upper, { key: alice })).body.job_id, aliceJob);
    assert.equal((await call(svc.baseUrl, "GET", upper, { key: bob })).status, 404);
  });

  test("listing never shows another account's jobs, and their ids are no cursor", async () => {
    const list = await call(svc.baseUrl, "GET", "/v1/simulations?limit=100", { key: bob });
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(aliceJob));
    const theirs = await call(svc.baseUrl, "GET", `/v1/simulations?cursor=${aliceJob}`, {
      key: bob,
    });
    const unknown = randomUUID();
    const none = await call(svc.baseUrl, "GET", `/v1/simulations?cursor=${unknown}`, {
      key: bob,
    });
    assert.equal(theirs.status, 422);
    assert.ok(!theirs.text.includes("alice"));
    assert.equal(masked(theirs.text, aliceJob), masked(none.text, unknown));
  });

  test("with a global limit, the 409 does not name another account's job", async () => {
    const global = await startService(
      {},
      { EMSIM_CONCURRENCY_SCOPE: "global", EMSIM_EMBEDDED_WORKER: "false" },
    );
    try {
      const a = await global.newKey("a@example.com");
      const b = await global.newKey("b@example.com");
      const first = await call(global.baseUrl, "POST", "/v1/simulations", {
        key: a,
        body: smallSimulation(),
      });
      assert.equal(first.status, 202);
      const refused = await call(global.baseUrl, "POST", "/v1/simulations", {
        key: b,
        body: smallSimulation(),
      });
      assert.equal(refused.status, 409);
      assert.ok(!refused.text.includes(String(first.body.job_id)), refused.text);
      // The stand-in api.md documents for the id, and a detail that says whose job it is.
      assert.equal(refused.body.active_job_id, "(another account's job)");
      assert.match(String(refused.body.detail), /^Another account's simulation is running/);
    } finally {
      await global.close();
    }
  });
});

describe("caching", () => {
  test("no answer of the API is kept by a cache: an account's data, and its errors", async () => {
    for (const [path, key] of [
      [`/v1/simulations/${aliceJob}`, alice],
      ["/v1/simulations", alice],
      [`/v1/simulations/${aliceJob}`, bob],
      ["/v1/simulations", null],
    ] as const) {
      const res = await call(svc.baseUrl, "GET", path, { key });
      assert.equal(res.headers.get("cache-control"), "no-store", `${path}: ${res.status}`);
    }
  });

  test("nor is an error refused before any route: unknown paths, methods, headers and URLs", async () => {
    const answers = [
      await rawRequest(svc.baseUrl, "/v1/nothing", {
        headers: { authorization: `Bearer ${alice}` },
      }),
      await rawRequest(svc.baseUrl, `/v1/simulations/${aliceJob}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${alice}` },
      }),
      await rawRequest(svc.baseUrl, "/v1/simulations", {
        headers: { authorization: [`Bearer ${alice}`, `Bearer ${alice}`] },
      }),
      await rawRequest(svc.baseUrl, "/v1/simulations/%E0%A4%A", {
        headers: { authorization: `Bearer ${alice}` },
      }),
    ];
    assert.deepEqual(
      answers.map((res) => res.status),
      [404, 405, 400, 400],
    );
    for (const res of answers) assert.equal(res.headers["cache-control"], "no-store", res.text);
  });
});

describe("Authorization header", () => {
  test("the scheme is case-insensitive and surrounding blanks are allowed", async () => {
    for (const header of [
      `Bearer ${alice}`,
      `bearer ${alice}`,
      `BEARER ${alice}`,
      `Bearer\t${alice}`,
      `Bearer   ${alice}   `,
    ]) {
      const res = await call(svc.baseUrl, "GET", "/v1/simulations", {
        headers: { authorization: header },
      });
      assert.equal(res.status, 200, JSON.stringify(header));
    }
  });

  test("anything else with a valid key in it is refused with 401", async () => {
    for (const header of [
      `Bearer${alice}`,
      `Bearer ${alice} extra`,
      `Bearer ${alice},Bearer ${bob}`,
      `Bearer ${alice}, Bearer ${bob}`,
      `Token ${alice}`,
      `Basic ${Buffer.from(`${alice}:`).toString("base64")}`,
      `Bearer ${alice.toUpperCase()}`,
      `Bearer ${alice.slice(0, -1)}`,
    ]) {
      const res = await call(svc.baseUrl, "GET", "/v1/simulations", {
        headers: { authorization: header },
      });
      assert.equal(res.status, 401, JSON.stringify(header));
      assert.deepEqual(Object.keys(res.body).sort(), ["detail", "error_code"]);
      // A Bearer credential that is there but malformed is no missing key (it was).
      const sent = /^Bearer\s+\S/i.test(header);
      assert.equal(
        res.body.error_code,
        sent ? "invalid_api_key_format" : "missing_api_key",
        header,
      );
    }
    // Non-ASCII in the key (sent as latin-1 bytes) is a malformed key, not a lookup.
    const accented = await rawRequest(svc.baseUrl, "/v1/simulations", {
      headers: { authorization: `Bearer ${alice.slice(0, -1)}é` },
    });
    assert.equal(accented.status, 401);
  });

  test("two Authorization headers are a 400: a proxy and Node could read different ones", async () => {
    for (const pair of [
      ["Bearer not-a-key", `Bearer ${alice}`],
      [`Bearer ${alice}`, "Bearer not-a-key"],
    ]) {
      const res = await rawRequest(svc.baseUrl, "/v1/simulations", {
        headers: { authorization: pair },
      });
      assert.equal(res.status, 400);
    }
  });
});

describe("correlation ids", () => {
  test("only a safe id is echoed; anything else is replaced by a fresh UUID", async () => {
    const ok = await call(svc.baseUrl, "GET", "/health", {
      headers: { "x-correlation-id": "client-42.a:b_c" },
    });
    assert.equal(ok.headers.get("x-correlation-id"), "client-42.a:b_c");
    for (const given of ["a b", "<script>", 'a"b', "a;b=c", "x".repeat(129), "é"]) {
      const res = await rawRequest(svc.baseUrl, "/health", {
        headers: { "x-correlation-id": given },
      });
      const echoed = String(res.headers["x-correlation-id"]);
      assert.match(echoed, /^[0-9a-f-]{36}$/, JSON.stringify(given));
    }
  });
});

describe("error bodies", () => {
  test("a 500 carries a generic detail and the request id, no stack, SQL or path", async () => {
    const store = svc.service.stores.jobs as unknown as { getJob: unknown };
    const original = store.getJob;
    store.getJob = async () => {
      const err = new Error(
        "SQLITE_CORRUPT: database disk image is malformed in SELECT * FROM jobs at /secret/data/emsim.db",
      );
      throw err;
    };
    try {
      const res = await call(svc.baseUrl, "GET", `/v1/simulations/${aliceJob}`, {
        key: alice,
        headers: { "x-correlation-id": "trace-500" },
      });
      assert.equal(res.status, 500);
      assert.deepEqual(Object.keys(res.body).sort(), ["detail", "error_code"]);
      assert.equal(res.body.error_code, "internal_error");
      assert.equal(res.headers.get("x-correlation-id"), "trace-500");
      assertNoInternals(res.text, "500 body");
    } finally {
      store.getJob = original;
    }
  });

  test("/health does not pass on the database's error message", async () => {
    const store = svc.service.stores.jobs as unknown as { countJobsByStatus: unknown };
    const original = store.countJobsByStatus;
    store.countJobsByStatus = async () => {
      throw new Error("SQLITE_CANTOPEN: unable to open database file /secret/data/emsim.db");
    };
    try {
      const res = await call(svc.baseUrl, "GET", "/health");
      assert.equal(res.status, 503);
      assert.equal(res.body.error_code, "not_ready");
      assertNoInternals(res.text, "health");
    } finally {
      store.countJobsByStatus = original;
    }
  });

  test("a malformed URL gets the usual JSON error body and a correlation id", async () => {
    for (const path of [
      "/v1/simulations/%zz",
      "/dashboard/jobs/%zz",
      "/storage/objects/%zz?expires=1&name=x&signature=SECRET-SIGNATURE",
    ]) {
      const res = await rawRequest(svc.baseUrl, path, {
        headers: { authorization: `Bearer ${alice}` },
      });
      assert.equal(res.status, 400, path);
      const body = JSON.parse(res.text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ["detail", "error_code"], res.text);
      assert.equal(body.error_code, "bad_request");
      assert.ok(res.headers["x-correlation-id"], `${path}: no X-Correlation-ID`);
      assert.ok(!res.text.includes("SECRET-SIGNATURE"), "the query is not echoed");
    }
  });

  test("a long path segment still routes: a JSON 404 for an unknown job, sign-in for the dashboard", async () => {
    const res = await rawRequest(svc.baseUrl, `/v1/simulations/${"a".repeat(2000)}`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    assert.equal(res.status, 404);
    const body = JSON.parse(res.text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ["detail", "error_code"], res.text);
    assert.equal(body.error_code, "job_not_found");
    assert.ok(res.headers["x-correlation-id"]);
    const page = await rawRequest(svc.baseUrl, `/dashboard/jobs/${"a".repeat(2000)}`, {});
    assert.equal(page.status, 303);
    assert.match(String(page.headers.location), /^\/dashboard\/sign-in/);
  });
});

describe("cheap requests that must not cost a 500", () => {
  const nested = (depth: number) =>
    JSON.stringify(smallSimulation({ metadata: { deep: "HOLE" } })).replace(
      '"HOLE"',
      "[".repeat(depth) + "]".repeat(depth),
    );

  test("deeply nested metadata is refused with 422 naming the field", async () => {
    for (const path of ["/v1/simulations/estimate", "/v1/simulations"]) {
      for (const depth of [40, 20_000]) {
        const res = await call(svc.baseUrl, "POST", path, {
          key: bob,
          rawBody: nested(depth),
          headers: { "content-type": "application/json" },
        });
        assert.equal(res.status, 422, `${path} depth ${depth}: ${res.text.slice(0, 200)}`);
        assert.match(String(res.body.detail), /^metadata/);
      }
    }
    const list = await call(svc.baseUrl, "GET", "/v1/simulations", { key: bob });
    assert.deepEqual(list.body.jobs, [], "no job was stored");
  });

  test("ordinary nested metadata is still accepted and echoed", async () => {
    const metadata = { a: { b: { c: [1, [2, { d: "e" }]] } }, tags: ["x", "y"] };
    const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
      key: bob,
      body: smallSimulation({ metadata }),
    });
    assert.equal(res.status, 200, res.text);
  });

  test("non-finite numbers (1e999) are refused, never run", async () => {
    const body = JSON.stringify(smallSimulation()).replace(
      '"wavelength":0.00000155',
      '"wavelength":1e999',
    );
    assert.ok(body.includes("1e999"));
    const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
      key: bob,
      rawBody: body,
      headers: { "content-type": "application/json" },
    });
    assert.equal(res.status, 422, res.text);
  });

  test("prototype keys in metadata are refused, not merged", async () => {
    for (const raw of [
      '{"__proto__": {"admin": true}}',
      '{"constructor": {"prototype": {"admin": true}}}',
    ]) {
      const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
        key: bob,
        rawBody: JSON.stringify(smallSimulation({ metadata: { m: "HOLE" } })).replace(
          '"HOLE"',
          raw,
        ),
        headers: { "content-type": "application/json" },
      });
      assert.equal(res.status, 400, raw);
      assert.equal(({} as Record<string, unknown>).admin, undefined);
    }
  });
});
