// @ts-check
/**
 * A set-up's scene (src/preview/scene-types.ts, in metres) as three.js objects for the
 * set-up's 3-D view (setup-3d.js): the structures translucent with their edges, clipped to
 * the grid; the region of interest as a wire box and the absorber as a faint shell around it;
 * the source's planes and point with arrows; monitors, ports, mesh overrides and mirror
 * planes; the axes and a scale bar. Each object that needs a name gets a label, which the
 * view places over the canvas.
 *
 * Drawn units: the grid's longest axis is 1. An axis shorter than MIN_DRAWN_FRACTION of it is
 * drawn stretched to that (a 25 nm periodic slice beside 3 µm would otherwise be a line seen
 * edge-on, and everything in it invisible); its axis label says by how much.
 */
import {
  BoxGeometry,
  BufferGeometry,
  Color,
  ConeGeometry,
  CylinderGeometry,
  DoubleSide,
  EdgesGeometry,
  Float32BufferAttribute,
  Group,
  Line,
  LineBasicMaterial,
  LineLoop,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  MeshLambertMaterial,
  Plane,
  SphereGeometry,
  ShapeUtils,
  Vector2,
  Vector3,
} from "./three.module.js";
import { formatLength, niceLength, sceneLabels } from "./setup-3d-labels.js";

/**
 * @typedef {import("../../preview/scene-types.js").SetupScene} SetupScene
 * @typedef {import("../../preview/scene-types.js").SceneStructure} SceneStructure
 * @typedef {import("../../preview/scene-types.js").SceneVec3} SceneVec3
 * @typedef {import("./three.module.js").Object3D} Object3D
 * @typedef {import("./three.module.js").Material} Material
 * @typedef {{ text: string, at: Vector3, kind: string, color: string }} Label a name drawn
 *   over the canvas at a point of the drawn scene
 * @typedef {{ text: string, background: string, line: string }} Palette the page's colours
 * @typedef {{ center: number[], unitM: number, stretch: number[], drawnSize: Vector3,
 *   at: (p: readonly number[]) => Vector3, length: (v: number, axis: number) => number }} Frame
 *   metres to drawn units
 */

/** A vector of `f` along x, y and z. @param {(axis: number) => number} f */
const perAxis = (f) => new Vector3(f(0), f(1), f(2));

/** The shortest an axis is drawn, as a fraction of the longest. */
export const MIN_DRAWN_FRACTION = 0.12;

/** What the structures look like: see-through, so what is inside them shows. */
const STRUCTURE_OPACITY = 0.35;

/** Colours of what is not a structure (the structures' come with the scene). */
export const KIND_COLORS = {
  source: "#e8590c",
  monitor: "#2b8a3e",
  port: "#7048e8",
  mesh: "#1098ad",
  pml: "#9c36b5",
  pec: "#1c7ed6",
  pmc: "#d6336c",
  x: "#e03131",
  y: "#2f9e44",
  z: "#1971c2",
};

/**
 * The drawn frame of a scene: the grid centred on the origin, its longest axis 1 unit, thin
 * axes stretched (see the module comment).
 * @param {SetupScene} scene
 * @returns {Frame}
 */
export function frameOf(scene) {
  const { gridMin, gridMax } = scene.domain;
  const extent = [0, 1, 2].map((a) => (gridMax[a] ?? 0) - (gridMin[a] ?? 0));
  const unitM = Math.max(...extent) || 1;
  const stretch = extent.map((e) => (e > 0 ? Math.max(1, (MIN_DRAWN_FRACTION * unitM) / e) : 1));
  const center = [0, 1, 2].map((a) => ((gridMin[a] ?? 0) + (gridMax[a] ?? 0)) / 2);
  const length = (/** @type {number} */ v, /** @type {number} */ a) =>
    (v * (stretch[a] ?? 1)) / unitM;
  const at = (/** @type {readonly number[]} */ p) =>
    perAxis((a) => length((p[a] ?? 0) - (center[a] ?? 0), a));
  const drawnSize = perAxis((a) => length(extent[a] ?? 0, a));
  return { center, unitM, stretch, drawnSize, at, length };
}

