/**
 * The set-up preview (preview.ts) against the run: the permittivity it shows on a plane is the
 * one the run's own medium (FdtdSimulation's, the tables the kernels step) holds on that plane,
 * combined as Meep's get_epsilon combines the components (3 / Σ 1/ε_c, perfect conductors left
 * out), to the painter's table quantum; on both halves of a mirrored axis; sampled planes keep
 * the whole plane's values at their nodes; and the materials, injection planes and warnings.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyDefaults } from "../schema/validate.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import { withUserMaterials } from "./dispersion/user.js";
import { libraryMaterials, previewSetupOf } from "./entry-points.js";
import { previewPlaneProblems } from "./preview.js";
import { staggerOf } from "./grid.js";
import { tableAt, transverseAxes } from "./modes/plane-medium.js";
import type { PreviewPlane, SetupPreview } from "./preview.js";
import { FdtdSimulation } from "./simulation.js";
import { slabBetweenPorts } from "./testing/slab-ports.js";
import type { SimulationSpec } from "./types.js";

const LAMBDA = 1.55e-6;

/**
 * A 3-D set-up with every kind of structure: a substrate through the absorber, a gold sphere
 * (stepped with its poles: the monitor records a band), a silicon polyslab with sloped walls, a
 * cylinder of a lossy material of the request's own, a PEC patch painted over the substrate.
 */
function request(symmetry?: ["pec" | "pmc" | "none", "none", "none"]): SimulationRequest {
  return {
    solver: "fdtd",
    domain: {
      size: [1.2e-6, 1e-6, 0.9e-6],
      resolution: 40e-9,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
      ...(symmetry ? { symmetry } : {}),
    },
    source: { source_type: "plane_wave", wavelength: LAMBDA, direction: [0, 0, 1] },
    materials: { lossy: { permittivity: 3, conductivity: 2e4 } },
    structures: [
      { type: "box", center: [0, 0, -0.4e-6], size: [5e-6, 5e-6, 0.4e-6], material: "SiO2" },
      { type: "sphere", center: [0.2e-6, 0.05e-6, 0.1e-6], radius: 0.17e-6, material: "Au" },
      {
        type: "polyslab",
        vertices: [
          [-0.5e-6, -0.13e-6],
          [-0.05e-6, -0.2e-6],
          [-0.1e-6, 0.23e-6],
        ],
        z_min: -0.2e-6,
        z_max: 0.03e-6,
        sidewall_angle_deg: 12,
        material: "Si",
      },
      {
        type: "cylinder",
        center: [0.3e-6, -0.25e-6, -0.1e-6],
        radius: 0.11e-6,
        height: 0.3e-6,
        axis: "y",
        material: "lossy",
      },
      {
        type: "box",
        center: [-0.3e-6, 0.25e-6, -0.19e-6],
        size: [0.3e-6, 0.2e-6, 0.06e-6],
        material: "PEC",
      },
    ],
    monitors: [
      {
        name: "t",
        monitor_type: "flux",
        center: [0, 0, 0.3e-6],
        size: [1e-6, 1e-6, 0],
        wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 3 },
      },
    ],
    fdtd_settings: { time_steps: 100 },
  } as SimulationRequest;
}

/** The run's own medium: FdtdSimulation paints the whole grid as a run does. */
function runOf(spec: SimulationSpec): FdtdSimulation {
  return new FdtdSimulation(spec, withUserMaterials(libraryMaterials, spec.materials), {
    backend: "reference",
  });
}

/**
 * What the run's medium holds at each sample of a preview plane: node n of an axis is grid
 * index n, node −n below a mirror plane the image of n, whose component normal to the mirror
 * is that of cell n − 1.
 */
