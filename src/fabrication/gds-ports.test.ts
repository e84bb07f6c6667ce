import { test } from "node:test";
import assert from "node:assert/strict";
import type { GdsPortsSpec, GdsStructureSpec } from "../schema/simulation.js";
import { readGds } from "./gds/reader.js";
import { writeGds, type GdsTextLabel } from "./gds/writer.js";
import { mergeLayers } from "./gds-import.js";
import { portLabelsOf, portsFromLabels, withLayoutPorts, type RequestPort } from "./gds-ports.js";
import { GdsBuilder } from "./testing/gds-builder.js";

const UM = 1e-6;
const NM = 1e-9;

/** A plus: two 500 nm wide guides, ±5 µm long, crossing at the origin, on layer 1/0. */
const PLUS = [
  Int32Array.of(-5000, -250, 5000, -250, 5000, 250, -5000, 250),
  Int32Array.of(-250, -5000, 250, -5000, 250, 5000, -250, 5000),
];

const label = (text: string, x: number, y: number, texttype = 10): GdsTextLabel => ({
  layer: 1,
  texttype,
  text,
  x,
  y,
});

/** The structure: layer 1/0 as a 220 nm Si core from z = 0, labels on 1/10 unless `ports` says. */
function structure(
  ports: Partial<GdsPortsSpec> = {},
  extra: Partial<GdsStructureSpec> = {},
): GdsStructureSpec {
  return {
    type: "gds",
    gds_url: "unused",
    layers: [{ layer: 1, material: "Si", z_min: 0, z_max: 220 * NM }],
    ports: { layer: 1, texttype: 10, ...ports },
    ...extra,
  };
}

/** Reads the file, merges the structure's layers and derives its ports, as the service does. */
function derive(bytes: Uint8Array, s: GdsStructureSpec) {
  const layout = readGds(bytes);
  const imported = mergeLayers(
    layout,
    s.layers.map((l) => `${l.layer}/${l.datatype ?? 0}`),
  );
  const found = portLabelsOf(layout, s.ports!.layer, s.ports!.texttype ?? 0);
  return portsFromLabels(s, imported, found, "structures[0]");
}

function written(polygons: Int32Array[], labels: GdsTextLabel[]): Uint8Array {
  return writeGds({ cellName: "TOP", layers: [{ layer: 1, datatype: 0, polygons }], labels }).bytes;
}

function portsOf(result: ReturnType<typeof derive>): RequestPort[] {
  assert.ok("ports" in result, JSON.stringify(result));
  return result.ports;
}

function errorOf(result: ReturnType<typeof derive>): { path: string; message: string } {
  assert.ok("errors" in result, JSON.stringify(result));
  assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
  return result.errors[0]!;
}

const close = (actual: readonly number[], expected: readonly number[]) => {
  assert.equal(actual.length, expected.length);
  actual.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]!) < 1e-15, `${actual.join(", ")} ≠ ${expected.join(", ")}`),
  );
};

test("gds ports: each end of a plus faces into the guide, as wide as its end face plus the margin", () => {
  const bytes = written(PLUS, [
    label("west", -5000, 0),
    label("east", 5000, 0),
    label("south", 0, -5000),
    label("north", 0, 5000),
    // Another label layer is left alone.
    label("chip", 0, 0, 0),
  ]);
  const modeSpec = { num_modes: 2, target_neff: 2.4 };
  const s = structure({ margin: 0.5 * UM, mode_spec: modeSpec }, { offset: [1 * UM, -2 * UM] });
  const ports = portsOf(derive(bytes, s));
  // Sorted by name, whatever the file's order.
  assert.deepEqual(
    ports.map((p) => [p.name, p.direction]),
    [
      ["east", "-x"],
      ["north", "-y"],
      ["south", "+y"],
      ["west", "+x"],
    ],
  );
  const [east, north, south, west] = ports;
  // Width 500 nm + 2 × 0.5 µm across; 220 nm + 2 × 0.5 µm along z; zero along the normal.
  close(west!.size, [0, 1.5 * UM, 1.22 * UM]);
  close(east!.size, [0, 1.5 * UM, 1.22 * UM]);
  close(north!.size, [1.5 * UM, 0, 1.22 * UM]);
  close(south!.size, [1.5 * UM, 0, 1.22 * UM]);
  // Centres: the end face's midpoint plus the offset (1, −2) µm, at the core's mid-height.
  close(west!.center, [-4 * UM, -2 * UM, 110 * NM]);
  close(east!.center, [6 * UM, -2 * UM, 110 * NM]);
  close(south!.center, [1 * UM, -7 * UM, 110 * NM]);
  close(north!.center, [1 * UM, 3 * UM, 110 * NM]);
  // Every port gets its own copy of mode_spec.
  assert.deepEqual(west!.mode_spec, modeSpec);
  assert.notEqual(west!.mode_spec, east!.mode_spec);
  assert.notEqual(west!.mode_spec, modeSpec);
});

