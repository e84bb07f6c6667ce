/**
 * The plotting core against what the CLI's PNGs were before the dashboard's plots moved onto it
 * (testing/fixtures/, written from testing/cases.ts by the code of that time): the colour
 * tables byte for byte, the ticks and their labels, and whole heat-map and line PNGs pixel for
 * pixel.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { diverging, sequential } from "./colormap.js";
import { fieldPlotPng } from "./field-plot.js";
import {
  lineCrossings,
  normalOf,
  planeSections,
  sectionContains,
  type StructureShape,
} from "./sections.js";
import { structureShape } from "./structures.js";
import { niceTicks, ROUND_STEPS, tickLabel } from "./ticks.js";
import { polySlabContains, polySlabProblems } from "../solver/polyslab.js";
import type { PolySlabSpec } from "../solver/types.js";
import { decodePng } from "./testing/decode-png.js";
import { PLOT_CASES, TICK_CASES } from "./testing/cases.js";

const FIXTURES = new URL("./testing/fixtures/", import.meta.url);

interface Scales {
  ticks: { range: [number, number, number]; step: number; ticks: number[]; labels: string[] }[];
  luts: { sequential: string; diverging: string };
}
const before = JSON.parse(readFileSync(new URL("cli-scales.json", FIXTURES), "utf8")) as Scales;

test("the colour tables are the ones the CLI's PNGs used", () => {
  assert.equal(Buffer.from(sequential.lut).toString("hex"), before.luts.sequential);
  assert.equal(Buffer.from(diverging.lut).toString("hex"), before.luts.diverging);
});

test("ticks and their labels are the ones the CLI's PNGs used", () => {
  assert.equal(before.ticks.length, TICK_CASES.length);
  for (const [k, [min, max, target]] of TICK_CASES.entries()) {
    const { step, ticks } = niceTicks(min, max, target);
    const expected = before.ticks[k]!;
    assert.deepEqual(expected.range, [min, max, target]);
    assert.equal(step, expected.step, `step for ${min}…${max}`);
    assert.deepEqual(ticks, expected.ticks, `ticks for ${min}…${max}`);
    assert.deepEqual(
      ticks.map((t) => tickLabel(t, step)),
      expected.labels,
      `labels for ${min}…${max}`,
    );
  }
});

for (const c of PLOT_CASES) {
  test(`the CLI's ${c.name} PNG is pixel for pixel what it was`, () => {
    const actual = decodePng(fieldPlotPng(c.map(), c.options));
    const expected = decodePng(readFileSync(new URL(`${c.name}.png`, FIXTURES)));
    assert.equal(actual.width, expected.width);
    assert.equal(actual.height, expected.height);
    let differing = 0;
    for (let i = 0; i < actual.rgb.length; i++) if (actual.rgb[i] !== expected.rgb[i]) differing++;
    assert.equal(differing, 0, `${differing} channel values differ`);
  });
}

/** The dashboard's own step rule before it moved onto the core (plot.js, until this change). */
function dashboardStepBefore(min: number, max: number, count: number): number {
  const raw = (max - min) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

test("the dashboard's round steps are the ones its canvases used", () => {
  for (let k = 0; k < 2000; k++) {
    const span = 10 ** (-4 + (k * 7.3) / 2000);
    const min = -span * ((k % 7) / 10);
    const count = 2 + (k % 9);
    const { step } = niceTicks(min, min + span, count, ROUND_STEPS);
    const before = dashboardStepBefore(min, min + span, count);
    assert.ok(Math.abs(step - before) <= 1e-12 * before, `${min} + ${span}, ${count}`);
  }
});

/** Whether p lies in s, from the solids' definitions (independent of sections.ts). */
function inside(s: StructureShape, p: number[]): boolean {
  const d = p.map((x, a) => x - s.center![a]!);
  if (s.type === "box") return d.every((x, a) => Math.abs(x) <= s.size![a]! / 2);
  if (s.type === "sphere") return Math.hypot(...d) <= s.radius!;
  const a = "xyz".indexOf(s.axis ?? "z");
  return (
    Math.abs(d[a]!) <= s.height! / 2 && Math.hypot(...d.filter((_, i) => i !== a)) <= s.radius!
  );
}

/**
 * Checks every cross-section of `shapes` (each plane orientation, at each cut) and every line
 * crossing along the grid against `inside(i, p)`, the solids' own point test; returns how
 * many grid points fell inside a section. `slack` widens the line's intervals for rounding.
 */
function agreesWithSolids(
  shapes: StructureShape[],
  inside: (i: number, p: number[]) => boolean,
  grid: number[],
  cuts: number[],
  slack = 0,
): number {
  let hits = 0;
  for (const u of [0, 1, 2] as const) {
    for (const v of [0, 1, 2] as const) {
      if (u === v) continue;
      const normal = normalOf({ u, v });
      for (const cut of cuts) {
        const sections = planeSections(shapes, { u, v, cut });
        for (const a of grid) {
          for (const b of grid) {
            const p = [0, 0, 0];
            [p[u], p[v], p[normal]] = [a, b, cut];
            for (let i = 0; i < shapes.length; i++) {
              const section = sections.find((x) => x.index === i);
              const found = section !== undefined && sectionContains(section, a, b);
              assert.equal(found, inside(i, p), `structure ${i} at ${p} (plane ${u}${v})`);
              if (found) hits++;
            }
          }
          // The line along u through (·, a) in this plane.
          const point = [0, 0, 0];
          [point[v], point[normal]] = [a, cut];
          const crossings = lineCrossings(shapes, u, point);
          for (const t of grid) {
            point[u] = t;
            for (let i = 0; i < shapes.length; i++) {
              const on = crossings.some(
                (c) => c.index === i && t >= c.t0 - slack && t <= c.t1 + slack,
              );
              assert.equal(on, inside(i, point), `line crossing ${i} at ${point}`);
            }
          }
        }
      }
    }
  }
  return hits;
}

test("cross-sections and line crossings agree with the solids they cut", () => {
  const shapes: StructureShape[] = [
    { type: "box", center: [0.1, -0.2, 0.3], size: [0.8, 0.5, 0.6] },
    { type: "sphere", center: [-0.3, 0.1, 0], radius: 0.45 },
    { type: "cylinder", center: [0.2, 0, -0.1], radius: 0.3, height: 0.9, axis: "x" },
    { type: "cylinder", center: [0, 0.3, 0.2], radius: 0.25, height: 0.7, axis: "z" },
  ];
  const grid = Array.from({ length: 23 }, (_, i) => -0.95 + i * 0.0863);
  const hits = agreesWithSolids(
    shapes,
    (i, p) => inside(shapes[i]!, p),
    grid,
    [-0.31, 0, 0.27],
    1e-12,
  );
  assert.ok(hits > 1000, `the grid samples the solids (${hits} hits)`);
});

test("polyslab sections and line crossings agree with the solver's own point test", () => {
  // Concave, with a hole, sloping in; a triangle sloping out; straight walls. Their vertices
  // pass the cut lines as z rises, so the vertical cuts change shape part-way up.
  const slabs: PolySlabSpec[] = [
    {
      type: "polyslab",
      vertices: [
        [-0.8, -0.7],
        [0.7, -0.7],
        [0.7, -0.1],
        [-0.1, -0.1],
        [-0.1, 0.8],
        [-0.8, 0.8],
      ],
      holes: [
        [
          [-0.5, -0.4],
          [-0.3, -0.4],
          [-0.3, -0.25],
          [-0.5, -0.25],
        ],
      ],
      z_min: -0.4,
      z_max: 0.5,
      sidewall_angle_deg: 4,
      material: "Si",
    },
    {
      type: "polyslab",
      vertices: [
        [0.1, 0.05],
        [0.75, 0.2],
        [0.3, 0.7],
      ],
      z_min: -0.9,
      z_max: 0.1,
      sidewall_angle_deg: -6,
      material: "SiO2",
    },
    {
      type: "polyslab",
      vertices: [
        [-0.45, -0.85],
        [0.85, -0.85],
        [0.85, -0.55],
        [-0.45, -0.55],
      ],
      z_min: 0.35,
      z_max: 0.9,
      material: "Si",
    },
  ];
  for (const [i, s] of slabs.entries()) assert.deepEqual(polySlabProblems(s, `s${i}`), []);
  const grid = Array.from({ length: 41 }, (_, i) => -0.97 + i * 0.04817);
  const hits = agreesWithSolids(
    slabs.map(structureShape),
    (i, p) => polySlabContains(slabs[i]!, p[0]!, p[1]!, p[2]!),
    grid,
    [-0.62, -0.2, 0.013, 0.41, 0.95],
  );
  assert.ok(hits > 5000, `the grid samples the polyslabs (${hits} hits)`);
});

test("a polyslab's cut that a vertex passes part-way up is one polygon with a bend", () => {
  // A house-shaped pentagon, walls sloping in by 20°: its eave vertices (±1, 0.5) move down
  // along their miters, (∓1, −0.618…)·d with d = z·tan 20°, and pass the line y = 0.4 at
  // z = 0.1 / (0.618… · tan 20°); below, the line crosses the upright walls, above the roof.
  const house: PolySlabSpec = {
    type: "polyslab",
    vertices: [
      [-1, -1],
      [1, -1],
      [1, 0.5],
      [0, 1],
      [-1, 0.5],
    ],
    z_min: 0,
    z_max: 1,
    sidewall_angle_deg: 20,
    material: "Si",
  };
  assert.deepEqual(polySlabProblems(house, "house"), []);
  const [section] = planeSections([structureShape(house)], { u: 0, v: 2, cut: 0.4 });
  assert.ok(section?.rings);
  assert.equal(section.shape, "polygon");
  assert.equal(section.rings.length, 1, "one piece, not one per band");
  const ring = section.rings[0]!;
  assert.equal(ring.length, 6, "three heights on each side: bottom, the bend, top");
  const miterY = 1 / (1 + 1 / Math.sqrt(5)) / Math.sqrt(1.25);
  const zBend = 0.1 / (miterY * Math.tan((20 * Math.PI) / 180));
  assert.ok(
    ring.some(([, z]) => Math.abs(z - zBend) < 1e-12),
    `a corner at z = ${zBend}: ${JSON.stringify(ring)}`,
  );
  assert.ok(Math.abs(section.v0) < 1e-15 && Math.abs(section.v1 - 1) < 1e-12);
});