function expectedFromRun(sim: FdtdSimulation, plane: PreviewPlane): { re: number; im: number }[] {
  const { plan, layout, medium } = sim.model;
  const omega = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / LAMBDA;
  const table = tableAt(medium, omega);
  const nodeOf = (b: number, x: number) => {
    const ax = plan.axes[b];
    const mirrored = ax.mirror !== "none";
    const at = mirrored ? Math.abs(x) : x;
    const i = ax.nodesM.findIndex((n) => Math.abs(n - at) < 1e-6 * ax.minStepM);
    assert.ok(i >= 0, `${x} m is a node along ${"xyz"[b]}`);
    return x < 0 && mirrored ? -i : i;
  };
  const a = plane.normal;
  const [u, v] = plane.axes;
  const out: { re: number; im: number }[] = [];
  for (const xu of plane.coordsM[0]) {
    for (const xv of plane.coordsM[1]) {
      const node = [0, 0, 0];
      node[a] = nodeOf(a, plane.positionM);
      node[u] = nodeOf(u, xu);
      node[v] = nodeOf(v, xv);
      let sumRe = 0;
      let sumIm = 0;
      let n = 0;
      for (let c = 0; c < 3; c++) {
        const at = node.map((i, b) => (i >= 0 ? i : staggerOf(c, b) > 0 ? -i - 1 : -i));
        const e = medium.index[c]![layout.index(at[0]!, at[1]!, at[2]!)]!;
        if (medium.cb[e] === 0) continue; // a perfect conductor's component
        const mag2 = table.re[e]! ** 2 + table.im[e]! ** 2;
        sumRe += table.re[e]! / mag2;
        sumIm -= table.im[e]! / mag2;
        n++;
      }
      const mag2 = sumRe ** 2 + sumIm ** 2;
      out.push(n === 0 ? { re: 1, im: 0 } : { re: (n * sumRe) / mag2, im: (-n * sumIm) / mag2 });
    }
  }
  return out;
}

/** The largest |Δε| between a preview plane and the run's medium on it, and the samples compared. */
function worstAgainstRun(sim: FdtdSimulation, plane: PreviewPlane) {
  const expected = expectedFromRun(sim, plane);
  let worst = 0;
  expected.forEach((e, k) => {
    worst = Math.max(worst, Math.hypot(plane.epsRe[k]! - e.re, plane.epsIm[k]! - e.im));
  });
  return { worst, samples: expected.length, expected };
}

function planes(spec: SimulationSpec, positions: [number, number, number], maxSamples = 400) {
  return previewSetupOf(
    spec,
    positions.map((positionM, normal) => ({ normal, positionM, maxSamples })),
  );
}

test("the permittivity a preview shows on each plane is the one the run's medium holds there", () => {
  const spec = applyDefaults(request());
  const sim = runOf(spec);
  // Planes through the sphere, the polyslab's sloped walls, the cylinder and the PEC patch.
  const preview = planes(spec, [0.21e-6, -0.24e-6, -0.17e-6]);
  for (const plane of preview.planes) {
    const { worst, samples, expected } = worstAgainstRun(sim, plane);
    const [nu, nv] = plane.nodes;
    assert.equal(samples, nu * nv, "every node of the plane is a sample");
    // Interface cells share table entries by their state rounded to 1/8192 (medium.ts); which
    // cell of a bucket is painted first sets its exact value, so a plane painted alone may
    // differ from the whole grid by that much in ε, no more.
    assert.ok(worst < 2e-3, `normal ${"xyz"[plane.normal]}: |Δε| up to ${worst}`);
    // The plane holds interfaces, a metal (Re ε < 0), loss and the perfect conductor's cells.
    const mixed = expected.filter((e) => e.re > 1.05 && Math.abs(e.re - 2.085) > 0.01);
    assert.ok(mixed.length > 10, "averaged interface cells on the plane");
  }
  const all = preview.planes.flatMap((p) => [...p.epsRe]);
  assert.ok(Math.min(...all) < -50, "gold's Re ε at 1.55 µm");
  const imag = preview.planes.flatMap((p) => [...p.epsIm]);
  assert.ok(Math.max(...imag) > 1, "the lossy cylinder's and gold's Im ε");
});

test("a mirrored axis shows both halves, each the run's medium (the half below its image)", () => {
  const spec = applyDefaults(request(["pmc", "none", "none"]));
  const sim = runOf(spec);
  assert.equal(sim.plan.axes[0].mirror, "pmc");
  const preview = planes(spec, [-0.21e-6, 0.05e-6, 0.1e-6]);
  const [xPlane, yPlane, zPlane] = preview.planes as [PreviewPlane, PreviewPlane, PreviewPlane];
  assert.ok(xPlane.positionM < 0, "a plane below the mirror keeps its side");
  for (const plane of [xPlane, yPlane, zPlane]) {
    const { worst } = worstAgainstRun(sim, plane);
    assert.ok(worst < 2e-3, `normal ${"xyz"[plane.normal]}: |Δε| up to ${worst}`);
  }
  const xs = zPlane.coordsM[0];
  const half = sim.plan.axes[0].cells;
  assert.equal(xs.length, 2 * half - 1, "nodes −(n−1) … n−1 along the mirrored x");
  assert.ok(Math.abs(xs[0]! + xs[xs.length - 1]!) < 1e-15, "symmetric about x = 0");
  // The gold sphere at x = +0.2 µm shows at −0.2 µm too: the run steps its image there.
  const nv = zPlane.coordsM[1].length;
  const at = (x: number, y: number) => {
    const i = xs.findIndex((c) => Math.abs(c - x) < 21e-9);
    const j = [...zPlane.coordsM[1]].findIndex((c) => Math.abs(c - y) < 21e-9);
    return { re: zPlane.epsRe[i * nv + j]!, material: zPlane.material[i * nv + j]! };
  };
  assert.ok(at(0.2e-6, 0.05e-6).re < -50 && at(-0.2e-6, 0.05e-6).re < -50);
  assert.equal(preview.materials[at(-0.2e-6, 0.05e-6).material]!.name, "Au");
});