/**
 * The scene as a group of three.js objects and the labels to place over them.
 * @param {SetupScene} scene
 * @param {Palette} palette
 * @returns {{ group: Group, labels: Label[], frame: Frame }}
 */
export function buildScene(scene, palette) {
  const frame = frameOf(scene);
  const group = new Group();
  group.name = "setup";
  const clip = clipPlanes(frame);
  for (const s of scene.structures) group.add(structureObject(s, frame, clip));
  group.add(domainObject(scene, frame, palette));
  const labels = sceneLabels(scene, frame);
  for (const item of markers(scene, frame)) group.add(item);
  group.add(axesObject(frame, palette, labels));
  return { group, labels, frame };
}

/**
 * The grid's six faces as clipping planes (drawn units): a sphere, or a polyslab's outline,
 * that runs past the grid is cut there as the run cuts it (scene.ts clips the rest).
 * @param {Frame} frame
 */
function clipPlanes(frame) {
  // A face of a structure cut to the grid lies on the plane itself: the margin, a thirtieth
  // of a pixel or so, is well above float32's rounding in the shader, which would otherwise
  // keep or drop that face pixel by pixel.
  const half = frame.drawnSize.clone().multiplyScalar(0.5).addScalar(1e-4);
  return [0, 1, 2].flatMap((a) => {
    const n = new Vector3();
    n.setComponent(a, 1);
    return [
      new Plane(n.clone(), half.getComponent(a)),
      new Plane(n.negate(), half.getComponent(a)),
    ];
  });
}

/**
 * A structure: its translucent body and its edges.
 * @param {SceneStructure} s
 * @param {Frame} frame
 * @param {Plane[]} clippingPlanes
 */
function structureObject(s, frame, clippingPlanes) {
  const body = new MeshLambertMaterial({
    color: s.color,
    transparent: true,
    opacity: STRUCTURE_OPACITY,
    depthWrite: false,
    side: DoubleSide,
    clippingPlanes,
  });
  const edgeColor = new Color(s.color).multiplyScalar(0.55);
  const edges = new LineBasicMaterial({
    color: edgeColor,
    transparent: true,
    opacity: 0.9,
    clippingPlanes,
  });
  const group = new Group();
  group.name = `structures[${s.index}] ${s.material}`;
  if (s.shape === "box") {
    const mesh = placedBox(s.min, s.max, frame, body);
    group.add(mesh, boxEdges(mesh, edges));
  } else if (s.shape === "sphere") {
    const mesh = new Mesh(new SphereGeometry(1, 48, 24), body);
    mesh.position.copy(frame.at(s.center));
    mesh.scale.copy(perAxis((a) => frame.length(s.radius, a)));
    group.add(mesh, ...sphereRings(mesh, edges));
  } else if (s.shape === "cylinder") {
    const geometry = new CylinderGeometry(1, 1, 1, 64, 1);
    if (s.axis === "z") geometry.rotateX(Math.PI / 2);
    if (s.axis === "x") geometry.rotateZ(-Math.PI / 2);
    const along = "xyz".indexOf(s.axis);
    const mesh = new Mesh(geometry, body);
    mesh.position.copy(frame.at(s.center));
    mesh.scale.copy(perAxis((a) => frame.length(a === along ? s.height : s.radius, a)));
    const outline = new LineSegments(new EdgesGeometry(geometry, 30), edges);
    outline.position.copy(mesh.position);
    outline.scale.copy(mesh.scale);
    group.add(mesh, outline);
  } else {
    const geometry = prismGeometry(s, frame);
    group.add(new Mesh(geometry, body), new LineSegments(new EdgesGeometry(geometry, 20), edges));
  }
  return group;
}

/**
 * A box from its corners (metres): a unit cube scaled and moved, so its edges can follow.
 * @param {readonly number[]} min @param {readonly number[]} max @param {Frame} frame
 * @param {Material} material
 */
