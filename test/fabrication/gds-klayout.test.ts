/**
 * GDS II interchange with KLayout 0.28 in both directions:
 * - KLayout reads what our writer writes with the same layers, polygon count and bounding box
 *   (KLayout reads a rectangle back as a box, so boxes and polygons are counted together);
 * - our reader reads a hierarchical file KLayout writes (SREF and AREF, 90° and 30° rotations,
 *   magnification, reflection, nested arrays, paths with flush, extended, custom and round
 *   ends, text) to the same merged geometry: KLayout XORs its own flattening against our
 *   flattening (written back by our writer) and the difference is at most rounding slivers.
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readGds } from "../../src/fabrication/gds/reader.js";
import { writeGds } from "../../src/fabrication/gds/writer.js";
import { circleRing } from "../../src/fabrication/geometry/circle.js";
import { mergePolygons } from "../../src/fabrication/geometry/merge.js";
import { rectangleRing, ringArea2 } from "../../src/fabrication/geometry/polygon.js";
import { lastJson, runKlayout, scratchDir } from "../../src/fabrication/testing/klayout.js";

const DESCRIBE = `
import pya, json
out = {}
for f in files.split(","):
    ly = pya.Layout()
    ly.read(f)
    layers = {}
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        r = pya.Region(ly.top_cell().begin_shapes_rec(li))
        if r.is_empty():
            continue
        b = r.bbox()
        m = r.merged()
        layers["%d/%d" % (info.layer, info.datatype)] = {
            "count": r.count(), "bbox": [b.left, b.bottom, b.right, b.top],
            "area": m.area(), "merged": m.count(), "perimeter": m.perimeter()}
    out[f] = {"dbu": ly.dbu, "top": [c.name for c in ly.top_cells()], "layers": layers}
print(json.dumps(out))
`;

interface Described {
  dbu: number;
  top: string[];
  layers: Record<
    string,
    { count: number; bbox: number[]; area: number; merged: number; perimeter: number }
  >;
}

test("KLayout reads our files with the same layers, polygon count and bounding box", async () => {
  const dir = scratchDir();
  const big = new Int32Array(2 * 20000);
  for (let i = 0; i < 20000; i += 1) {
    big[2 * i] = Math.round(4e7 * Math.cos((2 * Math.PI * i) / 20000));
    big[2 * i + 1] = Math.round(4e7 * Math.sin((2 * Math.PI * i) / 20000));
  }
  const files = {
    plain: writeGds({
      cellName: "JOB_ab12cd34",
      layers: [
        {
          layer: 1,
          datatype: 0,
          polygons: [rectangleRing(-500, -220, 500, 220), circleRing(2000, 0, 750, 1)],
        },
        { layer: 34, datatype: 0, polygons: [Int32Array.of(0, 0, 3000, 100, 0, 200)] },
      ],
    }),
    boxes: writeGds({
      cellName: "BOXES",
      rectanglesAsBox: true,
      layers: [
        {
          layer: 3,
          datatype: 2,
          polygons: [rectangleRing(0, 0, 10, 10), rectangleRing(20, 0, 30, 40)],
        },
      ],
    }),
    split: writeGds({ cellName: "BIG", layers: [{ layer: 2, datatype: 0, polygons: [big] }] }),
  };
  const paths = Object.fromEntries(
    Object.entries(files).map(([name, r]) => {
      const path = join(dir, `${name}.gds`);
      writeFileSync(path, r.bytes);
      return [name, path];
    }),
  );
  const seen = JSON.parse(
    await runKlayout(DESCRIBE, { files: Object.values(paths).join(",") }),
  ) as Record<string, Described>;
  for (const [name, path] of Object.entries(paths)) {
    const k = seen[path]!;
    const ours = readGds(files[name as keyof typeof files].bytes);
    assert.equal(k.dbu, 0.001, `${name}: database unit 1 nm in µm`);
    assert.deepEqual(k.top, ours.topCells);
    assert.deepEqual(Object.keys(k.layers).sort(), [...ours.layers.keys()].sort(), name);
    for (const [key, rings] of ours.layers) {
      assert.equal(k.layers[key]!.count, rings.length, `${name} ${key} polygon count`);
      const box = [Infinity, Infinity, -Infinity, -Infinity];
      for (const r of rings) {
        for (let i = 0; i < r.length; i += 2) {
          box[0] = Math.min(box[0]!, r[i]!);
          box[1] = Math.min(box[1]!, r[i + 1]!);
          box[2] = Math.max(box[2]!, r[i]!);
          box[3] = Math.max(box[3]!, r[i + 1]!);
        }
      }
      assert.deepEqual(k.layers[key]!.bbox, box, `${name} ${key} bounding box`);
    }
    assert.equal(files[name as keyof typeof files].elementCount, ours.polygonCount);
  }
  // The split circle is one merged shape again, of the circle's area.
  const k = seen[paths.split!]!.layers["2/0"]!;
  assert.equal(k.merged, 1);
  assert.ok(Math.abs(k.area - Math.abs(ringArea2(big)) / 2) < 1e-6 * k.area);
});

/** KLayout builds a hierarchical layout with every transformation and path type, and writes it. */
const BUILD = `
import pya
ly = pya.Layout()
ly.dbu = 0.001
l1 = ly.layer(1, 0)
l2 = ly.layer(2, 0)
l9 = ly.layer(9, 0)
leaf = ly.create_cell("LEAF")
leaf.shapes(l1).insert(pya.Box(0, 0, 400, 120))
leaf.shapes(l1).insert(pya.Polygon([pya.Point(0, 200), pya.Point(300, 200), pya.Point(0, 500)]))
leaf.shapes(l2).insert(pya.Path([pya.Point(0, -300), pya.Point(800, -300), pya.Point(800, 300)], 90))
leaf.shapes(l2).insert(pya.Path([pya.Point(-900, 0), pya.Point(-900, 700)], 60, 30, 30))
leaf.shapes(l2).insert(pya.Path([pya.Point(-1300, 0), pya.Point(-1300, 700), pya.Point(-1700, 1100)], 80, 15, 55))
leaf.shapes(l2).insert(pya.Path([pya.Point(-2000, 0), pya.Point(-2000, 900)], 120, 60, 60, True))
leaf.shapes(l9).insert(pya.Text("label", pya.Trans(pya.Point(5, 5))))
mid = ly.create_cell("MID")
mid.insert(pya.CellInstArray(leaf.cell_index(), pya.Trans(pya.Trans.R90, pya.Vector(5000, 0))))
mid.insert(pya.CellInstArray(leaf.cell_index(), pya.Trans(pya.Trans.M0, pya.Vector(0, 6000))))
mid.insert(pya.CellInstArray(leaf.cell_index(), pya.Trans(pya.Vector(0, 0)), pya.Vector(3000, 0), pya.Vector(0, 2500), 3, 2))
top = ly.create_cell("TOP")
top.insert(pya.CellInstArray(mid.cell_index(), pya.Trans(pya.Vector(0, 0))))
top.insert(pya.CellInstArray(mid.cell_index(), pya.ICplxTrans(1.5, 30, False, pya.Vector(30000, 5000))))
top.insert(pya.CellInstArray(leaf.cell_index(), pya.ICplxTrans(2.0, 90, True, pya.Vector(-8000, 2000))))
top.insert(pya.CellInstArray(leaf.cell_index(), pya.ICplxTrans(1.0, 45, False, pya.Vector(-20000, -9000)), pya.Vector(2500, 2500), pya.Vector(-2500, 2500), 2, 2))
ly.write(output)
`;

