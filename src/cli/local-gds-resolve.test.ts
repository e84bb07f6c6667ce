/**
 * `emsim preview`'s local layouts (local-gds-resolve.ts): the coupler example's layout resolved
 * on this machine gives the very preview a real server gives for the uploaded file (polyslabs,
 * ports from the labels, guides extended through the absorber); what the server refuses in a
 * layout is refused with the server's field paths; a batch request file shows its base
 * simulation, its problems named under `simulation.`.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { EmsimClient } from "../client/index.js";
import { loadConfig } from "../config.js";
import { GdsBuilder } from "../fabrication/testing/gds-builder.js";
import { setupPreview } from "../preview/response.js";
import { namedAsSent } from "../preview/service.js";
import type { PreviewRequest } from "../schema/preview.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { checkRequest } from "../schema/validate.js";
import { createService, type Service } from "../service.js";
import { runPreview } from "./commands/preview.js";
import { withLocalGdsResolved } from "./local-gds-resolve.js";
import { CliError, InvalidRequestError } from "./output.js";

const EXAMPLE = new URL("../../examples/directional-coupler-sparameters.json", import.meta.url)
  .pathname;

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "emsim-local-gds-resolve-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const exampleRequest = () => JSON.parse(readFileSync(EXAMPLE, "utf8")) as SimulationRequest;

test("the coupler's local layout previews as the server previews the uploaded file", async () => {
  const resolved = await withLocalGdsResolved(exampleRequest(), EXAMPLE);
  assert.ok(resolved.structures!.every((s) => s.type !== "gds"));
  assert.deepEqual(
    resolved.ports!.map((p) => p.name),
    ["o1", "o2", "o3", "o4"],
  );
  const planes: PreviewRequest["planes"] = [{ normal: "z", position: 0 }];
  const checked = checkRequest(resolved, loadConfig({}).limits);
  assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.errors));
  // Named as `emsim preview` names them: the layout's polyslabs by its gds structure's index.
  const local = namedAsSent(setupPreview(checked.spec, { planes }), resolved);

  const dataDir = join(dir, "server");
  const config = loadConfig({}, { host: "127.0.0.1", port: 0, dataDir, embeddedWorker: false });
  const service: Service = await createService(config);
  try {
    const address = await service.listen();
    const key = (await service.accounts.issueKeyFor("preview@example.com", "test")).key;
    const client = new EmsimClient({ baseUrl: address, apiKey: key });
    const gds = readFileSync(new URL("../../examples/directional-coupler.gds", import.meta.url));
    const { gds_url } = await client.uploadGds(new Uint8Array(gds));
    const request = exampleRequest();
    request.structures![1] = { ...request.structures![1]!, gds_url } as never;
    const { estimate: _estimate, ...served } = await client.preview(request, { planes });
    // Through JSON as the server's answer went: −0 (a lossless cell's Im ε) reads 0.
    assert.deepEqual(JSON.parse(JSON.stringify(local)), served);
  } finally {
    await service.close();
  }
});

/** A 2 µm long, 0.5 µm wide guide on 1/0 with a port label at its left end on 1/10. */
function writeLayout(name: string): string {
  const bytes = new GdsBuilder()
    .begin(1e-9)
    .cell("GUIDE", (b) => b.box(1, 0, -1000, -250, 1000, 250).text(1, -1000, 0, "o1", 10))
    .end();
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** A 2-D simulation with the guide of `writeLayout`, its `gds` structure changed by `gds`. */
function guideSimulation(gdsUrl: string, gds: Record<string, unknown> = {}): SimulationRequest {
  return {
    solver: "fdtd",
    domain: {
      size: [3e-6, 2e-6, 4e-8],
      resolution: 4e-8,
      boundary_conditions: ["pml", "pml", "periodic"],
    },
    source: { source_type: "ports", wavelength: 1.55e-6, run_ports: ["o1"] },
    structures: [
      {
        type: "gds",
        gds_url: gdsUrl,
        layers: [{ layer: 1, material: "Si3N4", z_min: -1e-6, z_max: 1e-6 }],
        ports: { layer: 1, texttype: 10, mode_spec: { num_modes: 1 } },
        ...gds,
      },
    ],
  } as SimulationRequest;
}

test("what the server refuses in a layout, with the server's field paths", async () => {
  writeLayout("guide.gds");
  const file = join(dir, "guide.json");
  const fieldError = async (request: SimulationRequest) => {
    const err = await withLocalGdsResolved(request, file).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof InvalidRequestError, String(err));
    return err.fieldErrors[0]!;
  };
  const cell = await fieldError(guideSimulation("guide.gds", { cell: "NOPE" }));
  assert.equal(cell.path, "structures[0].cell");
  assert.match(cell.message, /no cell named "NOPE" \(its cells: GUIDE\)/);
  const layers = [{ layer: 2, material: "Si3N4", z_min: -1e-6, z_max: 1e-6 }];
  const layer = await fieldError(guideSimulation("guide.gds", { layers }));
  assert.equal(layer.path, "structures[0].layers[0]");
  assert.match(layer.message, /no shapes on layer 2\/0 \(its layers: 1\/0\)/);
  const labels = await fieldError(guideSimulation("guide.gds", { ports: { layer: 1 } }));
  assert.equal(labels.path, "structures[0].ports");
  assert.match(labels.message, /no labels on layer 1\/0 \(layers with labels: 1\/10\)/);

  await assert.rejects(withLocalGdsResolved(guideSimulation("missing.gds"), file), (e) => {
    assert.ok(e instanceof CliError && /cannot read .*missing\.gds/.test(e.message), String(e));
    return true;
  });
  writeFileSync(join(dir, "text.gds"), "not a layout");
  await assert.rejects(withLocalGdsResolved(guideSimulation("text.gds"), file), (e) => {
    assert.ok(e instanceof CliError && /text\.gds \(structures\[0\]\)/.test(e.message), String(e));
    return true;
  });

  const resolved = await withLocalGdsResolved(guideSimulation("guide.gds"), file);
  const [port] = resolved.ports!;
  assert.equal(port!.name, "o1");
  // The guide reaches x = −1 µm; the domain's absorber starts at −1.5 µm: extended through it.
  const xs = (resolved.structures![0] as { vertices: [number, number][] }).vertices.map(
    (v) => v[0],
  );
  assert.ok(Math.min(...xs) < -1.5e-6, `the guide starts at ${Math.min(...xs)} m`);
});

