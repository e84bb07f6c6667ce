/** Spec §5 and DESIGN §5: API keys, the distinct 401s, revocation, unauthenticated paths. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type Database from "better-sqlite3";
import { Agent, request as httpRequest } from "node:http";
import { generateApiKey } from "../../src/auth/api-keys.js";
import { call, smallSimulation, startService, type TestService } from "../helpers/service.js";

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(async () => svc.close());

test("missing key: 401 telling the client to include the Authorization: Bearer header", async () => {
  for (const headers of [
    {},
    { authorization: "" },
    { authorization: "Basic dXNlcjpwYXNz" },
  ] as Record<string, string>[]) {
    const res = await call(svc.baseUrl, "GET", "/v1/simulations", { headers });
    assert.equal(res.status, 401);
    assert.match(res.body.detail!, /Authorization: Bearer/);
    assert.equal(res.body.error_code, "missing_api_key");
    assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
  }
});

test("malformed key: 401 saying the API key format is invalid", async () => {
  const good = generateApiKey();
  const malformed = [
    "not-a-key",
    "sk_live_abcdef",
    good.slice(0, -1),
    good + "x",
    good.slice(0, -1) + (good.endsWith("a") ? "b" : "a"), // checksum mismatch
  ];
  for (const key of malformed) {
    const res = await call(svc.baseUrl, "GET", "/v1/simulations", { key });
    assert.equal(res.status, 401, key);
    assert.match(res.body.detail!, /API key format is invalid/);
    assert.equal(res.body.error_code, "invalid_api_key_format");
  }
});

test("well-formed but unknown key and revoked key get the same generic 401", async () => {
  const unknown = await call(svc.baseUrl, "GET", "/v1/simulations", { key: generateApiKey() });
  const key = await svc.newKey("revoke@example.com", "to revoke");
  assert.equal((await call(svc.baseUrl, "GET", "/v1/simulations", { key })).status, 200);
  const keys = await svc.service.stores.accounts.listApiKeys();
  const record = keys.find((k) => key.startsWith(k.displayPrefix))!;
  await svc.service.stores.accounts.revokeApiKey(record.id);
  const revoked = await call(svc.baseUrl, "GET", "/v1/simulations", { key });
  assert.equal(unknown.status, 401);
  assert.equal(revoked.status, 401);
  assert.deepEqual(unknown.body, revoked.body);
  assert.equal(Object.keys(revoked.body).sort().join(","), "detail,error_code");
});

test("one keep-alive connection: each request's key is judged on its own", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (authorization: string | undefined) =>
    new Promise<{ status: number; reused: boolean; detail: string }>((resolve, reject) => {
      const req = httpRequest(
        `${svc.baseUrl}/v1/simulations`,
        { agent, headers: authorization === undefined ? {} : { authorization } },
        (res) => {
          let text = "";
          res.on("data", (d: Buffer) => (text += d.toString()));
          res.on("end", () =>
            resolve({
              status: res.statusCode!,
              reused: req.reusedSocket,
              detail: (JSON.parse(text) as { detail?: string }).detail ?? "",
            }),
          );
        },
      );
      req.on("error", reject);
      req.end();
    });
  try {
    const key = await svc.newKey("keepalive@example.com", "keep-alive");
    const other = await svc.newKey("keepalive-other@example.com", "other account");
    assert.equal((await get(`Bearer ${key}`)).status, 200);
    const sequence: [string | undefined, number, RegExp | null][] = [
      [`Bearer ${key}`, 200, null],
      [undefined, 401, /Authorization: Bearer/],
      [
        `Bearer ${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`,
        401,
        /API key format is invalid/,
      ],
      [`Bearer ${generateApiKey()}`, 401, /^Authentication failed\.$/],
      [`Bearer ${other}`, 200, null],
      [`Bearer ${key}`, 200, null],
    ];
    for (const [authorization, status, detail] of sequence) {
      const res = await get(authorization);
      assert.equal(res.reused, true, "the test needs the same connection throughout");
      assert.equal(res.status, status, `${authorization}: ${res.detail}`);
      if (detail) assert.match(res.detail, detail);
    }
    // Revoked while the connection remembers the key: refused on the next request.
    const record = (await svc.service.stores.accounts.listApiKeys()).find((k) =>
      key.startsWith(k.displayPrefix),
    )!;
    await svc.service.stores.accounts.revokeApiKey(record.id);
    const revoked = await get(`Bearer ${key}`);
    assert.equal(revoked.reused, true);
    assert.equal(revoked.status, 401);
  } finally {
    agent.destroy();
  }
});

test("keys are stored only as SHA-256 hashes", async () => {
  const key = await svc.newKey("hash@example.com", "hash check");
  const db = (svc.service.stores as unknown as { database: { db: Database.Database } }).database.db;
  const rows = db.prepare("SELECT * FROM api_keys").all() as Record<string, unknown>[];
  const dump = JSON.stringify(rows);
  assert.ok(!dump.includes(key), "plaintext key found in the database");
  assert.ok(!dump.includes(key.slice(14)), "secret part of the key found in the database");
});

test("/health, /metrics, /openapi.json and /docs need no key; everything under /v1 does", async () => {
  const health = await call(svc.baseUrl, "GET", "/health");
  assert.equal(health.status, 200);
  assert.equal(health.body.status, "ok");
  const metrics = await call(svc.baseUrl, "GET", "/metrics");
  assert.equal(metrics.status, 200);
  assert.match(metrics.text, /emsim_jobs\{status="QUEUED"\}/);
  assert.match(metrics.text, /emsim_http_request_duration_seconds_bucket/);
  assert.match(metrics.text, /process_cpu_user_seconds_total/);
  // What the solver's speed depends on.
  assert.match(
    metrics.text,
    /emsim_machine_info\{cpu="[^"]+",cores="\d+",memory_bytes="\d+",solver_backend="\w+"\} 1/,
  );
  // The calibrated estimate: a thin grid steps slower per cell than a large one.
  const rate = (cells: string) =>
    Number(
      new RegExp(`emsim_estimate_mcells_per_second\\{cells="${cells}"\\} ([\\d.e+-]+)`).exec(
        metrics.text,
      )?.[1],
    );
  assert.ok(rate("20000") > 0 && rate("16000000") > rate("20000"), metrics.text);
  assert.match(metrics.text, /emsim_estimate_step_seconds [\d.e+-]+/);
  assert.match(metrics.text, /emsim_estimate_runs_observed \d+/);
  assert.match(metrics.text, /emsim_solver_threads \d+/);
  assert.equal((await call(svc.baseUrl, "GET", "/openapi.json")).status, 200);
  assert.equal((await call(svc.baseUrl, "GET", "/docs")).status, 200);
  for (const [method, path] of [
    ["POST", "/v1/simulations"],
    ["GET", "/v1/simulations/00000000-0000-0000-0000-000000000000"],
    ["GET", "/v1/simulations/00000000-0000-0000-0000-000000000000/results"],
    ["POST", "/v1/simulations/00000000-0000-0000-0000-000000000000/cancel"],
    ["POST", "/v1/simulations/estimate"],
    ["GET", "/v1/materials"],
  ] as const) {
    const res = await call(
      svc.baseUrl,
      method,
      path,
      method === "POST" ? { body: smallSimulation() } : {},
    );
    assert.equal(res.status, 401, `${method} ${path}`);
  }
});

test("a job of another account is a 404, indistinguishable from an unknown job", async () => {
  const alice = await svc.newKey("alice@example.com");
  const bob = await svc.newKey("bob@example.com");
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key: alice,
    body: smallSimulation(),
  });
  assert.equal(sub.status, 202);
  const id = String(sub.body.job_id);
  for (const path of [`/v1/simulations/${id}`, `/v1/simulations/${id}/results`]) {
    const res = await call(svc.baseUrl, "GET", path, { key: bob });
    assert.equal(res.status, 404);
    assert.equal(res.body.error_code, "job_not_found");
  }
  const cancel = await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key: bob });
  assert.equal(cancel.status, 404);
  const list = await call(svc.baseUrl, "GET", "/v1/simulations", { key: bob });
  assert.deepEqual(list.body.jobs, []);
  // Bob is not blocked by Alice's active job (the limit is per account).
  const bobSub = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key: bob,
    body: smallSimulation(),
  });
  assert.equal(bobSub.status, 202);
});
