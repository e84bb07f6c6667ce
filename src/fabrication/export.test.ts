import { test } from "node:test";
import assert from "node:assert/strict";
import type { StructureSpec } from "../solver/types.js";
import { ExportInputError, exportGds, type ExportStructure } from "./export.js";
import { readGds } from "./gds/reader.js";
import { ringArea2 } from "./geometry/polygon.js";

const UM = 1e-6;
const box = (
  cx: number,
  cy: number,
  cz: number,
  sx: number,
  sy: number,
  sz: number,
  material = "Si",
): StructureSpec => ({
  type: "box",
  center: [cx * UM, cy * UM, cz * UM],
  size: [sx * UM, sy * UM, sz * UM],
  material,
});
const mapping = { Si: { layer: 1, datatype: 0 }, SiO2: { layer: 2, datatype: 0 } };

test("export: a box becomes its rectangle in the job's frame, snapped to the grid", () => {
  const r = exportGds({
    structures: [box(0.25, -0.1, 0.11, 0.5, 0.22, 0.22)],
    layerMapping: mapping,
    gridResolutionNm: 1,
    cellName: "JOB_12345678",
  });
  const layout = readGds(r.bytes);
  assert.deepEqual(layout.topCells, ["JOB_12345678"]);
  assert.deepEqual(Array.from(layout.layers.get("1/0")![0]!), [0, -210, 500, -210, 500, 10, 0, 10]);
  assert.deepEqual(r.bbox_um, [0, -0.21, 0.5, 0.01]);
  assert.deepEqual(r.bounding_box_um, [0.5, 0.22]);
  assert.equal(r.polygon_count, 1);
  assert.deepEqual(r.layers, [
    {
      layer: 1,
      datatype: 0,
      key: "1/0",
      materials: ["Si"],
      polygon_count: 1,
      merged_polygon_count: 1,
    },
  ]);
  // A 7 nm grid: every coordinate a multiple of 7.
  const coarse = exportGds({
    structures: [box(0.25, -0.1, 0, 0.5, 0.22, 0.1)],
    layerMapping: mapping,
    gridResolutionNm: 7,
    cellName: "C",
  });
  const ring = readGds(coarse.bytes).layers.get("1/0")![0]!;
  for (const v of ring) assert.ok(v % 7 === 0, `${v} on the 7 nm grid`);
});

test("export: spheres and cylinders give circles or rectangles as the plane cuts them", () => {
  const structures: ExportStructure[] = [
    { type: "sphere", center: [0, 0, 0], radius: 2 * UM, material: "Si" },
    {
      type: "cylinder",
      center: [10 * UM, 0, 0],
      radius: 1 * UM,
      height: 3 * UM,
      axis: "z",
      material: "Si",
    },
    {
      type: "cylinder",
      center: [20 * UM, 0, 0],
      radius: 1 * UM,
      height: 3 * UM,
      axis: "x",
      material: "Si",
    },
    {
      type: "cylinder",
      center: [30 * UM, 0, 0],
      radius: 1 * UM,
      height: 3 * UM,
      axis: "y",
      material: "Si",
    },
  ];
  const r = exportGds({ structures, layerMapping: mapping, gridResolutionNm: 1, cellName: "C" });
  const rings = readGds(r.bytes).layers.get("1/0")!;
  const area = (i: number) => Math.abs(ringArea2(rings[i]!)) / 2;
  // Inscribed polygon within 0.5 nm sagitta: area short of πr² by at most ~2πr·0.5 nm.
  assert.ok(
    Math.abs(area(0) - Math.PI * 2000 ** 2) < 2 * Math.PI * 2000 * 1,
    `sphere cut ${area(0)}`,
  );
  assert.ok(Math.abs(area(1) - Math.PI * 1000 ** 2) < 2 * Math.PI * 1000 * 1);
  assert.deepEqual(Array.from(rings[2]!), [18500, -1000, 21500, -1000, 21500, 1000, 18500, 1000]);
  assert.deepEqual(Array.from(rings[3]!), [29000, -1500, 31000, -1500, 31000, 1500, 29000, 1500]);
  assert.equal(r.max_sagitta_nm, 0.5);
  // Off-centre plane: a sphere cut 1.2 µm from its centre has radius √(2² − 1.2²) = 1.6 µm.
  const off = exportGds({
    structures: structures.slice(0, 1),
    layerMapping: mapping,
    gridResolutionNm: 1,
    zUm: 1.2,
    cellName: "C",
  });
  assert.ok(Math.abs(off.bbox_um![2] - 1.6) < 0.002, `bbox ${off.bbox_um}`);
});