/** `emsim preview` in this process: its exit code and what it wrote on stderr. */
async function preview(args: string[]): Promise<{ code: number; stderr: string }> {
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (d: Buffer) => (text += d.toString()));
  const code = await runPreview(args, { json: false, stdout: new PassThrough(), stderr });
  return { code, stderr: text };
}

test("a batch request file previews its base simulation, its problems under simulation.", async () => {
  writeLayout("guide.gds");
  const batch = (simulation: SimulationRequest) => ({
    simulation,
    parameters: [{ name: "width", path: "/domain/size/1", values: [2e-6, 2.4e-6] }],
  });
  const ok = join(dir, "batch.json");
  writeFileSync(ok, JSON.stringify(batch(guideSimulation("guide.gds"))));
  const shown = await preview([ok, "--out", join(dir, "batch.png")]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stderr, /is a batch request: this is its base simulation; .*width/);

  const bad = join(dir, "bad-batch.json");
  const layers = [{ layer: 2, material: "Si3N4", z_min: -1e-6, z_max: 1e-6 }];
  writeFileSync(bad, JSON.stringify(batch(guideSimulation("guide.gds", { layers }))));
  const refused = await preview([bad]);
  assert.equal(refused.code, 6, refused.stderr);
  assert.match(refused.stderr, /is not a valid batch request:\n\s+simulation\.structures\[0\]/);
});
