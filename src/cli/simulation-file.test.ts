import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidRequestError } from "./output.js";
import { loadSimulationFile } from "./simulation-file.js";

const UM = 1e-6;

/** A ports source with no ports of its own, its ports to come from a gds structure's labels. */
const request = (extra: Record<string, unknown> = {}) => ({
  solver: "fdtd",
  domain: {
    size: [8 * UM, 4 * UM, 1 * UM],
    resolution: 0.04 * UM,
    boundary_conditions: ["pml", "pml", "pml"],
    pml_layers: 8,
  },
  source: { source_type: "ports", wavelength: 1.55 * UM, run_ports: ["o1"] },
  structures: [
    {
      type: "gds",
      gds_url: "https://emsim.example/storage/objects/gds/a/b.gds",
      layers: [{ layer: 1, material: "Si", z_min: 0, z_max: 0.22 * UM }],
      ports: { layer: 1, texttype: 10 },
    },
  ],
  ...extra,
});

async function load(body: unknown) {
  const dir = mkdtempSync(join(tmpdir(), "emsim-simfile-"));
  try {
    const path = join(dir, "sim.json");
    writeFileSync(path, JSON.stringify(body));
    return await loadSimulationFile(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function fieldErrors(body: unknown): Promise<string[]> {
  try {
    await load(body);
  } catch (err) {
    assert.ok(err instanceof InvalidRequestError, String(err));
    return err.fieldErrors.map((e) => e.path);
  }
  assert.fail("expected the request to be refused");
}

test("local validation leaves the port checks to the server when a gds structure gives ports", async () => {
  const loaded = await load(request());
  assert.equal(loaded.estimate, undefined);
  assert.equal(loaded.request.source.source_type, "ports");
  // Everything else is still checked here (a physics check, past the schema).
  const coarse = request();
  coarse.domain.resolution = 0.5 * UM;
  assert.deepEqual(await fieldErrors(coarse), ["domain.resolution"]);
  // Without a gds structure's `ports`, a ports source with no ports is refused as before.
  const plain = request();
  delete (plain.structures[0] as { ports?: unknown }).ports;
  assert.deepEqual(await fieldErrors(plain), ["ports"]);
});
