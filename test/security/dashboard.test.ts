/**
 * The dashboard's security properties over real HTTP: user-controlled text (job metadata, key
 * names, error details, emails, URLs) never becomes markup on any page or HTML fragment; one
 * account never reaches another's jobs or keys through any page, JSON endpoint or form; every
 * state-changing POST needs the CSRF token; sign-in throttling holds under parallel attempts;
 * private JSON is not kept in the browser's cache; failures disclose nothing internal.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { SignInThrottle } from "../../src/dashboard/throttle.js";
import { openSqliteStores } from "../../src/store/sqlite/index.js";
import {
  call,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { HttpClient } from "../dashboard/helpers.js";
import { assertNoInternals, makeAccount, PASSWORD, rawRequest, signedIn } from "./helpers.js";

/** Breaks out of attributes and text alike if it is ever put into a page unescaped. */
const XSS = `"'><img src=x onerror=alert(1)><script>alert(2)</script>`;
const MARKERS = ["<img src=x", "<script>alert", `"'><`];

let svc: TestService;
let alice: HttpClient;
let bob: HttpClient;
let aliceKey: { key: string; id: string; accountId: string };
let doneJob: string;
let failedJob: string;

before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
  await makeAccount(svc.service.stores.accounts, "alice@example.com");
  await makeAccount(svc.service.stores.accounts, "bob@example.com");
  const issued = await svc.service.accounts.issueKeyFor("alice@example.com", XSS);
  aliceKey = { key: issued.key, id: issued.record.id, accountId: issued.account.id };
  const metadata = { [XSS]: XSS, nested: { [XSS]: [XSS, 1] }, plain: "alice-secret-value" };
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key: aliceKey.key,
    body: smallSimulation({ metadata }),
  });
  assert.equal(sub.status, 202, sub.text);
  doneJob = String(sub.body.job_id);
  await waitForStatus(svc.baseUrl, aliceKey.key, doneJob, ["COMPLETED"]);
  // A FAILED job whose error_detail (it comes from the solver) is hostile too; made in the
  // store directly, which is quicker than running and cancelling a second job.
  failedJob = randomUUID();
  const admitted = await svc.service.stores.jobs.admitJob(
    {
      jobId: failedJob,
      accountId: aliceKey.accountId,
      solver: "fdtd",
      requestJson: JSON.stringify(smallSimulation()),
      specJson: "{}",
      metadata,
      createdAt: new Date().toISOString(),
    },
    { limit: 10, scope: "account" },
  );
  assert.ok(admitted.admitted);
  await svc.service.stores.jobs.failJob(
    failedJob,
    null,
    new Date().toISOString(),
    `${XSS}\n${XSS}`,
  );
  alice = await signedIn(svc.baseUrl, "alice@example.com");
  bob = await signedIn(svc.baseUrl, "bob@example.com");
});
after(async () => svc.close());

function assertEscaped(text: string, where: string): void {
  for (const marker of MARKERS) assert.ok(!text.includes(marker), `${where} contains ${marker}`);
}

