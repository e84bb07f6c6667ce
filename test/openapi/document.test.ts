/**
 * The OpenAPI document a running server serves at /openapi.json: OpenAPI 3.1 with JSON Schema
 * 2020-12 forms, valid for @apidevtools/swagger-parser, clean for Redocly's strict rules
 * (test/openapi/redocly.yaml), describing the bodies the server really sends, and good enough
 * for openapi-typescript to generate types that the SDK's calls type-check against.
 *
 * The third-party tools run as child processes with test/openapi/no-network.mjs preloaded, so
 * any attempt of theirs to reach the network fails the test.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import SwaggerParser from "@apidevtools/swagger-parser";
import { EXAMPLE_REQUEST } from "../../src/http/openapi-examples.js";
import { validateSimulationRequest } from "../../src/schema/validate.js";
import { call, smallSimulation, startService, type TestService } from "../helpers/service.js";

type Json = Record<string, unknown>;

const ROOT = resolve(import.meta.dirname, "../..");
const NO_NETWORK = join(ROOT, "test/openapi/no-network.mjs");
/** Environment of the tools: Redocly sends telemetry and checks for updates unless told not to. */
const TOOL_ENV = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NO_COLOR: "1",
};

let svc: TestService;
let key: string;
let doc: Json;
let work: string;

before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
  key = await svc.newKey();
  const res = await call(svc.baseUrl, "GET", "/openapi.json");
  assert.equal(res.status, 200);
  doc = res.body;
  // Inside the repository, so the generated file resolves typescript and @types/node.
  mkdirSync(join(ROOT, "node_modules/.cache"), { recursive: true });
  work = mkdtempSync(join(ROOT, "node_modules/.cache/emsim-openapi-"));
  writeFileSync(join(work, "openapi.json"), JSON.stringify(doc));
});
after(async () => {
  await svc.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs a tool's CLI under node with the network refused. */
function tool(script: string, args: string[]) {
  const res = spawnSync(
    process.execPath,
    ["--import", pathToFileURL(NO_NETWORK).href, join(ROOT, "node_modules", script), ...args],
    { cwd: work, encoding: "utf8", env: TOOL_ENV, timeout: 120_000 },
  );
  assert.doesNotMatch(res.stderr, /NETWORK ATTEMPT/, `${script} tried the network`);
  return res;
}

const OPERATIONS = [
  "post /v1/simulations submitSimulation",
  "get /v1/simulations listSimulations",
  "post /v1/simulations/estimate estimateSimulation",
  "post /v1/simulations/preview previewSimulation",
  "get /v1/simulations/{job_id} getSimulation",
  "get /v1/simulations/{job_id}/results downloadResults",
  "get /v1/simulations/{job_id}/sparameters getSParameters",
  "post /v1/simulations/{job_id}/cancel cancelSimulation",
  "get /v1/materials listMaterials",
  "post /v1/batches submitBatch",
  "post /v1/batches/estimate estimateBatch",
  "get /v1/batches listBatches",
  "get /v1/batches/{batch_id} getBatch",
  "post /v1/batches/{batch_id}/cancel cancelBatch",
  "get /v1/batches/{batch_id}/results downloadBatchResults",
  "post /v1/modes solveModes",
  "post /v1/fabrication/export-gds exportGds",
  "post /v1/fabrication/gds uploadGds",
  "post /v1/fabrication/drc runDrc",
  "get /v1/fabrication/pdks listPdks",
  "post /v1/fabrication/recipe makeRecipe",
  "get /health getHealth",
  "get /metrics getMetrics",
  "get /openapi.json getOpenApiDocument",
  "get /docs getApiReference",
  "get /storage/objects/{key} downloadStoredResult",
  "head /storage/objects/{key} headDownloadStoredResult",
];

function operations(): { path: string; method: string; op: Json }[] {
  const out: { path: string; method: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) out.push({ path, method, op });
  }
  return out;
}

/** Every object inside `value`, with its JSON pointer. */
function* walk(value: unknown, pointer = ""): Generator<[string, Json]> {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) yield* walk(v, `${pointer}/${i}`);
  } else if (typeof value === "object" && value !== null) {
    yield [pointer, value as Json];
    for (const [k, v] of Object.entries(value)) yield* walk(v, `${pointer}/${k}`);
  }
}