const XOR = `
import pya, json
a = pya.Layout(); a.read(theirs)
b = pya.Layout(); b.read(ours)
out = {}
for li in a.layer_indexes():
    info = a.get_info(li)
    ra = pya.Region(a.top_cell().begin_shapes_rec(li)).merged()
    if ra.is_empty():
        continue
    bl = b.find_layer(info.layer, info.datatype)
    rb = pya.Region(b.top_cell().begin_shapes_rec(bl)).merged() if bl is not None else pya.Region()
    x = ra ^ rb
    out["%d/%d" % (info.layer, info.datatype)] = {"area": ra.area(), "merged": ra.count(), "perimeter": ra.perimeter(), "xor": x.area(), "count": pya.Region(a.top_cell().begin_shapes_rec(li)).count()}
print(json.dumps(out))
`;

test("our reader flattens a KLayout-written hierarchy to KLayout's geometry", async () => {
  const dir = scratchDir();
  const theirs = join(dir, "klayout.gds");
  await runKlayout(BUILD, { output: theirs });
  const layout = readGds(readFileSync(theirs));
  assert.deepEqual(layout.topCells, ["TOP"]);
  assert.deepEqual([...layout.cells].sort(), ["LEAF", "MID", "TOP"]);
  assert.ok(layout.warnings.some((w) => /TEXT/.test(w)));
  assert.equal(layout.layers.has("9/0"), false, "text is ignored");
  const ours = join(dir, "ours.gds");
  writeFileSync(
    ours,
    writeGds({
      cellName: "FLAT",
      layers: [...layout.layers].map(([key, polygons]) => {
        const [layer, datatype] = key.split("/").map(Number);
        return { layer: layer!, datatype: datatype!, polygons };
      }),
    }).bytes,
  );
  const k = lastJson<
    Record<string, { area: number; merged: number; perimeter: number; xor: number; count: number }>
  >(await runKlayout(XOR, { theirs, ours }));
  assert.deepEqual(Object.keys(k).sort(), ["1/0", "2/0"]);
  for (const [key, ref] of Object.entries(k)) {
    const rings = layout.layers.get(key)!;
    assert.equal(rings.length, ref.count, `${key}: flattened shapes`);
    const merge = mergePolygons(rings);
    const area = merge.loops.reduce((a, l) => a - ringArea2(l) / 2, 0);
    assert.equal(merge.polygonCount, ref.merged, `${key}: merged polygons`);
    // 30° and 45° placements round vertices to 1 nm; round path ends are polygonised
    // differently (ours within 1 dbu of the true half circle): both move the outline by about
    // a nanometre at most, so XOR area stays below the perimeter times 1.5 nm.
    assert.ok(
      ref.xor <= 1.5 * ref.perimeter,
      `${key}: XOR ${ref.xor} nm² for perimeter ${ref.perimeter} nm`,
    );
    assert.ok(
      Math.abs(area - ref.area) <= 1.5 * ref.perimeter,
      `${key}: area ${area} vs ${ref.area}`,
    );
  }
  // Without the round-ended path the geometry of layer 1 (boxes, triangle) is not rounded
  // except at rotated placements: the XOR there is far below a full shape.
  assert.ok(k["1/0"]!.xor < 0.001 * k["1/0"]!.area);
});