describe("escaping", () => {
  test("metadata, key names and error details are escaped on every page", async () => {
    const pages = [
      "/dashboard/jobs",
      `/dashboard/jobs/${doneJob}`,
      `/dashboard/jobs/${failedJob}`,
      "/dashboard/keys",
      `/dashboard/keys/${aliceKey.id}/revoke`,
      "/dashboard/account",
      `/dashboard/no-such-page/${encodeURIComponent(XSS)}`,
      `/dashboard/jobs?before=${encodeURIComponent(XSS)}`,
    ];
    for (const path of pages) {
      const page = await alice.get(path);
      assert.match(page.res.headers.get("content-type") ?? "", /^text\/html/, path);
      assertEscaped(page.text, path);
    }
    // The values are there, escaped (so the test is not passing on an empty page).
    const job = await alice.get(`/dashboard/jobs/${failedJob}`);
    assert.ok(job.text.includes("&lt;img src=x onerror=alert(1)&gt;"));
  });

  test("the HTML fragments of the live-update JSON are escaped too", async () => {
    const list = JSON.parse((await alice.get("/dashboard/api/jobs")).text) as {
      jobs: { row_html: string }[];
    };
    assert.ok(list.jobs.length >= 2);
    for (const job of list.jobs) assertEscaped(job.row_html, "row_html");
    for (const id of [doneJob, failedJob]) {
      const one = JSON.parse((await alice.get(`/dashboard/api/jobs/${id}`)).text) as {
        live_html: string;
      };
      assertEscaped(one.live_html, "live_html");
    }
  });

  test("JSON that echoes a parameter is served as JSON with nosniff", async () => {
    const res = await alice.get(
      `/dashboard/api/jobs/${doneJob}/field?monitor=${encodeURIComponent(XSS)}&quantity=E`,
    );
    assert.equal(res.res.status, 404);
    assert.match(res.res.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(res.res.headers.get("x-content-type-options"), "nosniff");
  });

  test("what a signed-out visitor types is escaped on the sign-in page", async () => {
    const client = new HttpClient(svc.baseUrl);
    const page = await client.get(`/dashboard/sign-in?next=${encodeURIComponent(XSS)}`);
    assertEscaped(page.text, "sign-in");
    const res = await client.post("/dashboard/sign-in", {
      _csrf: HttpClient.csrfIn(page.text),
      email: XSS,
      password: "not the password",
      next: XSS,
    });
    assert.equal(res.res.status, 401);
    assertEscaped(res.text, "sign-in error");
  });

  test("the API reference page contains no user data and escapes its own", async () => {
    const docs = await call(svc.baseUrl, "GET", "/docs");
    assert.equal(docs.status, 200);
    assertEscaped(docs.text, "/docs");
    assert.ok(!docs.text.includes(doneJob));
  });
});

describe("isolation", () => {
  test("another account's job is a 404 on every page, JSON endpoint and form", async () => {
    const token = HttpClient.csrfIn((await bob.get("/dashboard/jobs")).text);
    for (const id of [doneJob, doneJob.toUpperCase()]) {
      for (const path of [
        `/dashboard/jobs/${id}`,
        `/dashboard/jobs/${id}/download`,
        `/dashboard/api/jobs/${id}`,
        `/dashboard/api/jobs/${id}/result`,
        `/dashboard/api/jobs/${id}/field?monitor=line&quantity=E`,
      ]) {
        const res = await bob.get(path);
        assert.equal(res.res.status, 404, path);
        assert.equal(res.res.headers.get("location"), null, `${path} redirects`);
        assert.ok(!res.text.includes("alice-secret-value"), path);
      }
      const cancel = await bob.post(`/dashboard/jobs/${id}/cancel`, {
        _csrf: token,
        confirm: "yes",
      });
      assert.equal(cancel.res.status, 404);
    }
    const own = await call(svc.baseUrl, "GET", `/v1/simulations/${doneJob}`, {
      key: aliceKey.key,
    });
    assert.equal(own.body.cancel_requested, false);
  });

  test("job lists never show another account's jobs, and their ids are no cursor", async () => {
    const list = await bob.get("/dashboard/api/jobs");
    assert.ok(!list.text.includes(doneJob) && !list.text.includes(failedJob));
    const page = await bob.get("/dashboard/jobs");
    assert.ok(!page.text.includes(doneJob));
    const paged = await bob.get(`/dashboard/jobs?before=${doneJob}`);
    assert.notEqual(paged.res.status, 200);
    assert.ok(!paged.text.includes(failedJob));
  });

  test("another account's key cannot be seen or revoked", async () => {
    const keys = await bob.get("/dashboard/keys");
    assert.ok(!keys.text.includes(aliceKey.id));
    assert.equal((await bob.get(`/dashboard/keys/${aliceKey.id}/revoke`)).res.status, 404);
    const revoke = await bob.post(`/dashboard/keys/${aliceKey.id}/revoke`, {
      _csrf: HttpClient.csrfIn(keys.text),
      confirm: "yes",
    });
    assert.equal(revoke.res.status, 404);
    const still = await call(svc.baseUrl, "GET", "/v1/simulations", { key: aliceKey.key });
    assert.equal(still.status, 200);
  });

  test("a non-administrator cannot see or use the accounts pages", async () => {
    const page = await bob.get("/dashboard/accounts");
    assert.equal(page.res.status, 403);
    const token = HttpClient.csrfIn((await bob.get("/dashboard/jobs")).text);
    const create = await bob.post("/dashboard/accounts", {
      _csrf: token,
      email: "mallory@example.com",
      is_admin: "yes",
    });
    assert.equal(create.res.status, 403);
    assert.equal(await svc.service.stores.accounts.findAccountByEmail("mallory@example.com"), null);
    const invite = await bob.post(`/dashboard/accounts/${aliceKey.accountId}/invitation`, {
      _csrf: token,
    });
    assert.equal(invite.res.status, 403);
    assert.ok(!invite.text.includes("/dashboard/invite/"));
  });
});

describe("forms and sessions", () => {
  test("every state-changing route refuses a post without the session's CSRF token", async () => {
    const token = "A".repeat(43);
    const posts: [string, Record<string, string>][] = [
      ["/dashboard/sign-out", {}],
      ["/dashboard/keys", { name: "forged", form_id: token }],
      [`/dashboard/keys/${aliceKey.id}/revoke`, { confirm: "yes" }],
      [`/dashboard/jobs/${doneJob}/cancel`, { confirm: "yes" }],
      ["/dashboard/accounts", { email: "forged@example.com" }],
      [`/dashboard/accounts/${aliceKey.accountId}/invitation`, {}],
      ["/dashboard/account/password", { current: PASSWORD, password: "x".repeat(12) }],
      ["/dashboard/sign-in", { email: "alice@example.com", password: PASSWORD }],
      [`/dashboard/setup/${token}`, { email: "root@example.com" }],
      [`/dashboard/invite/${token}`, { password: "y".repeat(12) }],
    ];
    const bobToken = HttpClient.csrfIn((await bob.get("/dashboard/jobs")).text);
    for (const [path, form] of posts) {
      for (const csrf of [undefined, "", bobToken]) {
        const res = await alice.post(path, csrf === undefined ? form : { ...form, _csrf: csrf });
        assert.equal(res.res.status, 403, `${path} with token ${String(csrf).slice(0, 8)}`);
      }
    }
    assert.equal((await alice.get("/dashboard/jobs")).res.status, 200, "still signed in");
    const keys = await svc.service.stores.accounts.listApiKeys(aliceKey.accountId);
    assert.equal(keys.length, 1);
    assert.equal(keys[0]!.revokedAt, null);
  });

  test("a session id planted before sign-in is never adopted", async () => {
    const planted = "P".repeat(43);
    const client = new HttpClient(svc.baseUrl);
    client.cookies.set("emsim_session", planted);
    const page = await client.get("/dashboard/sign-in");
    const res = await client.post("/dashboard/sign-in", {
      _csrf: HttpClient.csrfIn(page.text),
      email: "bob@example.com",
      password: PASSWORD,
    });
    assert.equal(res.res.status, 303);
    assert.notEqual(client.cookies.get("emsim_session"), planted);
    const attacker = await fetch(`${svc.baseUrl}/dashboard/jobs`, {
      headers: { cookie: `emsim_session=${planted}` },
      redirect: "manual",
    });
    assert.equal(attacker.status, 303, "the planted id is not a session");
  });

  test("parallel wrong passwords cannot get past the per-account limit", async () => {
    await makeAccount(svc.service.stores.accounts, "victim@example.com");
    const client = new HttpClient(svc.baseUrl);
    const csrf = HttpClient.csrfIn((await client.get("/dashboard/sign-in")).text);
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.post("/dashboard/sign-in", {
          _csrf: csrf,
          email: "victim@example.com",
          password: `guess number ${i}`,
        }),
      ),
    );
    const statuses = burst.map((r) => r.res.status);
    const checked = statuses.filter((s) => s === 401).length;
    assert.ok(checked <= 5, `${checked} passwords were checked: ${statuses.join(" ")}`);
    assert.equal(statuses.filter((s) => s === 429).length, 20 - checked);
    const right = await client.post("/dashboard/sign-in", {
      _csrf: csrf,
      email: "victim@example.com",
      password: PASSWORD,
    });
    assert.equal(right.res.status, 429);
  });

  test("a successful sign-in does not count against the address limit", async () => {
    const store = openSqliteStores(":memory:");
    const throttle = new SignInThrottle(store.sessions, {
      perAccount: 5,
      perAddress: 3,
      windowMs: 60_000,
    });
    for (let i = 0; i < 10; i++) {
      const begun = await throttle.begin("ok@example.com", "10.0.0.1");
      assert.ok("attempt" in begun, `attempt ${i}`);
      await throttle.succeeded(begun.attempt);
    }
    await store.close();
  });
});

