/**
 * Graded grids (grid.ts planAxisNodes, planGrid with mesh overrides): where the nodes go, and
 * the helpers that read positions and steps off a plan.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  cellStepM,
  centreIndexAt,
  centreM,
  cubeAlong,
  dualStepM,
  equivalentStepM,
  nodeIndexAt,
  nodeM,
  planAxisNodes,
  planGrid,
  stepsOver,
} from "./grid.js";
import type { DomainSpec } from "./types.js";

const steps = (nodes: Float64Array) => Array.from(nodes.subarray(1), (x, i) => x - nodes[i]);

/** Largest ratio of neighbouring steps. */
function worstRatio(nodes: Float64Array): number {
  const s = steps(nodes);
  let worst = 1;
  for (let i = 1; i < s.length; i++) worst = Math.max(worst, s[i] / s[i - 1], s[i - 1] / s[i]);
  return worst;
}

const has = (nodes: Float64Array, x: number) => nodes.some((v) => Math.abs(v - x) < 1e-15);

describe("planAxisNodes", () => {
  it("keeps every cell at most the base step and each interval's step, grading by at most the ratio", () => {
    const h = 20e-9;
    const cases = [
      { fine: [{ loM: -50e-9, hiM: 50e-9, stepM: 2e-9 }], ratio: 1.2 },
      { fine: [{ loM: 100e-9, hiM: 140e-9, stepM: 5e-9 }], ratio: 1.5 },
      {
        fine: [
          { loM: -300e-9, hiM: -100e-9, stepM: 10e-9 },
          { loM: -150e-9, hiM: 0, stepM: 4e-9 },
          { loM: 200e-9, hiM: 260e-9, stepM: 1e-9 },
        ],
        ratio: 1.1,
      },
    ];
    for (const { fine, ratio } of cases) {
      const nodes = planAxisNodes(-500e-9, 500e-9, h, fine, ratio);
      assert.equal(nodes[0], -500e-9);
      assert.equal(nodes[nodes.length - 1], 500e-9);
      const s = steps(nodes);
      assert.ok(
        s.every((v) => v > 0),
        "nodes increase",
      );
      assert.ok(Math.max(...s) <= h * (1 + 1e-12), `largest step ${Math.max(...s)}`);
      for (const iv of fine) {
        assert.ok(has(nodes, iv.loM) && has(nodes, iv.hiM), `the ends of ${JSON.stringify(iv)}`);
        for (let i = 0; i < s.length; i++) {
          const mid = (nodes[i] + nodes[i + 1]) / 2;
          if (mid > iv.loM && mid < iv.hiM) {
            assert.ok(s[i] <= iv.stepM * (1 + 1e-9), `cell ${i} of ${s[i]} in ${iv.stepM}`);
          }
        }
      }
      assert.ok(worstRatio(nodes) <= ratio * 1.02, `worst ratio ${worstRatio(nodes)} > ${ratio}`);
    }
  });

  it("uses about as few cells as the grading allows", () => {
    // 100 nm at 2 nm (50 cells), then growth by ≈1.2 up to 20 nm on either side: the cells of
    // a geometric series from 2 to 20 nm, about ln(10)/ln(1.2) ≈ 13 per side, and the rest at
    // 20 nm.
    const nodes = planAxisNodes(
      -500e-9,
      500e-9,
      20e-9,
      [{ loM: -50e-9, hiM: 50e-9, stepM: 2e-9 }],
      1.2,
    );
    const cells = nodes.length - 1;
    assert.ok(cells >= 50 + 2 * 12 + 2 * 15 && cells <= 50 + 2 * 16 + 2 * 22, `${cells} cells`);
  });

  it("is uniform where nothing refines it, and refines around a plane given as a zero extent", () => {
    const plain = planAxisNodes(-100e-9, 100e-9, 10e-9, [], 1.2);
    assert.deepEqual(
      steps(plain).map((v) => Math.round(v * 1e12)),
      new Array(20).fill(10_000),
    );
    const plane = planAxisNodes(
      -100e-9,
      100e-9,
      10e-9,
      [{ loM: 30e-9, hiM: 30e-9, stepM: 1e-9 }],
      1.2,
    );
    assert.ok(has(plane, 30e-9), "a node on the plane");
    const i = plane.findIndex((v) => Math.abs(v - 30e-9) < 1e-15);
    assert.ok(plane[i + 1] - plane[i] <= 1.2e-9 && plane[i] - plane[i - 1] <= 1.2e-9);
  });

  it("drops an interval end that would leave a sliver cell", () => {
    // Ends 0.1 nm apart with 2 nm cells: a 0.1 nm cell would cut the time step twentyfold.
    const nodes = planAxisNodes(
      -100e-9,
      100e-9,
      10e-9,
      [
        { loM: -20e-9, hiM: 0, stepM: 2e-9 },
        { loM: 0.1e-9, hiM: 20e-9, stepM: 2e-9 },
      ],
      1.2,
    );
    assert.ok(Math.min(...steps(nodes)) > 1e-9, `smallest step ${Math.min(...steps(nodes))}`);
  });
});

function domain(extra: Partial<DomainSpec>): DomainSpec {
  return {
    size: [400e-9, 300e-9, 500e-9],
    resolution: 20e-9,
    boundary_conditions: ["pml", "periodic", "pml"],
    pml_layers: 6,
    ...extra,
  };
}

