/**
 * Text PostgreSQL cannot hold, sent where the service looks a row up: a NUL character (%00) in a
 * job or batch id, a cursor, a key's id or a sign-in email is answered as any unknown one is
 * (404, 422, 401), never with the 500 the database's encoding error became. SQLite holds such
 * text, so this runs on PostgreSQL, where it failed.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { freshPgDatabase } from "../helpers/postgres.js";
import { call, startService, type TestService } from "../helpers/service.js";
import { HttpClient } from "../dashboard/helpers.js";
import { makeAccount, signedIn } from "./helpers.js";

let db: Awaited<ReturnType<typeof freshPgDatabase>>;
let svc: TestService;
let key: string;

before(async () => {
  db = await freshPgDatabase();
  svc = await startService(
    { rateLimitPerMinute: 0 },
    { EMSIM_DATABASE_URL: db.url, EMSIM_EMBEDDED_WORKER: "false" },
  );
  key = await svc.newKey("nul@example.com");
  await makeAccount(svc.service.stores.accounts, "signed@example.com");
});
after(async () => {
  await svc?.close();
  await db?.drop();
});

test("a NUL in an id or cursor is an unknown one: 404 or 422, not 500", async () => {
  const answers: [string, string, number, string][] = [
    ["GET", "/v1/simulations/%00", 404, "job_not_found"],
    ["GET", "/v1/simulations/a%00b/results", 404, "job_not_found"],
    ["GET", "/v1/simulations/%00/sparameters", 404, "job_not_found"],
    ["POST", "/v1/simulations/%00/cancel", 404, "job_not_found"],
    ["GET", "/v1/batches/%00", 404, "batch_not_found"],
    ["POST", "/v1/batches/%00/cancel", 404, "batch_not_found"],
    ["GET", "/v1/simulations?cursor=%00", 422, "validation_error"],
    ["GET", "/v1/batches?cursor=%00", 422, "validation_error"],
  ];
  for (const [method, path, status, code] of answers) {
    const res = await call(svc.baseUrl, method, path, { key });
    assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error_code, code, `${method} ${path}`);
  }
});

test("the dashboard: a NUL in a sign-in email is a wrong sign-in, in a key's id a 404", async () => {
  const visitor = new HttpClient(svc.baseUrl);
  const page = await visitor.get("/dashboard/sign-in");
  const res = await visitor.post("/dashboard/sign-in", {
    _csrf: HttpClient.csrfIn(page.text),
    email: "signed\u0000@example.com",
    password: "whatever it is",
  });
  assert.equal(res.res.status, 401, res.text);
  assert.match(res.text, /The email or password is not right\./);

  const client = await signedIn(svc.baseUrl, "signed@example.com");
  assert.equal((await client.get("/dashboard/keys/%00/revoke")).res.status, 404);
  assert.equal((await client.get("/dashboard/jobs/%00")).res.status, 404);
});
