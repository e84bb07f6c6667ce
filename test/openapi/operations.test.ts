/**
 * Each route describes its own operation beside its handler (`openapi` in its schema,
 * src/http/openapi-operation.ts). These tests hold those descriptions to what the handlers do:
 * every answer a real request gets — its status, its error_code and the headers that matter
 * to a client — is one the operation documents, and every body shown by reference has the
 * example that the route declares.
 */
import { EXAMPLE_MODES_REQUEST } from "../../src/http/openapi-examples.js";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { call, smallSimulation, startService, type TestService } from "../helpers/service.js";

type Json = Record<string, unknown>;
type Answer = Awaited<ReturnType<typeof call>>;

let svc: TestService;
let key: string;
/** The served document's operations, by operationId. */
const operations = new Map<string, Json>();

before(async () => {
  // No embedded worker: a submitted job stays QUEUED, so that its conflicts can be provoked.
  svc = await startService({ rateLimitPerMinute: 0 }, { EMSIM_EMBEDDED_WORKER: "false" });
  key = await svc.newKey();
  const doc = (await call(svc.baseUrl, "GET", "/openapi.json")).body;
  for (const item of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(item)) operations.set(String(op.operationId), op);
  }
});
after(async () => svc.close());

/** Headers whose presence a client acts on: each one sent must be documented. */
const MEANINGFUL_HEADERS = ["Location", "Retry-After", "WWW-Authenticate", "Content-Range"];

/** Asserts that `operationId` documents `answer`: its status, error_code and headers. */
function documents(operationId: string, answer: Answer): void {
  const op = operations.get(operationId);
  assert.ok(op, `${operationId} is in the document`);
  const where = `${operationId} ${answer.status} ${String(answer.body.error_code ?? "")}`;
  const response = (op.responses as Record<string, Json>)[String(answer.status)];
  assert.ok(response, `${where}: the status is documented`);
  if (answer.status >= 400) {
    const media = (response.content as Record<string, Json>)["application/json"]!;
    const codes = Object.values(media.examples as Record<string, { value: Json }>).map(
      (e) => e.value.error_code,
    );
    assert.ok(codes.includes(answer.body.error_code), `${where}: documented codes ${codes}`);
  }
  const headers = Object.keys((response.headers ?? {}) as Json);
  for (const name of MEANINGFUL_HEADERS) {
    if (answer.headers.has(name)) assert.ok(headers.includes(name), `${where}: header ${name}`);
  }
}

/** A JSON body sent as text/plain (415), and one cut short (400). */
const asText = (body: string) => ({
  key,
  rawBody: body,
  headers: { "content-type": "text/plain" },
});
const cutShort = () => ({ key, rawBody: "{", headers: { "content-type": "application/json" } });
const UNKNOWN_JOB = "00000000-0000-4000-8000-000000000000";

test("every answer of the simulation routes is documented by its operation", async () => {
  const post = (path: string, opts: Parameters<typeof call>[3]) =>
    call(svc.baseUrl, "POST", path, opts);
  const get = (path: string, opts: Parameters<typeof call>[3] = { key }) =>
    call(svc.baseUrl, "GET", path, opts);
  for (const [op, path] of [
    ["submitSimulation", "/v1/simulations"],
    ["estimateSimulation", "/v1/simulations/estimate"],
  ]) {
    documents(op!, await post(path!, { body: smallSimulation() }));
    documents(op!, await post(path!, asText("{}")));
    documents(op!, await post(path!, cutShort()));
    documents(op!, await post(path!, { key, body: { ...smallSimulation(), solver: "fem" } }));
  }
  documents(
    "estimateSimulation",
    await post("/v1/simulations/estimate", { key, body: smallSimulation() }),
  );
  const submitted = await post("/v1/simulations", { key, body: smallSimulation() });
  assert.equal(submitted.status, 202);
  documents("submitSimulation", submitted);
  documents("submitSimulation", await post("/v1/simulations", { key, body: smallSimulation() }));
  const jobPath = `/v1/simulations/${String(submitted.body.job_id)}`;
  documents("getSimulation", await get(jobPath));
  documents("getSimulation", await get(`/v1/simulations/${UNKNOWN_JOB}`));
  documents("listSimulations", await get("/v1/simulations"));
  documents("listSimulations", await get("/v1/simulations?limit=many"));
  documents("downloadResults", await get(`${jobPath}/results`));
  documents("downloadResults", await get(`/v1/simulations/${UNKNOWN_JOB}/results`));
  documents("getSParameters", await get(`${jobPath}/sparameters`));
  documents("getSParameters", await get(`/v1/simulations/${UNKNOWN_JOB}/sparameters`));
  documents("cancelSimulation", await post(`${jobPath}/cancel`, { key }));
  documents("cancelSimulation", await post(`${jobPath}/cancel`, { key }));
  documents("cancelSimulation", await post(`/v1/simulations/${UNKNOWN_JOB}/cancel`, { key }));
  documents("listMaterials", await get("/v1/materials"));
  documents("solveModes", await post("/v1/modes", { key, body: EXAMPLE_MODES_REQUEST }));
  documents(
    "solveModes",
    await post("/v1/modes", {
      key,
      body: { ...EXAMPLE_MODES_REQUEST, plane: { center: [0, 0, 0], size: [0, 0, 1] } },
    }),
  );
  documents("solveModes", await post("/v1/modes", asText("{}")));
  documents("solveModes", await post("/v1/modes", cutShort()));
  documents("listMaterials", await get("/v1/materials", { key: "not-a-key" }));
});

