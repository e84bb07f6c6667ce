/**
 * POST /v1/modes through the service (issue #29): a key is needed; the silicon strip's plane
 * comes back with its TE0 and TM0 modes (and, asked, their fields on the cell centres, which
 * carry 1 W through the plane); bad requests are refused with field errors (a plane of two
 * zero axes, one over the cell limit, a wavelength outside a material's data, an unknown
 * field); the solve runs in a thread, so the server answers /health meanwhile. A job with a
 * mode source and mode monitors: the record's solver_report.modes and the file's amps.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import h5wasm, { type Dataset, type Group } from "h5wasm/node";
import { runInspect } from "../../src/cli/commands/inspect.js";
import { defaultIo, type CommandIo } from "../../src/cli/output.js";
import {
  call,
  startService,
  tempDir,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { EXAMPLE_MODES_REQUEST } from "../../src/http/openapi-examples.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService();
  key = await svc.newKey("modes@example.com");
});
after(async () => svc.close());

interface ModesBody {
  plane: { normal: string; axes: string[]; position_m: number; cells: number[] };
  modes: {
    mode_index: number;
    n_eff: number;
    k_eff: number;
    te_fraction: number;
    fields?: Record<string, { re: number[]; im: number[] }>;
  }[];
  grid?: Record<string, number[]>;
  unknowns: number;
}

test("a key is needed", async () => {
  const res = await call(svc.baseUrl, "POST", "/v1/modes", { body: EXAMPLE_MODES_REQUEST });
  assert.equal(res.status, 401, res.text);
});

test("the silicon strip's plane: TE0 and TM0 with the plane the grid placed", async () => {
  const health = call(svc.baseUrl, "GET", "/health");
  const res = await call(svc.baseUrl, "POST", "/v1/modes", { key, body: EXAMPLE_MODES_REQUEST });
  assert.equal(res.status, 200, res.text);
  assert.equal((await health).status, 200);
  const body = res.body as unknown as ModesBody;
  assert.deepEqual(body.plane.normal, "y");
  assert.deepEqual(body.plane.axes, ["x", "z"]);
  // The grid's nodes within the plane: 80 cells along x; along z its edges at −0.69 and
  // 0.91 µm fall half a cell off the nodes, which leaves 79.
  assert.deepEqual(body.plane.cells, [80, 79]);
  assert.equal(body.unknowns > 10_000, true);
  assert.equal(body.plane.position_m, 0);
  const [te, tm] = body.modes;
  assert.ok(Math.abs(te!.n_eff - 2.4455) < 5e-3, `TE0 ${te!.n_eff}`);
  assert.ok(te!.te_fraction > 0.9 && tm!.te_fraction < 0.3);
  assert.deepEqual(
    body.modes.map((m) => m.mode_index),
    [0, 1],
  );
  assert.equal(te!.fields, undefined, "fields only when asked");
});

test("a plane through the origin is at 0, not at the nodes' rounding", async () => {
  // x = −1.8 µm + 72 · 25 nm is −2.1e-22 m in floating point.
  const body = {
    ...EXAMPLE_MODES_REQUEST,
    domain: { ...EXAMPLE_MODES_REQUEST.domain, size: [3e-6, 1e-6, 2e-6], resolution: 25e-9 },
    plane: { center: [0, 0, 0.11e-6], size: [0, 0.8e-6, 1.2e-6] },
    mode_spec: { num_modes: 1 },
  };
  body.domain.pml_layers = 12;
  const res = await call(svc.baseUrl, "POST", "/v1/modes", { key, body });
  assert.equal(res.status, 200, res.text);
  const plane = (res.body as unknown as ModesBody).plane;
  assert.equal(plane.normal, "x");
  assert.equal(plane.position_m, 0);
});

test("fields on the cell centres carry 1 W through the plane", async () => {
  const res = await call(svc.baseUrl, "POST", "/v1/modes", {
    key,
    body: { ...EXAMPLE_MODES_REQUEST, mode_spec: { num_modes: 1 }, include_fields: true },
  });
  assert.equal(res.status, 200, res.text);
  const body = res.body as unknown as ModesBody;
  const f = body.modes[0]!.fields!;
  assert.deepEqual(Object.keys(f).sort(), ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"]);
  const [xs, zs] = [body.grid!.x_m!, body.grid!.z_m!];
  assert.equal(f.Ex!.re.length, xs.length * zs.length);
  // Power along +y: ½ Re ∫ (E × H*)·ŷ dA = ½ Re ∫ (Ez Hx* − Ex Hz*) dx dz.
  let power = 0;
  for (let i = 0; i < xs.length; i++) {
    for (let j = 0; j < zs.length; j++) {
      const k = i * zs.length + j;
      const re = (c: string) => f[c]!.re[k]!;
      const im = (c: string) => f[c]!.im[k]!;
      const s =
        re("Ez") * re("Hx") + im("Ez") * im("Hx") - (re("Ex") * re("Hz") + im("Ex") * im("Hz"));
      power += 0.5 * s * 20e-9 * 20e-9;
    }
  }
  // Averaging onto the centres smooths the fields a little: 1 W within 2 %.
  assert.ok(Math.abs(power - 1) < 0.02, `power ${power} W`);
});

test("bad requests are refused with the field named", async () => {
  const refused = async (body: Record<string, unknown>, path: RegExp) => {
    const res = await call(svc.baseUrl, "POST", "/v1/modes", { key, body });
    assert.equal(res.status, 422, res.text);
    assert.match(res.text, path);
    return res.text;
  };
  await refused(
    { ...EXAMPLE_MODES_REQUEST, plane: { center: [0, 0, 0], size: [0, 0, 1e-6] } },
    /plane\.size/,
  );
  const big = await refused(
    {
      ...EXAMPLE_MODES_REQUEST,
      domain: { ...EXAMPLE_MODES_REQUEST.domain, resolution: 5e-9 },
    },
    /plane\.size/,
  );
  assert.match(big, /at most 40000/);
  await refused({ ...EXAMPLE_MODES_REQUEST, wavelengths: [20e-6] }, /structures\[0\]\.material/);
  const same = { start: 1.55e-6, stop: 1.55e-6, points: 3 };
  await refused({ ...EXAMPLE_MODES_REQUEST, wavelengths: same }, /wavelengths\.stop/);
  await refused({ ...EXAMPLE_MODES_REQUEST, source: { source_type: "plane_wave" } }, /source/);
  // A gain pole (Δε < 0): no simulation steps it (the same 422 as a job's), so no mode of it.
  const gain = {
    ...EXAMPLE_MODES_REQUEST,
    materials: {
      m: {
        permittivity: 4,
        poles: [{ type: "lorentz", delta_eps: -1, omega0: 1e15, gamma: 1e13 }],
      },
    },
    structures: [{ ...EXAMPLE_MODES_REQUEST.structures[0]!, material: "m" }],
  };
  assert.match(await refused(gain, /structures\[0\]\.material/), /gain pole/);
});

/** A slab waveguide's cross-section (2-D, invariant along y) with a mode source and monitors. */
function slabJob(): Record<string, unknown> {
  const plane = (name: string, z: number) => ({
    name,
    monitor_type: "mode",
    center: [0, 0, z],
    size: [3.4e-6, 0.025e-6, 0],
    wavelengths: [1.5e-6, 1.55e-6, 1.6e-6],
    mode_spec: { num_modes: 2 },
  });
  return {
    solver: "fdtd",
    domain: {
      size: [3.6e-6, 0.025e-6, 4e-6],
      resolution: 0.025e-6,
      boundary_conditions: ["pml", "periodic", "pml"],
    },
    materials: { core: { permittivity: 4 }, clad: { permittivity: 2.1025 } },
    source: {
      source_type: "mode",
      wavelength: 1.55e-6,
      center: [0, 0, -1e-6],
      size: [3e-6, 0.025e-6, 0],
      direction: "+z",
    },
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
      { type: "box", center: [0, 0, 0], size: [0.6e-6, 10, 10], material: "core" },
    ],
    monitors: [plane("down", 1e-6), plane("up", -1.5e-6)],
    fdtd_settings: { convergence_threshold: 1e-6, check_every_n: 500 },
  };
}

