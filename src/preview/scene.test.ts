/**
 * The set-up's 3-D scene (scene.ts) of real requests, checked as submission checks them
 * (schema/validate.ts checkRequest, what JobService.check runs): the grid and its absorber,
 * structures clipped to the grid (a metres-wide substrate cut to it, a polyslab's outline cut
 * at the grid's faces, a sloped wall cut where the solver's outline is at that height), where the solver injects the source,
 * monitors by their shape, ports and their directions, mirror planes, mesh overrides, and the
 * materials' colours and ε. The answer is small plain JSON.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import type { SimulationRequest } from "../schema/simulation.js";
import { checkRequest } from "../schema/validate.js";
import { polySlabOutlineAt, type PolySlabSpec, type SimulationSpec } from "../solver/index.js";
import { setupScene, type SceneStructure, type SetupScene } from "./scene.js";

const LIMITS = {
  maxCells: 1e9,
  maxTimeSteps: 1e7,
  maxMonitorSamples: 1e9,
  maxMemoryBytes: 1e12,
  solverBackend: "wasm" as const,
};

function checked(request: unknown): SimulationSpec {
  const outcome = checkRequest(request as SimulationRequest, LIMITS);
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  return outcome.spec;
}

function example(name: string): SimulationSpec {
  const url = new URL(`../../examples/${name}.json`, import.meta.url);
  return checked(JSON.parse(readFileSync(url, "utf8")));
}

const near = (a: number, b: number, what: string, tol = 1e-12) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} against ${b}`);

/** Plain JSON: what goes over the wire comes back the same. */
function assertPlainJson(scene: SetupScene, maxBytes: number): void {
  const text = JSON.stringify(scene);
  assert.deepEqual(JSON.parse(text), scene);
  assert.ok(text.length < maxBytes, `${text.length} bytes`);
}

test("the strip waveguide: grid, absorber, the substrate cut to the grid, the TFSF plane", () => {
  const scene = setupScene(example("si-strip-waveguide"));
  const { domain } = scene;
  // 3 µm × 25 nm × 3 µm inside 12 cells of 25 nm of absorber on x and z; y periodic.
  assert.deepEqual(domain.min, [-1.5e-6, -1.25e-8, -1.5e-6]);
  assert.deepEqual(domain.max, [1.5e-6, 1.25e-8, 1.5e-6]);
  assert.deepEqual(domain.gridMin, [-1.8e-6, -1.25e-8, -1.8e-6]);
  assert.deepEqual(domain.gridMax, [1.8e-6, 1.25e-8, 1.8e-6]);
  assert.deepEqual(domain.pml, [
    [3e-7, 3e-7],
    [0, 0],
    [3e-7, 3e-7],
  ]);
  assert.deepEqual(domain.boundaries, ["pml", "periodic", "pml"]);
  assert.equal(scene.wavelength, 1.55e-6);

  const [substrate, strip] = scene.structures;
  // The request's substrate is 10 m wide and 2 m deep: cut to the grid, its top at z = 0.
  assert.deepEqual(substrate, {
    index: 0,
    material: "SiO2",
    color: substrate!.color,
    shape: "box",
    min: [-1.8e-6, -1.25e-8, -1.8e-6],
    max: [1.8e-6, 1.25e-8, 0],
  });
  assert.equal(strip?.shape, "box");
  if (strip?.shape === "box") {
    assert.deepEqual(strip.min, [-2.5e-7, -1.25e-8, 0]);
    assert.deepEqual(strip.max, [2.5e-7, 1.25e-8, 2.2e-7]);
  }
  assert.notEqual(substrate!.color, strip!.color);
  assert.deepEqual(
    scene.materials.map((m) => [m.name, m.kind, m.color]),
    [
      ["SiO2", "dielectric", substrate!.color],
      ["Si", "dielectric", strip!.color],
    ],
  );
  // Si at 1.55 µm: n ≈ 3.476 (Li 1980), ε ≈ 12.08; SiO2 n ≈ 1.444, ε ≈ 2.085.
  near(scene.materials[1]!.eps![0], 12.08, "ε of Si", 0.01);
  near(scene.materials[0]!.eps![0], 2.085, "ε of SiO2", 0.01);

  // The solver's TFSF plane: two cells inside the upstream (+z) face of the region of interest.
  assert.equal(scene.sources.length, 1);
  const source = scene.sources[0]!;
  assert.equal(source.type, "plane_wave");
  assert.equal(source.shape, "plane");
  assert.deepEqual(source.direction, [0, 0, -1]);
  near(source.min[2], 1.5e-6 - 2 * 25e-9, "TFSF plane", 1e-15);
  assert.equal(source.max[2], source.min[2]);
  assert.deepEqual([source.min[0], source.max[0]], [-1.8e-6, 1.8e-6]);

  assert.deepEqual(scene.monitors, [
    {
      name: "xz",
      type: "field",
      shape: "plane",
      min: [-1.4e-6, 0, -1.4e-6],
      max: [1.4e-6, 0, 1.4e-6],
    },
  ]);
  assert.deepEqual([scene.ports, scene.meshOverrides, scene.symmetry], [[], [], []]);
  assertPlainJson(scene, 2000);
});