test("export: unmapped materials, missed structures and sub-grid slivers are listed, aliases map", () => {
  const r = exportGds({
    structures: [
      box(0, 0, 0, 1, 1, 0.2, "silicon"),
      box(2, 0, 0, 1, 1, 0.2, "Si3N4"),
      box(4, 0, 5, 1, 1, 0.2, "Si"),
      box(6, 0, 0, 0.004, 1, 0.2, "SiO2"),
      {
        type: "polyslab",
        vertices: [
          [8 * UM, 0],
          [9 * UM, 0],
          [8 * UM, 1 * UM],
        ],
        z_min: -0.1 * UM,
        z_max: 0.1 * UM,
        material: "SiO2",
      },
    ],
    layerMapping: mapping,
    gridResolutionNm: 10,
    zUm: 0,
    cellName: "C",
  });
  assert.deepEqual(r.unmapped_materials, ["Si3N4"]);
  assert.deepEqual(
    r.skipped.map((s) => s.index),
    [2, 3],
  );
  assert.match(r.skipped[0]!.reason, /not cut by the plane z = 0 µm/);
  assert.match(r.skipped[1]!.reason, /thinner than the 10 nm grid/);
  assert.deepEqual(
    r.layers.map((l) => [l.key, l.materials, l.polygon_count]),
    [
      ["1/0", ["silicon"], 1],
      ["2/0", ["SiO2"], 1],
    ],
  );
  assert.equal(r.cut_plane, 0);
});

test("export: overlapping structures on one layer are kept as drawn, merged count reported", () => {
  const r = exportGds({
    structures: [box(0, 0, 0, 1, 1, 0.2), box(0.5, 0, 0, 1, 1, 0.2)],
    layerMapping: mapping,
    gridResolutionNm: 1,
    cellName: "C",
  });
  assert.equal(r.polygon_count, 2);
  assert.equal(r.merged_polygon_count, 1);
});

test("export: a shape past what GDS II holds (±2.1 m) is cut to the domain, and listed", () => {
  // A strip 10 m long (an infinite guide, as the examples draw one) wrapped past 32 bits: its
  // file held ±705 032 704 nm (an outside audit). A polyslab of the same reach is cut too.
  const slab: StructureSpec = {
    type: "polyslab",
    vertices: [
      [-5, -0.25e-6],
      [5, -0.25e-6],
      [5, 0.25e-6],
      [-5, 0.25e-6],
    ],
    z_min: 0,
    z_max: 0.22e-6,
    material: "SiO2",
  };
  const r = exportGds({
    structures: [box(0, 0, 0.11, 0.5, 10e6, 0.22), slab, box(0, 0, 0.11, 0.1, 0.1, 0.22)],
    layerMapping: mapping,
    gridResolutionNm: 1,
    cellName: "JOB_12345678",
    domainHalfUm: [2, 1.5],
  });
  const layout = readGds(r.bytes);
  // The strip's rectangle, cut to the domain's ±1.5 µm along y (its start vertex as clipped).
  const corners = (ring: Int32Array) =>
    Array.from({ length: ring.length / 2 }, (_, k) => `${ring[2 * k]},${ring[2 * k + 1]}`).sort();
  assert.deepEqual(corners(layout.layers.get("1/0")![0]!), [
    "-250,-1500",
    "-250,1500",
    "250,-1500",
    "250,1500",
  ]);
  assert.deepEqual(r.bbox_um, [-2, -1.5, 2, 1.5]);
  assert.deepEqual(
    r.clipped.map((c) => c.index),
    [0, 1],
  );
  assert.match(
    r.clipped[0]!.reason,
    /reaches past what GDS II holds .*cut to the domain, ±2 × ±1\.5 µm/,
  );
  assert.deepEqual(r.skipped, []);
  // Without a domain to cut to, it is left out and listed, never wrapped.
  const alone = exportGds({
    structures: [box(0, 0, 0.11, 0.5, 10e6, 0.22)],
    layerMapping: mapping,
    gridResolutionNm: 1,
    cellName: "JOB_12345678",
  });
  assert.equal(alone.polygon_count, 0);
  assert.match(alone.skipped[0]!.reason, /reaches past what GDS II holds/);
});

