/**
 * Requests a hostile-client probe sent to the device features (mode solves, ports, batches),
 * each of which was accepted and then failed, or answered a 500, or held the server for
 * minutes. Each must now be a 422 naming the field, before any solve or job:
 * - a monitor named "." (its HDF5 group name: the job failed three times as "disk full");
 * - a lossless Lorentz pole exactly at a wavelength where modes are solved (ε is infinite
 *   there: /v1/modes answered 500 "Arnoldi breakdown", a ports job failed "internal error");
 * - a mode source's mode_index past the modes its plane can hold (a 2 × 2-cell plane has
 *   four unknowns: the run failed reading mode 10 of 4);
 * - /v1/modes with fields asked on a plane whose answer would be gigabytes (it built the
 *   reply for 73 s, then failed "Invalid string length" at 4.8 GB of memory);
 * - a batch of 10 000 variants of a request of 10 000 polygon vertices (it stored a copy of
 *   the request per variant and checked each for minutes while /health waited seconds).
 * And a /v1/modes caller that hung up mid-solve held the one solver slot to the solve's end.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  call,
  fieldErrors,
  postAndHangUp,
  smallSimulation,
  startService,
  type TestService,
} from "../helpers/service.js";
import { EXAMPLE_MODES_REQUEST } from "../../src/http/openapi-examples.js";

let svc: TestService;
before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
});
after(async () => svc.close());

/** A fresh account's key: an accepted job would make its account busy (409). */
let accounts = 0;
const newKey = () => svc.newKey(`hostile-${++accounts}@example.com`);

const SPARAMS = JSON.parse(
  readFileSync(new URL("../../examples/si-wire-sparameters.json", import.meta.url), "utf8"),
) as Record<string, unknown> & { structures: Record<string, unknown>[] };

describe("names that become HDF5 groups", () => {
  for (const name of [".", "..", "..."]) {
    test(`a monitor named ${JSON.stringify(name)} is a 422 at submission`, async () => {
      const sim = smallSimulation();
      const monitors = [{ ...(sim.monitors as object[])[0], name }];
      const res = await call(svc.baseUrl, "POST", "/v1/simulations", {
        key: await newKey(),
        body: { ...sim, monitors },
      });
      const errs = fieldErrors(res);
      assert.equal(errs.length, 1, errs.join("\n"));
      assert.match(errs[0]!, /^monitors\[0\]\.name: /);
    });
  }

  test("names with dots among other characters are still fine", async () => {
    const sim = smallSimulation();
    const monitors = [{ ...(sim.monitors as object[])[0], name: ".a.b-1_" }];
    const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
      key: await newKey(),
      body: { ...sim, monitors },
    });
    assert.equal(res.status, 200, res.text);
  });
});

describe("a lossless pole exactly at a solved wavelength", () => {
  // ω0 = 2πc / 1.55 µm, γ = 0: ε(1.55 µm) is infinite.
  const resonant = {
    permittivity: 2,
    poles: [{ type: "lorentz", delta_eps: 5, omega0: 1215259075683131, gamma: 0 }],
  };
  const withResonantCore = <T extends { structures: unknown[] }>(request: T) => ({
    ...request,
    materials: { g: resonant },
    structures: [
      ...request.structures.slice(0, 1),
      { ...(request.structures[1] as object), material: "g" },
    ],
  });

  test("POST /v1/modes is a 422 naming the material, not a 500", async () => {
    const res = await call(svc.baseUrl, "POST", "/v1/modes", {
      key: await newKey(),
      body: withResonantCore(EXAMPLE_MODES_REQUEST),
    });
    const errs = fieldErrors(res);
    assert.equal(errs.length, 1, errs.join("\n"));
    assert.match(errs[0]!, /^structures\[1\]\.material: .*"g".*1\.55/);
  });

  test("a ports job on it is a 422 at submission, not a failed job", async () => {
    const res = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key: await newKey(),
      body: withResonantCore(SPARAMS),
    });
    const errs = fieldErrors(res);
    assert.ok(
      errs.some((e) => /^structures\[1\]\.material: .*"g".*1\.55/.test(e)),
      errs.join("\n"),
    );
  });
});