test("the dipole over gold: a metal's colour and ε, the dipole's point and axis, monitor shapes", () => {
  const scene = setupScene(example("dipole-above-gold-film"));
  const [gold] = scene.materials;
  assert.equal(gold?.kind, "metal");
  assert.ok(gold!.eps![0] < -10 && gold!.eps![1] > 0, `ε of Au at 800 nm: ${gold!.eps}`);
  assert.deepEqual(scene.sources, [
    {
      type: "point_dipole",
      name: "dipole Ex",
      shape: "point",
      min: [1.25e-8, 0, -1e-7],
      max: [1.25e-8, 0, -1e-7],
      polarization: "Ex",
      axis: [1, 0, 0],
    },
  ]);
  assert.deepEqual(
    scene.monitors.map((m) => [m.name, m.type, m.shape]),
    [
      ["purcell", "flux", "box"],
      ["up", "flux", "plane"],
      ["pattern", "far_field", "plane"],
    ],
  );
  assertPlainJson(scene, 2000);
});

test("the Si wire's S-parameters: ports and their ways in, the launched port's plane, mirrors", () => {
  const scene = setupScene(example("si-wire-sparameters"));
  assert.deepEqual(
    scene.ports.map((p) => [p.name, p.direction, p.min[2], p.max[2], p.modes]),
    [
      ["o1", [0, 0, 1], -5e-7, -5e-7, 1],
      ["o2", [0, 0, -1], 5e-7, 5e-7, 1],
    ],
  );
  // The ports' planes are 4 µm wide in the request: cut to the grid.
  assert.deepEqual(scene.ports[0]!.min.slice(0, 2), scene.domain.gridMin.slice(0, 2));
  // Only o1 is run: its source plane sits a little into the device from the port, along +z.
  assert.deepEqual(
    scene.sources.map((s) => [s.type, s.name, s.direction]),
    [["port", "port o1 source", [0, 0, 1]]],
  );
  const z = scene.sources[0]!.min[2];
  assert.ok(z > -5e-7 && z < 0, `o1's source plane at z = ${z}`);
  assert.deepEqual(scene.symmetry, [
    { axis: "x", kind: "pec" },
    { axis: "y", kind: "pmc" },
  ]);
  // The whole-domain grid, both halves of the mirrored axes.
  assert.deepEqual(scene.domain.gridMin, [-1.2e-6, -1e-6, -1.2e-6]);
});

test("the taper: a polyslab of request-defined materials, cut to a 25 nm periodic slice", () => {
  const scene = setupScene(example("taper-sparameters"));
  const slab = scene.structures[1]!;
  assert.equal(slab.shape, "polyslab");
  if (slab.shape !== "polyslab") return;
  // z_min −1 m, z_max 1 m in the request: the grid's slice.
  assert.deepEqual([slab.min, slab.max], [-1.25e-8, 1.25e-8]);
  // Its ends at x = ±5 µm run through the absorber: cut at the grid's faces, x = ±2.9 µm.
  const key = (p: readonly number[]) => p.map((v) => v.toExponential(4)).join();
  assert.deepEqual(
    new Set(slab.bottom[0]!.map(key)),
    new Set(
      [
        [-2.9e-6, -2.5e-7],
        [-1e-6, -2.5e-7],
        [1e-6, -7.5e-7],
        [2.9e-6, -7.5e-7],
        [2.9e-6, 7.5e-7],
        [1e-6, 7.5e-7],
        [-1e-6, 2.5e-7],
        [-2.9e-6, 2.5e-7],
      ].map(key),
    ),
  );
  assert.equal(slab.bottom[0]!.length, 8);
  assert.deepEqual(slab.top, slab.bottom);
  const [clad, core] = scene.materials;
  assert.deepEqual(
    [clad?.name, clad?.eps, core?.name, core?.eps],
    ["clad", [2.1025, 0], "core", [4, 0]],
  );
  // A request's own dielectric: a blue, deeper for the higher ε.
  const lightness = (hex: string) =>
    [1, 3, 5].reduce((sum, k) => sum + parseInt(hex.slice(k, k + 2), 16), 0);
  assert.ok(lightness(core!.color) < lightness(clad!.color), `${core!.color} ${clad!.color}`);
});

