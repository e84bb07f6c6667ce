/**
 * Request checks a hostile-client audit found missing or misworded, over real HTTP: a batch's
 * own metadata held to the simulation's depth rule (it was a 500), parameter names that are not
 * safe object keys, duplicate wavelengths in lists whose results are keyed by wavelength (and
 * duplicate `run_ports`) and repeated far-field angles, the choices a wrong discriminator tag is
 * told, `?limit=` outside 1–100 on both lists, and a preview plane's position that overflows to
 * Infinity.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  call,
  fieldErrors,
  smallSimulation,
  startService,
  type TestService,
} from "../helpers/service.js";

let svc: TestService;
before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
});
after(async () => svc.close());

/** A fresh account's key: an accepted batch makes its account busy (409) until it ends. */
let accounts = 0;
const newKey = () => svc.newKey(`validation-${++accounts}@example.com`);

/** `{"a": {"a": … 1 …}}`: `levels` objects, the outermost included. */
const nestedObject = (levels: number) =>
  '{"a":'.repeat(levels - 1) + '{"a":1}' + "}".repeat(levels - 1);

const thickness = { name: "thickness", path: "/structures/0/size/2", values: [0.3e-6, 0.5e-6] };

describe("a batch's metadata", () => {
  const batchWithMetadata = (metadata: string) =>
    JSON.stringify({ simulation: smallSimulation(), parameters: [thickness] }).replace(
      /}$/,
      `,"metadata":${metadata}}`,
    );

  test("nested deeper than a simulation's may be is a 422 naming metadata, not a 500", async () => {
    const key = await newKey();
    for (const levels of [33, 8000, 50_000]) {
      const res = await call(svc.baseUrl, "POST", "/v1/batches", {
        key,
        rawBody: batchWithMetadata(nestedObject(levels)),
        headers: { "content-type": "application/json" },
      });
      assert.deepEqual(
        fieldErrors(res),
        ["metadata: must not nest objects and arrays more than 32 levels deep"],
        `${levels} levels`,
      );
    }
    const list = await call(svc.baseUrl, "GET", "/v1/batches", { key });
    assert.deepEqual(list.body.batches, [], "no batch was stored");
  });

  test("32 levels pass for a batch as for a simulation, and 33 fail for both", async () => {
    const key = await newKey();
    const simulation = (levels: number) =>
      JSON.stringify(smallSimulation({ metadata: "HOLE" })).replace('"HOLE"', nestedObject(levels));
    const estimate = (levels: number) =>
      call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
        key,
        rawBody: simulation(levels),
        headers: { "content-type": "application/json" },
      });
    assert.equal((await estimate(32)).status, 200);
    assert.deepEqual(fieldErrors(await estimate(33)), [
      "metadata: must not nest objects and arrays more than 32 levels deep",
    ]);
    const res = await call(svc.baseUrl, "POST", "/v1/batches", {
      key,
      rawBody: batchWithMetadata(nestedObject(32)),
      headers: { "content-type": "application/json" },
    });
    assert.equal(res.status, 202, res.text);
  });
});

describe("a batch parameter's name", () => {
  test("__proto__ is refused on parameters[i].name", async () => {
    const key = await newKey();
    const res = await call(svc.baseUrl, "POST", "/v1/batches", {
      key,
      body: {
        simulation: smallSimulation(),
        parameters: [{ ...thickness, name: "__proto__" }],
      },
    });
    const errs = fieldErrors(res);
    assert.equal(errs.length, 1, errs.join("\n"));
    assert.match(errs[0]!, /^parameters\[0\]\.name: "__proto__" /);
  });

  test("constructor and prototype name dimensions whose values every job keeps", async () => {
    const key = await newKey();
    const res = await call(svc.baseUrl, "POST", "/v1/batches", {
      key,
      body: {
        simulation: smallSimulation(),
        parameters: [
          { ...thickness, name: "constructor" },
          { name: "prototype", path: "/metadata/run", values: [7] },
        ],
      },
    });
    assert.equal(res.status, 202, res.text);
    const batch = await call(svc.baseUrl, "GET", `/v1/batches/${String(res.body.batch_id)}`, {
      key,
    });
    const jobs = batch.body.jobs as { job_id: string; parameters: Record<string, unknown> }[];
    assert.deepEqual(
      jobs.map((j) => j.parameters),
      thickness.values.map((t) => ({ constructor: t, prototype: 7 })),
    );
    const job = await call(svc.baseUrl, "GET", `/v1/simulations/${jobs[1]!.job_id}`, { key });
    assert.deepEqual(job.body.parameters, { constructor: thickness.values[1], prototype: 7 });
  });
});

