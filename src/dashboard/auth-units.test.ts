/**
 * The dashboard's security building blocks on their own: scrypt passwords, session expiry
 * (with a fake clock and a real in-memory SQLite store), CSRF tokens, sign-in throttling,
 * cookies, redirect targets and HTML escaping.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from "../auth/passwords.js";
import {
  csrfKeyFrom,
  csrfToken,
  csrfTokenMatches,
  SESSION_IDLE_MS,
  SESSION_LIFETIME_MS,
  SessionManager,
} from "../auth/sessions.js";
import { safeNext } from "./context.js";
import { parseCookies, serializeCookie } from "./cookies.js";
import { html, raw } from "./html.js";
import { SignInThrottle } from "./throttle.js";
import { openSqliteStores } from "../store/sqlite/index.js";

test("passwords: scrypt, salted, self-describing, verified in constant time", async () => {
  const a = await hashPassword("correct horse battery");
  const b = await hashPassword("correct horse battery");
  assert.match(a, /^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, b, "a fresh salt each time");
  assert.equal(await verifyPassword("correct horse battery", a), true);
  assert.equal(await verifyPassword("correct horse batterz", a), false);
  assert.equal(await verifyPassword("correct horse battery", null), false);
  assert.equal(await verifyPassword("x", "md5$whatever"), false);
  assert.equal(needsRehash(a), false);
  const cheap = await hashPassword("correct horse battery", { log2N: 10, r: 8, p: 1 });
  assert.equal(needsRehash(cheap), true);
  assert.equal(await verifyPassword("correct horse battery", cheap), true);
});

test("password policy: length, not the email, some variety", () => {
  assert.match(passwordProblem("short")!, /at least 10/);
  assert.match(passwordProblem("x".repeat(513))!, /at most 512/);
  assert.match(passwordProblem("me@example.com", "me@example.com")!, /email/);
  assert.match(passwordProblem("aaaaaaaaaaaa")!, /different characters/);
  assert.equal(passwordProblem("correct horse battery staple", "me@example.com"), null);
});

test("sessions end after the idle time, after the lifetime, and on sign-out", async () => {
  const store = openSqliteStores(":memory:");
  try {
    const account = await store.accounts.createAccount({ email: "s@example.com", isAdmin: false });
    let now = Date.parse("2030-01-01T00:00:00Z");
    const sessions = new SessionManager(store.sessions, () => now);

    const idle = await sessions.start(account.id);
    assert.equal((await sessions.resume(idle.token))?.accountId, account.id);
    now += SESSION_IDLE_MS - 60_000;
    assert.ok(await sessions.resume(idle.token), "still active just before the idle limit");
    now += SESSION_IDLE_MS - 60_000;
    assert.ok(await sessions.resume(idle.token), "each use extends the idle limit");
    now += SESSION_IDLE_MS + 1;
    assert.equal(await sessions.resume(idle.token), null, "idle too long");

    const busy = await sessions.start(account.id);
    const end = now + SESSION_LIFETIME_MS;
    while (now < end - 3600_000) {
      now += 3600_000;
      assert.ok(await sessions.resume(busy.token));
    }
    now = end;
    assert.equal(await sessions.resume(busy.token), null, "past its lifetime, however busy");

    const ended = await sessions.start(account.id);
    await sessions.end(ended);
    assert.equal(await sessions.resume(ended.token), null);
    assert.equal(await sessions.resume("not a token"), null);
    assert.equal(await sessions.resume(undefined), null);
  } finally {
    await store.close();
  }
});

test("expired sessions are swept from the store", async () => {
  const store = openSqliteStores(":memory:");
  try {
    const account = await store.accounts.createAccount({ email: "w@example.com", isAdmin: false });
    let now = Date.parse("2030-01-01T00:00:00Z");
    const sessions = new SessionManager(store.sessions, () => now);
    await sessions.start(account.id);
    const fresh = await sessions.start(account.id);
    now += SESSION_IDLE_MS + 1;
    await sessions.resume(fresh.token).catch(() => null);
    const live = await sessions.start(account.id);
    assert.equal(await sessions.sweep(), 1, "only the untouched idle session remains to sweep");
    assert.ok(await sessions.resume(live.token));
  } finally {
    await store.close();
  }
});

test("CSRF tokens are bound to their session and to the server secret", () => {
  const key = csrfKeyFrom("secret one");
  const token = csrfToken(key, "session-a");
  assert.equal(csrfTokenMatches(key, "session-a", token), true);
  assert.equal(csrfTokenMatches(key, "session-b", token), false);
  assert.equal(csrfTokenMatches(csrfKeyFrom("secret two"), "session-a", token), false);
  assert.equal(csrfTokenMatches(key, "session-a", undefined), false);
  assert.equal(csrfTokenMatches(key, "session-a", token.slice(1)), false);
  assert.equal(csrfTokenMatches(key, "session-a", ["array"]), false);
});

test("sign-in throttle: per account and per address, in a sliding window", async () => {
  let now = 0;
  const store = openSqliteStores(":memory:");
  const throttle = new SignInThrottle(
    store.sessions,
    { perAccount: 3, perAddress: 5, windowMs: 60_000 },
    () => now,
  );
  const allowed = async (email: string, address: string) => {
    const r = await throttle.begin(email, address);
    return "attempt" in r ? r.attempt : null;
  };
  for (let i = 0; i < 3; i++) {
    assert.ok(await allowed("a@x", "1.1.1.1"));
    now += 1000;
  }
  assert.deepEqual(await throttle.begin("A@X", "2.2.2.2"), { waitSeconds: 57 }, "case-insensitive");
  assert.deepEqual([...(await throttle.lockedAccounts())], [["a@x", 57]]);
  assert.ok(await allowed("b@x", "1.1.1.1"), "address not yet at its limit");
  assert.ok(await allowed("c@x", "1.1.1.1"));
  assert.ok("waitSeconds" in (await throttle.begin("d@x", "1.1.1.1")), "address limit reached");
  assert.deepEqual([...(await throttle.lockedAddresses())], [["1.1.1.1", 57]]);
  assert.ok(await allowed("d@x", "3.3.3.3"));
  now += 60_000;
  assert.ok(await allowed("a@x", "1.1.1.1"), "the window has passed");
  // A success takes its own attempt back and clears the account's count.
  const e = (await allowed("e@x", "4.4.4.4"))!;
  await throttle.succeeded(e);
  for (let i = 0; i < 3; i++) assert.ok(await allowed("e@x", "4.4.4.4"));
  assert.ok("waitSeconds" in (await throttle.begin("e@x", "5.5.5.5")));
  // An administrator lifts the lock, an account's or an address's.
  await throttle.clearAccount("E@X");
  assert.ok(await allowed("e@x", "5.5.5.5"));
  for (let i = 0; i < 5; i++) await allowed(`f${i}@x`, "6.6.6.6");
  assert.ok("waitSeconds" in (await throttle.begin("g@x", "6.6.6.6")));
  await throttle.clearAddress("6.6.6.6");
  assert.ok(await allowed("g@x", "6.6.6.6"));
  await store.close();
});

test("sign-in throttle: every process sharing the database enforces one limit", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "emsim-throttle-")), "db.sqlite");
  const [one, two] = [openSqliteStores(path), openSqliteStores(path)];
  const policy = { perAccount: 4, perAddress: 100, windowMs: 60_000 };
  const a = new SignInThrottle(one.sessions, policy);
  const b = new SignInThrottle(two.sessions, policy);
  // Eight attempts at once, split over two "servers": exactly four get through.
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).begin("f@x", `10.0.0.${i}`)),
  );
  assert.equal(outcomes.filter((o) => "attempt" in o).length, 4);
  await one.close();
  await two.close();
});

test("cookies are parsed leniently and written with the safe attributes", () => {
  const jar = parseCookies('a=1; emsim_session=abc; junk; b="q"; a=2');
  assert.equal(jar.get("a"), "1");
  assert.equal(jar.get("emsim_session"), "abc");
  assert.equal(jar.get("b"), "q");
  assert.equal(
    serializeCookie("s", "v", { secure: true, maxAgeSeconds: 60 }),
    "s=v; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=60",
  );
  assert.match(
    serializeCookie("s", "", { secure: false, maxAgeSeconds: 0 }),
    /Max-Age=0; Expires=/,
  );
});

test("only dashboard paths are accepted as the place to go after sign-in", () => {
  assert.equal(safeNext("/dashboard/jobs/abc?x=1#plots"), "/dashboard/jobs/abc?x=1#plots");
  for (const bad of [
    "//evil.example",
    "/dashboard//evil.example",
    "https://evil.example/dashboard",
    "/dashboard/../v1/simulations",
    "/dashboard/%2e%2e/x",
    "/dashboard/sign-in",
    "/dashboardx",
    "/dashboard/\\evil",
    "javascript:alert(1)",
    42,
  ]) {
    assert.equal(safeNext(bad), null, String(bad));
  }
});

test("html escapes every interpolated value unless it is already markup", () => {
  const name = `<img src=x onerror="alert('1')">&`;
  assert.equal(
    html`<p title="${name}">${name}</p>`.value,
    `<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;</p>`,
  );
  // (Prettier lays out html`` templates, so compare without the whitespace between tags.)
  const items = ["a", "<b>"].map((x) => html`<li>${x}</li>`);
  assert.equal(
    html`<ul>
      ${items}
    </ul>`.value.replace(/>\s+</g, "><"),
    "<ul><li>a</li><li>&lt;b&gt;</li></ul>",
  );
  assert.equal(html`${null}${undefined}${false}${0}${raw("<br>")}`.value, "0<br>");
});
