/**
 * Overlapping structures in one smoothing cube (cube-shares.ts, medium.ts): shared and abutting
 * faces give exact shares, whatever the painting order; and on the grid, a rib drawn as a slab
 * and a box on it, or a strip on its substrate box, has the modes of the same cross-section
 * drawn as one polygon or painted the other way round (the rule of one structure at a time
 * was 1e-2 off in n_eff, against MPB's agreement within 2e-4: an outside audit's finding).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cubeShares } from "./cube-shares.js";
import { withUserMaterials } from "./dispersion/user.js";
import { libraryMaterials, solveModesOf } from "./entry-points.js";
import { modePlane } from "./modes/plane-medium.js";
import type { PlaneModesRequest } from "./index.js";

const sharesOf = (parts: Parameters<typeof cubeShares>[0]) => cubeShares(parts).shares;
const close = (a: ArrayLike<number>, b: number[], tol = 1e-12) =>
  assert.ok(
    b.every((v, i) => Math.abs(a[i]! - v) <= tol),
    `${Array.from(a).join(", ")} ≠ ${b.join(", ")}`,
  );

describe("a cube's shares among overlapping structures", () => {
  it("counts a face two structures share once", () => {
    // A slab and a rib on it, both ending at the cube's bottom face plane, 30 % up the cube.
    close(
      sharesOf([
        { fill: 0.7, normal: [0, -1, 0] },
        { fill: 0.7, normal: [0, -1, 0] },
      ]),
      [0.3, 0, 0.7],
    );
    // A substrate below (normal up) and a strip on it (normal down): they split the cube.
    close(
      sharesOf([
        { fill: 0.3, normal: [0, 1, 0] },
        { fill: 0.7, normal: [0, -1, 0] },
      ]),
      [0, 0.3, 0.7],
    );
    close(
      sharesOf([
        { fill: 0.7, normal: [0, -1, 0] },
        { fill: 0.3, normal: [0, 1, 0] },
      ]),
      [0, 0.7, 0.3],
    );
  });

  it("cuts planes along different axes into exact boxes, later over earlier", () => {
    // x < 0.5 (first) and y < 0.25 (second): the second's quarter covers half of the first's.
    close(
      sharesOf([
        { fill: 0.5, normal: [1, 0, 0] },
        { fill: 0.25, normal: [0, 1, 0] },
      ]),
      [0.375, 0.375, 0.25],
    );
  });

  it("takes a box's corner as the box it is", () => {
    // A slab filling the cube's lower half, then a box's corner over x < 0.5, y > 0.25: the
    // corner covers 3/8 of the cube, 1/8 of it over the slab, which keeps 3/8.
    const corner = {
      fill: 0.375,
      normal: [Math.SQRT1_2, -Math.SQRT1_2, 0] as [number, number, number],
      box: [
        [0, 0.25, 0],
        [0.5, 1, 1],
      ] as [[number, number, number], [number, number, number]],
    };
    close(sharesOf([{ fill: 0.5, normal: [0, 1, 0] }, corner]), [0.25, 0.375, 0.375]);
  });

  it("places a slanted plane at its fill", () => {
    const n: [number, number, number] = [Math.SQRT1_2, Math.SQRT1_2, 0];
    const shares = sharesOf([
      { fill: 0.5, normal: n },
      { fill: 0.5, normal: n },
    ]);
    close(shares, [0.5, 0, 0.5], 1e-9);
  });
});

/** A periodic 2 × 1.2 µm cross-section (z-normal plane) with these structures, at step h. */
function plane(structures: PlaneModesRequest["structures"], h: number): PlaneModesRequest {
  return {
    domain: {
      size: [2e-6, 1.2e-6, h],
      resolution: h,
      boundary_conditions: ["periodic", "periodic", "periodic"],
    },
    structures,
    materials: { si: { permittivity: 12.08 }, ox: { permittivity: 2.0852 } },
    plane: { center: [0, 0, 0], size: [2e-6, 1.2e-6, 0] },
    wavelengths: [1.55e-6],
    mode_spec: { num_modes: 1 },
  } as unknown as PlaneModesRequest;
}