describe("lists whose results are keyed by wavelength", () => {
  const estimate = async (body: unknown) =>
    fieldErrors(
      await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key: await newKey(), body }),
    );
  const ports = JSON.parse(
    readFileSync(new URL("../../examples/si-wire-sparameters.json", import.meta.url), "utf8"),
  ) as { source: Record<string, unknown> };

  test("the example S-parameter request is valid as it stands", async () => {
    const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
      key: await newKey(),
      body: ports,
    });
    assert.equal(res.status, 200, res.text);
  });

  test("a ports source's wavelengths and run_ports may not repeat", async () => {
    const errs = await estimate({
      ...ports,
      source: { ...ports.source, wavelengths: [1.55e-6, 1.55e-6, 1.5e-6], run_ports: ["o1", "o1"] },
    });
    // (A list's problem also fails the union's other branch, {start, stop, points}: those
    // lines follow it.)
    assert.deepEqual(
      errs.filter((e) => /duplicate/.test(e)),
      [
        "source.wavelengths: has duplicate items: items 1 and 0 are both 0.00000155",
        'source.run_ports: has duplicate items: items 1 and 0 are both "o1"',
      ],
      errs.join("\n"),
    );
    assert.match(errs[0]!, /^source\.wavelengths: has duplicate items/);
  });

  test("a ports source's wavelength range may not repeat one wavelength", async () => {
    const same = { start: 1.55e-6, stop: 1.55e-6, points: 3 };
    const errs = await estimate({ ...ports, source: { ...ports.source, wavelengths: same } });
    assert.ok(
      errs.includes("source.wavelengths.stop: must differ from start when points > 1"),
      errs.join("\n"),
    );
  });

  test("every kind of monitor's wavelengths may not repeat", async () => {
    const at = { center: [0, 0, 0], size: [0.05e-6, 0.05e-6, 0] };
    const twice = [1.5e-6, 1.6e-6, 1.5e-6];
    const monitors = [
      { name: "f", monitor_type: "field", ...at, wavelengths: twice },
      { name: "p", monitor_type: "flux", ...at, wavelengths: twice },
      { name: "m", monitor_type: "mode", ...at, wavelengths: twice },
      { name: "ff", monitor_type: "far_field", ...at, wavelengths: twice },
    ];
    const errs = await estimate(smallSimulation({ monitors }));
    assert.deepEqual(
      errs.filter((e) => /duplicate/.test(e)),
      monitors.map(
        (_, i) =>
          `monitors[${i}].wavelengths: has duplicate items: items 2 and 0 are both 0.0000015`,
      ),
      errs.join("\n"),
    );
    assert.deepEqual(new Set(errs.map((e) => e.split(":")[0])).size, monitors.length);
  });
});

describe("a far-field monitor's angles are each once", () => {
  const estimate = async (body: unknown) =>
    fieldErrors(
      await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key: await newKey(), body }),
    );
  // Four cells across: a far-field projection is refused in a column one cell across.
  const farField = (angles: Record<string, unknown>) =>
    smallSimulation({
      domain: {
        size: [0.2e-6, 0.2e-6, 3e-6],
        resolution: 0.05e-6,
        boundary_conditions: ["periodic", "periodic", "pml"],
        pml_layers: 12,
      },
      monitors: [
        {
          name: "ff",
          monitor_type: "far_field",
          center: [0, 0, 0],
          size: [0.05e-6, 0.05e-6, 0.05e-6],
          ...angles,
        },
      ],
    });

  test("a list repeating an angle, or a range of points > 1 from start to start, is a 422", async () => {
    const errs = await estimate(farField({ theta_deg: [0, 90, 0] }));
    assert.ok(
      errs.includes("monitors[0].theta_deg: has duplicate items: items 2 and 0 are both 0"),
      errs.join("\n"),
    );
    const ranged = await estimate(farField({ phi_deg: { start: 45, stop: 45, points: 4 } }));
    assert.ok(
      ranged.includes("monitors[0].phi_deg.stop: must differ from start when points > 1"),
      ranged.join("\n"),
    );
    const one = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
      key: await newKey(),
      body: farField({ phi_deg: { start: 45, stop: 45, points: 1 } }),
    });
    assert.equal(one.status, 200, one.text);
    // One point from 0 to 90 held 0 alone, silently: both ends are included.
    const dropped = await estimate(farField({ theta_deg: { start: 0, stop: 90, points: 1 } }));
    assert.ok(
      dropped.includes(
        "monitors[0].theta_deg.points: one point holds start alone, but a range includes both ends: give points of 2 or more, or stop equal to start",
      ),
      dropped.join("\n"),
    );
  });
});