function placedBox(min, max, frame, material) {
  const mesh = new Mesh(new BoxGeometry(1, 1, 1), material);
  const lo = frame.at(min);
  const hi = frame.at(max);
  mesh.position.copy(lo.clone().add(hi).multiplyScalar(0.5));
  mesh.scale.copy(hi.sub(lo)).max(new Vector3(1e-6, 1e-6, 1e-6));
  return mesh;
}

/** @param {Mesh} mesh @param {Material} material */
function boxEdges(mesh, material) {
  const lines = new LineSegments(new EdgesGeometry(new BoxGeometry(1, 1, 1)), material);
  lines.position.copy(mesh.position);
  lines.scale.copy(mesh.scale);
  return lines;
}

/**
 * A sphere's outline: its equator and two meridians (a smooth surface has no edges to draw).
 * @param {Mesh} mesh @param {Material} material
 */
function sphereRings(mesh, material) {
  const circle = Array.from({ length: 65 }, (_, k) => (2 * Math.PI * k) / 64);
  /** @param {(t: number) => [number, number, number]} point */
  const ring = (point) => {
    const line = new LineLoop(
      new BufferGeometry().setFromPoints(circle.map((t) => new Vector3(...point(t)))),
      material,
    );
    line.position.copy(mesh.position);
    line.scale.copy(mesh.scale);
    return line;
  };
  return [
    ring((t) => [Math.cos(t), Math.sin(t), 0]),
    ring((t) => [Math.cos(t), 0, Math.sin(t)]),
    ring((t) => [0, Math.cos(t), Math.sin(t)]),
  ];
}

/**
 * A polyslab as triangles: both caps (its holes cut out) and a wall quad per edge of each ring,
 * between the bottom ring and the top ring vertex for vertex (a sloped wall's rings differ).
 * @param {Extract<SceneStructure, { shape: "polyslab" }>} s
 * @param {Frame} frame
 */
function prismGeometry(s, frame) {
  /** @param {[number, number][][]} rings @param {number} z */
  const drawn = (rings, z) => rings.map((ring) => ring.map(([x, y]) => frame.at([x, y, z])));
  const bottom = drawn(s.bottom, s.min);
  const top = drawn(s.top, s.max);
  const flatBottom = bottom.flat();
  const flatTop = top.flat();
  const [outer, ...holes] = bottom.map((ring) => ring.map((p) => new Vector2(p.x, p.y)));
  const faces = outer ? ShapeUtils.triangulateShape(outer, holes) : [];
  /** @type {number[]} */
  const positions = [];
  const push = (/** @type {Vector3[]} */ ...points) => {
    for (const p of points) positions.push(p.x, p.y, p.z);
  };
  for (const [i = 0, j = 0, k = 0] of faces) {
    const [bi, bj, bk] = [flatBottom[i], flatBottom[j], flatBottom[k]];
    const [ti, tj, tk] = [flatTop[i], flatTop[j], flatTop[k]];
    if (bi && bj && bk) push(bi, bk, bj);
    if (ti && tj && tk) push(ti, tj, tk);
  }
  bottom.forEach((ring, r) => {
    ring.forEach((b0, i) => {
      const b1 = ring[(i + 1) % ring.length];
      const t0 = top[r]?.[i];
      const t1 = top[r]?.[(i + 1) % ring.length];
      if (b1 && t0 && t1) push(b0, b1, t1, b0, t1, t0);
    });
  });
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new Float32BufferAttribute(positions, 3));
  geometry.computeVertexNormals();
  return geometry;
}

/**
 * The region of interest as a wire box, the absorber's slabs as a faint shell, the grid's
 * outer faces as faint lines, and the mirror planes.
 * @param {SetupScene} scene @param {Frame} frame @param {Palette} palette
 */