describe("planAxisNodes at the limits of a double (issue #26)", () => {
  it("refuses a step it could not walk past instead of looping until the heap is gone", () => {
    for (const stepM of [5e-324, 1e-25, 0]) {
      const fine = [{ loM: 0, hiM: 0, stepM }];
      assert.throws(() => planAxisNodes(-1e-6, 1e-6, 20e-9, fine, 1.2), RangeError);
    }
  });

  it("plans a plane refined the most validation allows (1000 times) in few cells", () => {
    const h = 20e-9;
    const nodes = planAxisNodes(-1e-6, 1e-6, h, [{ loM: 0, hiM: 0, stepM: h / 1000 }], 1.05);
    const s = steps(nodes);
    // A point interval: the cells either side of it are about its step long.
    assert.ok(Math.min(...s) < 1.1 * (h / 1000), `${Math.min(...s)}`);
    assert.ok(Math.max(...s) <= h * (1 + 1e-9));
    // Geometric grading from h/1000 to h at ratio ≤ 1.05: about 2·ln(1000)/ln(1.04) cells more.
    assert.ok(s.length < 2e-6 / h + 400, `${s.length} cells`);
    assert.ok(worstRatio(nodes) <= 1.05 + 1e-6);
  });
});

describe("planGrid with mesh overrides", () => {
  it("without overrides is the uniform grid of DESIGN §1, node i at origin + i·h", () => {
    const plan = planGrid(domain({}), 0.99);
    assert.ok(plan.uniform);
    for (const ax of plan.axes) {
      assert.equal(ax.uniformStepM, 20e-9);
      for (let i = 0; i <= ax.cells; i++) assert.equal(ax.nodesM[i], ax.originM + i * 20e-9);
    }
    assert.equal(plan.dtSeconds, (0.99 * 20e-9) / (299_792_458 * Math.sqrt(3)));
    assert.equal(equivalentStepM(plan), 20e-9);
  });

  it("refines along each axis by the override's resolution there; the absorber takes the end steps", () => {
    const plan = planGrid(
      domain({
        mesh_overrides: [
          { center: [0, 0, 100e-9], size: [60e-9, 1e-6, 40e-9], resolution: [4e-9, 20e-9, 2e-9] },
        ],
      }),
      0.99,
    );
    assert.ok(!plan.uniform);
    const [x, y, z] = plan.axes;
    assert.equal(y.uniformStepM, 20e-9, "resolution equal to the base along y: not refined");
    assert.ok(Math.abs(x.minStepM - 4e-9) < 1e-18);
    assert.ok(Math.abs(z.minStepM - 2e-9) < 1e-18);
    // The region of interest keeps its extent; the absorber cells are the end cells' steps.
    for (const ax of [x, z]) {
      assert.ok(
        Math.abs(ax.nodesM[ax.cells - ax.pmlHi] - ax.nodesM[ax.pmlLo] - ax.requestedSizeM) < 1e-15,
      );
      for (let i = 0; i < ax.pmlLo; i++) {
        assert.ok(Math.abs(cellStepM(ax, i) - cellStepM(ax, ax.pmlLo)) < 1e-20);
        assert.ok(
          Math.abs(cellStepM(ax, ax.cells - 1 - i) - cellStepM(ax, ax.cells - 1 - ax.pmlHi)) <
            1e-20,
        );
      }
    }
    // dt from the shortest cells: S/(c·√(1/4² + 1/20² + 1/2²)) with steps in nm.
    const expected =
      0.99 / (299_792_458 * Math.sqrt(1 / 4e-9 ** 2 + 1 / 20e-9 ** 2 + 1 / 2e-9 ** 2));
    assert.ok(Math.abs(plan.dtSeconds / expected - 1) < 1e-12);
    assert.ok(
      Math.abs(equivalentStepM(plan) * Math.sqrt(1 / 16 + 1 / 400 + 1 / 4) * 1e9 - Math.sqrt(3)) <
        1e-9,
    );
  });

  it("reads positions, steps and indices off a graded axis consistently", () => {
    const plan = planGrid(
      domain({
        mesh_overrides: [{ center: [30e-9, 0, 0], size: [50e-9, 0, 0], resolution: 5e-9 }],
      }),
      0.99,
    );
    const ax = plan.axes[0];
    for (let i = -1; i <= ax.cells; i++) {
      const c = centreM(ax, i);
      assert.ok(Math.abs(c - (nodeM(ax, i) + nodeM(ax, i + 1)) / 2) < 1e-18);
      assert.ok(Math.abs(nodeIndexAt(ax, nodeM(ax, i)) - i) < 1e-9, `node ${i}`);
      assert.ok(Math.abs(centreIndexAt(ax, c) - i) < 1e-9, `centre ${i}`);
      assert.ok(Math.abs(dualStepM(ax, i) - (centreM(ax, i) - centreM(ax, i - 1))) < 1e-18);
      const node = cubeAlong(ax, i, 0);
      assert.ok(Math.abs(node.lengthM - dualStepM(ax, i)) < 1e-18);
      const cell = cubeAlong(ax, i, 0.5);
      assert.ok(Math.abs(cell.lengthM - cellStepM(ax, i)) < 1e-18 && cell.centreM === c);
    }
    const over = stepsOver(ax, 10e-9, 40e-9);
    assert.ok(over.maxM <= 5e-9 * (1 + 1e-9) && over.meanM <= over.maxM);
    // A periodic axis wraps: the cell before the first is the last.
    const y = planGrid(
      domain({
        mesh_overrides: [{ center: [0, 140e-9, 0], size: [0, 20e-9, 0], resolution: 5e-9 }],
      }),
      0.99,
    ).axes[1];
    assert.equal(cellStepM(y, -1), cellStepM(y, y.cells - 1));
    assert.notEqual(cellStepM(y, -1), cellStepM(y, 0));
  });
});
