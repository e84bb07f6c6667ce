import { test } from "node:test";
import assert from "node:assert/strict";
import type { GdsPortsSpec, GdsStructureSpec, SimulationRequest } from "../schema/simulation.js";
import { readGds } from "./gds/reader.js";
import { writeGds, type GdsTextLabel } from "./gds/writer.js";
import { ringArea2, type Ring } from "./geometry/polygon.js";
import { mergeLayers, polyslabsFromGds, type ImportedLayers } from "./gds-import.js";
import { portExtensions, reachBeyondDomainNm, withPortExtensions } from "./gds-port-extension.js";
import { portLabelsOf, portsFromLabels, type RequestPort } from "./gds-ports.js";

const UM = 1e-6;
const NM = 1e-9;

/**
 * An 8 × 4 × 1 µm domain at 40 nm with 8 absorber cells on x and y: the outermost cell is
 * 4 + 0.32 µm from the origin along x, and the default extension reaches 1 µm past it, plus
 * one step for the grid's rounding: 4 + 0.04 + 0.32 + 1 = 5.36 µm.
 */
const DOMAIN: SimulationRequest["domain"] = {
  size: [8 * UM, 4 * UM, 1 * UM],
  resolution: 0.04 * UM,
  boundary_conditions: ["pml", "pml", "periodic"],
  pml_layers: 8,
};
const REACH_X_NM = 5360;
const REACH_Y_NM = 3360;

const label = (text: string, x: number, y: number): GdsTextLabel => ({
  layer: 1,
  texttype: 10,
  text,
  x,
  y,
});

function structure(
  ports: Partial<GdsPortsSpec> = {},
  extra: Partial<GdsStructureSpec> = {},
): GdsStructureSpec {
  return {
    type: "gds",
    gds_url: "unused",
    layers: [{ layer: 1, material: "Si", z_min: 0, z_max: 220 * NM, sidewall_angle_deg: 8 }],
    ports: { layer: 1, texttype: 10, ...ports },
    ...extra,
  };
}

/** Reads the file, merges, derives the ports and extends their guides, as the service does. */
function extend(
  polygons: Int32Array[],
  labels: GdsTextLabel[],
  s: GdsStructureSpec,
  domain = DOMAIN,
): { ports: RequestPort[]; drawn: ImportedLayers; extended: ImportedLayers } {
  const bytes = writeGds({
    cellName: "TOP",
    layers: [{ layer: 1, datatype: 0, polygons }],
    labels,
  }).bytes;
  const layout = readGds(bytes);
  const drawn = mergeLayers(layout, ["1/0"]);
  const found = portsFromLabels(s, drawn, portLabelsOf(layout, 1, 10), "structures[0]");
  assert.ok("ports" in found, JSON.stringify(found));
  const out = withPortExtensions(s, drawn, portExtensions(s, found.ends, domain), "structures[0]");
  assert.ok("imported" in out, JSON.stringify(out));
  return { ports: found.ports, drawn, extended: out.imported };
}

/** A ring's vertices as [x, y] pairs (nm), starting at its lowest-leftmost vertex. */
function vertices(ring: Ring): Array<[number, number]> {
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < ring.length; i += 2) pts.push([ring[i]!, ring[i + 1]!]);
  const start = pts.reduce(
    (best, p, i) =>
      p[1] < pts[best]![1] || (p[1] === pts[best]![1] && p[0] < pts[best]![0]) ? i : best,
    0,
  );
  return [...pts.slice(start), ...pts.slice(0, start)];
}

/** The outline of the one merged polygon on 1/0 (and that there is one, without holes). */
function onlyOutline(imported: ImportedLayers): Ring {
  const polygons = imported.layers["1/0"]!;
  assert.equal(polygons.length, 1, JSON.stringify(polygons));
  assert.equal(polygons[0]!.holes.length, 0);
  return polygons[0]!.outline;
}

/** A 6 µm guide, 500 nm wide, centred on the origin, labelled at both ends. */
const GUIDE = [Int32Array.of(-3000, -250, 3000, -250, 3000, 250, -3000, 250)];
const GUIDE_LABELS = [label("o1", -3000, 0), label("o2", 3000, 0)];

