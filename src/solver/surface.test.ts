/**
 * The surface-cell count of estimates (surface.ts) against exact areas, and against the cells
 * painting actually mixes (medium.ts: the cells whose entry is not a pure material), which is
 * what it stands for.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { domainFaces, shapeOf } from "./geometry.js";
import { planGrid, YeeLayout } from "./grid.js";
import { buildMedium } from "./medium.js";
import { surfaceCells } from "./surface.js";
import { boxSpec } from "./testing/index.js";
import type { Boundary, SimulationSpec, StructureSpec, Vec3 } from "./types.js";

const H = 50e-9;

/** A grid of `size` at 50 nm cells: pml, or periodic along an axis one cell thick. */
function spec(size: Vec3, structures: StructureSpec[], pml = 8): SimulationSpec {
  const boundaries = size.map((s) => (s <= H ? "periodic" : "pml")) as [
    Boundary,
    Boundary,
    Boundary,
  ];
  return boxSpec({
    sizeM: size,
    stepM: H,
    wavelengthM: 1.55e-6,
    boundaries,
    pmlLayers: pml,
    structures,
    timeSteps: 100,
  });
}

/** Cells (any E component) painting gives a mixed entry: the interface cells. */
function paintedInterfaceCells(s: SimulationSpec): number {
  const plan = planGrid(s.domain, s.fdtd_settings.courant_factor);
  const grid: Vec3 = [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells];
  const layout = new YeeLayout(grid, [
    plan.axes[0].boundary,
    plan.axes[1].boundary,
    plan.axes[2].boundary,
  ]);
  const faces = domainFaces(plan);
  const medium = buildMedium(
    plan,
    layout,
    { epsRe: 1, sigma: 0 },
    s.structures.map((st) => ({ shape: shapeOf(st, faces), material: { epsRe: 4, sigma: 0 } })),
  );
  // Entries 0 and 1 are the pure background and structure (one material here).
  let count = 0;
  for (let cell = 0; cell < layout.paddedCells; cell++) {
    if (medium.index.some((idx) => idx[cell] > 1)) count++;
  }
  return count;
}