test("a sampled plane keeps the whole plane's values at its nodes, both ends included", () => {
  const spec = applyDefaults(request());
  const whole = planes(spec, [0, 0, -0.17e-6]).planes[2]!;
  const sampledPlane = planes(spec, [0, 0, -0.17e-6], 17).planes[2]!;
  const [nu, nv] = whole.nodes;
  assert.deepEqual(sampledPlane.nodes, whole.nodes);
  assert.equal(sampledPlane.coordsM[0].length, 17);
  assert.equal(sampledPlane.coordsM[1].length, 17);
  assert.equal(sampledPlane.coordsM[0][0], whole.coordsM[0][0]);
  assert.equal(sampledPlane.coordsM[0][16], whole.coordsM[0][nu - 1]);
  for (let i = 0; i < 17; i++) {
    const wi = [...whole.coordsM[0]].indexOf(sampledPlane.coordsM[0][i]!);
    for (let j = 0; j < 17; j++) {
      const wj = [...whole.coordsM[1]].indexOf(sampledPlane.coordsM[1][j]!);
      assert.ok(wi >= 0 && wj >= 0, "samples are nodes of the whole plane");
      const d = Math.abs(sampledPlane.epsRe[i * 17 + j]! - whole.epsRe[wi * nv + wj]!);
      assert.ok(d < 2e-3, `sample (${i}, ${j}) differs by ${d}`);
      assert.equal(sampledPlane.material[i * 17 + j], whole.material[wi * nv + wj]);
    }
  }
});

test("materials are marked at the sample points: metal, perfect conductor, the background", () => {
  const spec = applyDefaults(request());
  const preview: SetupPreview = planes(spec, [0, 0, -0.19e-6]);
  assert.deepEqual(
    preview.materials.map((m) => [m.name, m.kind]),
    [
      ["vacuum", "dielectric"],
      ["SiO2", "dielectric"],
      ["Au", "metal"],
      ["Si", "dielectric"],
      ["lossy", "dielectric"],
      ["PEC", "pec"],
    ],
  );
  assert.deepEqual(preview.structureMaterial, [1, 2, 3, 4, 5]);
  const z = preview.planes[2]!;
  const nv = z.coordsM[1].length;
  const materialAt = (x: number, y: number) => {
    const i = [...z.coordsM[0]].findIndex((c) => Math.abs(c - x) < 21e-9);
    const j = [...z.coordsM[1]].findIndex((c) => Math.abs(c - y) < 21e-9);
    return { name: preview.materials[z.material[i * nv + j]!]!.name, eps: z.epsRe[i * nv + j]! };
  };
  assert.equal(materialAt(-0.3e-6, 0.25e-6).name, "PEC");
  assert.equal(materialAt(-0.3e-6, 0.25e-6).eps, 1, "a perfect conductor's cell reads 1");
  assert.equal(materialAt(-0.2e-6, -0.05e-6).name, "Si");
  assert.ok(Math.abs(materialAt(-0.2e-6, -0.05e-6).eps - 3.4757 ** 2) < 0.05);
  assert.equal(materialAt(0.4e-6, 0.3e-6).name, "vacuum");
  assert.deepEqual(transverseAxes(2), z.axes);
});

test("the source's injection plane is where the run puts it", () => {
  const spec = applyDefaults(request());
  const sim = runOf(spec);
  const { injections, axes } = planes(spec, [0, 0, 0]);
  const z = sim.plan.axes[2];
  // plane-wave.ts: the TFSF plane two cells inside the upstream face of the region of interest.
  assert.deepEqual(injections, [
    { name: "TFSF plane", normal: 2, positionM: z.nodesM[z.pmlLo + 2] },
  ]);
  assert.deepEqual(axes[2].interiorM, [z.nodesM[z.pmlLo], z.nodesM[z.cells - z.pmlHi]]);
  assert.deepEqual(axes[2].gridM, [z.nodesM[0], z.nodesM[z.cells]]);
});

