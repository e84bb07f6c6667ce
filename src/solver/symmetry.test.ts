/**
 * Mirror symmetry (domain.symmetry): the solver steps the half at ≥ 0 of each symmetric axis
 * with a pec or pmc wall on the plane, and returns the whole domain's results. On a uniform grid
 * with a node on each mirror plane the half's cells are exactly the whole grid's, so a run with
 * symmetry must give the whole run's monitors: field phasors unfolded with each component's
 * parity, flux and cross-sections of the whole surface. A wrong wall (pec for pmc), a missing
 * ghost, a face left on the wall, a sign of the unfolding or the images' factor each give
 * differences of order 1.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkSimulationWith } from "./check.js";
import { estimateRun } from "./estimate.js";
import { runWithMaterials } from "./run.js";
import { mirrorSign } from "./grid.js";
import {
  AGREEMENT_MATERIALS as materials,
  AGREEMENT_STEP as step,
  agreementSpec,
  maxAbs,
  worstMonitorDifference,
} from "./testing/agreement.js";
import type {
  PlaneWaveSpec,
  SimulationSpec,
  SolverResult,
  StructureSpec,
  Symmetry,
  Vec3,
} from "./types.js";

/**
 * A dispersive sphere and a lossy slab (testing/agreement.ts) under a plane wave along +z, te
 * (E ∥ y: odd about y = 0, even about x = 0), with a field plane behind them, a 3-D field box
 * through the sphere, a flux box around it and a flux plane behind it.
 */
function sphereSpec(symmetry?: [Symmetry, Symmetry, Symmetry]): SimulationSpec {
  const spec = agreementSpec(
    {
      name: "sphere",
      boundaries: ["pml", "pml", "pml"],
      direction: [0, 0, 1],
      polarization: "te",
      cells: [10, 10, 20],
    },
    500,
    { transmitted: 6, reflected: 7 },
  );
  spec.monitors.push(
    {
      name: "through",
      monitor_type: "field",
      center: [0, 0, 0],
      size: [6 * step, 4 * step, 2 * step],
      components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"],
      wavelengths: [0.9e-6, 1.1e-6],
    },
    {
      name: "box",
      monitor_type: "flux",
      center: [0, 0, 0],
      size: [8 * step, 8 * step, 8 * step],
      wavelengths: { start: 0.9e-6, stop: 1.2e-6, points: 4 },
    },
    {
      name: "behind",
      monitor_type: "flux",
      center: [0, 0, 7 * step],
      size: [10 * step, 10 * step, 0],
      wavelengths: { start: 0.9e-6, stop: 1.2e-6, points: 4 },
    },
  );
  if (symmetry) spec.domain.symmetry = symmetry;
  return spec;
}

const relative = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  const scale = maxAbs(a);
  return scale > 0 ? worst / scale : worst;
};

/**
 * Asserts that a run on part of the grid gave the whole run's monitors: the same sample
 * coordinates and shapes, field phasors within `tolerance` of each component's peak (of the
 * monitor's, `perMonitor`, where some components stay zero), flux and cross-sections within
 * `tolerance`.
 */
function assertSameMonitors(
  whole: SolverResult,
  part: SolverResult,
  tolerance: number,
  t: { diagnostic(message: string): void },
  scaleBy: "perComponent" | "perMonitor" = "perComponent",
): void {
  for (const [i, m] of whole.monitors.entries()) {
    const q = part.monitors[i];
    assert.deepEqual(q.shape, m.shape, m.name);
    for (const axis of ["x", "y", "z"] as const) {
      assert.ok(relative(m[axis], q[axis]) < 1e-12, `${m.name}: ${axis} coordinates`);
    }
  }
  const worst = worstMonitorDifference(whole.monitors, part.monitors, scaleBy);
  t.diagnostic(`field phasors: largest difference ${worst.toExponential(2)} (${scaleBy})`);
  assert.ok(worst < tolerance, `${worst}`);
  for (const [i, f] of whole.fluxMonitors.entries()) {
    const q = part.fluxMonitors[i];
    assert.ok(Math.abs(q.areaM2 / f.areaM2 - 1) < 1e-12, `${f.name}: area`);
    const d = relative(f.flux, q.flux);
    t.diagnostic(
      `${f.name}: ${Array.from(f.flux, (v) => v.toPrecision(5)).join(", ")}; difference ${d.toExponential(2)}`,
    );
    assert.ok(d < tolerance, `${f.name}: flux ${d}`);
    if (f.crossSections) {
      assert.ok(Math.max(...f.crossSections.scattering) > 0);
      for (const k of ["scattering", "extinction"] as const) {
        const dk = relative(f.crossSections[k], q.crossSections![k]);
        assert.ok(dk < tolerance, `${f.name}: ${k} ${dk}`);
      }
      // Absorption on the scale of the extinction (the sphere absorbs little).
      const da = relative(
        f.crossSections.extinction,
        f.crossSections.absorption.map(
          (v, w) => v - q.crossSections!.absorption[w] + f.crossSections!.extinction[w],
        ),
      );
      assert.ok(da < tolerance, `${f.name}: absorption ${da}`);
    }
  }
}

