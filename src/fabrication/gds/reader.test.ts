import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { GdsBuilder } from "../testing/gds-builder.js";
import { ringArea2 } from "../geometry/polygon.js";
import { GdsError, type GdsErrorReason } from "./errors.js";
import { readGds, type GdsReadLimits } from "./reader.js";
import { Rec } from "./records.js";
import { writeGds, type GdsTextLabel } from "./writer.js";

const rings = (layout: ReturnType<typeof readGds>, key: string): number[][] =>
  (layout.layers.get(key) ?? []).map((r) => Array.from(r));

function expectGdsError(
  bytes: Uint8Array,
  reason: GdsErrorReason,
  pattern: RegExp,
  limits?: Partial<GdsReadLimits>,
): void {
  assert.throws(
    () => readGds(bytes, { limits }),
    (err: unknown) => {
      assert.ok(err instanceof GdsError, `expected a GdsError, got ${String(err)}`);
      assert.equal(err.reason, reason, err.message);
      assert.match(err.message, pattern);
      return true;
    },
  );
}

const square = [0, 0, 100, 0, 100, 100, 0, 100];

test("reader: what the writer wrote comes back vertex for vertex", () => {
  const tri = Int32Array.of(-500, -500, 700, -400, 0, 900);
  const { bytes, elementCount } = writeGds({
    cellName: "JOB_12345678",
    layers: [
      { layer: 1, datatype: 0, polygons: [Int32Array.from(square), tri] },
      { layer: 34, datatype: 7, polygons: [Int32Array.of(5, 5, 9, 5, 9, 9, 5, 9)] },
    ],
  });
  assert.equal(elementCount, 3);
  const layout = readGds(bytes);
  assert.deepEqual(layout.cells, ["JOB_12345678"]);
  assert.deepEqual(layout.topCells, ["JOB_12345678"]);
  assert.equal(layout.dbuMetres, 1e-9);
  assert.equal(layout.dbuUserUnits, 1e-3);
  assert.deepEqual(rings(layout, "1/0"), [square, Array.from(tri)]);
  assert.deepEqual(rings(layout, "34/7"), [[5, 5, 9, 5, 9, 9, 5, 9]]);
  assert.deepEqual(layout.bboxNm, [-500, -500, 700, 900]);
  assert.equal(layout.polygonCount, 3);
  assert.equal(layout.elementCount, 3);
});

test("reader: writer splits large polygons into pieces of the same area", () => {
  const n = 20000;
  const ring = new Int32Array(2 * n);
  for (let i = 0; i < n; i += 1) {
    const a = (2 * Math.PI * i) / n;
    ring[2 * i] = Math.round(1e6 * Math.cos(a));
    ring[2 * i + 1] = Math.round(1e6 * Math.sin(a));
  }
  const { bytes, elementCount } = writeGds({
    cellName: "BIG",
    layers: [{ layer: 1, datatype: 0, polygons: [ring] }],
  });
  assert.ok(elementCount >= 2, `expected pieces, got ${elementCount}`);
  const back = readGds(bytes).layers.get("1/0")!;
  for (const r of back) assert.ok(r.length / 2 <= 4094, `piece with ${r.length / 2} vertices`);
  const area = back.reduce((a, r) => a + Math.abs(ringArea2(r)) / 2, 0);
  // Pieces meet exactly: cut points are rounded identically on both sides.
  assert.ok(Math.abs(area - Math.abs(ringArea2(ring)) / 2) <= n, `area ${area}`);
});