test("export: bad options are refused with the field named", () => {
  const base = { structures: [], layerMapping: mapping, cellName: "C" };
  for (const grid of [0, 1.5, -3, 20_000]) {
    assert.throws(
      () => exportGds({ ...base, gridResolutionNm: grid }),
      (e: unknown) => e instanceof ExportInputError && e.path === "grid_resolution_nm",
    );
  }
  assert.throws(
    () =>
      exportGds({
        ...base,
        gridResolutionNm: 1,
        layerMapping: { Si: { layer: 70000, datatype: 0 } },
      }),
    (e: unknown) => e instanceof ExportInputError && e.path === "layer_mapping.Si.layer",
  );
  assert.throws(
    () => exportGds({ ...base, gridResolutionNm: 1, zUm: NaN }),
    (e: unknown) => e instanceof ExportInputError && e.path === "z_um",
  );
  const empty = exportGds({ ...base, gridResolutionNm: 1 });
  assert.equal(empty.bbox_um, null);
  assert.deepEqual(empty.bounding_box_um, [0, 0]);
  assert.equal(readGds(empty.bytes).polygonCount, 0);
});

test("export: 1 000 structures take well under a second", () => {
  const structures: ExportStructure[] = [];
  for (let i = 0; i < 1000; i += 1) {
    const x = (i % 40) * 3;
    const y = Math.floor(i / 40) * 3;
    structures.push(
      i % 3 === 0
        ? { type: "sphere", center: [x * UM, y * UM, 0], radius: 1.2 * UM, material: "Si" }
        : i % 3 === 1
          ? {
              type: "cylinder",
              center: [x * UM, y * UM, 0],
              radius: 1 * UM,
              height: 0.22 * UM,
              axis: "z",
              material: "SiO2",
            }
          : box(x, y, 0, 2, 0.5, 0.22),
    );
  }
  const started = performance.now();
  const r = exportGds({
    structures,
    layerMapping: mapping,
    gridResolutionNm: 1,
    cellName: "BENCH",
  });
  const ms = performance.now() - started;
  assert.equal(r.polygon_count, 1000);
  assert.ok(ms < 1000, `export took ${ms.toFixed(0)} ms`);
});

test("export: a layer mapping that maps none of the structures' materials is refused, naming them", () => {
  const structures = [box(0, 0, 0, 1, 1, 0.2, "Si"), box(2, 0, 0, 1, 1, 0.2, "SiO2")];
  const run = (layerMapping: Record<string, { layer: number; datatype: number }>) =>
    exportGds({ structures, layerMapping, gridResolutionNm: 10, cellName: "C" });
  assert.throws(
    () => run({ Au: { layer: 1, datatype: 0 } }),
    (err: unknown) =>
      err instanceof ExportInputError &&
      err.path === "layer_mapping" &&
      /maps none of the job's materials \(Si, SiO2\)/.test(err.message),
  );
  // One mapped material is enough (the other is listed as unmapped).
  assert.deepEqual(run({ silicon: { layer: 1, datatype: 0 } }).unmapped_materials, ["SiO2"]);
  // A job without structures exports an empty layout, whatever the mapping.
  const empty = exportGds({
    structures: [],
    layerMapping: { Au: { layer: 1, datatype: 0 } },
    gridResolutionNm: 10,
    cellName: "C",
  });
  assert.equal(empty.polygon_count, 0);
});
