/**
 * The estimate's result size against the file a run writes (the service refuses a result the
 * disk cannot hold from this figure, docs/api.md): a line monitor's job, whose file is mostly
 * the file's own structure, and a plane monitor's, whose file carries the permittivity plane
 * over the whole domain, and the two-port example's S-parameter job (it was estimated at 0 B).
 * Each within a quarter of the real file.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  call,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
  key = await svc.newKey("result-size@example.com");
});
after(async () => svc.close());

const plane = {
  name: "plane",
  monitor_type: "field",
  center: [0, 0, 0],
  size: [0.05e-6, 0, 3e-6],
  components: ["Ex", "Ey", "Ez"],
};

const ports = JSON.parse(
  readFileSync(new URL("../../examples/si-wire-sparameters.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

for (const [what, body] of [
  ["a line monitor", smallSimulation()],
  ["a plane monitor", smallSimulation({ monitors: [plane] })],
  ["a two-port S-parameter job", ports],
] as const) {
  test(`${what}: the estimated result size is within 25 % of the file written`, async () => {
    const estimate = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body });
    assert.equal(estimate.status, 200, estimate.text);
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
    assert.equal(sub.status, 202, sub.text);
    const job = await waitForStatus(svc.baseUrl, key, String(sub.body.job_id), ["COMPLETED"]);
    const actual = Number(job.result_bytes);
    const estimated = Number(estimate.body.result_bytes);
    assert.ok(
      Math.abs(estimated / actual - 1) < 0.25,
      `estimated ${estimated} B, the file ${actual} B`,
    );
  });
}
