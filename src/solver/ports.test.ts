/**
 * S-parameters of a straight slab waveguide between two ports (a cross-section one cell thick:
 * a 2-D problem): all of port 1's mode reaches port 2 (|S21|² = 1 within 1e-4), none comes
 * back (|S11|² < 1e-4), the matrix is reciprocal (S12 = S21 within 1e-6), and S21's phase is
 * the guide's e^{iβL} between the two port planes, L = 3 µm, within 0.1 rad (the FDTD's own
 * dispersion differs from the mode solver's by about (βh)²/24 of β: 0.03 rad over this L).
 * Measured (wasm, 25 nm): |S21|² = 0.99999, |S11|² ≤ 3e-6, |S12 − S21| ≤ 3e-8, arg S21 − βL
 * 0.026–0.032 rad over 1.5–1.6 µm.
 *
 * A width step (0.6 → 1.2 µm, 20 nm): the power out of a closed flux box around it is the
 * 1 W the source gives (0.9972–0.9977: the flux faces' cos(βh/2)); |S21|² = 0.924–0.938 against
 * mode matching's 0.933–0.941, |S11|² = 3.3–4.7e-4, the rest (6–7.5 %) radiated or in TE2.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runPorts } from "./ports.js";
import { runWithMaterials } from "./run.js";
import { constantMaterials } from "./testing/index.js";
import { SLAB_PORTS_BAND, slabBetweenPorts, slabPort } from "./testing/slab-ports.js";
import { RunRequestError, type PortsSourceSpec, type SimulationSpec } from "./types.js";
import type { MaterialResolver } from "./update-material.js";
import { planeWeights } from "./modes/fields.js";
import { complexOverlap } from "./modes/overlap.js";
import { solvePlaneModes } from "./modes/plane-modes.js";

const BAND = SLAB_PORTS_BAND;
const port = slabPort;
const spec = slabBetweenPorts();

test("a straight guide's S-matrix: |S21|² = 1, |S11|² < 1e-4, reciprocal, S21 = e^{iβL}; from one run with port_symmetries", async () => {
  const materials = constantMaterials({ core: 4, clad: 1.45 ** 2 });
  const result = await runPorts(
    spec,
    (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }),
    {},
  );
  const sm = result.sMatrix!;
  assert.deepEqual(sm.ports, ["o1@0", "o2@0"]);
  const W = sm.wavelengthsM.length;
  const at = (o: number, i: number, w: number): [number, number] => [
    sm.s[2 * ((o * 2 + i) * W + w)]!,
    sm.s[2 * ((o * 2 + i) * W + w) + 1]!,
  ];
  const mode = (result.modeMonitors ?? []).length; // the ports' monitors are not the request's
  assert.equal(mode, 0);
  for (let w = 0; w < W; w++) {
    const [s11, s21, s12, s22] = [at(0, 0, w), at(1, 0, w), at(0, 1, w), at(1, 1, w)];
    const p = (z: [number, number]) => z[0] ** 2 + z[1] ** 2;
    assert.ok(Math.abs(p(s21) - 1) < 1e-4, `|S21|² ${p(s21)}`);
    assert.ok(p(s11) < 1e-4 && p(s22) < 1e-4, `|S11|² ${p(s11)}, |S22|² ${p(s22)}`);
    assert.ok(Math.hypot(s21[0] - s12[0], s21[1] - s12[1]) < 1e-6, `S12 ${s12} S21 ${s21}`);
  }
  // From o1 alone, with the guide's symmetry naming the o2 column: the same matrix.
  const oneRun = await runPorts(
    {
      ...spec,
      source: {
        ...(spec.source as PortsSourceSpec),
        run_ports: ["o1"],
        port_symmetries: { "o2@0,o1@0": ["o1@0,o2@0"], "o1@0,o1@0": ["o2@0,o2@0"] },
      },
    },
    (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }),
    {},
  );
  assert.deepEqual(oneRun.sMatrix!.inputs, ["o1@0"]);
  const full = Array.from(sm.s);
  oneRun.sMatrix!.s.forEach((v, k) => assert.ok(Math.abs(v - full[k]!) < 1e-6, `element ${k}`));
  for (let w = 0; w < W; w++) {
    const beta = (2 * Math.PI * sm.nEff[w]!) / sm.wavelengthsM[w]!;
    const [re, im] = at(1, 0, w);
    const off = Math.atan2(im, re) - beta * 3e-6;
    const wrapped = Math.atan2(Math.sin(off), Math.cos(off));
    assert.ok(Math.abs(wrapped) < 0.1, `arg S21 − βL = ${wrapped} rad`);
  }
});

test("phases refer to the port planes as given, between the grid's nodes too", async () => {
  // Ports 10 nm inside the node planes (±1.49 µm on a 25 nm grid, recorded at ±1.5 µm): S21
  // is e^{iβL} over L = 2.98 µm, the planes asked for (it read the nodes' 3 µm: 0.15 rad off).
  const [o1, o2] = spec.ports!;
  const moved: SimulationSpec = {
    ...spec,
    source: { ...(spec.source as PortsSourceSpec), run_ports: ["o1"] },
    ports: [
      { ...o1!, center: [0, 0, -1.49e-6] },
      { ...o2!, center: [0, 0, 1.49e-6] },
    ],
  };
  const materials = constantMaterials({ core: 4, clad: 1.45 ** 2 });
  const sm = (
    await runPorts(
      moved,
      (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }),
      {},
    )
  ).sMatrix!;
  const W = sm.wavelengthsM.length;
  for (let w = 0; w < W; w++) {
    const beta = (2 * Math.PI * sm.nEff[w]!) / sm.wavelengthsM[w]!;
    const at = 2 * ((1 * 2 + 0) * W + w);
    const off = Math.atan2(sm.s[at + 1]!, sm.s[at]!) - beta * 2.98e-6;
    const wrapped = Math.atan2(Math.sin(off), Math.cos(off));
    assert.ok(Math.abs(wrapped) < 0.06, `arg S21 − βL = ${wrapped} rad`);
  }
});

test("a width step (0.6 → 1.2 µm): power conserved, |S11|² + |S21|² + radiation = the 1 W a closed box sees", async () => {
  const step: SimulationSpec = {
    ...spec,
    domain: { ...spec.domain, resolution: 0.02e-6, size: [3.6e-6, 0.02e-6, 4.2e-6] },
    source: { ...spec.source, run_ports: ["o1"] } as SimulationSpec["source"],
    ports: [
      { ...port("o1", -1.5e-6, "+z"), size: [3e-6, 0.02e-6, 0] },
      { ...port("o2", 1.5e-6, "-z"), size: [3e-6, 0.02e-6, 0] },
    ],
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
      { type: "box", center: [0, 0, -2.5e-6], size: [0.6e-6, 10, 5e-6], material: "core" },
      { type: "box", center: [0, 0, 2.5e-6], size: [1.2e-6, 10, 5e-6], material: "core" },
    ],
    monitors: [
      {
        name: "box",
        monitor_type: "flux",
        center: [0, 0, 0],
        size: [3.4e-6, 0.02e-6, 3.2e-6],
        wavelengths: BAND,
      },
    ],
  };
  const materials = constantMaterials({ core: 4, clad: 1.45 ** 2 });
  const result = await runPorts(
    step,
    (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }),
    {},
  );
  const sm = result.sMatrix!;
  const W = sm.wavelengthsM.length;
  const box = result.fluxMonitors.find((m) => m.name === "box@o1@0")!;
  const matched = modeMatching(step, materials, sm.wavelengthsM);
  for (let w = 0; w < W; w++) {
    const p = (o: number) => sm.s[2 * (o * 2 * W + w)]! ** 2 + sm.s[2 * (o * 2 * W + w) + 1]! ** 2;
    const [s11, s21] = [p(0), p(1)];
    const outflow = Number((box.flux as ArrayLike<number>)[w]);
    // All the source gives leaves the box: 1 W within 0.5 % (the flux faces read a guided
    // wave as cos(βh/2) of its power, 0.3 % low here).
    assert.ok(Math.abs(outflow - 1) < 5e-3, `box outflow ${outflow} W`);
    // What is not guided out through the ports is radiation: |S11|² + |S21|² ≤ outflow, and
    // the step does scatter (a real loss and a real reflection).
    assert.ok(s11 + s21 <= outflow + 1e-3, `${s11} + ${s21} vs ${outflow}`);
    assert.ok(s11 > 1e-4 && s21 < 0.999, `|S11|² ${s11}, |S21|² ${s21}`);
    // Mode matching at the step (the overlap of the two guides' TE0 modes) within 1.5 %: the
    // FDTD reads 0.35–0.8 % less (what lowest-order matching leaves out goes to radiation and
    // TE2); a wrong normalisation or a mode of the wrong guide is off by far more.
    const d = s21 - matched[w]!;
    assert.ok(d > -0.015 && d < 0.002, `|S21|² ${s21} vs mode matching ${matched[w]}`);
  }
});

/**
 * Mode matching at the step: |⟨TE0 narrow, TE0 wide⟩|², the power the narrow guide's mode puts
 * into the wide guide's when the reflection (|r|² ~ 4e-4) is neglected.
 */