test("OpenAPI 3.1.0: every route, an operationId each, security on each", () => {
  assert.equal(doc.openapi, "3.1.0");
  const found = operations().map(({ path, method, op }) => `${method} ${path} ${op.operationId}`);
  assert.deepEqual(found.sort(), [...OPERATIONS].sort());
  for (const { path, method, op } of operations()) {
    const where = `${method} ${path}`;
    const expected = path.startsWith("/v1/") ? [{ bearerAuth: [] }] : [];
    assert.deepEqual(op.security, expected, `${where}: security`);
    const statuses = Object.keys(op.responses as Json).map(Number);
    assert.ok(
      statuses.some((s) => s >= 200 && s < 400),
      `${where}: a success response`,
    );
    assert.ok(statuses.includes(500), `${where}: documents 500`);
    if (path.startsWith("/v1/")) assert.ok(statuses.includes(401), `${where}: documents 401`);
  }
});

test("JSON Schema 2020-12 forms only: prefixItems tuples, numeric exclusive bounds", () => {
  for (const [pointer, node] of walk(doc)) {
    assert.ok(!Array.isArray(node.items), `${pointer}: tuple written as an items array`);
    assert.ok(!("additionalItems" in node), `${pointer}: additionalItems`);
    assert.ok(!("nullable" in node), `${pointer}: nullable (3.0)`);
    for (const bound of ["exclusiveMinimum", "exclusiveMaximum"]) {
      if (bound in node && pointer.includes("/schema")) {
        assert.equal(typeof node[bound], "number", `${pointer}: ${bound}`);
      }
    }
  }
  const schemas = (doc.components as Json).schemas as Record<string, Json>;
  const size = (schemas.Domain!.properties as Record<string, Json>).size!;
  assert.equal((size.prefixItems as unknown[]).length, 3);
  assert.equal(size.items, false);
  assert.deepEqual((size.prefixItems as Json[])[0], {
    type: "number",
    exclusiveMinimum: 0,
    "x-unit": "m",
  });

  // Every schema in the document is a valid 2020-12 schema.
  const ajv = new Ajv2020({ strict: false });
  for (const [name, schema] of Object.entries(schemas)) {
    assert.ok(ajv.validateSchema(schema), `${name}: ${ajv.errorsText(ajv.errors)}`);
  }
});

test("@apidevtools/swagger-parser validates the document", async () => {
  const api = await SwaggerParser.validate(structuredClone(doc) as never);
  assert.equal(Object.keys(api.paths ?? {}).length, 24);
});

test("Redocly lints it with zero errors and zero warnings, offline", () => {
  const res = tool("@redocly/cli/bin/cli.js", [
    "lint",
    "openapi.json",
    "--config",
    join(ROOT, "test/openapi/redocly.yaml"),
    "--format=json",
  ]);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  const report = JSON.parse(res.stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; message: string }[];
  };
  const problems = report.problems.map((p) => `${p.ruleId}: ${p.message}`).join("\n");
  assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 }, problems);
});

