/**
 * Modes of a request's plane, painted as the FDTD paints it (plane-medium.ts), against the
 * analytic slab waveguide: the same slab seen from planes of either normal, a slab whose faces
 * fall between nodes (the painter's sub-cell averaging), a plane whose window reaches the
 * domain's absorber, and the axes Tidy3D names.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { withUserMaterials } from "../dispersion/user.js";
import { libraryMaterials } from "../entry-points.js";
import type { DomainSpec, StructureSpec, Vec3 } from "../types.js";
import { modePlane, planeNormal, transverseAxes } from "./plane-medium.js";
import { slabModeIndex } from "./slab-dispersion.js";
import { solveModes } from "./solve.js";

const LAMBDA = 1.55e-6;
const materials = withUserMaterials(libraryMaterials, {
  core: { permittivity: 12 },
  clad: { permittivity: 2.25 },
});

/** A slab of `core` (thickness t along z) in `clad`, invariant along x and y (2 cells each). */
function slabRequest(thicknessM: number, boundaryZ: "pec" | "pml" = "pec") {
  const domain: DomainSpec = {
    size: [20e-9, 20e-9, 2e-6],
    resolution: 10e-9,
    boundary_conditions: ["periodic", "periodic", boundaryZ],
    pml_layers: 12,
  } as DomainSpec;
  const structures: StructureSpec[] = [
    { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
    { type: "box", center: [0, 0, 0], size: [10, 10, thicknessM], material: "core" },
  ] as StructureSpec[];
  return { domain, structures };
}

/** The fundamental mode's n_eff on a plane of the given normal through the slab. */
function fundamental(thicknessM: number, normal: 0 | 1, boundaryZ: "pec" | "pml" = "pec") {
  const request = slabRequest(thicknessM, boundaryZ);
  const size: Vec3 = [20e-9, 20e-9, 4e-6];
  size[normal] = 0;
  const plane = modePlane(
    { ...request, plane: { center: [0, 0, 0], size }, wavelengthsM: [LAMBDA] },
    materials,
  );
  const result = solveModes({
    axes: plane.axes,
    planeEps: plane.permittivityAt,
    wavelengths_m: [LAMBDA],
    mode_spec: { num_modes: 2 },
    leftHanded: plane.leftHanded,
  });
  return { plane, mode: result.modes[0]![0]! };
}

test("a plane's normal and its transverse axes are Tidy3D's", () => {
  assert.equal(planeNormal([1, 0, 1]), 1);
  assert.equal(planeNormal([0, 0, 1]), -1);
  assert.deepEqual([0, 1, 2].map(transverseAxes), [
    [1, 2],
    [0, 2],
    [0, 1],
  ]);
});

test("the slab's TE0 on x- and y-normal planes of the painted grid: the analytic n_eff within 5e-4 at 10 nm", () => {
  const exact = slabModeIndex("te", 0, Math.sqrt(12), 1.5, 0.3e-6, LAMBDA)!;
  for (const normal of [0, 1] as const) {
    const { plane, mode } = fundamental(0.3e-6, normal);
    assert.equal(plane.axes[0].boundary, "periodic");
    assert.equal(plane.axes[1].boundary, "pec");
    assert.equal(plane.leftHanded, normal === 1);
    // E lies along the slab: along u (y for an x-normal plane, x for a y-normal one).
    assert.ok(mode.te_fraction > 0.999, `te fraction ${mode.te_fraction}`);
    // The solver's own test shows 4.6e-4 at 10 nm for this slab on an aligned grid.
    assert.ok(Math.abs(mode.n_eff - exact) < 5e-4, `${mode.n_eff} vs ${exact}`);
    assert.ok(Math.abs(mode.k_eff) < 1e-9);
  }
});

test("faces between nodes are averaged as the FDTD averages them: n_eff follows the thickness", () => {
  // 0.305 µm: both faces half a cell off the nodes. A staircase would give the 0.30 or the
  // 0.31 µm slab's n_eff (they differ by 3.6e-3); the averaged slab is within 5e-4 of its own
  // (measured 1.6e-4, the aligned 0.30 µm slab 3.9e-4).
  const exact = slabModeIndex("te", 0, Math.sqrt(12), 1.5, 0.305e-6, LAMBDA)!;
  const thin = slabModeIndex("te", 0, Math.sqrt(12), 1.5, 0.3e-6, LAMBDA)!;
  const thick = slabModeIndex("te", 0, Math.sqrt(12), 1.5, 0.31e-6, LAMBDA)!;
  assert.ok(thick - thin > 3e-3);
  const { mode } = fundamental(0.305e-6, 0);
  assert.ok(Math.abs(mode.n_eff - exact) < 5e-4, `${mode.n_eff} vs ${exact}`);
});

test("a plane reaching the domain's absorber has absorber cells on its edges, and the guided mode stays lossless", () => {
  const { plane, mode } = fundamental(0.3e-6, 0, "pml");
  assert.equal(plane.axes[1].boundary, "pml");
  assert.equal(plane.axes[1].pmlLo, 12);
  assert.equal(plane.axes[1].pmlHi, 12);
  const exact = slabModeIndex("te", 0, Math.sqrt(12), 1.5, 0.3e-6, LAMBDA)!;
  assert.ok(Math.abs(mode.n_eff - exact) < 5e-4, `${mode.n_eff} vs ${exact}`);
  assert.ok(Math.abs(mode.k_eff) < 1e-7, `k_eff ${mode.k_eff}`);
});

test("a plane that is not one, or on the domain's face, is refused", () => {
  const request = slabRequest(0.3e-6);
  assert.throws(
    () =>
      modePlane(
        { ...request, plane: { center: [0, 0, 0], size: [0, 0, 1e-6] }, wavelengthsM: [LAMBDA] },
        materials,
      ),
    /exactly one axis/,
  );
  assert.throws(
    () =>
      modePlane(
        { ...request, plane: { center: [0, 0, 1e-6], size: [1, 1, 0] }, wavelengthsM: [LAMBDA] },
        materials,
      ),
    /inside the domain/,
  );
});

test("a cross-section one periodic cell thick is its own mode plane (a 2-D request's natural use)", () => {
  const request = slabRequest(0.3e-6);
  const thin = { ...request.domain, size: [20e-9, 10e-9, 2e-6] as Vec3 };
  const plane = modePlane(
    {
      domain: thin,
      structures: request.structures,
      plane: { center: [0, 0, 0], size: [20e-9, 0, 4e-6] },
      wavelengthsM: [LAMBDA],
    },
    materials,
  );
  const mode = solveModes({
    axes: plane.axes,
    planeEps: plane.permittivityAt,
    wavelengths_m: [LAMBDA],
    mode_spec: { num_modes: 1 },
    leftHanded: plane.leftHanded,
  }).modes[0]![0]!;
  const { mode: reference } = fundamental(0.3e-6, 1);
  assert.ok(Math.abs(mode.n_eff - reference.n_eff) < 1e-9, `${mode.n_eff} vs ${reference.n_eff}`);
});