test("reader: SREF and AREF with rotation, reflection and magnification are flattened exactly", () => {
  const bytes = new GdsBuilder()
    .begin()
    .cell("LEAF", (b) => b.boundary(1, 0, [0, 0, 100, 0, 100, 50, 0, 50]))
    .cell("TOP", (b) =>
      b
        .sref("LEAF", 1000, 0)
        .sref("LEAF", 2000, 0, { angle: 90 })
        .sref("LEAF", 3000, 0, { reflect: true })
        .sref("LEAF", 4000, 0, { mag: 2, angle: 180 })
        .aref("LEAF", 3, 2, [0, 1000], [200, 0], [0, 300]),
    )
    .end();
  const layout = readGds(bytes);
  assert.deepEqual(layout.topCells, ["TOP"]);
  const got = rings(layout, "1/0");
  assert.equal(got.length, 4 + 6);
  assert.deepEqual(got[0], [1000, 0, 1100, 0, 1100, 50, 1000, 50]);
  // Rotation by 90° about the placement: (x, y) → (−y, x).
  assert.deepEqual(got[1], [2000, 0, 2000, 100, 1950, 100, 1950, 0]);
  // Reflection about x: (x, y) → (x, −y).
  assert.deepEqual(got[2], [3000, 0, 3100, 0, 3100, -50, 3000, -50]);
  // Magnify 2 then rotate 180°: (x, y) → (−2x, −2y).
  assert.deepEqual(got[3], [4000, 0, 3800, 0, 3800, -100, 4000, -100]);
  // Array: columns step (200, 0), rows step (0, 300), starting at (0, 1000).
  const origins = got.slice(4).map((r) => [r[0], r[1]]);
  assert.deepEqual(origins, [
    [0, 1000],
    [200, 1000],
    [400, 1000],
    [0, 1300],
    [200, 1300],
    [400, 1300],
  ]);
});

test("reader: a 30° rotation rounds each vertex to the nearest nanometre", () => {
  const bytes = new GdsBuilder()
    .begin()
    .cell("LEAF", (b) => b.boundary(2, 1, [0, 0, 1000, 0, 1000, 1000, 0, 1000]))
    .cell("TOP", (b) => b.sref("LEAF", 0, 0, { angle: 30 }))
    .end();
  const [r] = rings(readGds(bytes), "2/1");
  const c = Math.cos(Math.PI / 6);
  const s = Math.sin(Math.PI / 6);
  const expected = [0, 0, 1000, 0, 1000, 1000, 0, 1000].flatMap((v, i, a) =>
    i % 2 === 0 ? [Math.round(c * v - s * a[i + 1]!), Math.round(s * v + c * a[i + 1]!)] : [],
  );
  assert.deepEqual(r, expected);
});

test("reader: PATH end types 0, 2, 4 and 1 and a mitred bend", () => {
  const bytes = new GdsBuilder()
    .begin()
    .cell("TOP", (b) =>
      b
        .path(1, [0, 0, 1000, 0], 100, 0)
        .path(2, [0, 0, 1000, 0], 100, 2)
        .path(3, [0, 0, 1000, 0], 100, 4, [20, 30])
        .path(4, [0, 0, 1000, 0], 100, 1)
        .path(5, [0, 0, 1000, 0, 1000, 1000], 100, 0),
    )
    .end();
  const layout = readGds(bytes);
  const box = (key: string) => {
    const [r] = layout.layers.get(key)!;
    const xs = Array.from(r!).filter((_, i) => i % 2 === 0);
    const ys = Array.from(r!).filter((_, i) => i % 2 === 1);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  };
  const area = (key: string) => Math.abs(ringArea2(layout.layers.get(key)![0]!)) / 2;
  assert.deepEqual(box("1/0"), [0, -50, 1000, 50]);
  assert.equal(area("1/0"), 100_000);
  assert.deepEqual(box("2/0"), [-50, -50, 1050, 50]);
  assert.deepEqual(box("3/0"), [-20, -50, 1030, 50]);
  // Round ends: a 1000 × 100 body plus a disc of radius 50, inscribed polygon within 1 nm.
  const round = area("4/0");
  const exact = 100_000 + Math.PI * 50 * 50;
  assert.ok(round <= exact && round > exact - 2 * Math.PI * 50 * 1, `round-ended area ${round}`);
  // A 90° bend with a mitre: the outer corner reaches (1050, −50); area 1050·100 + 950·100.
  assert.equal(area("5/0"), 200_000);
  assert.deepEqual(box("5/0"), [0, -50, 1050, 1000]);
});