const nEff = (r: PlaneModesRequest) => solveModesOf(r).modes[0]![0]!.n_eff;
const box = (center: number[], size: number[], material: string) =>
  ({ type: "box", center, size, material }) as const;

describe("overlapping structures on the grid", () => {
  const h = 12.5e-9;
  const UM = 1e-6;
  const cladding = box([0, 0, 0], [10, 10, 10], "ox");

  it("a rib as a slab and a box on it has the modes of the same rib as one polygon", () => {
    const slab = box([0, -0.065 * UM, 0], [10, 0.09 * UM, 10], "si");
    const rib = box([0, 0, 0], [0.5 * UM, 0.22 * UM, 10], "si");
    const t = [
      [-5, -0.11],
      [5, -0.11],
      [5, -0.02],
      [0.25, -0.02],
      [0.25, 0.11],
      [-0.25, 0.11],
      [-0.25, -0.02],
      [-5, -0.02],
    ].map(([x, y]) => [x! * UM, y! * UM]);
    const polygon = { type: "polyslab", vertices: t, z_min: -1, z_max: 1, material: "si" };
    const reference = nEff(plane([cladding, polygon] as never, h));
    for (const order of [
      [cladding, slab, rib],
      [cladding, rib, slab],
    ]) {
      const n = nEff(plane(order as never, h));
      assert.ok(Math.abs(n - reference) < 1e-3, `boxes ${n} against one polygon ${reference}`);
    }
  });

  it("a strip on its substrate has the same modes whichever is painted first", () => {
    const substrate = box([0, -0.33 * UM, 0], [10, 0.44 * UM, 10], "ox");
    const strip = box([0, 0, 0], [0.5 * UM, 0.22 * UM, 10], "si");
    const first = nEff(plane([substrate, strip] as never, h));
    const second = nEff(plane([strip, substrate] as never, h));
    assert.ok(Math.abs(first - second) < 5e-4, `${first} against ${second}`);
    assert.ok(Math.abs(first - 2.3837) < 2e-3, `${first}: MPB gives 2.3836–2.3842`);
  });
});

describe("a metal film touching a dielectric layer", () => {
  it("paints the same permittivity whichever is listed first", () => {
    // 1-D: a Drude film and an ε = 4 layer on it, their shared face between grid nodes (an
    // outside audit: with the metal listed first, T was 48 % off at 20 nm).
    const h = 20e-9;
    const film = { type: "box", center: [0, 0, 26.3e-9], size: [1, 1, 30e-9], material: "drude" };
    const layer = { type: "box", center: [0, 0, 109.8e-9], size: [1, 1, 137e-9], material: "d4" };
    const eps = (structures: unknown[]) => {
      const plane = modePlane(
        {
          domain: {
            size: [h, h, 3e-6],
            resolution: h,
            boundary_conditions: ["periodic", "periodic", "pml"],
            pml_layers: 10,
          } as never,
          structures: structures as never,
          plane: { center: [0, 0, 0], size: [0, h, 3e-6] },
          wavelengthsM: [1.3e-6],
        },
        withUserMaterials(libraryMaterials, {
          drude: { permittivity: 1, poles: [{ type: "drude", omega_p: 1.37e16, gamma: 1.06e14 }] },
          d4: { permittivity: 4 },
        } as never),
      );
      const e = plane.permittivityAt(1.3e-6);
      return [...e.uu.re, ...e.uu.im!, ...e.vv.re, ...e.vv.im!];
    };
    const metalFirst = eps([film, layer]);
    const layerFirst = eps([layer, film]);
    assert.equal(metalFirst.length, layerFirst.length);
    metalFirst.forEach((v, i) =>
      assert.ok(Math.abs(v - layerFirst[i]!) < 1e-9, `${i}: ${v} ≠ ${layerFirst[i]}`),
    );
  });
});