test("every answer of the fabrication routes is documented by its operation", async () => {
  const post = (path: string, opts: Parameters<typeof call>[3]) =>
    call(svc.baseUrl, "POST", `/v1/fabrication/${path}`, opts);
  for (const [op, path] of [
    ["exportGds", "export-gds"],
    ["runDrc", "drc"],
    ["makeRecipe", "recipe"],
  ]) {
    documents(op!, await post(path!, { body: {} }));
    documents(op!, await post(path!, asText("{}")));
    documents(op!, await post(path!, cutShort()));
    documents(op!, await post(path!, { key, body: {} }));
  }
  documents("exportGds", await post("export-gds", { key, body: { job_id: UNKNOWN_JOB } }));
  const gdsUrl = `${svc.baseUrl}/storage/objects/nothing.gds?expires=1&name=a.gds&signature=x`;
  documents("runDrc", await post("drc", { key, body: { gds_url: gdsUrl, pdk: "siepic_ebeam" } }));
  documents("makeRecipe", await post("recipe", { key, body: { pdk: "nopdk" } }));
  const gds = { "content-type": "application/octet-stream" };
  documents("uploadGds", await post("gds", { key, rawBody: "not a GDS II file", headers: gds }));
  documents("uploadGds", await post("gds", { key, body: {} }));
  documents("uploadGds", await post("gds", { rawBody: "x", headers: gds }));
  documents("listPdks", await call(svc.baseUrl, "GET", "/v1/fabrication/pdks", { key }));
});

test("every answer of the service and storage routes is documented by its operation", async () => {
  documents("getHealth", await call(svc.baseUrl, "GET", "/health"));
  documents("getMetrics", await call(svc.baseUrl, "GET", "/metrics"));
  documents("getOpenApiDocument", await call(svc.baseUrl, "GET", "/openapi.json"));
  documents("getApiReference", await call(svc.baseUrl, "GET", "/docs"));
  const object = `${new URL(svc.config.storageUrl).pathname.replace(/\/$/, "")}/objects/a.h5`;
  const download = (query: string) => call(svc.baseUrl, "GET", `${object}${query}`);
  documents("downloadStoredResult", await download(""));
  documents("downloadStoredResult", await download("?expires=99999999999&name=a.h5&signature=x"));
  documents("downloadStoredResult", await download("?expires=1&name=a.h5&signature=x"));
});

test("every request and response body given by reference carries the route's example", () => {
  for (const [operationId, op] of operations) {
    if (operationId.startsWith("head")) continue; // no bodies
    const requests = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
    const responses = Object.entries(op.responses as Record<string, Json>)
      .filter(([status]) => Number(status) < 400)
      .flatMap(([, r]) => Object.values((r.content ?? {}) as Record<string, Json>));
    for (const media of [...Object.values(requests), ...responses]) {
      const ref = (media.schema as Json).$ref;
      if (ref === undefined) continue;
      assert.ok("example" in media, `${operationId}: no example of ${String(ref)}`);
    }
  }
});