test("reader: database units other than 1 nm are converted; TEXT is a label, not a shape", () => {
  const five = new GdsBuilder()
    .begin(5e-9)
    .cell("TOP", (b) => b.boundary(1, 0, square).text(10, 3, 7, "label", 2))
    .end();
  const l5 = readGds(five);
  assert.deepEqual(rings(l5, "1/0"), [square.map((v) => 5 * v)]);
  assert.ok(l5.warnings.some((w) => /1 TEXT element\(s\) read as labels, not drawn/.test(w)));
  assert.equal(l5.layers.has("10/0"), false);
  assert.equal(l5.layers.has("10/2"), false);
  assert.deepEqual(l5.labels, [{ layer: 10, texttype: 2, text: "label", x: 15, y: 35 }]);
  const tenth = new GdsBuilder()
    .begin(1e-10)
    .cell("TOP", (b) => b.boundary(1, 0, [0, 0, 15, 0, 15, 15, 0, 15]))
    .end();
  const lt = readGds(tenth);
  assert.deepEqual(rings(lt, "1/0"), [[0, 0, 2, 0, 2, 2, 0, 2]]);
  assert.ok(lt.warnings.some((w) => /rounded to 1 nm/.test(w)));
});

test("reader: the writer's labels come back with layer, texttype, string and point", () => {
  const { bytes } = writeGds({
    cellName: "TOP",
    layers: [{ layer: 1, datatype: 0, polygons: [Int32Array.from(square)] }],
    labels: [
      { layer: 1, texttype: 10, text: "o1", x: 0, y: 50 },
      { layer: 66, texttype: 0, text: "odd length text", x: -7, y: 2_000_000_000 },
    ],
  });
  const layout = readGds(bytes);
  assert.deepEqual(layout.labels, [
    { layer: 1, texttype: 10, text: "o1", x: 0, y: 50 },
    { layer: 66, texttype: 0, text: "odd length text", x: -7, y: 2_000_000_000 },
  ]);
  // Labels are not shapes: the box is the square's alone.
  assert.deepEqual(layout.bboxNm, [0, 0, 100, 100]);
  assert.equal(layout.polygonCount, 1);
  const bad = (label: Partial<GdsTextLabel>) => () =>
    writeGds({
      cellName: "T",
      layers: [],
      labels: [{ layer: 1, texttype: 0, text: "a", x: 0, y: 0, ...label }],
    });
  assert.throws(bad({ text: "" }), RangeError);
  assert.throws(bad({ text: "é" }), RangeError);
  assert.throws(bad({ texttype: 40000 }), RangeError);
  assert.throws(bad({ x: 0.5 }), RangeError);
});

test("reader: labels in referenced cells are flattened through rotation, reflection and arrays", () => {
  // A port label at the middle of a 100 nm-wide guide's left end, (0, 50), placed as the
  // polygons are: the label's point must land on the transformed polygon's end face.
  const bytes = new GdsBuilder()
    .begin()
    .cell("GUIDE", (b) =>
      b.boundary(1, 0, [0, 0, 1000, 0, 1000, 100, 0, 100]).text(1, 0, 50, "o1", 10),
    )
    .cell("MID", (b) => b.sref("GUIDE", 0, 0, { angle: 90 }))
    .cell("TOP", (b) =>
      b
        .sref("GUIDE", 5000, 0, { reflect: true })
        .sref("MID", 0, 0, { angle: 180 })
        .sref("GUIDE", 0, 3000, { angle: 30 })
        .aref("GUIDE", 2, 1, [0, 9000], [2000, 0], [0, 500])
        .text(2, 1, 2, "top"),
    )
    .end();
  const layout = readGds(bytes);
  const labels = layout.labels.map((l) => [l.text, l.layer, l.texttype, l.x, l.y]);
  const c = Math.cos(Math.PI / 6);
  const s = Math.sin(Math.PI / 6);
  assert.deepEqual(labels, [
    // A cell's own labels come before those of the cells it places.
    ["top", 2, 0, 1, 2],
    // Reflection about x: (0, 50) → (0, −50), then placed at (5000, 0).
    ["o1", 1, 10, 5000, -50],
    // 90° then 180°: (x, y) → (−y, x) → (y, −x): (0, 50) → (50, 0).
    ["o1", 1, 10, 50, 0],
    // 30°, rounded to the nanometre like the vertices.
    ["o1", 1, 10, Math.round(-s * 50), Math.round(3000 + c * 50)],
    ["o1", 1, 10, 0, 9050],
    ["o1", 1, 10, 2000, 9050],
  ]);
  // Each label sits on its placed polygon's edge (checked for the mirrored and rotated ones).
  const [mirrored, rotated] = rings(layout, "1/0");
  assert.deepEqual(mirrored, [5000, 0, 6000, 0, 6000, -100, 5000, -100]);
  assert.deepEqual(rotated, [0, 0, 0, -1000, 100, -1000, 100, 0]);
  // A label-only cell placed in an array still counts towards the label limit.
  const many = new GdsBuilder()
    .begin()
    .cell("PIN", (b) => b.text(1, 0, 0, "p"))
    .cell("TOP", (b) => b.aref("PIN", 300, 400, [0, 0], [10, 0], [0, 10]))
    .end();
  assert.equal(readGds(many, { limits: { maxLabels: 200_000 } }).labels.length, 120_000);
  expectGdsError(many, "limit_exceeded", /more than 100000 TEXT labels/);
});