test("the examples are what the server accepts and answers", async () => {
  // The request example passes the server's own validation…
  const outcome = validateSimulationRequest(EXAMPLE_REQUEST, svc.config.limits);
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  // …and real answers match the documented schemas.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: "emsim", components: doc.components } as Json);
  const check = (component: string, body: unknown) => {
    const validate = ajv.getSchema(`emsim#/components/schemas/${component}`)!;
    assert.ok(validate(body), `${component}: ${ajv.errorsText(validate.errors)}`);
  };
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: smallSimulation() });
  assert.equal(sub.status, 202);
  check("SubmissionAck", sub.body);
  const job = await call(svc.baseUrl, "GET", `/v1/simulations/${String(sub.body.job_id)}`, { key });
  check("JobRecord", job.body);
  const conflict = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: smallSimulation(),
  });
  assert.equal(conflict.status, 409);
  check("SimulationConflict", conflict.body);
  const invalid = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: { ...smallSimulation(), solver: "fem" },
  });
  assert.equal(invalid.status, 422);
  check("ValidationError", invalid.body);
  check("Error", (await call(svc.baseUrl, "GET", "/v1/materials")).body);
  check("MaterialList", (await call(svc.baseUrl, "GET", "/v1/materials", { key })).body);
  check(
    "Estimate",
    (await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body: EXAMPLE_REQUEST }))
      .body,
  );
  check("JobList", (await call(svc.baseUrl, "GET", "/v1/simulations", { key })).body);
  check("Health", (await call(svc.baseUrl, "GET", "/health")).body);
  // A documented example that did not fit its schema would have failed Redocly's
  // no-invalid-media-type-examples above.
});

