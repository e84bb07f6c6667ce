/**
 * Ports from a layout's port labels: a `type: "gds"` structure's `ports` names a label layer,
 * and every TEXT label on it becomes a port of the request, as its layers become polyslabs
 * (gds-import.ts), so the stored job holds explicit ports.
 *
 * The convention is gdsfactory's and SiEPIC's: a port is a text label, the port's name, placed
 * at the middle of the waveguide's end face (gdsfactory's port layer, SiEPIC's PinRec 1/10).
 * The label only says where and what; the port's plane comes from the waveguide itself: the
 * straight edge of the merged outline of `layers[waveguide_layer]` through the label gives the
 * direction (into the polygon), the width (the edge's length) and the centre (the edge's
 * midpoint, at the layer's mid-height). Taking the width from the geometry rather than from a
 * label or a pin path means the port always matches the guide that is simulated.
 *
 * Merged loops have the polygon's interior on the right of every edge and no collinear
 * vertices (geometry/merge.ts), so an edge is one whole straight side and its inward normal is
 * its right-hand normal, for outlines and holes alike.
 */
import type { FieldError } from "../errors.js";
import {
  DEFAULT_GDS_PORT_MARGIN_M,
  MAX_PORTS,
  PORT_NAME_MAX_LENGTH,
  PORT_NAME_PATTERN,
  type GdsStructureSpec,
  type SimulationRequest,
} from "../schema/simulation.js";
import type { GdsLabel, GdsLayout } from "./gds/reader.js";
import { layerKey, type ImportedLayers } from "./gds-import.js";

export type RequestPort = NonNullable<SimulationRequest["ports"]>[number];

/**
 * A labelled port's end face in the layout (the structure's offset not added): the edge of the
 * merged outline the label sits on, integer nm, and the way into the device.
 */