describe("caching and failures", () => {
  test("a job's plot JSON is not kept in the browser's cache", async () => {
    for (const path of [
      `/dashboard/api/jobs/${doneJob}/result`,
      `/dashboard/api/jobs/${doneJob}/field?monitor=line&quantity=E`,
    ]) {
      const res = await alice.get(path);
      assert.equal(res.res.status, 200, res.text);
      assert.match(res.res.headers.get("cache-control") ?? "", /no-store/, path);
    }
  });

  test("a failing page or JSON endpoint discloses nothing internal", async () => {
    const accounts = svc.service.stores.accounts as unknown as { listApiKeys: unknown };
    const jobs = svc.service.stores.jobs as unknown as { listJobs: unknown };
    const saved = { listApiKeys: accounts.listApiKeys, listJobs: jobs.listJobs };
    const boom = async () => {
      throw new Error("SQLITE_ERROR: no such column in SELECT * FROM api_keys at /secret/db");
    };
    accounts.listApiKeys = boom;
    jobs.listJobs = boom;
    try {
      const page = await alice.get("/dashboard/keys");
      assert.equal(page.res.status, 500);
      assert.match(page.res.headers.get("content-type") ?? "", /^text\/html/);
      assertNoInternals(page.text, "500 page");
      const json = await alice.get("/dashboard/api/jobs");
      assert.equal(json.res.status, 500);
      assertNoInternals(json.text, "500 JSON");
    } finally {
      accounts.listApiKeys = saved.listApiKeys;
      jobs.listJobs = saved.listJobs;
    }
  });

  test("a malformed dashboard URL is a 400 without the URL echoed", async () => {
    const res = await rawRequest(svc.baseUrl, `/dashboard/jobs/%E0%A4%A?x=${"s".repeat(10)}`);
    assert.equal(res.status, 400);
    assert.ok(!res.text.includes("ssssssssss"));
  });
});