test("a mode source's mode_index past what its plane holds is a 422 at submission", async () => {
  // The plane is 2 × 2 cells of 40 nm: its operator has 2·2·2 − 2 − 2 = 4 unknowns.
  const source = {
    source_type: "mode",
    wavelength: 1.55e-6,
    center: [0, 0, -0.4e-6],
    size: [0.08e-6, 0.08e-6, 0],
    direction: "+z",
    mode_index: 10,
    mode_spec: { num_modes: 11 },
  };
  const body = { ...SPARAMS, source, ports: undefined, domain: { ...(SPARAMS.domain as object) } };
  delete body.ports;
  delete (body.domain as Record<string, unknown>).symmetry;
  const res = await call(svc.baseUrl, "POST", "/v1/simulations", { key: await newKey(), body });
  const errs = fieldErrors(res);
  assert.ok(
    errs.some((e) => /^source\.mode_spec\.num_modes: .*2 × 2/.test(e)),
    errs.join("\n"),
  );
});

test("/v1/modes with fields whose reply would be gigabytes is a 422 before solving", async () => {
  const started = Date.now();
  const res = await call(svc.baseUrl, "POST", "/v1/modes", {
    key: await newKey(),
    body: {
      domain: {
        size: [4e-6, 4e-6, 1e-6],
        resolution: 20e-9,
        boundary_conditions: ["periodic", "periodic", "pml"],
        pml_layers: 10,
      },
      structures: [],
      plane: { center: [0, 0, 0], size: [4e-6, 4e-6, 0] },
      wavelengths: [1.5e-6, 1.55e-6, 1.6e-6],
      mode_spec: { num_modes: 20 },
      include_fields: true,
    },
  });
  const errs = fieldErrors(res);
  assert.equal(errs.length, 1, errs.join("\n"));
  assert.match(errs[0]!, /^include_fields: /);
  assert.ok(Date.now() - started < 5000, `answered after ${Date.now() - started} ms`);
});

test("a batch whose variants' requests would take gigabytes is a 422 at once", async () => {
  const n = 10_000;
  const vertices = Array.from({ length: n }, (_, k) => {
    const t = (2 * Math.PI * k) / n;
    return [0.02e-6 * Math.cos(t), 0.02e-6 * Math.sin(t)];
  });
  const polyslab = {
    type: "polyslab",
    vertices,
    z_min: 0.3e-6,
    z_max: 0.5e-6,
    material: "SiO2",
  };
  const values = Array.from({ length: 10_000 }, (_, k) => 0.5e-6 + k * 1e-12);
  const started = Date.now();
  const health = (async () => {
    await new Promise((r) => setTimeout(r, 300));
    const t = Date.now();
    const res = await call(svc.baseUrl, "GET", "/health");
    return { status: res.status, ms: Date.now() - t };
  })();
  const res = await call(svc.baseUrl, "POST", "/v1/batches", {
    key: await newKey(),
    body: {
      simulation: smallSimulation({ structures: [polyslab] }),
      parameters: [{ name: "top", path: "/structures/0/z_max", values }],
    },
  });
  const errs = fieldErrors(res);
  assert.equal(errs.length, 1, errs.join("\n"));
  assert.match(errs[0]!, /^parameters: .*10000 jobs/);
  assert.ok(Date.now() - started < 10_000, `answered after ${Date.now() - started} ms`);
  const h = await health;
  assert.equal(h.status, 200);
  assert.ok(h.ms < 2000, `/health took ${h.ms} ms`);
});

test("a /v1/modes caller that hangs up frees the solver for the next one", async () => {
  // One solve at a time (the default): a solve of many seconds whose caller has gone held the
  // slot to its end, and every other caller got 503 modes_busy meanwhile.
  const heavy = {
    ...EXAMPLE_MODES_REQUEST,
    wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 32 },
    mode_spec: { num_modes: 12 },
  };
  await postAndHangUp(`${svc.baseUrl}/v1/modes`, await newKey(), heavy, 500);
  const res = await call(svc.baseUrl, "POST", "/v1/modes", {
    key: await newKey(),
    body: EXAMPLE_MODES_REQUEST,
  });
  assert.equal(res.status, 200, res.text.slice(0, 400));
});