test("gds ports: the edge is the whole straight side; default margin 1 µm; z from the waveguide layer", () => {
  // Two abutting rectangles merge into one guide 0…4 µm by 0…400 nm: its right end is one edge
  // of 400 nm, found from a label off its centre, and centred on the edge, not on the label.
  const bytes = written(
    [
      Int32Array.of(0, 0, 2000, 0, 2000, 400, 0, 400),
      Int32Array.of(2000, 0, 4000, 0, 4000, 400, 2000, 400),
    ],
    [label("o2", 4000, 100)],
  );
  const s: GdsStructureSpec = {
    ...structure({ waveguide_layer: 1 }),
    layers: [
      { layer: 2, material: "SiO2", z_min: -2 * UM, z_max: 0 },
      { layer: 1, material: "Si", z_min: 0.1 * UM, z_max: 0.4 * UM },
    ],
  };
  const layout = readGds(bytes);
  const imported = mergeLayers(layout, ["2/0", "1/0"]);
  const [port] = portsOf(
    portsFromLabels(s, imported, portLabelsOf(layout, 1, 10), "structures[0]"),
  );
  assert.equal(port!.direction, "-x");
  close(port!.center, [4 * UM, 0.2 * UM, 0.25 * UM]);
  close(port!.size, [0, 0.4 * UM + 2 * UM, 0.3 * UM + 2 * UM]);
  assert.equal(port!.mode_spec, undefined);
});

test("gds ports: a label on a hole's edge faces into the material around the hole", () => {
  // A 3 µm square with a 1 µm hole: material lies to the left of the hole's left edge.
  const ring = Int32Array.of(
    0,
    0,
    3000,
    0,
    3000,
    3000,
    0,
    3000,
    0,
    1000,
    1000,
    1000,
    1000,
    2000,
    2000,
    2000,
    2000,
    1000,
    0,
    1000,
  );
  const ports = portsOf(
    derive(written([ring], [label("in", 1000, 1500), label("up", 1500, 2000)]), structure()),
  );
  assert.deepEqual(
    ports.map((p) => [p.name, p.direction, p.size[0], p.size[1]]),
    [
      ["in", "-x", 0, 1 * UM + 2 * UM],
      ["up", "+y", 1 * UM + 2 * UM, 0],
    ],
  );
});

test("gds ports: a label may be off the face by the tolerance (2 nm, or one database unit)", () => {
  const s = structure();
  assert.equal(portsOf(derive(written(PLUS, [label("o1", -5002, 0)]), s)).length, 1);
  assert.match(
    errorOf(derive(written(PLUS, [label("o1", -5003, 0)]), s)).message,
    /"o1" at \(-5\.003, 0\) µm is on no edge of layer 1\/0's merged outline \(the nearest edge is 3 nm away/,
  );
  // Database unit 10 nm: one unit off is still on the face.
  const coarse = new GdsBuilder()
    .begin(1e-8)
    .cell("TOP", (b) => b.boundary(1, 0, [0, 0, 100, 0, 100, 50, 0, 50]).text(1, -1, 25, "o1", 10))
    .end();
  const [port] = portsOf(derive(coarse, s));
  assert.equal(port!.direction, "+x");
  close(port!.center, [0, 250 * NM, 110 * NM]);
});