export interface PortEnd {
  name: string;
  /** "+x" when the polygon lies at larger x, and so on: the way into the device. */
  direction: "+x" | "-x" | "+y" | "-y";
  /** The edge's end points, nm, in the merged loop's order. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** The labels of one label layer of a flattened layout, and what the messages need. */
export interface PortLabels {
  /** Labels on the requested layer/texttype, positions in integer nm. */
  labels: GdsLabel[];
  /** Every "layer/texttype" that has labels, sorted. */
  labelLayers: string[];
  /** The file's database unit in nm (the tolerance of "on an edge" is at least one). */
  dbuNm: number;
}

/** The labels on `layer`/`texttype` of a flattened layout. */
export function portLabelsOf(layout: GdsLayout, layer: number, texttype: number): PortLabels {
  const keys = new Set<string>();
  for (const l of layout.labels) keys.add(layerKey(l.layer, l.texttype));
  return {
    labels: layout.labels.filter((l) => l.layer === layer && l.texttype === texttype),
    labelLayers: [...keys].sort(compareLayerKeys),
    dbuNm: layout.dbuMetres / 1e-9,
  };
}

/**
 * How far (nm) a label may sit from the edge it marks: writers put it exactly on the face,
 * but a label placed in a cell under a rotation that is not a multiple of 90°, or written on a
 * coarser database unit, is rounded independently of the polygon's vertices.
 */
const ON_EDGE_TOLERANCE_NM = 2;

const NAME_PATTERN = new RegExp(PORT_NAME_PATTERN);

const NM = 1e-9;

/**
 * The ports a gds structure's labels give (sorted by name) and their end faces (in the same
 * order, for gds-port-extension.ts), or the field errors that refuse them. `path` names the
 * structure (e.g. "structures[2]"); `imported` holds its merged layers.
 */
export function portsFromLabels(
  s: GdsStructureSpec,
  imported: ImportedLayers,
  found: PortLabels,
  path: string,
): { ports: RequestPort[]; ends: PortEnd[] } | { errors: FieldError[] } {
  const spec = s.ports;
  if (!spec) return { ports: [], ends: [] };
  const at = `${path}.ports`;
  const refuse = (message: string, where = at) => ({ errors: [{ path: where, message }] });
  const labelKey = layerKey(spec.layer, spec.texttype ?? 0);
  const wIndex = spec.waveguide_layer ?? 0;
  const guide = s.layers[wIndex];
  if (!guide) {
    return refuse(
      `names layers[${wIndex}], but the structure maps ${s.layers.length} layer(s)`,
      `${at}.waveguide_layer`,
    );
  }
  const labels = distinctLabels(found.labels);
  if (labels.length === 0) {
    const have = found.labelLayers.length > 0 ? found.labelLayers.join(", ") : "none";
    return refuse(`the layout has no labels on layer ${labelKey} (layers with labels: ${have})`);
  }
  const problem = labelProblem(labels, labelKey);
  if (problem) return refuse(problem);
  const guideKey = layerKey(guide.layer, guide.datatype);
  const loops = (imported.layers[guideKey] ?? []).flatMap((p) => [p.outline, ...p.holes]);
  const tolerance = Math.max(ON_EDGE_TOLERANCE_NM, found.dbuNm);
  const geometry: PortGeometry = {
    offset: s.offset ?? [0, 0],
    zMin: guide.z_min,
    zMax: guide.z_max,
    margin: spec.margin ?? DEFAULT_GDS_PORT_MARGIN_M,
  };
  const ports: RequestPort[] = [];
  const ends: PortEnd[] = [];
  const errors: FieldError[] = [];
  for (const label of labels) {
    const edge = edgeUnder(label, loops, tolerance, guideKey);
    if ("message" in edge) {
      errors.push({ path: at, message: edge.message });
      continue;
    }
    const end = { name: label.text, ...edge };
    ports.push(portOnEdge(end, geometry, spec.mode_spec));
    ends.push(end);
  }
  return errors.length > 0 ? { errors } : { ports, ends };
}

/** Labels sorted by name, exact repeats (same name, same point) kept once. */
function distinctLabels(labels: readonly GdsLabel[]): GdsLabel[] {
  const sorted = [...labels].sort(
    (a, b) => compareStrings(a.text, b.text) || a.x - b.x || a.y - b.y,
  );
  return sorted.filter((l, i) => {
    const prev = sorted[i - 1];
    return !prev || prev.text !== l.text || prev.x !== l.x || prev.y !== l.y;
  });
}

/** What is wrong with the set of labels as port names, or null. Labels are sorted by name. */
function labelProblem(labels: readonly GdsLabel[], labelKey: string): string | null {
  if (labels.length > MAX_PORTS) {
    return `the layout has ${labels.length} labels on layer ${labelKey}; a request has at most ${MAX_PORTS} ports`;
  }
  for (const [i, l] of labels.entries()) {
    if (l.text.length > PORT_NAME_MAX_LENGTH || !NAME_PATTERN.test(l.text)) {
      return `the label ${quote(l.text)} at ${micrometres(l.x, l.y)} is not a port name (1–${PORT_NAME_MAX_LENGTH} letters, digits, _ . -)`;
    }
    const prev = labels[i - 1];
    if (prev && prev.text === l.text) {
      return `the label ${quote(l.text)} is at ${micrometres(prev.x, prev.y)} and at ${micrometres(l.x, l.y)}; port names must be unique`;
    }
  }
  return null;
}

/** An axis-aligned edge of a merged loop, in nm, with the side its polygon lies on. */
type PortEdge = Omit<PortEnd, "name">;

/**
 * The one edge of `loops` the label lies on (within `tolerance` nm), or why there is none:
 * no edge that close, more than one (a corner), or a slanted one.
 */
function edgeUnder(
  label: GdsLabel,
  loops: readonly ArrayLike<number>[],
  tolerance: number,
  guideKey: string,
): PortEdge | { message: string } {
  let nearest = Infinity;
  const close: Array<[number, number, number, number]> = [];
  for (const ring of loops) {
    const n = ring.length >> 1;
    for (let i = 0; i < n; i += 1) {
      const j = (i + 1) % n;
      const x1 = ring[2 * i]!;
      const y1 = ring[2 * i + 1]!;
      const x2 = ring[2 * j]!;
      const y2 = ring[2 * j + 1]!;
      const d = segmentDistance(label.x, label.y, x1, y1, x2, y2);
      nearest = Math.min(nearest, d);
      if (d <= tolerance) close.push([x1, y1, x2, y2]);
    }
  }
  const where = `the label ${quote(label.text)} at ${micrometres(label.x, label.y)}`;
  if (close.length === 0) {
    const distance = Number.isFinite(nearest)
      ? `the nearest edge is ${formatNm(nearest)} away`
      : `the layer has no polygons`;
    return {
      message: `${where} is on no edge of layer ${guideKey}'s merged outline (${distance}; a port label must sit on the waveguide's end face, within ${formatNm(tolerance)})`,
    };
  }
  if (close.length > 1) {
    return {
      message: `${where} is on a corner of layer ${guideKey}'s merged outline (${close.length} edges within ${formatNm(tolerance)}); put it at the middle of the waveguide's end face`,
    };
  }
  const [x1, y1, x2, y2] = close[0]!;
  if (x1 !== x2 && y1 !== y2) {
    return {
      message: `${where} is on an edge of layer ${guideKey} that is not axis-aligned, from ${micrometres(x1, y1)} to ${micrometres(x2, y2)}; ports must face ±x or ±y`,
    };
  }
  // The interior is on the right of (x1, y1) → (x2, y2): right-hand normal (dy, −dx).
  const direction = x1 === x2 ? (y2 > y1 ? "+x" : "-x") : x2 > x1 ? "-y" : "+y";
  return { direction, x1, y1, x2, y2 };
}

/** What turns an edge into a port: the structure's offset and the guide's z range, metres. */
interface PortGeometry {
  offset: readonly [number, number];
  zMin: number;
  zMax: number;
  margin: number;
}

/** The port on `end`: zero thick along its normal, width and height plus a margin each side. */
function portOnEdge(
  end: PortEnd,
  g: PortGeometry,
  modeSpec: RequestPort["mode_spec"],
): RequestPort {
  const lengthNm = Math.abs(end.x2 - end.x1) + Math.abs(end.y2 - end.y1);
  const width = lengthNm * NM + 2 * g.margin;
  const height = g.zMax - g.zMin + 2 * g.margin;
  const alongX = end.direction === "+x" || end.direction === "-x";
  const midX = (end.x1 + end.x2) / 2;
  const midY = (end.y1 + end.y2) / 2;
  return {
    name: end.name,
    // Metres as the polyslabs' vertices are converted (gds-import.ts), so the plane lies on
    // the polyslab's face exactly.
    center: [midX * NM + g.offset[0], midY * NM + g.offset[1], (g.zMin + g.zMax) / 2],
    size: alongX ? [0, width, height] : [width, 0, height],
    direction: end.direction,
    ...(modeSpec ? { mode_spec: structuredClone(modeSpec) } : {}),
  };
}

/**
 * The request with every structure's label ports appended to its `ports` (structures in
 * order), or the errors: a name already taken by an explicit port or by another structure's
 * label, or more than MAX_PORTS ports in all.
 */
export function withLayoutPorts(
  request: SimulationRequest,
  fromLayout: ReadonlyArray<{ path: string; ports: RequestPort[] }>,
): { request: SimulationRequest } | { errors: FieldError[] } {
  if (fromLayout.length === 0) return { request };
  const ports = [...(request.ports ?? [])];
  const owner = new Map<string, string>(ports.map((p, i) => [p.name, `ports[${i}]`]));
  const errors: FieldError[] = [];
  for (const { path, ports: generated } of fromLayout) {
    for (const p of generated) {
      const taken = owner.get(p.name);
      if (taken) {
        errors.push({
          path: `${path}.ports`,
          message: `the layout's label ${quote(p.name)} gives a port named like ${taken}; port names must be unique`,
        });
        continue;
      }
      owner.set(p.name, `${path}'s labels`);
      ports.push(p);
    }
  }
  if (errors.length === 0 && ports.length > MAX_PORTS) {
    errors.push({
      path: `${fromLayout[0]!.path}.ports`,
      message: `with the layout's labels the request has ${ports.length} ports; at most ${MAX_PORTS} are allowed`,
    });
  }
  return errors.length > 0 ? { errors } : { request: { ...request, ports } };
}

/** Distance (nm) from (px, py) to the segment (x1, y1)–(x2, y2). */
function segmentDistance(
  px: number,
  py: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / len2));
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "1/0" before "1/10" before "2/0". */
function compareLayerKeys(a: string, b: string): number {
  const [la, ta] = a.split("/").map(Number);
  const [lb, tb] = b.split("/").map(Number);
  return la! - lb! || ta! - tb!;
}

/** A label's text for a message: JSON-quoted (it comes from an untrusted file), at most 40 characters. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function micrometres(xNm: number, yNm: number): string {
  return `(${xNm / 1000}, ${yNm / 1000}) µm`;
}

function formatNm(nm: number): string {
  return `${Number(nm.toPrecision(4))} nm`;
}