describe("surface cells", () => {
  it("a box inside the grid: its six faces' area over h², 1.5 cells each", () => {
    const box: StructureSpec = {
      type: "box",
      center: [0, 0, 0],
      size: [1e-6, 0.5e-6, 0.25e-6],
      material: "x",
    };
    const area = 2 * (1 * 0.5 + 0.5 * 0.25 + 0.25 * 1) * 1e-12;
    assert.equal(surfaceCells(spec([2e-6, 2e-6, 2e-6], [box])), Math.round((1.5 * area) / H ** 2));
  });

  it("a substrate through the grid's faces counts only its top face", () => {
    const sub: StructureSpec = {
      type: "box",
      center: [0, 0, -1],
      size: [10, 10, 2],
      material: "x",
    };
    const s = spec([2e-6, 2e-6, 2e-6], [sub]);
    const plan = planGrid(s.domain, 0.99);
    const across = plan.axes[0].cells * plan.axes[1].cells;
    assert.equal(surfaceCells(s), 1.5 * across);
  });

  it("a sphere and a cylinder: their areas, 2 cells per h² curved; a square polyslab as the box", () => {
    const r = 0.4e-6;
    const sphere: StructureSpec = { type: "sphere", center: [0, 0, 0], radius: r, material: "x" };
    assert.equal(
      surfaceCells(spec([2e-6, 2e-6, 2e-6], [sphere])),
      Math.round((2 * 4 * Math.PI * r * r) / H ** 2),
    );
    const cyl: StructureSpec = {
      type: "cylinder",
      center: [0, 0, 0],
      radius: r,
      height: 1e-6,
      axis: "x",
      material: "x",
    };
    const cylArea = 2 * 2 * Math.PI * r * 1e-6 + 1.5 * 2 * Math.PI * r * r;
    assert.equal(surfaceCells(spec([2e-6, 2e-6, 2e-6], [cyl])), Math.round(cylArea / H ** 2));
    const a = 0.3e-6;
    const square: StructureSpec = {
      type: "polyslab",
      vertices: [
        [-a, -a],
        [a, -a],
        [a, a],
        [-a, a],
      ],
      z_min: -0.1e-6,
      z_max: 0.1e-6,
      material: "x",
    };
    const box: StructureSpec = {
      type: "box",
      center: [0, 0, 0],
      size: [2 * a, 2 * a, 0.2e-6],
      material: "x",
    };
    const d: Vec3 = [2e-6, 2e-6, 2e-6];
    assert.equal(surfaceCells(spec(d, [square])), surfaceCells(spec(d, [box])));
  });

  it("a cross-section one cell thick: the outline's length in cells", () => {
    const strip: StructureSpec = {
      type: "box",
      center: [0, 0, 0],
      size: [0.5e-6, 10, 0.2e-6],
      material: "x",
    };
    assert.equal(
      surfaceCells(spec([3e-6, H, 3e-6], [strip])),
      Math.round((1.5 * 2 * (0.5 + 0.2) * 1e-6) / H),
    );
  });

  it("a sphere, cylinder or box far larger than the grid: a finite count, its part inside (issue #26)", () => {
    const d: Vec3 = [2e-6, 2e-6, 2e-6];
    const cells = (structure: StructureSpec) => {
      const s = spec(d, [structure]);
      const plan = planGrid(s.domain, 0.99);
      const n = surfaceCells(s, plan);
      const total = plan.axes[0].cells * plan.axes[1].cells * plan.axes[2].cells;
      assert.ok(Number.isInteger(n) && n >= 0 && n <= total, `${JSON.stringify(structure)}: ${n}`);
      return n;
    };
    const around = { center: [0, 0, 0] as Vec3, material: "x" };
    for (const r of [1e308, 1.7976931348623157e308]) {
      // The grid lies deep inside: no surface crosses it.
      assert.equal(cells({ type: "sphere", radius: r, ...around }), 0);
      assert.equal(cells({ type: "box", size: [r, r, r], ...around }), 0);
      // Only the caps of a wide, thin disc cross the grid: about their area there.
      const disc = cells({ type: "cylinder", radius: r, height: 1e-6, axis: "z", ...around });
      const plan = planGrid(spec(d, []).domain, 0.99);
      const across = (plan.axes[0].nodesM.at(-1)! - plan.axes[0].nodesM[0]) ** 2;
      const caps = (2 * 1.5 * across) / H ** 2;
      assert.ok(disc > 0.25 * caps && disc <= caps, `${disc} for caps of ${caps}`);
      const rod = cells({ type: "cylinder", radius: 0.2e-6, height: r, axis: "x", ...around });
      assert.ok(rod > 0, `rod: ${rod}`);
    }
    assert.equal(cells({ type: "sphere", radius: 5e-324, ...around }), 0);
  });

  it("tracks the cells painting mixes, within a third, from a box and a sphere to a lattice", () => {
    const cases: [string, StructureSpec[]][] = [
      [
        "box",
        [
          {
            type: "box",
            center: [0, 0, 0.01e-6],
            size: [0.81e-6, 0.63e-6, 0.47e-6],
            material: "x",
          },
        ],
      ],
      ["sphere", [{ type: "sphere", center: [0.01e-6, 0, 0], radius: 0.6e-6, material: "x" }]],
      [
        "27 spheres",
        [-1, 0, 1].flatMap((i) =>
          [-1, 0, 1].flatMap((j) =>
            [-1, 0, 1].map((k): StructureSpec => ({
              type: "sphere",
              center: [0.5e-6 * i, 0.5e-6 * j, 0.5e-6 * k],
              radius: 0.18e-6,
              material: "x",
            })),
          ),
        ),
      ],
    ];
    for (const [name, structures] of cases) {
      const s = spec([1.6e-6, 1.6e-6, 1.6e-6], structures, 4);
      const estimated = surfaceCells(s);
      const painted = paintedInterfaceCells(s);
      const ratio = painted / estimated;
      assert.ok(
        ratio > 0.75 && ratio < 1.33,
        `${name}: painted ${painted}, estimated ${estimated}`,
      );
    }
  });
});