describe("a discriminator's wrong tag is told its own union's choices", () => {
  const detail = async (body: Record<string, unknown>) =>
    fieldErrors(
      await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key: await newKey(), body }),
    );
  const sources = '"plane_wave", "point_dipole", "gaussian_beam", "mode", "ports"';
  const sim = smallSimulation();

  test("sources, monitors, structures and poles each list their own tags", async () => {
    const source = { ...(sim.source as object), source_type: "laser" };
    assert.deepEqual(await detail({ ...sim, source }), [
      `source.source_type: must be one of ${sources}`,
    ]);
    const monitor = { ...(sim.monitors as object[])[0], monitor_type: "bogus" };
    assert.deepEqual(await detail({ ...sim, monitors: [monitor] }), [
      'monitors[0].monitor_type: must be one of "field", "flux", "far_field", "mode"',
    ]);
    assert.deepEqual(await detail({ ...sim, structures: [{ type: "torus" }] }), [
      'structures[0].type: must be one of "box", "sphere", "cylinder", "polyslab", "gds"',
    ]);
    const materials = { glass: { poles: [{ type: "debye" }] } };
    assert.deepEqual(await detail({ ...sim, materials }), [
      'materials.glass.poles[0].type: must be one of "lorentz", "drude"',
    ]);
  });

  test("a tag of the wrong type is a wrong value, a missing one is required", async () => {
    const source = { ...(sim.source as object), source_type: 5 };
    assert.deepEqual(await detail({ ...sim, source }), [
      `source.source_type: must be a string, one of ${sources}`,
    ]);
    const { source_type: _dropped, ...untagged } = sim.source as Record<string, unknown>;
    assert.deepEqual(await detail({ ...sim, source: untagged }), [
      "source.source_type: is required",
    ]);
  });
});

describe("?limit= on the lists", () => {
  for (const list of ["/v1/simulations", "/v1/batches"]) {
    test(`${list}: 1 to 100 are pages, anything else a 422 naming query.limit`, async () => {
      const key = await newKey();
      for (const limit of ["1", "100", "020"]) {
        const res = await call(svc.baseUrl, "GET", `${list}?limit=${limit}`, { key });
        assert.equal(res.status, 200, `limit=${limit}: ${res.text}`);
      }
      for (const limit of ["0", "101", "999", "1000", "-1", "1.5", "1e2", "abc", "", " 5"]) {
        const res = await call(svc.baseUrl, "GET", `${list}?limit=${encodeURIComponent(limit)}`, {
          key,
        });
        assert.deepEqual(
          fieldErrors(res),
          ["query.limit: must be an integer from 1 to 100"],
          `limit=${JSON.stringify(limit)}`,
        );
      }
    });
  }
});

test("a preview plane's position that overflows (1e309) must be a finite number", async () => {
  const key = await newKey();
  const body = JSON.stringify({
    simulation: smallSimulation(),
    planes: [{ normal: "z", position: 12345 }],
  }).replace("12345", "1e309");
  const res = await call(svc.baseUrl, "POST", "/v1/simulations/preview", {
    key,
    rawBody: body,
    headers: { "content-type": "application/json" },
  });
  assert.deepEqual(fieldErrors(res), ["planes[0].position: must be a finite number"]);
});