test("reader: a TEXT needs a layer, one point and a string", () => {
  const text = (body: (b: GdsBuilder) => GdsBuilder) =>
    new GdsBuilder()
      .begin()
      .cell("T", (b) => body(b.none(Rec.TEXT)).none(Rec.ENDEL))
      .end();
  expectGdsError(
    text((b) => b.int16(Rec.LAYER, 1).int16(Rec.TEXTTYPE, 0).ascii(Rec.STRING, "a")),
    "bad_value",
    /TEXT .* has no XY/,
  );
  expectGdsError(
    text((b) =>
      b.int16(Rec.LAYER, 1).int16(Rec.TEXTTYPE, 0).int32(Rec.XY, 0, 0, 1, 1).ascii(Rec.STRING, "a"),
    ),
    "bad_value",
    /TEXT element at byte \d+ has 2 points/,
  );
  expectGdsError(
    text((b) => b.int16(Rec.LAYER, 1).int16(Rec.TEXTTYPE, 0).int32(Rec.XY, 0, 0)),
    "bad_value",
    /no STRING/,
  );
  expectGdsError(
    text((b) =>
      b.int16(Rec.LAYER, -1).int16(Rec.TEXTTYPE, 0).int32(Rec.XY, 0, 0).ascii(Rec.STRING, "a"),
    ),
    "bad_value",
    /layer -1\/0/,
  );
});

test("reader: BOX elements are read as their rectangle", () => {
  const bytes = new GdsBuilder()
    .begin()
    .cell("TOP", (b) => b.box(7, 3, 10, 20, 30, 50))
    .end();
  assert.deepEqual(rings(readGds(bytes), "7/3"), [[10, 20, 30, 20, 30, 50, 10, 50]]);
});