/** Paths of odd widths (a half-width of x.5 nm) on and off the axes, as KLayout writes them. */
const ODD_PATHS = `
import pya
ly = pya.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
l1 = ly.layer(1, 0)
top.shapes(l1).insert(pya.Path([pya.Point(0, 0), pya.Point(2000, 0)], 59))
top.shapes(l1).insert(pya.Path([pya.Point(0, 593), pya.Point(2000, 593)], 25))
top.shapes(l1).insert(pya.Path([pya.Point(1042, 1500), pya.Point(3000, 1500)], 59, 29, 29))
top.shapes(l1).insert(pya.Path([pya.Point(-3001, -7), pya.Point(-3001, -2007), pya.Point(-1000, -2007)], 45))
top.shapes(l1).insert(pya.Path([pya.Point(0, 4000), pya.Point(1000, 5000), pya.Point(2000, 4000)], 61))
ly.write(output)
`;

test("odd-width paths are read to KLayout's own outlines, to the nanometre", async () => {
  // KLayout rounds a path's half-width offsets away from its centre line: a 59 nm path is
  // 60 nm wide there. Rounding the outline's coordinates (.5 up) made it 59 nm, and the
  // design-rule check flagged a width KLayout does not.
  const dir = scratchDir();
  const theirs = join(dir, "paths.gds");
  await runKlayout(ODD_PATHS, { output: theirs });
  const layout = readGds(readFileSync(theirs));
  const ours = join(dir, "ours.gds");
  writeFileSync(
    ours,
    writeGds({
      cellName: "FLAT",
      layers: [{ layer: 1, datatype: 0, polygons: layout.layers.get("1/0")! }],
    }).bytes,
  );
  const k = lastJson<Record<string, { xor: number; area: number }>>(
    await runKlayout(XOR, { theirs, ours }),
  );
  assert.equal(k["1/0"]!.xor, 0, `XOR ${k["1/0"]!.xor} nm² of ${k["1/0"]!.area} nm²`);
});