describe("mirror symmetry", () => {
  it("a quarter of the grid with pmc x and pec y walls gives the whole run's monitors", async (t) => {
    const whole = await runWithMaterials(sphereSpec(), materials, { backend: "reference" });
    const quarter = await runWithMaterials(sphereSpec(["pmc", "pec", "none"]), materials, {
      backend: "reference",
    });
    assert.deepEqual(whole.report.grid, [22, 22, 32]);
    assert.deepEqual(quarter.report.grid, [11, 11, 32], "the half at ≥ 0 of x and y, pml above");
    assertSameMonitors(whole, quarter, 1e-5, t);
  });

  it("oblique incidence (complex Bloch fields along y) with a pec mirror on x", async (t) => {
    // te with direction (0, 0.3, 1): E ∥ x, odd about x = 0.
    const spec = (symmetry?: [Symmetry, Symmetry, Symmetry]) => {
      const s = sphereSpec(symmetry);
      s.domain.boundary_conditions = ["pml", "periodic", "pml"];
      (s.source as PlaneWaveSpec).direction = [0, 0.3, 1];
      return s;
    };
    const whole = await runWithMaterials(spec(), materials, { backend: "reference" });
    const half = await runWithMaterials(spec(["pec", "none", "none"]), materials, {
      backend: "reference",
    });
    assert.deepEqual(half.report.grid, [11, 10, 32]);
    assertSameMonitors(whole, half, 1e-5, t);
  });

  it("a 2-D run (one periodic cell along y, the wasm backend's thin kernel) with a pmc mirror on x", async (t) => {
    const spec = (symmetry?: [Symmetry, Symmetry, Symmetry]) => {
      const s = sphereSpec(symmetry);
      s.domain.boundary_conditions = ["pml", "periodic", "pml"];
      s.domain.size[1] = step;
      return s;
    };
    const whole = await runWithMaterials(spec(), materials, { backend: "wasm" });
    const half = await runWithMaterials(spec(["pmc", "none", "none"]), materials, {
      backend: "wasm",
    });
    assert.deepEqual(half.report.grid, [11, 1, 32]);
    // The 2-D run keeps Ex, Ez and Hy at zero (E ∥ y: the TE set alone).
    assertSameMonitors(whole, half, 1e-5, t, "perMonitor");
  });

  it("the wrong parity gives a different answer (the walls are not a no-op)", async () => {
    // The same run with the walls swapped: pec across E shorts the wave out near the plane.
    const spec = sphereSpec(["pmc", "pec", "none"]);
    const right = await runWithMaterials(spec, materials, { backend: "reference" });
    // Bypass the check that refuses the swap, to see what it would have computed.
    const swapped = { ...spec, domain: { ...spec.domain, symmetry: ["pec", "pmc", "none"] } };
    assert.ok(checkSimulationWith(swapped as SimulationSpec, materials).length > 0);
    const wrong = await runWithMaterials(swapped as SimulationSpec, materials, {
      backend: "reference",
    });
    const behind = (r: typeof right) => r.fluxMonitors.find((f) => f.name === "behind")!.flux;
    assert.ok(relative(behind(right), behind(wrong)) > 0.1);
  });

  it("mirror parities: pec flips tangential E and normal H, pmc the others", () => {
    // Components Ex … Hz about the plane x = 0.
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((c) => mirrorSign("pec", c, 0)),
      [1, -1, -1, -1, 1, 1],
    );
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((c) => mirrorSign("pmc", c, 0)),
      [-1, 1, 1, 1, -1, -1],
    );
  });

  it("the estimate counts the stepped cells and the whole result", () => {
    const whole = estimateRun(sphereSpec());
    const quarter = estimateRun(sphereSpec(["pmc", "pec", "none"]));
    assert.equal(quarter.totalCells * 4, whole.totalCells);
    // The same monitors' values; a mirrored axis's permittivity plane shows one node fewer
    // (the wall's node once), as the files do.
    assert.ok(
      Math.abs(quarter.resultBytes - whole.resultBytes) < 0.02 * whole.resultBytes,
      `${quarter.resultBytes} against ${whole.resultBytes}`,
    );
    assert.ok(
      quarter.backendBytes < 0.5 * whole.backendBytes,
      `${quarter.backendBytes} of ${whole.backendBytes}`,
    );
    assert.ok(quarter.memoryBytes < whole.memoryBytes);
  });

  it("refuses what is not symmetric, naming the field and what to change", () => {
    // What the edit adds to the problems of the test case (its plane monitor reaches beyond
    // the domain, its grid is coarse for the glass at 0.9 µm: neither is about symmetry).
    const baseline = checkSimulationWith(sphereSpec(["pmc", "pec", "none"]), materials);
    assert.equal(baseline.length, 3);
    const problems = (edit: (s: SimulationSpec) => void) => {
      const spec = sphereSpec(["pmc", "pec", "none"]);
      edit(spec);
      return checkSimulationWith(spec, materials).filter(
        (p) => !baseline.some((b) => b.path === p.path && b.message === p.message),
      );
    };
    assert.deepEqual(
      problems(() => {}),
      [],
    );
    // The source: its parity, its direction, the propagation axis.
    let p = problems((s) => (s.domain.symmetry = ["pec", "pec", "none"]));
    assert.equal(p[0].path, "domain.symmetry[0]");
    assert.match(p[0].message, /E = \(0, 1, 0\) is across x.*the symmetry is pmc, not pec/);
    p = problems((s) => (s.domain.symmetry = ["pmc", "pec", "pmc"]));
    assert.equal(p[0].path, "domain.symmetry[2]");
    assert.match(p[0].message, /has a z component: it is not its own mirror image/);
    // A periodic symmetric axis.
    p = problems((s) => (s.domain.boundary_conditions = ["periodic", "pml", "pml"]));
    assert.ok(
      p.some((q) => q.path === "domain.symmetry[0]" && /cannot be periodic/.test(q.message)),
    );
    // A structure without its image, then with it.
    const off: StructureSpec = {
      type: "sphere",
      center: [2 * step, 0, 0],
      radius: step,
      material: "glass",
    };
    p = problems((s) => s.structures.push(off));
    assert.equal(p[0].path, "structures[2]");
    assert.match(p[0].message, /needs its mirror image about x = 0/);
    assert.deepEqual(
      problems((s) => s.structures.push(off, { ...off, center: [-2 * step, 0, 0] as Vec3 })),
      [],
    );
    // A polyslab symmetric about x = 0 on its own (any vertex order); a tapered one about z.
    const slab: StructureSpec = {
      type: "polyslab",
      vertices: [
        [-step, -2 * step],
        [step, -2 * step],
        [step, 2 * step],
        [-step, 2 * step],
      ],
      z_min: -step,
      z_max: step,
      sidewall_angle_deg: 0,
      material: "glass",
    };
    assert.deepEqual(
      problems((s) => s.structures.push(slab)),
      [],
    );
    p = problems((s) => {
      s.domain.symmetry = ["none", "none", "none"];
      (s.source as PlaneWaveSpec).direction = [1, 0, 0];
      s.domain.symmetry = ["none", "none", "pec"];
      s.structures = [{ ...slab, sidewall_angle_deg: 5 }];
      s.monitors = [];
    });
    assert.ok(
      p.some((q) => q.path === "structures[0]" && /sidewall angle/.test(q.message)),
      JSON.stringify(p),
    );
    // A monitor off the plane reaching into the half not stepped; one wholly at x ≥ 0 is fine.
    p = problems((s) => (s.monitors[0].center = [step, 0, 6 * step]));
    assert.equal(p[0].path, "monitors[0].center");
    assert.match(p[0].message, /centred on x = 0 \(its own mirror image\) or lie at x ≥ 0/);
    assert.deepEqual(
      problems((s) => {
        s.monitors[0].center = [3 * step, 0, 6 * step];
        s.monitors[0].size = [2 * step, 1, 0];
      }),
      [],
    );
  });

  it("refuses a grid with no node on the mirror plane, where the half would be another grid", () => {
    const baseline = checkSimulationWith(sphereSpec(["pmc", "pec", "none"]), materials);
    const nodeless = (edit: (s: SimulationSpec) => void) => {
      const spec = sphereSpec(["pmc", "pec", "none"]);
      edit(spec);
      return checkSimulationWith(spec, materials)
        .filter((p) => !baseline.some((b) => b.path === p.path && b.message === p.message))
        .find((q) => q.path === "domain.symmetry[0]")?.message;
    };
    // An odd number of cells across x, or a mesh override with an odd number of its cells
    // across x = 0 (a sphere's dipole power 8 % and 1.2 % apart in an outside probe).
    assert.match(
      String(
        nodeless(
          (s) => (s.domain.size = [s.domain.size[0] + step, ...s.domain.size.slice(1)] as Vec3),
        ),
      ),
      /the whole grid has no node there .* even number of cells/,
    );
    const override = { center: [0, 0, 0] as Vec3, size: [3 * step, 10 * step, 10 * step] as Vec3 };
    assert.match(
      String(nodeless((s) => (s.domain.mesh_overrides = [{ ...override, resolution: step / 3 }]))),
      /the mesh overrides leave none there/,
    );
    assert.equal(
      nodeless(() => {}),
      undefined,
    );
  });
});