test("a mode source's job: 1 W in its mode downstream, nothing back, in the record and the file", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: slabJob() });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  type Modes = Record<string, { n_eff: number[][]; power: Record<"+" | "-", number[][]> }>;
  const modes = (done.solver_report as { modes: Modes }).modes;
  for (const w of [0, 1, 2]) {
    assert.ok(Math.abs(modes.down!.power["+"][w]![0]! - 1) < 1e-3, JSON.stringify(modes.down));
    assert.ok(modes.up!.power["-"][w]![0]! < 1e-4, JSON.stringify(modes.up));
  }
  assert.ok(modes.down!.n_eff[1]![0]! > 1.45 && modes.down!.n_eff[1]![0]! < 2);
  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  const file = await fetch(redirect.headers.get("location")!);
  const path = join(tempDir(), "modes.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  await h5wasm.ready;
  const f = new h5wasm.File(path, "r");
  try {
    const group = f.get("monitors/down") as Group;
    assert.equal(group.attrs.type!.value, "mode");
    const amps = f.get("monitors/down/amps") as Dataset;
    assert.deepEqual(amps.shape, [2, 3, 2]);
    assert.deepEqual((f.get("monitors/down/n_eff") as Dataset).shape, [3, 2]);
  } finally {
    f.close();
  }
  // `emsim inspect` calls them mode monitors and shows what they hold (it took them for
  // point monitors, with an empty table of field values).
  let text = "";
  const io = { ...defaultIo(), stdout: { write: (t: string) => ((text += t), true) } };
  assert.equal(await runInspect([path], io as CommandIo), 0);
  assert.match(text, /\ndown\s+mode\s+—/);
  assert.doesNotMatch(text, /Point monitor/);
  assert.match(text, /Mode monitor 'down'/);
  assert.match(text, /\n1\.55\s+0\s+1\.\d{5}\s+(9\.99|1\.00)\d*e[-+]\d+/);
  let json = "";
  const jsonIo = { ...defaultIo(), stdout: { write: (t: string) => ((json += t), true) } };
  assert.equal(await runInspect([path, "--json"], jsonIo as CommandIo), 0);
  const down = (JSON.parse(json) as { monitors: Record<string, unknown>[] }).monitors.find(
    (m) => m.name === "down",
  )!;
  assert.equal(down.kind, "mode");
  assert.equal(down.shape, null);
  const forward = down.forward_power as number[][];
  assert.ok(Math.abs(forward[1]![0]! - modes.down!.power["+"][1]![0]!) < 1e-6);
  // The record's figures are rounded to about seven digits; the file's are not.
  const nEff = (down.n_eff as number[][])[1]!;
  nEff.forEach((n, k) => assert.ok(Math.abs(n - modes.down!.n_eff[1]![k]!) < 1e-6));
});

test("a solve past EMSIM_MODES_TIMEOUT_SECONDS is a 422 plane_too_large, not a 500", async () => {
  const slow = await startService({}, { EMSIM_MODES_TIMEOUT_SECONDS: "1" });
  try {
    const body = {
      ...EXAMPLE_MODES_REQUEST,
      wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 32 },
      mode_spec: { num_modes: 8 },
    };
    const res = await call(slow.baseUrl, "POST", "/v1/modes", {
      key: await slow.newKey("slow@example.com"),
      body,
    });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.error_code, "plane_too_large");
    assert.match(String(res.body.detail), /did not finish within 1 s/);
  } finally {
    await slow.close();
  }
});