test("port extension: by default a guide runs on past the domain's outermost cell; its ports stay at the labels", () => {
  const s = structure({ margin: 0.5 * UM });
  const { ports, extended } = extend(GUIDE, GUIDE_LABELS, s);
  // One rectangle, as if the guide had been drawn 2 × 5.36 µm long: no edge left at the joins
  // (merged outlines have no collinear vertices), so it is painted as one continuous guide.
  assert.deepEqual(vertices(onlyOutline(extended)), [
    [-REACH_X_NM, -250],
    [-REACH_X_NM, 250],
    [REACH_X_NM, 250],
    [REACH_X_NM, -250],
  ]);
  // Past the absorber: the domain's face is at 4 µm, its last absorber cell ends at 4.32 µm.
  assert.ok(REACH_X_NM * NM > DOMAIN.size[0] / 2 + 8 * DOMAIN.resolution);
  // The ports are where the labels are, on the drawn end faces, facing into the device.
  assert.deepEqual(
    ports.map((p) => [p.name, p.direction, Math.round(p.center[0] / NM), p.size[1]]),
    [
      ["o1", "+x", -3000, 1.5 * UM],
      ["o2", "-x", 3000, 1.5 * UM],
    ],
  );
  // The polyslab keeps the layer's material, z range and sidewall angle, which now run
  // through the joins.
  const slabs = polyslabsFromGds(s, extended, "structures[0]", 1000);
  assert.ok("structures" in slabs);
  assert.equal(slabs.structures.length, 1);
  const [slab] = slabs.structures;
  assert.deepEqual(
    [slab!.material, slab!.z_min, slab!.z_max, slab!.sidewall_angle_deg],
    ["Si", 0, 220 * NM, 8],
  );
  assert.ok(Math.abs(slab!.vertices[0]![0] + REACH_X_NM * NM) < 1e-15);
});

test("port extension: an explicit length, cut at the default's reach; 0 leaves the guide as drawn", () => {
  const long = (extension: number) =>
    vertices(onlyOutline(extend(GUIDE, GUIDE_LABELS, structure({ extension })).extended));
  assert.deepEqual(long(1 * UM), [
    [-4000, -250],
    [-4000, 250],
    [4000, 250],
    [4000, -250],
  ]);
  // Longer than what the domain holds: cut 1 µm past its outermost cell.
  assert.equal(long(1)[0]![0], -REACH_X_NM);
  const { drawn, extended } = extend(GUIDE, GUIDE_LABELS, structure({ extension: 0 }));
  assert.equal(extended, drawn);
});

test("port extension: the reach counts the structure's offset, the boundaries and the end's side", () => {
  const end = { name: "o1", direction: "+x" as const, x1: -3000, y1: 250, x2: -3000, y2: -250 };
  assert.equal(reachBeyondDomainNm(end, [0, 0], DOMAIN), REACH_X_NM - 3000);
  // Shifted 1 µm towards −x, the end is 1 µm nearer the face.
  assert.equal(reachBeyondDomainNm(end, [-1 * UM, 0], DOMAIN), REACH_X_NM - 4000);
  // Without an absorber on x (pec walls), 8 cells nearer; the default 12 absorber cells.
  const pec = { ...DOMAIN, boundary_conditions: ["pec", "pml", "pml"] as ["pec", "pml", "pml"] };
  assert.equal(reachBeyondDomainNm(end, [0, 0], pec), REACH_X_NM - 320 - 3000);
  const twelve = { size: DOMAIN.size, resolution: DOMAIN.resolution };
  assert.equal(reachBeyondDomainNm(end, [0, 0], twelve), REACH_X_NM + 160 - 3000);
  // An end already beyond it needs none.
  assert.equal(reachBeyondDomainNm(end, [-3 * UM, 0], DOMAIN), 0);
  const up = { name: "o2", direction: "-y" as const, x1: -250, y1: 1000, x2: 250, y2: 1000 };
  assert.equal(reachBeyondDomainNm(up, [0, 0], DOMAIN), REACH_Y_NM - 1000);
});