test("/docs renders the referenced schemas in place", async () => {
  const page = await call(svc.baseUrl, "GET", "/docs");
  assert.equal(page.status, 200);
  assert.match(page.text, /submitSimulation|Submit a simulation/);
  assert.match(page.text, /exclusiveMinimum/);
  assert.doesNotMatch(page.text, /&#34;\$ref&#34;: &#34;#\/components\/schemas\/SimulationRequest/);
});

/**
 * A small program using the SDK, typed against what openapi-typescript generates: each call's
 * argument and answer must be assignable both ways to the document's types.
 */
const SDK_CHECK = (clientIndex: string) => `
import type { components, paths } from "./api.js";
import type { EmsimClient, ErrorBody, FieldError } from ${JSON.stringify(clientIndex)};

type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
/** Compiles only if A and B are assignable both ways. */
function same<A, B>(_check: [A] extends [B] ? ([B] extends [A] ? true : false) : false): void {}

type Sims = paths["/v1/simulations"];
type Job = paths["/v1/simulations/{job_id}"];
type Cancel = paths["/v1/simulations/{job_id}/cancel"];
type Est = paths["/v1/simulations/estimate"];
type Materials = paths["/v1/materials"];

same<Parameters<EmsimClient["submit"]>[0], JsonOf<Sims["post"]["requestBody"]>>(true);
same<Answer<EmsimClient["submit"]>, JsonOf<Sims["post"]["responses"][202]>>(true);
same<Answer<EmsimClient["get"]>, JsonOf<Job["get"]["responses"][200]>>(true);
same<Answer<EmsimClient["waitFor"]>, components["schemas"]["JobRecord"]>(true);
same<Answer<EmsimClient["list"]>, JsonOf<Sims["get"]["responses"][200]>>(true);
same<Answer<EmsimClient["cancel"]>, JsonOf<Cancel["post"]["responses"][200]>>(true);
same<Parameters<EmsimClient["estimate"]>[0], JsonOf<Est["post"]["requestBody"]>>(true);
same<Answer<EmsimClient["estimate"]>, JsonOf<Est["post"]["responses"][200]>>(true);
same<Answer<EmsimClient["materials"]>, JsonOf<Materials["get"]["responses"][200]>["materials"]>(true);
same<FieldError, components["schemas"]["FieldError"]>(true);
type ExportGds = paths["/v1/fabrication/export-gds"];
type UploadGds = paths["/v1/fabrication/gds"];
type Drc = paths["/v1/fabrication/drc"];
type Recipe = paths["/v1/fabrication/recipe"];
same<Parameters<EmsimClient["exportGds"]>[0], JsonOf<ExportGds["post"]["requestBody"]>>(true);
same<Answer<EmsimClient["exportGds"]>, JsonOf<ExportGds["post"]["responses"][200]>>(true);
same<Answer<EmsimClient["uploadGds"]>, JsonOf<UploadGds["post"]["responses"][201]>>(true);
// The file's bytes: a generated client can send them (there was no requestBody at all).
same<NonNullable<UploadGds["post"]["requestBody"]>["content"]["application/octet-stream"], string>(true);
same<Parameters<EmsimClient["drc"]>[0], JsonOf<Drc["post"]["requestBody"]>>(true);
same<Parameters<EmsimClient["recipe"]>[0], JsonOf<Recipe["post"]["requestBody"]>>(true);
same<NonNullable<Parameters<EmsimClient["list"]>[0]>["status"], NonNullable<Sims["get"]["parameters"]["query"]>["status"]>(true);
type Batches = paths["/v1/batches"];
type Batch = paths["/v1/batches/{batch_id}"];
type CancelBatch = paths["/v1/batches/{batch_id}/cancel"];
same<Answer<EmsimClient["submitBatch"]>, JsonOf<Batches["post"]["responses"][202]>>(true);
same<Answer<EmsimClient["getBatch"]>, JsonOf<Batch["get"]["responses"][200]>>(true);
same<Answer<EmsimClient["waitForBatch"]>, JsonOf<Batch["get"]["responses"][200]>>(true);
same<Answer<EmsimClient["listBatches"]>, JsonOf<Batches["get"]["responses"][200]>>(true);
same<Answer<EmsimClient["cancelBatch"]>, JsonOf<CancelBatch["post"]["responses"][200]>>(true);
/** The SDK's batch request is the document's, its simulation typed as a SimulationRequest. */
export const batchRequest: JsonOf<Batches["post"]["requestBody"]> = {} as Parameters<
  EmsimClient["submitBatch"]
>[0];
same<Parameters<EmsimClient["submitBatch"]>[0]["simulation"], JsonOf<Sims["post"]["requestBody"]>>(true);

/** Every documented error body is one the SDK's EmsimApiError can carry. */
type ErrorOf<Op> = Op extends { responses: infer R }
  ? { [S in keyof R]: S extends 400 | 401 | 404 | 409 | 413 | 415 | 422 | 429 | 500 ? JsonOf<R[S]> : never }[keyof R]
  : never;
export const errorBodies: ErrorBody[] = [] as (
  | ErrorOf<Sims["post"]>
  | ErrorOf<Sims["get"]>
  | ErrorOf<Job["get"]>
  | ErrorOf<Cancel["post"]>
  | ErrorOf<Est["post"]>
  | ErrorOf<Batches["post"]>
  | ErrorOf<Batch["get"]>
  | ErrorOf<CancelBatch["post"]>
  | ErrorOf<paths["/v1/batches/{batch_id}/results"]["get"]>
)[];

/** A round trip written against the generated types. */
export async function roundTrip(
  client: EmsimClient,
  request: JsonOf<Sims["post"]["requestBody"]>,
): Promise<JsonOf<Job["get"]["responses"][200]>> {
  const estimate: JsonOf<Est["post"]["responses"][200]> = await client.estimate(request);
  if (estimate.cells > 1e9) throw new Error("too big");
  const ack: JsonOf<Sims["post"]["responses"][202]> = await client.submit(request);
  const page: JsonOf<Sims["get"]["responses"][200]> = await client.list({ limit: 5, status: "RUNNING" });
  const materials: components["schemas"]["Material"][] = await client.materials();
  const job: components["schemas"]["JobRecord"] = await client.waitFor(ack.job_id);
  if (job.status === "FAILED") {
    const cancelled: components["schemas"]["JobRecord"] = await client.cancel(ack.job_id);
    return cancelled;
  }
  await client.download(job.job_id, "result.h5", { job });
  return page.jobs[0] ?? (materials.length ? job : job);
}
`;

test("openapi-typescript generates types that the SDK's calls type-check against", () => {
  const gen = tool("openapi-typescript/bin/cli.js", ["openapi.json", "-o", "api.d.ts"]);
  assert.equal(gen.status, 0, gen.stderr);
  writeFileSync(join(work, "check.ts"), SDK_CHECK(join(ROOT, "src/client/index.js")));
  writeFileSync(
    join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules/@types")],
      },
      files: ["check.ts"],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(work, "tsconfig.json")],
    { cwd: work, encoding: "utf8", timeout: 120_000 },
  );
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
