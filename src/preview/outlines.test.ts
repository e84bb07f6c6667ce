/**
 * The outlines a preview plane carries (outlines.ts, through response.ts): a box's rectangle,
 * a sphere's circle of the radius its cut leaves, a polyslab's trapezoid with its sloped walls
 * (vertical cut) and its outline shrunk by the wall at the cut's height (horizontal cut); a
 * mode source's plane where the solver puts it, with its direction; a port with its own; a
 * monitor; the absorber's slabs; the mirror planes; and nothing the plane misses.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SimulationRequest } from "../schema/simulation.js";
import type { PreviewObject } from "../schema/preview.js";
import { applyDefaults } from "../schema/validate.js";
import { setupPreview } from "./response.js";

const TAN10 = Math.tan((10 * Math.PI) / 180);

function request(): SimulationRequest {
  return {
    solver: "fdtd",
    domain: {
      size: [2e-6, 1.6e-6, 1.2e-6],
      resolution: 40e-9,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
      symmetry: ["none", "pmc", "none"],
    },
    source: {
      source_type: "mode",
      wavelength: 1.55e-6,
      center: [-0.63e-6, 0, 0],
      size: [0, 1.2e-6, 1e-6],
      direction: "+x",
    },
    structures: [
      { type: "box", center: [0, 0, -0.4e-6], size: [5e-6, 5e-6, 0.4e-6], material: "SiO2" },
      { type: "sphere", center: [0.6e-6, 0, 0.1e-6], radius: 0.2e-6, material: "SiO2" },
      {
        type: "polyslab",
        vertices: [
          [-1.5e-6, -0.3e-6],
          [0.3e-6, -0.3e-6],
          [0.3e-6, 0.3e-6],
          [-1.5e-6, 0.3e-6],
        ],
        z_min: -0.2e-6,
        z_max: 0.1e-6,
        sidewall_angle_deg: 10,
        material: "SiO2",
      },
    ],
    monitors: [
      { name: "out", monitor_type: "flux", center: [0.8e-6, 0, 0], size: [0, 1.2e-6, 1e-6] },
    ],
    fdtd_settings: { time_steps: 100 },
  } as SimulationRequest;
}

const near = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} against ${b}`);

function ringBounds(o: PreviewObject) {
  const points = o.outline.flat();
  const us = points.map((p) => p[0]);
  const vs = points.map((p) => p[1]);
  return [Math.min(...us), Math.max(...us), Math.min(...vs), Math.max(...vs)];
}

test("a vertical cut: the box's rectangle, the sphere's circle, the polyslab's trapezoid", () => {
  const spec = applyDefaults(request());
  // y = 0 (a node: the mirror plane), axes (x, z).
  const [plane] = setupPreview(spec, { planes: [{ normal: "y", position: 0 }] }).planes;
  const byName = new Map(plane!.objects.map((o) => [o.name, o]));
  assert.deepEqual(byName.get("structures[0]")!.outline, [
    [
      [-2.5e-6, -0.6e-6],
      [2.5e-6, -0.6e-6],
      [2.5e-6, -0.2e-6],
      [-2.5e-6, -0.2e-6],
    ],
  ]);
  const sphere = byName.get("structures[1]")!;
  assert.equal(sphere.outline[0]!.length, 64, "a circle as 64 points");
  for (const [x, z] of sphere.outline[0]!) near(Math.hypot(x - 0.6e-6, z - 0.1e-6), 0.2e-6, "r");
  // The polyslab from x = −1.5 to 0.3 µm at its base, its walls leaning in by 10°.
  const slab = byName.get("structures[2]")!;
  const [x0, x1, z0, z1] = ringBounds(slab);
  near(x0, -1.5e-6, "base left");
  near(x1, 0.3e-6, "base right");
  near(z0, -0.2e-6, "z_min");
  near(z1, 0.1e-6, "z_max");
  const top = slab.outline[0]!.filter(([, z]) => Math.abs(z - 0.1e-6) < 1e-15).map(([x]) => x);
  near(Math.max(...top), 0.3e-6 - 0.3e-6 * TAN10, "top right, moved in by h·tan 10°");
  assert.equal(slab.material, "SiO2");
});

test("a horizontal cut through the sloped wall: the outline shrunk at that height", () => {
  const spec = applyDefaults(request());
  const [plane] = setupPreview(spec, { planes: [{ normal: "z", position: 0 }] }).planes;
  const slab = plane!.objects.find((o) => o.name === "structures[2]")!;
  const [x0, x1, y0, y1] = ringBounds(slab);
  const inset = 0.2e-6 * TAN10; // 0.2 µm above z_min
  near(x0, -1.5e-6 + inset, "left");
  near(x1, 0.3e-6 - inset, "right");
  near(y0, -0.3e-6 + inset, "front");
  near(y1, 0.3e-6 - inset, "back");
  // The sphere (r = 0.2 µm, its centre 0.1 µm above the plane): a circle of √(r² − d²).
  const sphere = plane!.objects.find((o) => o.name === "structures[1]")!;
  for (const [x, y] of sphere.outline[0]!)
    near(Math.hypot(x - 0.6e-6, y), Math.sqrt(0.03) * 1e-6, "r");
  assert.equal(
    plane!.objects.some((o) => o.name === "structures[0]"),
    false,
    "the substrate lies below the plane",
  );
});

test("sources where the solver puts them, monitors, the absorber, the mirror", () => {
  const spec = applyDefaults(request());
  const [plane] = setupPreview(spec, { planes: [{ normal: "z", position: 0 }] }).planes;
  const kinds = plane!.objects.map((o) => `${o.kind}: ${o.name}`);
  assert.deepEqual(kinds.slice(0, 4), ["pml: pml -x", "pml: pml +x", "pml: pml -y", "pml: pml +y"]);
  const mode = plane!.objects.find((o) => o.kind === "source")!;
  assert.equal(mode.name, "mode plane");
  assert.deepEqual(mode.direction, [1, 0, 0]);
  // The mode plane at x = −0.63 µm sits on the node nearest it: −0.64 µm (nodes every 40 nm
  // from −1 µm).
  const [x0, x1, y0, y1] = ringBounds(mode);
  near(x0, -0.64e-6, "node plane");
  near(x1, -0.64e-6, "a segment");
  near(y1 - y0, 1.2e-6, "its width");
  const monitor = plane!.objects.find((o) => o.kind === "monitor")!;
  assert.equal(monitor.name, "out");
  const mirror = plane!.objects.find((o) => o.kind === "symmetry")!;
  assert.equal(mirror.name, "y = 0 (pmc)");
  const [, , my0, my1] = ringBounds(mirror);
  assert.equal(my0, 0);
  assert.equal(my1, 0);
  // The absorber's inner faces are the region of interest's: ±1 µm along x.
  const [, px1] = ringBounds(plane!.objects.find((o) => o.name === "pml -x")!);
  near(px1, -1e-6, "pml -x inner face");
});

test("ports: each plane with its way into the device, and each launched port's source plane", () => {
  const base = request();
  const spec = applyDefaults({
    ...base,
    domain: { ...base.domain, symmetry: undefined },
    source: { source_type: "ports", wavelength: 1.55e-6 },
    ports: [
      { name: "o1", center: [-0.7e-6, 0, 0], size: [0, 1e-6, 1e-6], direction: "+x" },
      { name: "o2", center: [0.7e-6, 0, 0], size: [0, 1e-6, 1e-6], direction: "-x" },
    ],
    monitors: [],
  } as SimulationRequest);
  const [plane] = setupPreview(spec, { planes: [{ normal: "z", position: 0 }] }).planes;
  const ports = plane!.objects.filter((o) => o.kind === "port");
  assert.deepEqual(
    ports.map((p) => [p.name, p.direction]),
    [
      ["o1", [1, 0, 0]],
      ["o2", [-1, 0, 0]],
    ],
  );
  const sources = plane!.objects.filter((o) => o.kind === "source").map((o) => o.name);
  assert.deepEqual(sources, ["port o1 source", "port o2 source"]);
});