function domainObject(scene, frame, palette) {
  const { domain } = scene;
  const group = new Group();
  group.name = "domain";
  const wire = new LineBasicMaterial({ color: palette.line, transparent: true, opacity: 0.85 });
  const region = placedBox(domain.min, domain.max, frame, wire);
  group.add(boxEdges(region, wire));
  const faint = new LineBasicMaterial({ color: palette.line, transparent: true, opacity: 0.3 });
  group.add(boxEdges(placedBox(domain.gridMin, domain.gridMax, frame, faint), faint));
  const shell = translucent(KIND_COLORS.pml, 0.06);
  domain.pml.forEach(([lo, hi], a) => {
    if (lo > 0) {
      const max = [...domain.gridMax];
      max[a] = domain.min[a] ?? 0;
      group.add(placedBox(domain.gridMin, max, frame, shell));
    }
    if (hi > 0) {
      const min = [...domain.gridMin];
      min[a] = domain.max[a] ?? 0;
      group.add(placedBox(min, domain.gridMax, frame, shell));
    }
  });
  for (const m of scene.symmetry) {
    const a = "xyz".indexOf(m.axis);
    const [min, max] = [[...domain.gridMin], [...domain.gridMax]];
    min[a] = 0;
    max[a] = 0;
    group.add(...flat(min, max, frame, KIND_COLORS[m.kind], 0.12));
  }
  return group;
}

/** @param {string} color @param {number} opacity */
function translucent(color, opacity) {
  return new MeshBasicMaterial({
    color,
    transparent: true,
    opacity,
    depthWrite: false,
    side: DoubleSide,
  });
}

/**
 * Something of zero extent along one axis or more, drawn as it is: a rectangle with its
 * outline, a segment, or a dot.
 * @param {readonly number[]} min @param {readonly number[]} max @param {Frame} frame
 * @param {string} color @param {number} opacity of a rectangle's fill
 * @returns {Object3D[]}
 */
export function flat(min, max, frame, color, opacity) {
  const lo = frame.at(min);
  const hi = frame.at(max);
  const zero = [0, 1, 2].filter((a) => min[a] === max[a]);
  const line = new LineBasicMaterial({ color });
  if (zero.length >= 3) {
    const dot = new Mesh(new SphereGeometry(0.008, 12, 8), new MeshBasicMaterial({ color }));
    dot.position.copy(lo);
    return [dot];
  }
  if (zero.length === 2) return [new Line(new BufferGeometry().setFromPoints([lo, hi]), line)];
  const a = zero[0] ?? 0;
  const [u, v] = [0, 1, 2].filter((b) => b !== a);
  const corner = (/** @type {Vector3} */ pu, /** @type {Vector3} */ pv) => {
    const p = lo.clone();
    p.setComponent(u ?? 0, pu.getComponent(u ?? 0));
    p.setComponent(v ?? 1, pv.getComponent(v ?? 1));
    return p;
  };
  const corners = [corner(lo, lo), corner(hi, lo), corner(hi, hi), corner(lo, hi)];
  const fill = new BufferGeometry().setFromPoints(corners);
  fill.setIndex([0, 1, 2, 0, 2, 3]);
  return [
    new Mesh(fill, translucent(color, opacity)),
    new LineLoop(new BufferGeometry().setFromPoints(corners), line),
  ];
}

/**
 * An arrow from `from` along `direction` (drawn units), `length` long.
 * @param {Vector3} from @param {Vector3} direction @param {number} length @param {string} color
 */
export function arrow(from, direction, length, color) {
  const dir = direction.clone().normalize();
  const group = new Group();
  const head = Math.min(0.035, length * 0.3);
  const tip = from.clone().addScaledVector(dir, length);
  const shaftEnd = from.clone().addScaledVector(dir, length - head);
  group.add(
    new Line(
      new BufferGeometry().setFromPoints([from, shaftEnd]),
      new LineBasicMaterial({ color }),
    ),
  );
  const cone = new Mesh(new ConeGeometry(head * 0.35, head, 16), new MeshBasicMaterial({ color }));
  // A cone's axis is +y; turn it onto the arrow's direction.
  cone.quaternion.setFromUnitVectors(new Vector3(0, 1, 0), dir);
  cone.position.copy(tip).addScaledVector(dir, -head / 2);
  group.add(cone);
  return group;
}

/**
 * The sources, monitors, ports and mesh overrides.
 * @param {SetupScene} scene @param {Frame} frame
 * @returns {Object3D[]}
 */
