/**
 * POST /v1/modes with a bent guide (mode_spec.bend_radius, bend_axis): the bend reaches the
 * solver (a 500 × 220 nm Si wire bent at R = 2 µm has another n_eff than the straight one and,
 * with absorber on the plane's outer side, radiates: k_eff > 0, well above the straight
 * guide's), the answers of the straight and the bent plane are not mixed up by the solver's
 * cache, and a radius no larger than the plane's half extent along the radial axis is refused
 * as it is in a mode source's mode_spec (checkBend), naming the field.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { call, startService, type TestService } from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService();
  key = await svc.newKey("bends@example.com");
});
after(async () => svc.close());

/**
 * A Si wire in SiO2 on a 40 nm grid. The z-normal plane reaches past the domain's faces, so
 * that its window takes in the absorber (100 × 50 cells, axes x, y): a bend then radiates
 * into it. Along x the domain is wide enough (±1.6 µm) to hold the caustic of a 2 µm bend
 * (R (n_eff / n_SiO2 − 1) ≈ 1.4 µm), so the loss is the bend's, not the absorber's
 * swallowing the straight mode's tail. The target keeps the guided mode, not the outer
 * cladding's lossy modes a bend brings (docs/ports.md).
 */
function wirePlane(modeSpec: Record<string, unknown>): Record<string, unknown> {
  return {
    domain: {
      size: [3.2e-6, 1.2e-6, 1.6e-6],
      resolution: 40e-9,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 10,
    },
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "SiO2" },
      { type: "box", center: [0, 0, 0], size: [0.5e-6, 0.22e-6, 10], material: "Si" },
    ],
    plane: { center: [0, 0, 0], size: [4e-6, 2e-6, 0] },
    wavelengths: [1.55e-6],
    mode_spec: { num_modes: 1, target_neff: 2.45, ...modeSpec },
  };
}

interface Mode {
  n_eff: number;
  k_eff: number;
}

async function fundamental(modeSpec: Record<string, unknown>): Promise<Mode> {
  const res = await call(svc.baseUrl, "POST", "/v1/modes", { key, body: wirePlane(modeSpec) });
  assert.equal(res.status, 200, res.text);
  return (res.body.modes as Mode[])[0]!;
}

test("a bend of 2 µm changes the wire's n_eff and makes it radiate; bend_axis is kept", async () => {
  // The straight guide first, so that a cache keyed without the bend would answer the bends.
  const straight = await fundamental({});
  const bent = await fundamental({ bend_radius: 2e-6 });
  // Measured: n_eff 2.44474 straight, 2.45391 bent; k_eff 2.8e-7 (the absorber's share of
  // the straight mode) and 2.4e-6.
  assert.ok(Math.abs(bent.n_eff - straight.n_eff) > 3e-3, `${bent.n_eff} vs ${straight.n_eff}`);
  assert.ok(bent.k_eff > 1e-6, `k_eff ${bent.k_eff}`);
  assert.ok(bent.k_eff > 4 * Math.abs(straight.k_eff), `${bent.k_eff} vs ${straight.k_eff}`);
  // Bent about x instead (y radial): another guide, another answer.
  const aboutX = await fundamental({ bend_radius: 2e-6, bend_axis: 0 });
  assert.ok(Math.abs(aboutX.n_eff - bent.n_eff) > 1e-3, `${aboutX.n_eff} vs ${bent.n_eff}`);
  assert.ok(Math.abs(aboutX.n_eff - straight.n_eff) > 3e-3, `${aboutX.n_eff}`);
  // The straight guide again: the same as the first answer, whatever the cache holds.
  assert.deepEqual(await fundamental({ bend_radius: null }), straight);
});

test("a mode the absorber gives gain to comes with a note; a sound one without", async () => {
  // Bent about x, y radial: the plane's y extent (±0.6 µm, then absorber) ends well inside the
  // caustic, where the mode is still evanescent. Measured: k_eff −8.6e-6 (+9.0e-7 with the
  // domain twice as tall).
  const answer = async (modeSpec: Record<string, unknown>) => {
    const res = await call(svc.baseUrl, "POST", "/v1/modes", { key, body: wirePlane(modeSpec) });
    assert.equal(res.status, 200, res.text);
    return res.body as { modes: Mode[]; notes: string[] };
  };
  const cramped = await answer({ bend_radius: 2e-6, bend_axis: 0 });
  assert.ok(cramped.modes[0]!.k_eff < 0, `k_eff ${cramped.modes[0]!.k_eff}`);
  assert.equal(cramped.notes.length, 1, cramped.notes.join("\n"));
  assert.match(cramped.notes[0]!, /^mode 0: k_eff < 0 at 1 of 1 wavelength/);
  assert.match(cramped.notes[0]!, /caustic/);
  assert.match(cramped.notes[0]!, /widen the plane or the domain on the bend's outer side/);
  const sound = await answer({ bend_radius: 2e-6 });
  assert.ok(sound.modes[0]!.k_eff > 0);
  assert.deepEqual(sound.notes, []);
  // A plane that stops at the domain's faces (PEC walls, no absorber): a "lossless" bend.
  const walled = await call(svc.baseUrl, "POST", "/v1/modes", {
    key,
    body: {
      ...wirePlane({ bend_radius: 2e-6 }),
      plane: { center: [0, 0, 0], size: [3.2e-6, 1.2e-6, 0] },
    },
  });
  assert.equal(walled.status, 200, walled.text);
  const notes = walled.body.notes as string[];
  assert.equal(notes.length, 1, notes.join("\n"));
  assert.match(
    notes[0]!,
    /no absorber on the bend's outer side \(\+x\): .* k_eff is 0 by construction/,
  );
});

test("a radius within the plane's half extent is a 422 naming mode_spec.bend_radius", async () => {
  const refused = async (modeSpec: Record<string, unknown>, axis: RegExp) => {
    const res = await call(svc.baseUrl, "POST", "/v1/modes", { key, body: wirePlane(modeSpec) });
    assert.equal(res.status, 422, res.text);
    const errors = res.body.errors as { path: string; message: string }[];
    const bend = errors.find((e) => e.path === "mode_spec.bend_radius");
    assert.ok(bend, res.text);
    assert.match(bend.message, axis);
  };
  // Radial x (the default bend_axis 1): half the domain's 3.2 µm, 1.6 µm.
  await refused({ bend_radius: -1e-9 }, /along x/);
  await refused({ bend_radius: 1e-9 }, /along x/);
  await refused({ bend_radius: 1.5e-6 }, /along x/);
  // Radial y (bend_axis 0): half extent 0.6 µm, so 0.5 µm is refused there.
  await refused({ bend_radius: 0.5e-6, bend_axis: 0 }, /along y/);
});