test("reader: malformed records each give a typed error that names the record", () => {
  const valid = new GdsBuilder()
    .begin()
    .cell("TOP", (b) => b.boundary(1, 0, square))
    .end();
  expectGdsError(valid.subarray(0, valid.length - 3), "truncated", /ends/);
  // Cut inside the XY record's coordinates.
  let xyAt = 0;
  while (!(valid[xyAt + 2] === Rec.XY && valid[xyAt + 3] === 3)) xyAt += 1;
  expectGdsError(
    valid.subarray(0, xyAt + 9),
    "truncated",
    /XY \(0x10\) record at byte \d+ needs 44 bytes/,
  );
  expectGdsError(
    new GdsBuilder().begin().raw(2, Rec.BGNSTR, 2).bytes(),
    "bad_record_length",
    /BGNSTR \(0x05\).*length 2/,
  );
  expectGdsError(
    new GdsBuilder().begin().raw(7, Rec.BGNSTR, 2, [0, 0, 0]).bytes(),
    "bad_record_length",
    /length 7/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("T", (b) =>
        b
          .none(Rec.BOUNDARY)
          .int16(Rec.LAYER, 1)
          .int16(Rec.DATATYPE, 0)
          .record(Rec.XY, 3, [0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3])
          .none(Rec.ENDEL),
      )
      .end(),
    "bad_record_length",
    /XY \(0x10\).*whole \(x, y\) pairs/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("T", (b) => b.none(Rec.BOUNDARY).int32(Rec.LAYER, 1))
      .end(),
    "bad_data_type",
    /LAYER \(0x0d\).*data type 3; expected 2/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("T", (b) => b.none(Rec.TEXTNODE))
      .end(),
    "unsupported_record",
    /TEXTNODE \(0x14\)/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("T", (b) => b.none(0x5a))
      .end(),
    "unsupported_record",
    /unknown record 0x5a/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("T", (b) =>
        b
          .none(Rec.BOUNDARY)
          .int16(Rec.LAYER, 1)
          .int16(Rec.DATATYPE, 0)
          .int32(Rec.XY, 0, 0, 1, 0, 0, 0)
          .none(Rec.ENDEL),
      )
      .end(),
    "bad_value",
    /BOUNDARY.*3 points/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("T", (b) => b.none(Rec.ENDEL))
      .end(),
    "unexpected_record",
    /ENDEL/,
  );
  expectGdsError(Uint8Array.of(0, 6, 0x05, 2, 0, 0, 0, 0), "not_gds", /HEADER/);
  expectGdsError(
    new GdsBuilder()
      .int16(Rec.HEADER, 600)
      .int16(Rec.BGNLIB, ...Array(12).fill(0))
      .none(Rec.ENDLIB)
      .end(),
    "bad_value",
    /no UNITS/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("A", () => {})
      .cell("A", () => {})
      .end(),
    "duplicate_cell",
    /"A" is defined twice/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("L", (b) => b.boundary(1, 0, square))
      .cell("T", (b) =>
        b
          .none(Rec.SREF)
          .ascii(Rec.SNAME, "L")
          .bits(Rec.STRANS, 0x0004)
          .int32(Rec.XY, 0, 0)
          .none(Rec.ENDEL),
      )
      .end(),
    "unsupported_record",
    /absolute magnification/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("L", (b) => b.boundary(1, 0, square))
      .cell("T", (b) => b.aref("L", 0, 2, [0, 0], [1, 0], [0, 1]))
      .end(),
    "bad_value",
    /0 columns/,
  );
});

test("reader: hierarchy errors — undefined cells, cycles, depth", () => {
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("TOP", (b) => b.sref("MISSING", 0, 0))
      .end(),
    "undefined_cell",
    /"TOP" references "MISSING"/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("A", (b) => b.sref("B", 0, 0))
      .cell("B", (b) => b.sref("A", 0, 0))
      .end(),
    "reference_cycle",
    /A → B → A|B → A → B/,
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("SELF", (b) => b.sref("SELF", 0, 0))
      .end(),
    "reference_cycle",
    /SELF → SELF/,
  );
  // A cycle no top cell reaches still makes the file invalid.
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("TOP", (b) => b.boundary(1, 0, square))
      .cell("X", (b) => b.sref("Y", 0, 0))
      .cell("Y", (b) => b.sref("X", 0, 0))
      .end(),
    "reference_cycle",
    /cycle/,
  );
  const chain = (n: number): Uint8Array => {
    const b = new GdsBuilder().begin();
    b.cell("C0", (c) => c.boundary(1, 0, square));
    for (let i = 1; i <= n; i += 1) b.cell(`C${i}`, (c) => c.sref(`C${i - 1}`, 1, 0));
    return b.end();
  };
  assert.equal(readGds(chain(64)).polygonCount, 1);
  expectGdsError(chain(65), "limit_exceeded", /levels/);
  // A chain of 20 000 cells: refused by the depth limit, no stack overflow, promptly.
  const started = Date.now();
  expectGdsError(chain(20000), "limit_exceeded", /levels/);
  assert.ok(Date.now() - started < 5000);
});

