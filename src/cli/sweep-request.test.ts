/**
 * `emsim sweep`'s parameters as typed on the command line, and the local check of a batch
 * request: the server's own checks, each problem named by variant and traced to the parameter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkBatchRequest,
  isBatchRequestBody,
  parametersFromOptions,
  parseParamOption,
  parseParameterValue,
} from "./sweep-request.js";
import { UsageError } from "./usage.js";

/** A 1-D periodic column with a glass slab: small enough to check in milliseconds. */
const simulation = {
  solver: "fdtd",
  domain: {
    size: [0.05e-6, 0.05e-6, 3e-6],
    resolution: 0.05e-6,
    boundary_conditions: ["periodic", "periodic", "pml"],
  },
  source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
  structures: [
    { type: "box", center: [0, 0, 0.5e-6], size: [0.05e-6, 0.05e-6, 0.5e-6], material: "SiO2" },
  ],
  monitors: [{ name: "line", monitor_type: "field", center: [0, 0, 0], size: [0, 0, 2e-6] }],
};

test("values are numbers, booleans or text; a range is START:STOP:POINTS", () => {
  assert.deepEqual(
    ["0.4e-6", "-2", ".5", "1E3", "true", "false", "Si", "1.2.3", "0x10"].map(parseParameterValue),
    [0.4e-6, -2, 0.5, 1000, true, false, "Si", "1.2.3", "0x10"],
  );
  assert.deepEqual(parseParamOption("/structures/1/size/0=0.4e-6:0.6e-6:11"), {
    path: "/structures/1/size/0",
    range: { start: 0.4e-6, stop: 0.6e-6, points: 11 },
  });
  assert.deepEqual(parseParamOption("/structures/0/material=Si, SiO2"), {
    path: "/structures/0/material",
    values: ["Si", "SiO2"],
  });
  assert.deepEqual(parseParamOption("/source/wavelength=1.55e-6"), {
    path: "/source/wavelength",
    values: [1.55e-6],
  });
  // Two or four fields of numbers are a range mistyped, not a text value to send (exit 6 then).
  for (const bad of [
    ...["structures/0=1,2", "/a", "/a=", "/a=1,,2", "/a=0:1:0", "/a=0:x:3"],
    ...["/a=0.4e-6:0.6e-6", "/a=1:2:3:4", "/a=1:"],
  ]) {
    assert.throws(() => parseParamOption(bad), UsageError, bad);
  }
});

test("--name names the --param in the same place; the rest are named after their pointers", () => {
  const params = parametersFromOptions(
    ["/structures/0/size/2=1,2", "/source/wavelength=1:2:3", "/structures/0/size/2=3"],
    ["t"],
    [{ name: "source_wavelength", path: "/x", values: [1] }],
  );
  assert.deepEqual(
    params.map((p) => p.name),
    ["t", "source_wavelength_2", "structures_0_size_2"],
  );
  assert.throws(() => parametersFromOptions(["/a=1"], ["a", "b"]), UsageError);
});

test("a batch request is checked as the server checks it, variant by variant", () => {
  const request = {
    simulation,
    parameters: [{ name: "t", path: "/structures/0/size/2", values: [0.3e-6, 0.5e-6] }],
  };
  assert.ok(isBatchRequestBody(request));
  assert.ok(!isBatchRequestBody(simulation));
  const good = checkBatchRequest(request);
  assert.ok(good.ok, JSON.stringify(good));
  assert.equal(good.jobCount, 2);
  assert.equal(good.estimates.length, 2);

  // A value that makes one variant invalid: named by variant, field, parameter and value.
  const bad = checkBatchRequest({
    ...request,
    parameters: [{ name: "t", path: "/structures/0/size/2", values: [0.3e-6, -1] }],
  });
  assert.ok(!bad.ok);
  assert.equal(bad.errors.length, 1, JSON.stringify(bad.errors));
  assert.equal(bad.errors[0]!.path, "variants[1].structures[0].size[2]");
  assert.match(bad.errors[0]!.message, /\(parameters\[0\] "t" = -1\)$/);

  // Pointers to nothing, names the file reserves, values and ranges, the request's shape.
  const parameters = checkBatchRequest({
    simulation,
    parameters: [
      { name: "wavelength", path: "/source/wavelength", values: [1.5e-6] },
      { name: "t", path: "/structures/3/size/2", values: [1] },
      { name: "u", path: "/source/wavelength" },
    ],
  });
  assert.ok(!parameters.ok);
  assert.deepEqual(parameters.errors.map((e) => e.path).sort(), [
    "parameters[0].name",
    "parameters[1].path",
    "parameters[2]",
    // u also sweeps parameters[0]'s path.
    "parameters[2].path",
  ]);
  const shape = checkBatchRequest({ simulation, parameters: [], combine: "all" });
  assert.ok(!shape.ok);
  assert.deepEqual([...new Set(shape.errors.map((e) => e.path))].sort(), ["combine", "parameters"]);
});
