/**
 * Polyslab geometry: fill fractions against exact areas (a square, a triangle cut by a cube, a
 * rotated rectangle and random star polygons with holes clipped by an independent
 * Sutherland–Hodgman clipper), normals, continuity as the polygon moves, the sidewall angle
 * (frustum volume), validation, and the cost of a 10 000-vertex polygon over a large grid.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { domainFaces, shapeOf } from "./geometry.js";
import type { DomainFaces, Shape } from "./shape.js";
import { planGrid, YeeLayout } from "./grid.js";
import { buildMedium } from "./medium.js";
import { polySlabContains, polySlabProblems } from "./polyslab.js";
import { forEachBackend, runOn } from "./testing/backends.js";
import {
  abs2,
  airySlabReflectance,
  constantMaterials,
  lineSpec,
  phasor,
  pointMonitor,
  slab as boxSlab,
} from "./testing/index.js";
import type { DomainSpec, PolySlabSpec, StructureSpec, Vec3 } from "./types.js";

const UM = 1e-6;
/** A closed region with no absorbing or periodic faces: shapes are not extended. */
const closed: DomainFaces = domainFaces(
  planGrid(
    {
      size: [20 * UM, 20 * UM, 20 * UM],
      resolution: 0.5 * UM,
      boundary_conditions: ["pec", "pec", "pec"],
      pml_layers: 1,
    },
    0.99,
  ),
);

const slab = (vertices: [number, number][], extra: Partial<PolySlabSpec> = {}): PolySlabSpec => ({
  type: "polyslab",
  vertices,
  z_min: -1 * UM,
  z_max: 1 * UM,
  material: "x",
  ...extra,
});

/** Area of a polygon (shoelace), positive counter-clockwise. */
function shoelace(p: [number, number][]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const [x1, y1] = p[i]!;
    const [x2, y2] = p[(i + 1) % p.length]!;
    s += x1 * y2 - x2 * y1;
  }
  return s / 2;
}

/** Sutherland–Hodgman clip of a polygon by an axis-aligned rectangle (independent reference). */
function clipArea(p: [number, number][], x0: number, x1: number, y0: number, y1: number): number {
  let poly = p;
  const edges: Array<[(q: [number, number]) => number]> = [
    [(q) => q[0] - x0],
    [(q) => x1 - q[0]],
    [(q) => q[1] - y0],
    [(q) => y1 - q[1]],
  ];
  for (const [side] of edges) {
    const out: [number, number][] = [];
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i]!;
      const b = poly[(i + 1) % poly.length]!;
      const sa = side(a);
      const sb = side(b);
      if (sa >= 0) out.push(a);
      if (sa >= 0 !== sb >= 0) {
        const t = sa / (sa - sb);
        out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
      }
    }
    poly = out;
    if (poly.length === 0) return 0;
  }
  return Math.abs(shoelace(poly));
}