test("a port whose plane holds no guided mode fails the run, saying so, rather than give |S| ≫ 1", async () => {
  // o2's plane in the cladding beside the guide (it ends 0.3 µm from the axis): its "mode" was
  // the cladding's, of next to no power, and the S-matrix read +90 dB.
  const o2 = {
    ...port("o2", 1.5e-6, "-z"),
    center: [1.2e-6, 0, 1.5e-6],
    size: [0.4e-6, 0.025e-6, 0],
  };
  const astray: SimulationSpec = {
    ...spec,
    source: { ...(spec.source as PortsSourceSpec), run_ports: ["o1"] },
    ports: [spec.ports![0]!, o2 as never],
  };
  const materials = constantMaterials({ core: 4, clad: 1.45 ** 2 });
  await assert.rejects(
    runPorts(astray, (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }), {}),
    (e: Error) =>
      e instanceof RunRequestError &&
      /^port o2: its mode 0 at [\d.]+ µm has n_eff .*, not above the index at the plane's edges \(1\.45000\)/.test(
        e.message,
      ),
  );
});

test("a port facing out of the device is noted with the S-matrix", async () => {
  const [o1, o2] = spec.ports!;
  const facingOut: SimulationSpec = {
    ...spec,
    source: { ...(spec.source as PortsSourceSpec), run_ports: ["o1"] },
    ports: [o1!, { ...o2!, direction: "+z" }],
  };
  const materials = constantMaterials({ core: 4, clad: 1.45 ** 2 });
  const result = await runPorts(
    facingOut,
    (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }),
    {},
  );
  assert.ok(
    result.report.notes.some((n) => /^port "o2" at z = 1\.5e-6 m faces \+z/.test(n)),
    result.report.notes.join("\n"),
  );
});