function markers(scene, frame) {
  /** @type {Object3D[]} */
  const out = [];
  /** @param {readonly number[]} v */
  const drawnDirection = (v) =>
    new Vector3(...[0, 1, 2].map((a) => (v[a] ?? 0) * (frame.stretch[a] ?? 1)));
  for (const s of scene.sources) {
    out.push(...flat(s.min, s.max, frame, KIND_COLORS.source, 0.28));
    const middle = frame.at(s.min).add(frame.at(s.max)).multiplyScalar(0.5);
    if (s.direction) out.push(arrow(middle, drawnDirection(s.direction), 0.22, KIND_COLORS.source));
    if (s.axis) {
      // A dipole: its current's axis both ways from the point.
      const axis = drawnDirection(s.axis);
      out.push(arrow(middle, axis, 0.08, KIND_COLORS.source));
      out.push(arrow(middle, axis.clone().negate(), 0.08, KIND_COLORS.source));
    }
  }
  for (const m of scene.monitors) {
    if (m.shape === "box") {
      const lines = new LineBasicMaterial({ color: KIND_COLORS.monitor });
      out.push(boxEdges(placedBox(m.min, m.max, frame, lines), lines));
    } else out.push(...flat(m.min, m.max, frame, KIND_COLORS.monitor, 0.16));
  }
  for (const p of scene.ports) {
    out.push(...flat(p.min, p.max, frame, KIND_COLORS.port, 0.2));
    const middle = frame.at(p.min).add(frame.at(p.max)).multiplyScalar(0.5);
    out.push(arrow(middle, drawnDirection(p.direction), 0.15, KIND_COLORS.port));
  }
  for (const o of scene.meshOverrides) {
    const lines = new LineBasicMaterial({
      color: KIND_COLORS.mesh,
      transparent: true,
      opacity: 0.7,
    });
    const zero = [0, 1, 2].some((a) => o.min[a] === o.max[a]);
    if (zero) out.push(...flat(o.min, o.max, frame, KIND_COLORS.mesh, 0.08));
    else out.push(boxEdges(placedBox(o.min, o.max, frame, lines), lines));
  }
  return out;
}

/**
 * Axes from the grid's low corner with their names (a stretched axis says by how much), and
 * a scale bar along the longest axis.
 * @param {Frame} frame @param {Palette} palette @param {Label[]} labels added to
 */
function axesObject(frame, palette, labels) {
  const group = new Group();
  group.name = "axes";
  const corner = frame.drawnSize.clone().multiplyScalar(-0.5);
  const names = /** @type {const} */ (["x", "y", "z"]);
  names.forEach((name, a) => {
    const dir = new Vector3();
    dir.setComponent(a, 1);
    group.add(arrow(corner, dir, 0.16, KIND_COLORS[name]));
    const k = frame.stretch[a] ?? 1;
    const text = k > 1.05 ? `${name} (drawn ×${k < 10 ? k.toFixed(1) : Math.round(k)})` : name;
    labels.push({
      text,
      at: corner.clone().addScaledVector(dir, 0.19),
      kind: "axis",
      color: KIND_COLORS[name],
    });
  });
  const extent = [0, 1, 2].map((a) => frame.drawnSize.getComponent(a) / (frame.stretch[a] ?? 1));
  const along = extent.indexOf(Math.max(...extent));
  const side = along === 0 ? 1 : 0;
  const barM = niceLength(frame.unitM * (extent[along] ?? 1) * 0.3);
  const start = corner.clone();
  start.setComponent(side, start.getComponent(side) - 0.06);
  const end = start.clone();
  end.setComponent(along, end.getComponent(along) + frame.length(barM, along));
  const tick = new Vector3();
  tick.setComponent(side, 0.015);
  const line = new LineBasicMaterial({ color: palette.text });
  const points = [
    start,
    end,
    start.clone().sub(tick),
    start.clone().add(tick),
    end.clone().sub(tick),
    end.clone().add(tick),
  ];
  group.add(new LineSegments(new BufferGeometry().setFromPoints(points), line));
  const middle = start.clone().add(end).multiplyScalar(0.5);
  labels.push({ text: formatLength(barM), at: middle, kind: "scale", color: palette.text });
  return group;
}