/** A random star-shaped (hence simple) polygon around (cx, cy). */
function star(n: number, cx: number, cy: number, r0: number, r1: number, seed: number) {
  let s = seed;
  const rand = () => ((s = (s * 16807) % 2147483647) - 1) / 2147483646;
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = r0 + (r1 - r0) * rand();
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

function fillAt(shape: Shape, p: Vec3, h: number): { f: number; n: Vec3 } {
  const n: Vec3 = [NaN, NaN, NaN];
  return { f: shape.fill(p, [h, h, h], n), n };
}

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

describe("polyslab fill fractions", () => {
  const h = 0.1 * UM;

  it("a square outline fills exactly as the equivalent box, normals included", () => {
    const poly = shapeOf(
      slab([
        [-1 * UM, -0.5 * UM],
        [1 * UM, -0.5 * UM],
        [1 * UM, 0.5 * UM],
        [-1 * UM, 0.5 * UM],
      ]),
      closed,
    );
    const box = shapeOf(
      { type: "box", center: [0, 0, 0], size: [2 * UM, 1 * UM, 2 * UM], material: "x" },
      closed,
    );
    let s = 7;
    const rand = () => ((s = (s * 16807) % 2147483647) - 1) / 2147483646;
    let partial = 0;
    for (let t = 0; t < 4000; t++) {
      const p: Vec3 = [
        (rand() - 0.5) * 2.4 * UM,
        (rand() - 0.5) * 1.4 * UM,
        (rand() - 0.5) * 2.4 * UM,
      ];
      const a = fillAt(poly, p, h);
      const b = fillAt(box, p, h);
      close(a.f, b.f, 1e-12, `fill at ${p}`);
      if (b.f > 1e-9 && b.f < 1 - 1e-9) {
        partial++;
        for (let c = 0; c < 3; c++) close(a.n[c], b.n[c], 1e-9, `normal at ${p}`);
      }
    }
    assert.ok(partial > 200, `${partial} interface cubes sampled`);
  });

  it("an edge through the middle of a cube keeps its normal whatever the rounding of h", () => {
    // A guide's edge on a node of a 20 nm grid: the E_z cube there is cut in half by it, and
    // the widths of grid cells differ from 20 nm in their last bits (node coordinates are sums).
    const poly = shapeOf(
      slab([
        [-5 * UM, 0.1 * UM],
        [5 * UM, 0.1 * UM],
        [5 * UM, 0.32 * UM],
        [-5 * UM, 0.32 * UM],
      ]),
      closed,
    );
    const step = 2e-8;
    const widths = [step, 2.000000000000002e-8, 1.9999999999999994e-8, step * (1 + 3e-16)];
    let cut = 0;
    for (const hx of widths) {
      for (const hy of widths) {
        for (let i = 0; i < 40; i++) {
          for (const yEdge of [0.1 * UM, 0.32 * UM]) {
            const p: Vec3 = [-0.4 * UM + i * step, yEdge, 0];
            const n: Vec3 = [0, 0, 0];
            const f = poly.fill(p, [hx, hy, step], n);
            if (f <= 0 || f >= 1) continue;
            cut++;
            close(f, 0.5, 1e-9, `fill at ${p} with h ${hx}, ${hy}`);
            close(Math.abs(n[1]), 1, 1e-9, `normal ${n} at ${p} with h ${hx}, ${hy}`);
          }
        }
      }
    }
    assert.equal(cut, widths.length ** 2 * 40 * 2);
  });

  it("a triangle's hypotenuse cuts cubes by the exact areas (1/2, 7/8, 1/8)", () => {
    const L = 2 * UM;
    const tri = shapeOf(
      // Clockwise on purpose: both orientations are accepted.
      slab([
        [0, 0],
        [0, L],
        [L, 0],
      ]),
      closed,
    );
    const a = 0.7 * UM;
    // Centre on the line x + y = L: the diagonal halves the square.
    const half = fillAt(tri, [a, L - a, 0], h);
    close(half.f, 0.5, 1e-12, "on the hypotenuse");
    for (const c of [0, 1]) close(half.n[c], Math.SQRT1_2, 1e-12, "normal");
    close(half.n[2], 0, 1e-12, "normal z");
    // Centre h/2 inside: the line cuts off a corner triangle of legs h/2 (area h²/8).
    close(fillAt(tri, [a, L - a - h / 2, 0], h).f, 7 / 8, 1e-12, "h/2 inside");
    close(fillAt(tri, [a, L - a + h / 2, 0], h).f, 1 / 8, 1e-12, "h/2 outside");
    // The right-angle corner: a quarter of the square.
    close(fillAt(tri, [0, 0, 0], h).f, 0.25, 1e-12, "corner");
    // Top face cut in half as well: the product.
    close(fillAt(tri, [a, L - a, 1 * UM], h).f, 0.25, 1e-12, "edge of the top face");
  });

  it("a rotated rectangle's fills add up to its area exactly, with its edge normal", () => {
    const w = 1.3 * UM;
    const l = 3.1 * UM;
    const th = (27 * Math.PI) / 180;
    const c = Math.cos(th);
    const sn = Math.sin(th);
    const corners: [number, number][] = [
      [-l / 2, -w / 2],
      [l / 2, -w / 2],
      [l / 2, w / 2],
      [-l / 2, w / 2],
    ].map(([x, y]) => [0.013 * UM + c * x! - sn * y!, -0.021 * UM + sn * x! + c * y!]);
    const shape = shapeOf(slab(corners), closed);
    let sum = 0;
    const n: Vec3 = [0, 0, 0];
    for (let i = -40; i < 40; i++) {
      for (let j = -40; j < 40; j++) {
        sum += shape.fill([(i + 0.5) * h, (j + 0.5) * h, 0], [h, h, h], n) * h * h;
      }
    }
    close(sum / (w * l), 1, 1e-12, "Σ fill·h² / area");
    // A point on the middle of the long edge at +w/2: normal (−sin θ, cos θ).
    const p: Vec3 = [0.013 * UM - sn * (w / 2), -0.021 * UM + c * (w / 2), 0];
    const at = fillAt(shape, p, h);
    assert.ok(at.f > 0.3 && at.f < 0.7, `${at.f}`);
    close(at.n[0], -sn, 1e-9, "nx");
    close(at.n[1], c, 1e-9, "ny");
  });

  it("random star polygons with holes: every fill equals the clipped area", () => {
    for (const seed of [3, 11, 29]) {
      const outer = star(60, 0.1 * UM, -0.05 * UM, 2 * UM, 4 * UM, seed);
      const hole = star(25, 0.2 * UM, 0.1 * UM, 0.5 * UM, 1.2 * UM, seed + 1).reverse();
      const shape = shapeOf(slab(outer, { holes: [hole] }), closed);
      let s = seed * 101;
      const rand = () => ((s = (s * 16807) % 2147483647) - 1) / 2147483646;
      const hh = 0.37 * UM;
      for (let t = 0; t < 3000; t++) {
        const x = (rand() - 0.5) * 9 * UM;
        const y = (rand() - 0.5) * 9 * UM;
        const exact =
          (clipArea(outer, x - hh / 2, x + hh / 2, y - hh / 2, y + hh / 2) -
            clipArea(hole, x - hh / 2, x + hh / 2, y - hh / 2, y + hh / 2)) /
          (hh * hh);
        close(fillAt(shape, [x, y, 0], hh).f, exact, 1e-9, `seed ${seed} at (${x}, ${y})`);
      }
    }
  });

  it("the fill changes continuously as the polygon moves", () => {
    const p: Vec3 = [0.45 * UM, 0.2 * UM, 0];
    let prev = -1;
    for (let k = 0; k <= 200; k++) {
      const dx = (k / 200) * 0.2 * UM;
      const shape = shapeOf(
        slab([
          [-1 * UM + dx, -1 * UM],
          [0.4 * UM + dx, -0.3 * UM],
          [0.3 * UM + dx, 1 * UM],
        ]),
        closed,
      );
      const f = fillAt(shape, p, h).f;
      if (prev >= 0) assert.ok(Math.abs(f - prev) <= 0.02, `jump ${prev} → ${f} at step ${k}`);
      prev = f;
    }
  });

  it("with a sidewall angle the fills add up to the frustum's volume, normals tilted", () => {
    const a = 2 * UM;
    const H = 1 * UM;
    const deg = 20;
    const t = Math.tan((deg * Math.PI) / 180);
    const shape = shapeOf(
      slab(
        [
          [-a / 2, -a / 2],
          [a / 2, -a / 2],
          [a / 2, a / 2],
          [-a / 2, a / 2],
        ],
        { z_min: 0, z_max: H, sidewall_angle_deg: deg },
      ),
      closed,
    );
    const hz = 0.05 * UM;
    let volume = 0;
    const n: Vec3 = [0, 0, 0];
    for (let i = -24; i < 24; i++) {
      for (let j = -24; j < 24; j++) {
        for (let k = -2; k < 24; k++) {
          volume +=
            shape.fill([(i + 0.5) * hz, (j + 0.5) * hz, (k + 0.5) * hz], [hz, hz, hz], n) * hz ** 3;
        }
      }
    }
    // Square frustum: side a at the bottom, a − 2H·tan θ at the top.
    const b = a - 2 * H * t;
    const exact = (H / 3) * (a * a + a * b + b * b);
    close(volume / exact, 1, 2e-3, "Σ fill·h³ / frustum volume");
    // On the +x wall at mid-height: outward normal (cos θ, 0, sin θ).
    const mid = fillAt(shape, [a / 2 - (H / 2) * t, 0, H / 2], hz);
    close(mid.f, 0.5, 1e-9, "wall at mid-height");
    close(mid.n[0], Math.cos((deg * Math.PI) / 180), 1e-9, "nx");
    close(mid.n[1], 0, 1e-9, "ny");
    close(mid.n[2], Math.sin((deg * Math.PI) / 180), 1e-9, "nz");
    assert.ok(
      polySlabContains(
        slab(
          [
            [-a / 2, -a / 2],
            [a / 2, -a / 2],
            [a / 2, a / 2],
            [-a / 2, a / 2],
          ],
          { z_min: 0, z_max: H, sidewall_angle_deg: deg },
        ),
        a / 2 - 0.01 * UM,
        0,
        0.01 * UM,
      ),
    );
    assert.ok(
      !polySlabContains(
        slab(
          [
            [-a / 2, -a / 2],
            [a / 2, -a / 2],
            [a / 2, a / 2],
            [-a / 2, a / 2],
          ],
          { z_min: 0, z_max: H, sidewall_angle_deg: deg },
        ),
        a / 2 - 0.01 * UM,
        0,
        0.9 * UM,
      ),
    );
  });

  it("a 10 000-vertex ring over a 400 × 400 grid costs about what a box does per cell", () => {
    const n = 10_000;
    const outer: [number, number][] = [];
    const inner: [number, number][] = [];
    for (let i = 0; i < n / 2; i++) {
      const a = (2 * Math.PI * i) / (n / 2);
      outer.push([8 * UM * Math.cos(a), 8 * UM * Math.sin(a)]);
      inner.push([6 * UM * Math.cos(-a), 6 * UM * Math.sin(-a)]);
    }
    const shape = shapeOf(slab(outer, { holes: [inner] }), closed);
    const hh = 0.045 * UM;
    const nrm: Vec3 = [0, 0, 0];
    const t0 = performance.now();
    let sum = 0;
    for (let i = 0; i < 400; i++) {
      for (let j = 0; j < 400; j++) {
        // Two z positions per column, as the medium walks z innermost.
        for (const z of [0, 0.5 * UM]) {
          sum += shape.fill([(i - 200 + 0.5) * hh, (j - 200 + 0.5) * hh, z], [hh, hh, hh], nrm);
        }
      }
    }
    const ms = performance.now() - t0;
    // Polygon area: the two regular 5000-gons.
    const area = 0.5 * (n / 2) * Math.sin((4 * Math.PI) / n) * (64 - 36) * UM * UM;
    close((sum / 2) * hh * hh, area, area * 1e-9, "Σ fill·h²");
    assert.ok(ms < 5000, `${ms.toFixed(0)} ms for 320 000 cells`);
  });
});

describe("polyslab validation", () => {
  const problems = (s: PolySlabSpec) => polySlabProblems(s, "structures[2]");

  it("accepts either orientation and a repeated closing vertex", () => {
    const sq: [number, number][] = [
      [0, 0],
      [1e-6, 0],
      [1e-6, 1e-6],
      [0, 1e-6],
    ];
    assert.deepEqual(problems(slab(sq)), []);
    assert.deepEqual(problems(slab([...sq].reverse())), []);
    assert.deepEqual(problems(slab([...sq, [0, 0]])), []);
  });

  it("refuses self-intersection, too few vertices, no area, holes outside, non-finite values", () => {
    const bowtie = problems(
      slab([
        [0, 0],
        [1e-6, 1e-6],
        [1e-6, 0],
        [0, 1e-6],
      ]),
    );
    assert.equal(bowtie[0]?.path, "structures[2].vertices");
    // The edges named are edges of the outline (the last closes it back to vertex 0).
    assert.match(bowtie[0]!.message, /not a simple polygon: edges (0→1 and 2→3|1→2 and 3→0) of/);
    assert.match(
      problems(
        slab([
          [0, 0],
          [1e-6, 0],
          [1e-6, 0],
        ]),
      )[0]!.message,
      /at least 3 distinct/,
    );
    assert.match(
      problems(
        slab([
          [0, 0],
          [1e-6, 0],
          [2e-6, 0],
        ]),
      )[0]!.message,
      /not a simple polygon: edges \d→\d and 2→0 of|no area/,
    );
    const sq: [number, number][] = [
      [0, 0],
      [1e-6, 0],
      [1e-6, 1e-6],
      [0, 1e-6],
    ];
    const outside = problems(
      slab(sq, {
        holes: [
          [
            [2e-6, 0],
            [3e-6, 0],
            [3e-6, 1e-6],
          ],
        ],
      }),
    );
    assert.equal(outside[0]?.path, "structures[2].holes[0]");
    const crossing = problems(
      slab(sq, {
        holes: [
          [
            [0.5e-6, 0.5e-6],
            [1.5e-6, 0.5e-6],
            [0.5e-6, 0.7e-6],
          ],
        ],
      }),
    );
    assert.match(crossing[0]!.message, /holes\[0\]/);
    assert.equal(problems(slab(sq, { z_min: 1e-6, z_max: 1e-6 }))[0]?.path, "structures[2].z_max");
    assert.equal(
      problems(
        slab([
          [0, NaN],
          [1e-6, 0],
          [0, 1e-6],
        ]),
      )[0]?.path,
      "structures[2].vertices[0]",
    );
  });

  it("refuses a sidewall angle that collapses the outline below z_max, naming the height", () => {
    const sq: [number, number][] = [
      [0, 0],
      [1e-6, 0],
      [1e-6, 0.2e-6],
      [0, 0.2e-6],
    ];
    // 0.2 µm wide: the long edges meet at d = 0.1 µm, z = 0.1 µm / tan 45° = 0.1 µm.
    const p = problems(slab(sq, { z_min: 0, z_max: 0.5e-6, sidewall_angle_deg: 45 }));
    assert.equal(p[0]?.path, "structures[2].sidewall_angle_deg");
    assert.match(p[0]!.message, /z = 1e-7 m/);
    assert.deepEqual(problems(slab(sq, { z_min: 0, z_max: 0.05e-6, sidewall_angle_deg: 45 })), []);
    // Negative angles grow the outline and never collapse it.
    assert.deepEqual(problems(slab(sq, { z_min: 0, z_max: 0.5e-6, sidewall_angle_deg: -45 })), []);
  });
});

describe("polyslab physics", () => {
  it("a rectangle outline paints the same medium as the equivalent boxes, through PML too", () => {
    const spec: DomainSpec = {
      size: [1e-6, 1e-6, 1e-6],
      resolution: 25e-9,
      boundary_conditions: ["pml", "pec", "pml"],
      pml_layers: 4,
    };
    const plan = planGrid(spec, 0.99);
    const layout = new YeeLayout(
      [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells],
      spec.boundary_conditions,
    );
    const faces = domainFaces(plan);
    const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ];
    // A guide along x reaching both absorbing x faces (faces between grid lines elsewhere),
    // and a block over part of it.
    const boxes: StructureSpec[] = [
      {
        type: "box",
        center: [0, 0.013e-6, 0.007e-6],
        size: [1e-6, 0.21e-6, 0.2e-6],
        material: "a",
      },
      {
        type: "box",
        center: [0.05e-6, 0, 0.3e-6],
        size: [0.33e-6, 0.17e-6, 0.4e-6],
        material: "b",
      },
    ];
    const slabs: StructureSpec[] = [
      {
        type: "polyslab",
        vertices: rect(-0.5e-6, 0.013e-6 - 0.105e-6, 0.5e-6, 0.013e-6 + 0.105e-6),
        z_min: 0.007e-6 - 0.1e-6,
        z_max: 0.007e-6 + 0.1e-6,
        material: "a",
      },
      {
        type: "polyslab",
        vertices: rect(0.05e-6 - 0.165e-6, -0.085e-6, 0.05e-6 + 0.165e-6, 0.085e-6).reverse(),
        z_min: 0.1e-6,
        z_max: 0.5e-6,
        material: "b",
      },
    ];
    const paint = (structures: StructureSpec[]) =>
      buildMedium(plan, layout, { epsRe: 1, sigma: 0 }, [
        { shape: shapeOf(structures[0]!, faces), material: { epsRe: 4, sigma: 0 } },
        { shape: shapeOf(structures[1]!, faces), material: { epsRe: 9, sigma: 0 } },
      ]);
    const a = paint(boxes);
    const b = paint(slabs);
    let interfaces = 0;
    for (let c = 0; c < 3; c++) {
      for (let cell = 0; cell < layout.paddedCells; cell++) {
        const ea = a.epsEff[a.index[c][cell]!]!;
        const eb = b.epsEff[b.index[c][cell]!]!;
        assert.ok(Math.abs(ea - eb) <= 1e-6 * ea, `component ${c}, cell ${cell}: ${ea} vs ${eb}`);
        if (ea !== 1 && ea !== 4 && ea !== 9) interfaces++;
      }
    }
    assert.ok(interfaces > 1000, `${interfaces} interface cells compared`);
  });

  forEachBackend((backend) => {
    it("a polyslab slab transmits as the box slab and as Airy (n = 2, faces between grid lines)", async () => {
      const wavelength = 1e-6;
      const n = 2;
      const z0 = 0.0137e-6;
      const d = 0.2913e-6;
      const length = 2e-6;
      const step = length / Math.round(length / (wavelength / (n * 24)));
      const run = async (structure: StructureSpec) => {
        const spec = lineSpec({
          axis: 2,
          wavelengthM: wavelength,
          stepM: step,
          lengthM: length,
          structures: [structure],
          monitors: [pointMonitor("t", 2, length / 2 - step / 2, ["Ey"])],
          threshold: 1e-8,
        });
        const result = await runOn(backend, spec, constantMaterials({ glass: n * n }));
        return abs2(phasor(result.monitors[0]!.data.Ey));
      };
      const box = await run(boxSlab(2, z0, z0 + d, "glass"));
      // An outline much larger than the periodic cross-section: the same infinite slab.
      const poly = await run({
        type: "polyslab",
        vertices: [
          [-1, -1],
          [1, -1],
          [1, 1],
          [-1, 1],
        ],
        z_min: z0,
        z_max: z0 + d,
        material: "glass",
      });
      const airy = 1 - airySlabReflectance(n, d, wavelength);
      assert.ok(Math.abs(poly - box) < 1e-9, `polyslab ${poly} vs box ${box}`);
      assert.ok(Math.abs(poly - airy) < 3 / 24 ** 2, `polyslab ${poly} vs Airy ${airy}`);
    });
  });
});