test("gds ports: refused with the structure's path and what is wrong", () => {
  const triangle = Int32Array.of(0, 0, 2000, 0, 0, 2000);
  const cases: Array<[Uint8Array, GdsStructureSpec, string, RegExp]> = [
    [
      written(PLUS, [label("o1", -5000, 0, 3), { ...label("x", 0, 0), layer: 66, texttype: 0 }]),
      structure(),
      "structures[0].ports",
      /no labels on layer 1\/10 \(layers with labels: 1\/3, 66\/0\)/,
    ],
    [
      written(PLUS, []),
      structure(),
      "structures[0].ports",
      /no labels on layer 1\/10 \(layers with labels: none\)/,
    ],
    [
      written(PLUS, [label("o1", -4000, 0)]),
      structure(),
      "structures[0].ports",
      /"o1" at \(-4, 0\) µm is on no edge .*nearest edge is 250 nm away/,
    ],
    [
      written([triangle], [label("o1", 1000, 1000)]),
      structure(),
      "structures[0].ports",
      /"o1" at \(1, 1\) µm is on an edge of layer 1\/0 that is not axis-aligned, from \(0, 2\) µm to \(2, 0\) µm; ports must face ±x or ±y/,
    ],
    [
      written(PLUS, [label("o1", 5000, 250)]),
      structure(),
      "structures[0].ports",
      /"o1" at \(5, 0\.25\) µm is on a corner/,
    ],
    [
      written(PLUS, [label("o 1", -5000, 0)]),
      structure(),
      "structures[0].ports",
      /the label "o 1" at \(-5, 0\) µm is not a port name \(1–32 letters, digits, _ \. -\)/,
    ],
    [
      written(PLUS, [label("o1", -5000, 0), label("o1", 5000, 0)]),
      structure(),
      "structures[0].ports",
      /"o1" is at \(-5, 0\) µm and at \(5, 0\) µm; port names must be unique/,
    ],
    [
      written(PLUS, [label("o1", -5000, 0)]),
      structure({ waveguide_layer: 3 }),
      "structures[0].ports.waveguide_layer",
      /names layers\[3\], but the structure maps 1 layer/,
    ],
    [
      written(
        PLUS,
        Array.from({ length: 17 }, (_, i) => label(`p${i}`, -5000, 0)),
      ),
      structure(),
      "structures[0].ports",
      /17 labels on layer 1\/10; a request has at most 16 ports/,
    ],
  ];
  for (const [bytes, s, path, message] of cases) {
    const e = errorOf(derive(bytes, s));
    assert.equal(e.path, path, e.message);
    assert.match(e.message, message);
  }
  // The same label twice at the same point (a cell placed twice on top of itself) is one port.
  const twice = written(PLUS, [label("o1", -5000, 0), label("o1", -5000, 0)]);
  assert.equal(portsOf(derive(twice, structure())).length, 1);
});

test("gds ports: appended after the request's own ports; a name taken twice or too many is a 422", () => {
  const port = (name: string): RequestPort => ({
    name,
    center: [0, 0, 0],
    size: [0, 1e-6, 1e-6],
    direction: "+x",
  });
  const request = { ports: [port("a")] } as Parameters<typeof withLayoutPorts>[0];
  const ok = withLayoutPorts(request, [
    { path: "structures[0]", ports: [port("b"), port("c")] },
    { path: "structures[2]", ports: [port("d")] },
  ]);
  assert.ok("request" in ok);
  assert.deepEqual(
    ok.request.ports!.map((p) => p.name),
    ["a", "b", "c", "d"],
  );
  const none = withLayoutPorts(request, []);
  assert.ok("request" in none && none.request === request);
  const clash = withLayoutPorts(request, [
    { path: "structures[0]", ports: [port("a")] },
    { path: "structures[1]", ports: [port("b")] },
    { path: "structures[2]", ports: [port("b")] },
  ]);
  assert.ok("errors" in clash);
  assert.deepEqual(
    clash.errors.map((e) => e.path),
    ["structures[0].ports", "structures[2].ports"],
  );
  assert.match(clash.errors[0]!.message, /label "a" gives a port named like ports\[0\]/);
  assert.match(clash.errors[1]!.message, /named like structures\[1\]'s labels/);
  const many = withLayoutPorts(request, [
    { path: "structures[0]", ports: Array.from({ length: 16 }, (_, i) => port(`p${i}`)) },
  ]);
  assert.ok("errors" in many);
  assert.match(many.errors[0]!.message, /17 ports; at most 16/);
});