test("port extension: all four ends of a plus, along x and y, reach past the domain on every side", () => {
  const plus = [
    Int32Array.of(-1500, -250, 1500, -250, 1500, 250, -1500, 250),
    Int32Array.of(-250, -1000, 250, -1000, 250, 1000, -250, 1000),
  ];
  const labels = [
    label("w", -1500, 0),
    label("e", 1500, 0),
    label("s", 0, -1000),
    label("n", 0, 1000),
  ];
  const outline = onlyOutline(extend(plus, labels, structure()).extended);
  const xs = vertices(outline).map((p) => p[0]);
  const ys = vertices(outline).map((p) => p[1]);
  assert.deepEqual(
    [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)],
    [-REACH_X_NM, REACH_X_NM, -REACH_Y_NM, REACH_Y_NM],
  );
  // A plus of the two long arms: 12 vertices, area that of the two rectangles less their overlap.
  assert.equal(outline.length / 2, 12);
  const area = (2 * REACH_X_NM * 500 + 2 * REACH_Y_NM * 500 - 500 * 500) * 2;
  assert.equal(-ringArea2(outline), area);
});

test("port extension: a taper's slanted sides meet the extension at the end face, exactly", () => {
  // From 500 nm at x = −2 µm to 1.5 µm at x = 0, where it ends (labels at both ends).
  const taper = [Int32Array.of(-2000, -250, 0, -750, 0, 750, -2000, 250)];
  const labels = [label("o1", -2000, 0), label("o2", 0, 0)];
  const outline = onlyOutline(extend(taper, labels, structure()).extended);
  assert.deepEqual(vertices(outline), [
    [0, -750],
    [-2000, -250],
    [-REACH_X_NM, -250],
    [-REACH_X_NM, 250],
    [-2000, 250],
    [0, 750],
    [REACH_X_NM, 750],
    [REACH_X_NM, -750],
  ]);
});

test("port extension: an extension running into another polygon of the layer merges with it", () => {
  // A block 1 µm beyond the guide's left end, in its way: guide, extension and block are one.
  const polygons = [...GUIDE, Int32Array.of(-4500, -600, -4000, -600, -4000, 600, -4500, 600)];
  const { extended } = extend(polygons, GUIDE_LABELS, structure());
  const outline = onlyOutline(extended);
  const area = (2 * REACH_X_NM * 500 + 500 * 1200 - 500 * 500) * 2;
  assert.equal(-ringArea2(outline), area);
});

test("port extension: an extension that would cross a hole of the layer is refused", () => {
  // A frame 1 µm wide round a 2 µm hole (a keyhole ring: the hole runs the other way round,
  // joined by a cut along y = −1 µm), left of the guide: the guide's left end runs into it.
  const frame = Int32Array.of(
    ...[-7000, -2000, -3000, -2000, -3000, 2000, -7000, 2000, -7000, -1000],
    ...[-6000, -1000, -6000, 1000, -4000, 1000, -4000, -1000, -7000, -1000],
  );
  const guide = Int32Array.of(-2000, -250, 3000, -250, 3000, 250, -2000, 250);
  const bytes = writeGds({
    cellName: "TOP",
    layers: [{ layer: 1, datatype: 0, polygons: [frame, guide] }],
    labels: [label("o1", -2000, 0)],
  }).bytes;
  const layout = readGds(bytes);
  const drawn = mergeLayers(layout, ["1/0"]);
  const s = structure();
  const found = portsFromLabels(s, drawn, portLabelsOf(layout, 1, 10), "structures[0]");
  assert.ok("ends" in found);
  const out = withPortExtensions(s, drawn, portExtensions(s, found.ends, DOMAIN), "structures[0]");
  assert.ok("errors" in out);
  assert.equal(out.errors[0]!.path, "structures[0].ports.extension");
  assert.match(out.errors[0]!.message, /the port "o1" \(3\.36 µm\) crosses a hole of layer 1\/0/);
  // Short of the frame, it is merged; the frame keeps its hole.
  const short = structure({ extension: 0.5 * UM });
  const fine = withPortExtensions(
    short,
    drawn,
    portExtensions(short, found.ends, DOMAIN),
    "structures[0]",
  );
  assert.ok("imported" in fine);
  const polygons = fine.imported.layers["1/0"]!;
  assert.deepEqual(polygons.map((p) => p.holes.length).sort(), [0, 1]);
  const guideOutline = polygons.find((p) => p.holes.length === 0)!.outline;
  assert.equal(Math.min(...vertices(guideOutline).map((p) => p[0])), -2500);
});
