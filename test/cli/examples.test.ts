/**
 * The shipped examples stay valid (the server's own validation with default limits) and small
 * enough to run in well under a minute on two cores; docs/getting-started.md relies on them.
 * Running them is left to `emsim submit examples/<name>.json --wait` (times in
 * examples/README.md): the suite runs jobs of the same kind in workflow.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config.js";
import { validateSimulationRequest } from "../../src/schema/validate.js";

const DIR = fileURLToPath(new URL("../../examples/", import.meta.url));

test("every example is a valid, modest simulation request", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".json"));
  for (const name of ["plane-wave-vacuum", "sin-slab-fabry-perot", "si-strip-waveguide"]) {
    assert.ok(files.includes(`${name}.json`), `examples/${name}.json exists`);
  }
  for (const file of files) {
    const body = JSON.parse(readFileSync(DIR + file, "utf8")) as {
      metadata?: { example?: string };
    };
    const outcome = validateSimulationRequest(body, loadConfig({}).limits);
    assert.ok(outcome.ok, `${file}: ${JSON.stringify(!outcome.ok && outcome.errors)}`);
    assert.equal(body.metadata?.example, file.replace(/\.json$/, ""));
    // At the reference kernel's few Mcells/s, a run that converges within ~5000 steps on at
    // most 25 000 cells takes well under a minute.
    assert.ok(
      outcome.estimate.totalCells <= 25_000,
      `${file}: ${outcome.estimate.totalCells} cells`,
    );
  }
});

test("the sin slab example records several wavelengths on one monitor", () => {
  const body = JSON.parse(readFileSync(`${DIR}sin-slab-fabry-perot.json`, "utf8")) as {
    structures: { material: string }[];
    monitors: { wavelengths?: number[] }[];
  };
  assert.equal(body.structures[0]!.material, "Si3N4");
  assert.ok(body.monitors.every((m) => (m.wavelengths?.length ?? 0) >= 3));
});