test("reader: absurd arrays and billions of points are refused before any flattening", () => {
  const big = new GdsBuilder()
    .begin()
    .cell("L", (b) => b.boundary(1, 0, square))
    .cell("M", (b) => b.aref("L", 32767, 32767, [0, 0], [200, 0], [0, 200]))
    .cell("TOP", (b) => b.aref("M", 32767, 32767, [0, 0], [1, 0], [0, 1]))
    .end();
  const started = Date.now();
  expectGdsError(big, "limit_exceeded", /more than 2000000 polygons/);
  assert.ok(Date.now() - started < 2000, "checked from the hierarchy, not by flattening");
  // 8 000-vertex polygon placed 1 000 × 1 000 times: 8·10⁹ points.
  const ring: number[] = [];
  for (let i = 0; i < 8000; i += 1)
    ring.push(Math.round(1e5 * Math.cos(i / 1273)), Math.round(1e5 * Math.sin(i / 1273)));
  const points = new GdsBuilder()
    .begin()
    .cell("L", (b) => b.boundary(1, 0, ring))
    .cell("TOP", (b) => b.aref("L", 1000, 1000, [0, 0], [300000, 0], [0, 300000]))
    .end();
  expectGdsError(points, "limit_exceeded", /vertices/, { maxPolygons: 10_000_000 });
  expectGdsError(points, "limit_exceeded", /records/, { maxRecords: 5 });
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("A", () => {})
      .cell("B", () => {})
      .cell("C", () => {})
      .end(),
    "limit_exceeded",
    /more than 2 structures/,
    { maxCells: 2 },
  );
  expectGdsError(
    new GdsBuilder()
      .begin()
      .cell("L", (b) =>
        b.boundary(
          1,
          0,
          [2_000_000_000, 0, 2_100_000_000, 0, 2_100_000_000, 10, 2_000_000_000, 10],
        ),
      )
      .cell("TOP", (b) => b.sref("L", 0, 0, { mag: 2 }))
      .end(),
    "coordinate_overflow",
    /32-bit/,
  );
});

test("reader fuzz: any bytes give a layout or a GdsError, quickly", () => {
  const valid = new GdsBuilder()
    .begin()
    .cell("LEAF", (b) =>
      b.boundary(1, 0, square).path(2, [0, 0, 500, 0, 500, 500], 60, 1).box(3, 0, 0, 0, 10, 10),
    )
    .cell("TOP", (b) =>
      b
        .sref("LEAF", 10, 20, { angle: 90, mag: 1.5 })
        .aref("LEAF", 4, 3, [0, 0], [700, 0], [0, 700], { reflect: true })
        .text(9, 0, 0, "x"),
    )
    .end();
  assert.equal(readGds(valid).polygonCount, 3 * 13);
  const limits = { maxPolygons: 50_000, maxPoints: 500_000, maxRecords: 100_000 };
  const check = (bytes: Uint8Array): void => {
    const started = Date.now();
    try {
      readGds(bytes, { limits });
    } catch (err) {
      if (!(err instanceof GdsError)) throw err;
      assert.ok(err.message.length > 10);
    }
    assert.ok(Date.now() - started < 1000, "each input is handled within a second");
  };
  // Byte flips, insertions, deletions and truncations of a valid hierarchical file.
  const mutation = fc.record({
    flips: fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), {
      maxLength: 6,
    }),
    cut: fc.option(fc.nat(valid.length)),
    insertAt: fc.option(fc.tuple(fc.nat(valid.length), fc.uint8Array({ maxLength: 16 }))),
  });
  fc.assert(
    fc.property(mutation, ({ flips, cut, insertAt }) => {
      let bytes = Uint8Array.from(valid);
      for (const [at, v] of flips) bytes[at] = v;
      if (insertAt) {
        const [at, extra] = insertAt;
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...extra, ...bytes.subarray(at)]);
      }
      if (cut !== null) bytes = bytes.subarray(0, cut);
      check(bytes);
    }),
    { numRuns: 3000 },
  );
  // Arbitrary bytes behind a valid header.
  const header = valid.subarray(0, 4 + 2 + 4 + 24);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), (tail) =>
      check(Uint8Array.from([...header, ...tail])),
    ),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => check(bytes)),
    { numRuns: 1000 },
  );
});
