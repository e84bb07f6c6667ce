/**
 * The SDK's `modes` against a real service: the silicon strip's TE0 and TM0 typed as the
 * server answers them (with the group index and fields on the cell centres when asked), field
 * errors as `EmsimApiError` 422, a busy solver's 503 waited out with its Retry-After, and a
 * solve that outlasts the request's time limit given up without sending it again.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  EmsimApiError,
  EmsimClient,
  EmsimNetworkError,
  type ModesRequest,
  type RetryInfo,
} from "../../src/client/index.js";
import { EXAMPLE_MODES_REQUEST } from "../../src/http/openapi-examples.js";
import { startService, type TestService } from "../helpers/service.js";

let svc: TestService;
let client: EmsimClient;
let key: string;
const strip = EXAMPLE_MODES_REQUEST as ModesRequest;

before(async () => {
  svc = await startService({ embeddedWorker: false });
  key = await svc.newKey("modes-sdk@example.com");
  client = new EmsimClient({ baseUrl: svc.baseUrl, apiKey: key });
});
after(async () => svc.close());

test("modes: the strip's TE0 and TM0, the plane as the grid placed it", async () => {
  const answer = await client.modes(strip);
  assert.equal(answer.plane.normal, "y");
  assert.deepEqual(answer.plane.axes, ["x", "z"]);
  assert.deepEqual(answer.wavelengths_m, [1.55e-6]);
  const [te, tm] = answer.modes;
  // The converged TE0 of a 500 × 220 nm Si strip in SiO2 at 1.55 µm is 2.4455 (docs/api.md).
  assert.ok(Math.abs(te!.n_eff - 2.4455) < 5e-3, `TE0 n_eff ${te!.n_eff}`);
  assert.ok(te!.te_fraction > 0.9 && tm!.te_fraction < 0.3);
  assert.ok(tm!.n_eff < te!.n_eff);
  assert.equal(te!.group_index, undefined, "no group index unless asked");
  assert.equal(answer.grid, undefined, "no fields unless asked");
});

test("modes: group index and fields on the cell centres when asked", async () => {
  const answer = await client.modes({
    ...strip,
    mode_spec: { num_modes: 1 },
    group_index: true,
    include_fields: true,
  });
  const [mode] = answer.modes;
  // A strip's group index lies well above its n_eff (strong waveguide dispersion): ≈ 4.2.
  assert.ok(mode!.group_index! > 3.8 && mode!.group_index! < 4.6, `ng ${mode!.group_index}`);
  const [nu, nv] = answer.plane.cells;
  assert.equal(answer.grid!.x_m!.length, nu);
  assert.equal(answer.grid!.z_m!.length, nv);
  assert.equal(mode!.fields!.Ex!.re.length, nu * nv);
  // TE0: Ex peaks inside the silicon core (|x| < 0.25 µm, 0 < z < 0.22 µm).
  const ex = mode!.fields!.Ex!;
  let peak = 0;
  for (let k = 1; k < ex.re.length; k++) {
    if (Math.hypot(ex.re[k]!, ex.im[k]!) > Math.hypot(ex.re[peak]!, ex.im[peak]!)) peak = k;
  }
  const x = answer.grid!.x_m![Math.floor(peak / nv)]!;
  const z = answer.grid!.z_m![peak % nv]!;
  assert.ok(Math.abs(x) < 0.25e-6 && z > 0 && z < 0.22e-6, `peak at ${x}, ${z}`);
});

test("modes: field errors as EmsimApiError 422", async () => {
  await assert.rejects(
    client.modes({ ...strip, plane: { center: [0, 0, 0], size: [0, 0, 1e-6] } }),
    (e: unknown) => {
      assert.ok(e instanceof EmsimApiError);
      assert.equal(e.status, 422);
      assert.equal(e.code, "validation_error");
      assert.ok(
        e.fieldErrors.some((f) => f.path === "plane.size"),
        JSON.stringify(e.body),
      );
      return true;
    },
  );
});

test("modes: a busy solver's 503 is waited out and the solve sent again", async () => {
  const retries: RetryInfo[] = [];
  const patient = new EmsimClient({
    baseUrl: svc.baseUrl,
    apiKey: key,
    retries: 6,
    onRetry: (info) => retries.push(info),
    // Retry-After is 5 s; a shorter wait keeps the test short and still lets the first solve end.
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 700))),
  });
  // One solve at a time per server (EMSIM_MODES_CONCURRENCY = 1): the second one waits. At a
  // wavelength no other test solves: the strip's modes at 1.55 µm may be in the solving
  // thread's mode cache, answered in milliseconds, and then no solve is busy.
  const fresh = { ...strip, wavelengths: [1.537e-6] };
  const both = await Promise.all([patient.modes(fresh), patient.modes(fresh)]);
  assert.deepEqual(
    both.map((a) => a.modes.length),
    [2, 2],
  );
  assert.ok(retries.length >= 1, "the second solve was refused while the first ran");
  assert.ok(retries.every((r) => r.reason === "HTTP 503" && r.delayMs === 5000));
});

test("modes: a solve past the request's time limit is not sent again", async () => {
  const retries: RetryInfo[] = [];
  const hasty = new EmsimClient({
    baseUrl: svc.baseUrl,
    apiKey: key,
    onRetry: (info) => retries.push(info),
  });
  // A wavelength not solved before: the service keeps solved planes (modes/mode-cache.ts).
  const unsolved = { ...strip, wavelengths: [1.5123e-6] };
  await assert.rejects(hasty.modes(unsolved, { timeoutMs: 50 }), (e: unknown) => {
    assert.ok(e instanceof EmsimNetworkError);
    assert.equal(e.errno, "ETIMEDOUT");
    return true;
  });
  assert.deepEqual(retries, []);
});