test("warnings: a monitor in the absorber, structures beyond the domain, a film under two cells", () => {
  const base = request();
  const spec = applyDefaults({
    ...base,
    // 1.01 µm at 50 nm rounds to 20 cells: the grid's region of interest is ±0.5 µm.
    domain: {
      ...base.domain,
      size: [1e-6, 1e-6, 1.01e-6],
      resolution: 50e-9,
      boundary_conditions: ["pec", "pml", "pml"],
    },
    structures: [
      { type: "box", center: [0.4e-6, 0, 0], size: [0.4e-6, 0.2e-6, 0.2e-6], material: "SiO2" },
      { type: "box", center: [0, 0, 0], size: [0.3e-6, 0.3e-6, 0.07e-6], material: "Au" },
      // Across the absorbing face at y = 0.5 µm (a box through it would be no news).
      { type: "sphere", center: [0, 0.45e-6, 0.2e-6], radius: 0.1e-6, material: "SiO2" },
      {
        type: "box",
        center: [0, 0.45e-6, -0.3e-6],
        size: [0.2e-6, 0.2e-6, 0.2e-6],
        material: "SiO2",
      },
    ],
    monitors: [
      { name: "edge", monitor_type: "flux", center: [0, 0, 0.503e-6], size: [0.5e-6, 0.5e-6, 0] },
    ],
  } as SimulationRequest);
  const { warnings } = planes(spec, [0, 0, 0]);
  assert.deepEqual(
    warnings.map((w) => [w.code, w.path]),
    [
      ["monitor_in_absorber", "monitors[0]"],
      ["outside_domain", "structures[0]"],
      ["outside_domain", "structures[2]"],
      ["thin_film", "structures[1]"],
    ],
  );
  assert.match(warnings[0]!.message, /region of interest .* \[-5e-7, 5e-7\] m/);
  assert.match(warnings[1]!.message, /the part beyond the pec wall is cut off/);
  assert.match(warnings[2]!.message, /its section at y = 5e-7 m extruded outwards/);
  assert.match(warnings[3]!.message, /1\.40 cells thick along z/);
});

test("a port facing out of the device is warned of; ports facing into it are not", () => {
  const materials = { clad: { permittivity: 2.1025 }, core: { permittivity: 4 } };
  const spec = { ...slabBetweenPorts(), materials } as SimulationSpec;
  assert.deepEqual(planes(spec, [0, 0, 0]).warnings, []);
  // o2 at z = +1.5 µm turned to face +z, the nearer face, with nothing but the guide between.
  const [o1, o2] = spec.ports!;
  const out = planes({ ...spec, ports: [o1!, { ...o2!, direction: "+z" }] }, [0, 0, 0]).warnings;
  assert.deepEqual(
    out.map((w) => [w.code, w.path]),
    [["port_facing_out", "ports[1]"]],
  );
  assert.match(out[0]!.message, /^port "o2" at z = 1\.5e-6 m faces \+z, towards the nearer face/);
  // A device between the port and that face (a block ending there): the port may face it.
  const block = {
    type: "box",
    center: [0, 0, 1.8e-6],
    size: [0.6e-6, 10, 0.2e-6],
    material: "core",
  };
  const faced = { ...spec, ports: [o1!, { ...o2!, direction: "+z" as const }] };
  const withBlock = { ...faced, structures: [...faced.structures, block as never] };
  assert.deepEqual(planes(withBlock, [0, 0, 0]).warnings, []);
});

test("a plane outside the grid, and planes of more samples than a preview holds, are refused", () => {
  const base = request();
  const spec = applyDefaults({
    ...base,
    domain: { ...base.domain, size: [100e-6, 100e-6, 0.9e-6] },
  } as SimulationRequest);
  // 2500 + 16 cells along x and y: one z plane of 2000 × 2000 samples is 4 million.
  const problems = previewPlaneProblems(spec, [
    { normal: 2, positionM: 0, maxSamples: 2000 },
    { normal: 0, positionM: 60e-6, maxSamples: 2000 },
  ]);
  assert.deepEqual(
    problems.map((p) => p.path),
    ["planes[1].position", "max_samples"],
  );
  assert.match(problems[0]!.message, /6e-5 m is outside the grid, which spans \[-5\.03/);
  assert.match(problems[1]!.message, /would hold 4\d{6} samples, more than 500000/);
  assert.deepEqual(previewPlaneProblems(spec, [{ normal: 2, positionM: 0, maxSamples: 400 }]), []);
});