/** A small request with every kind of structure and a mode source. */
function mixedRequest(): unknown {
  return {
    solver: "fdtd",
    domain: {
      size: [2e-6, 1.6e-6, 1.2e-6],
      resolution: 40e-9,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
      mesh_overrides: [{ center: [0, 0, 0], size: [0.4e-6, 0.4e-6, 0.2e-6], resolution: 20e-9 }],
    },
    source: {
      source_type: "mode",
      wavelength: 1.55e-6,
      center: [-0.63e-6, 0, 0],
      size: [0, 1.2e-6, 1e-6],
      direction: "+x",
    },
    structures: [
      { type: "sphere", center: [0.6e-6, 0, 0.1e-6], radius: 0.2e-6, material: "PEC" },
      {
        type: "cylinder",
        center: [0, 0.3e-6, 0],
        radius: 0.1e-6,
        height: 10,
        axis: "z",
        material: "silicon",
      },
      {
        type: "polyslab",
        vertices: [
          [-1.5e-6, -0.3e-6],
          [0.3e-6, -0.3e-6],
          [0.3e-6, 0.3e-6],
          [-1.5e-6, 0.3e-6],
        ],
        z_min: -1.2e-6,
        z_max: 0.1e-6,
        sidewall_angle_deg: 10,
        material: "Si3N4",
      },
      { type: "box", center: [0, 0, 0], size: [0.1e-6, 0.1e-6, 0.1e-6], material: "vacuum" },
    ],
    monitors: [
      {
        name: "line",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [1e-6, 0, 0],
        components: ["Ey"],
      },
      {
        name: "dot",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0, 0, 0],
        components: ["Ey"],
      },
    ],
    fdtd_settings: { time_steps: 100 },
  };
}

test("every kind of structure: a sphere whole, a cylinder and a sloped polyslab cut to the grid", () => {
  const spec = checked(mixedRequest());
  const scene = setupScene(spec);
  const byIndex = new Map<number, SceneStructure>(scene.structures.map((s) => [s.index, s]));
  assert.deepEqual([...byIndex.keys()], [0, 1, 2, 3]);
  assert.deepEqual(byIndex.get(0), {
    index: 0,
    material: "PEC",
    color: byIndex.get(0)!.color,
    shape: "sphere",
    center: [6e-7, 0, 1e-7],
    radius: 2e-7,
  });
  const cylinder = byIndex.get(1)!;
  assert.equal(cylinder.shape, "cylinder");
  if (cylinder.shape === "cylinder") {
    // 10 m tall in the request: the grid's height (graded about the mesh override).
    const { gridMin, gridMax } = scene.domain;
    near(cylinder.height, gridMax[2] - gridMin[2], "cylinder's height", 1e-15);
    assert.deepEqual(
      [cylinder.axis, cylinder.radius, cylinder.center.slice(0, 2)],
      ["z", 1e-7, [0, 3e-7]],
    );
    near(cylinder.center[2], (gridMin[2] + gridMax[2]) / 2, "cylinder's centre", 1e-15);
  }
  const slab = byIndex.get(2)!;
  assert.equal(slab.shape, "polyslab");
  if (slab.shape === "polyslab") {
    assert.equal(slab.min, scene.domain.gridMin[2], "polyslab cut at the grid's bottom");
    assert.equal(slab.max, 1e-7);
    // The sloped wall's outline where the grid cuts it is the solver's outline at that height.
    const spec2 = spec.structures[2] as PolySlabSpec;
    for (const [ring, z] of [
      [slab.bottom[0]!, slab.min],
      [slab.top[0]!, slab.max],
    ] as const) {
      const solver = polySlabOutlineAt(spec2, z);
      const key = (p: readonly number[]) => p.map((v) => v.toExponential(6)).join();
      assert.deepEqual(new Set(ring.map(key)), new Set(solver.map(key)), `outline at z = ${z}`);
    }
  }
  const colors = scene.materials.map((m) => [m.name, m.kind, m.color, m.eps]);
  assert.deepEqual(
    colors.map((c) => c.slice(0, 2)),
    [
      ["vacuum", "dielectric"],
      ["PEC", "pec"],
      ["silicon", "dielectric"],
      ["Si3N4", "dielectric"],
    ],
  );
  assert.equal(new Set(colors.map((c) => c[2])).size, 4, "each its own colour");
  assert.equal(scene.materials[1]!.eps, null, "PEC has no ε");
  // An alias takes its material's colour.
  const si = setupScene(example("si-strip-waveguide")).materials.find((m) => m.name === "Si");
  assert.equal(scene.materials[2]!.color, si!.color);

  assert.deepEqual(
    scene.sources.map((s) => [s.type, s.shape, s.direction, s.min[0] === s.max[0]]),
    [["mode", "plane", [1, 0, 0], true]],
  );
  assert.deepEqual(
    scene.monitors.map((m) => [m.name, m.shape]),
    [
      ["line", "line"],
      ["dot", "point"],
    ],
  );
  assert.deepEqual(scene.meshOverrides, [
    {
      name: "mesh_overrides[0]",
      min: [-2e-7, -2e-7, -1e-7],
      max: [2e-7, 2e-7, 1e-7],
      resolution: 2e-8,
    },
  ]);
  assertPlainJson(scene, 4000);
});
