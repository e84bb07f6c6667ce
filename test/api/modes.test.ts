/**
 * POST /v1/modes through the service (issue #29): a key is needed; the silicon strip's plane
 * comes back with its TE0 and TM0 modes (and, asked, their fields on the cell centres, which
 * carry 1 W through the plane); bad requests are refused with field errors (a plane of two
 * zero axes, one over the cell limit, a wavelength outside a material's data, an unknown
 * field); the solve runs in a thread, so the server answers /health meanwhile.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { call, startService, type TestService } from "../helpers/service.js";
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
  const [te, tm] = body.modes;
  assert.ok(Math.abs(te!.n_eff - 2.4455) < 5e-3, `TE0 ${te!.n_eff}`);
  assert.ok(te!.te_fraction > 0.9 && tm!.te_fraction < 0.3);
  assert.deepEqual(
    body.modes.map((m) => m.mode_index),
    [0, 1],
  );
  assert.equal(te!.fields, undefined, "fields only when asked");
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
  await refused({ ...EXAMPLE_MODES_REQUEST, source: { source_type: "plane_wave" } }, /source/);
});