function modeMatching(
  step: SimulationSpec,
  materials: MaterialResolver,
  wavelengthsM: number[],
): number[] {
  const at = (z: number) =>
    solvePlaneModes(
      {
        domain: step.domain,
        structures: step.structures,
        plane: { center: [0, 0, z], size: [3e-6, 0.02e-6, 0] },
        wavelengths: wavelengthsM,
      },
      materials,
    );
  const [narrow, wide] = [at(-1e-6), at(1e-6)];
  const weights = planeWeights(narrow.plane.axes);
  return wavelengthsM.map((_, w) => {
    const [re, im] = complexOverlap(
      narrow.modes[w]![0]!.fields,
      wide.modes[w]![0]!.fields,
      weights,
    );
    return re * re + im * im;
  });
}

test("a guide along y gives the S-matrix of the same guide along z (a y-normal plane's frame is left-handed)", async () => {
  // Axes turned round (x ← y, y ← z, z ← x): the cross-section thin along x, the guide along y.
  const turn = <T>(v: readonly T[]): T[] => [v[1]!, v[2]!, v[0]!];
  const along = (s: SimulationSpec): SimulationSpec => ({
    ...s,
    source: { ...(s.source as PortsSourceSpec), run_ports: ["o1"] },
    domain: {
      ...s.domain,
      size: turn(s.domain.size) as SimulationSpec["domain"]["size"],
      boundary_conditions: turn(
        s.domain.boundary_conditions,
      ) as typeof s.domain.boundary_conditions,
    },
    ports: s.ports!.map((p) => ({
      ...p,
      center: turn(p.center) as typeof p.center,
      size: turn(p.size) as typeof p.size,
      direction: p.direction.replace("z", "y") as typeof p.direction,
    })),
    structures: s.structures.map((b) => ({
      ...b,
      center: turn((b as { center: number[] }).center),
      size: turn((b as { size: number[] }).size),
    })) as SimulationSpec["structures"],
  });
  const materials = constantMaterials({ core: 4, clad: 1.45 ** 2 });
  const run = async (s: SimulationSpec) =>
    (await runPorts(s, (one, o) => runWithMaterials(one, materials, { ...o, backend: "wasm" }), {}))
      .sMatrix!;
  const base = { ...spec, source: { ...(spec.source as PortsSourceSpec), run_ports: ["o1"] } };
  const [z, y] = [await run(base), await run(along(spec))];
  const W = z.wavelengthsM.length;
  for (let w = 0; w < W; w++) {
    const at = 2 * ((1 * 2 + 0) * W + w);
    const gap = Math.hypot(y.s[at]! - z.s[at]!, y.s[at + 1]! - z.s[at + 1]!);
    assert.ok(
      gap < 1e-4,
      `S21 along y ${y.s[at]}, ${y.s[at + 1]}; along z ${z.s[at]}, ${z.s[at + 1]}`,
    );
  }
});
