/**
 * Property: whatever the body and headers, the API answers 202 or a 4xx with a JSON `detail`
 * — never a 5xx, never a hang — and stays healthy afterwards. Bodies are random JSON and
 * mutations of a valid request (fields dropped, retyped, set to extreme numbers).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { call, smallSimulation, startService, type TestService } from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService({ rateLimitPerMinute: 0, embeddedWorker: false });
  key = await svc.newKey("fuzz@example.com");
});
after(async () => svc.close());

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const extreme = fc.oneof(
  fc.constantFrom(0, -0, -1, 1e308, -1e308, 5e-324, 1e-30, 2 ** 53, 0.5, 1e9),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 4 }),
  fc.constant({}),
);

/** Paths to every value inside a JSON document. */
function paths(v: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...prefix, i])));
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  }
  return out;
}

function mutate(doc: Json, path: (string | number)[], value: Json | undefined): Json {
  if (path.length === 0) return value === undefined ? null : value;
  const copy = structuredClone(doc) as Record<string | number, Json>;
  let node: Record<string | number, Json> = copy;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

const base = smallSimulation() as Json;
const allPaths = paths(base);

const mutatedBody = fc
  .array(fc.tuple(fc.constantFrom(...allPaths), fc.option(extreme, { nil: undefined })), {
    minLength: 1,
    maxLength: 3,
  })
  .map((edits) =>
    edits.reduce<Json>((doc, [p, v]) => {
      try {
        return mutate(doc, p, v as Json | undefined);
      } catch {
        return doc;
      }
    }, base),
  );

const randomBody = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>;

const headerSets = fc.record({
  auth: fc.oneof(
    fc.constant(`Bearer ${"KEY"}`),
    fc.constant(""),
    fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
    fc.string({ maxLength: 60 }),
  ),
  contentType: fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/xml",
    "",
  ),
});

function asciiHeader(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, "?");
}

test("random and mutated submissions get 202 or 4xx with a detail, never 5xx", async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.oneof({ weight: 3, arbitrary: mutatedBody }, { weight: 1, arbitrary: randomBody }),
      headerSets,
      fc.boolean(),
      async (body, h, estimateOnly) => {
        const headers: Record<string, string> = {};
        headers.authorization = asciiHeader(h.auth.replace("KEY", key));
        if (h.contentType) headers["content-type"] = h.contentType;
        const res = await call(
          svc.baseUrl,
          "POST",
          estimateOnly ? "/v1/simulations/estimate" : "/v1/simulations",
          { rawBody: JSON.stringify(body), headers },
        );
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 202) {
          // Free the account's slot so later valid submissions are judged on their own.
          await svc.service.stores.jobs.failJob(
            String(res.body.job_id),
            null,
            new Date().toISOString(),
            "fuzz",
          );
          return;
        }
        assert.ok(
          res.status === 200 || (res.status >= 400 && res.status < 500),
          `status ${res.status}: ${res.text}`,
        );
        if (res.status >= 400) assert.equal(typeof res.body.detail, "string", res.text);
      },
    ),
    { numRuns: 1500 },
  );
  // The generators must have reached the interesting outcomes.
  assert.ok((statuses.get(422) ?? 0) > 100, JSON.stringify([...statuses]));
  assert.ok((statuses.get(401) ?? 0) > 50, JSON.stringify([...statuses]));
  const health = await call(svc.baseUrl, "GET", "/health");
  assert.equal(health.status, 200);
});

test("raw garbage bodies are 400/413/415, never 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) => {
      const res = await call(svc.baseUrl, "POST", "/v1/simulations", {
        rawBody: text,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      });
      assert.ok(res.status >= 200 && res.status < 500, `status ${res.status}`);
      if (res.status === 202) {
        await svc.service.stores.jobs.failJob(
          String(res.body.job_id),
          null,
          new Date().toISOString(),
          "fuzz",
        );
      }
    }),
    { numRuns: 500 },
  );
  assert.equal((await call(svc.baseUrl, "GET", "/health")).status, 200);
});
