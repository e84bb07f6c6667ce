/**
 * A simulation's set-up as a small 3-D scene (issue #31): what the dashboard's builder draws as
 * its headline picture (dashboard/static/setup-3d.js), beside the preview's planes. Plain JSON,
 * in metres in the domain's frame (centred on the origin), and no per-cell data: a few hundred
 * numbers for a typical set-up, a polyslab's outline the most.
 *
 * The grid's extent, the absorber and where the source is injected are the solver's
 * (previewSetupOf with no planes: the run's grid plan, its materials and its injection planes,
 * without painting a cell), so the picture shows the set-up as the run steps it, as the 2-D
 * preview's outlines (outlines.ts) do.
 *
 * Structures and boxes are clipped to the grid, absorber included: a substrate is often given
 * as metres wide so that it runs through the absorber, and the picture would otherwise be that
 * substrate with a speck in it (and lose float32 precision in the browser). A sphere is left
 * whole (the renderer clips it); a polyslab is cut along z at the grid, its sloped walls
 * interpolated to the cut, and a vertical-walled one in xy too (polySlabShape).
 */
import {
  findMaterial,
  libraryMaterials,
  polySlabEnds,
  previewSetupOf,
  type Axis,
  type AxisDirection,
  type SetupPreview,
  type SimulationSpec,
  type StructureSpec,
  type Vec3,
} from "../solver/index.js";
import { materialColor } from "./scene-colors.js";
import type {
  SceneMaterial,
  SceneMonitor,
  SceneRings,
  SceneSource,
  SceneStructure,
  SceneStructureBase,
  SetupScene,
} from "./scene-types.js";

export type * from "./scene-types.js";

const AXES = ["x", "y", "z"] as const;

/** Lengths to the femtometre, as the preview's answer writes them (response.ts). */
const metres = (v: number) => Number((Math.round(v * 1e15) / 1e15).toPrecision(12));
const vec = (v: readonly number[]) => v.map(metres) as Vec3;

interface Box {
  min: Vec3;
  max: Vec3;
}

const around = (center: readonly number[], size: readonly number[]): Box => ({
  min: center.map((c, a) => c - size[a]! / 2) as Vec3,
  max: center.map((c, a) => c + size[a]! / 2) as Vec3,
});

/** A box cut to the grid, or null if it lies outside it. */
function clipped(box: Box, grid: Box): Box | null {
  const min = box.min.map((v, a) => Math.max(v, grid.min[a]!)) as Vec3;
  const max = box.max.map((v, a) => Math.min(v, grid.max[a]!)) as Vec3;
  if (min.some((v, a) => v > max[a]!)) return null;
  return { min: vec(min), max: vec(max) };
}

const unitAlong = (direction: AxisDirection): Vec3 => {
  const out: Vec3 = [0, 0, 0];
  out[AXES.indexOf(direction[1] as Axis)] = direction[0] === "-" ? -1 : 1;
  return out;
};

const unit = (v: readonly number[]): Vec3 => {
  const norm = Math.hypot(...v);
  return v.map((c) => metres(c / norm)) as Vec3;
};

/**
 * A ring cut to the grid's xy rectangle (Sutherland–Hodgman: the rectangle is convex, so a
 * simple polygon's cut is one ring, with edges along the rectangle where it was cut); empty
 * where nothing of it is inside.
 */
function clipRing(ring: [number, number][], grid: Box): [number, number][] {
  let out = ring;
  // Each side of the rectangle as (axis, coordinate, which way is inside).
  const sides: [0 | 1, number, 1 | -1][] = [
    [0, grid.min[0], 1],
    [0, grid.max[0], -1],
    [1, grid.min[1], 1],
    [1, grid.max[1], -1],
  ];
  for (const [axis, value, sign] of sides) {
    const input = out;
    out = [];
    input.forEach((p, i) => {
      const q = input[(i + 1) % input.length]!;
      const pIn = sign * (p[axis] - value) >= 0;
      const qIn = sign * (q[axis] - value) >= 0;
      if (pIn) out.push(p);
      if (pIn === qIn) return;
      const t = (value - p[axis]) / (q[axis] - p[axis]);
      out.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
    });
  }
  return out;
}

/**
 * A polyslab's rings cut along z to the grid, each vertex moved along the sloped wall to the
 * cut (the wall's offset is linear in z). A vertical-walled one is cut in xy too: a layer
 * drawn metres wide would otherwise reach the browser as coordinates float32 cannot hold to
 * a pixel once scaled to the drawing. A sloped one keeps its rings whole, since its walls
 * join the bottom and the top vertex for vertex; the renderer clips it.
 */
function polySlabShape(
  s: Extract<StructureSpec, { type: "polyslab" }>,
  grid: Box,
): { min: number; max: number; bottom: SceneRings; top: SceneRings } | null {
  const z0 = Math.max(s.z_min, grid.min[2]);
  const z1 = Math.min(s.z_max, grid.max[2]);
  if (z0 > z1) return null;
  const ends = polySlabEnds(s);
  const rounded = (rings: SceneRings) =>
    rings.map((ring) => ring.map(([x, y]): [number, number] => [metres(x), metres(y)]));
  if ((s.sidewall_angle_deg ?? 0) === 0) {
    const rings = ends.bottom.map((ring) => clipRing(ring, grid));
    if (rings[0]!.length < 3) return null;
    const kept = rounded(rings.filter((ring) => ring.length >= 3));
    return { min: metres(z0), max: metres(z1), bottom: kept, top: kept };
  }
  const at = (z: number): SceneRings => {
    const t = s.z_max > s.z_min ? (z - s.z_min) / (s.z_max - s.z_min) : 0;
    return rounded(
      ends.bottom.map((ring, r) =>
        ring.map(([x, y], i): [number, number] => {
          const [tx, ty] = ends.top[r]![i]!;
          return [x + (tx - x) * t, y + (ty - y) * t];
        }),
      ),
    );
  };
  if (!ringsMeetGrid(ends.bottom.concat(ends.top), grid)) return null;
  return { min: metres(z0), max: metres(z1), bottom: at(z0), top: at(z1) };
}

/** Whether a polyslab's outer rings (bottom and top) reach the grid's xy rectangle at all. */
function ringsMeetGrid(rings: SceneRings, grid: Box): boolean {
  const points = rings.flat();
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return (
    Math.min(...xs) <= grid.max[0] &&
    Math.max(...xs) >= grid.min[0] &&
    Math.min(...ys) <= grid.max[1] &&
    Math.max(...ys) >= grid.min[1]
  );
}

/** One structure as a shape, or null where it lies outside the grid. */
function sceneStructure(
  s: StructureSpec,
  base: SceneStructureBase,
  grid: Box,
): SceneStructure | null {
  switch (s.type) {
    case "box": {
      const box = clipped(around(s.center, s.size), grid);
      return box && { ...base, shape: "box", ...box };
    }
    case "sphere": {
      const r = s.radius;
      const box = clipped(around(s.center, [2 * r, 2 * r, 2 * r]), grid);
      return box && { ...base, shape: "sphere", center: vec(s.center), radius: metres(r) };
    }
    case "cylinder": {
      const a = AXES.indexOf(s.axis);
      const size = [2 * s.radius, 2 * s.radius, 2 * s.radius];
      size[a] = s.height;
      const box = clipped(around(s.center, size), grid);
      if (!box) return null;
      const center = [...s.center] as Vec3;
      center[a] = (box.min[a] + box.max[a]) / 2;
      const height = metres(box.max[a] - box.min[a]);
      const radius = metres(s.radius);
      return { ...base, shape: "cylinder", center: vec(center), radius, height, axis: s.axis };
    }
    case "polyslab": {
      const shape = polySlabShape(s, grid);
      if (!shape) return null;
      return { ...base, shape: "polyslab", axis: "z", ...shape };
    }
  }
}

/** The request's own material of that name (they shadow the library's, as the solver reads them). */
function userMaterial(spec: SimulationSpec, name: string) {
  const key = name.trim().toLowerCase();
  return Object.entries(spec.materials ?? {}).find(([n]) => n.toLowerCase() === key)?.[1];
}

/** ε at the source wavelength where it costs nothing: library materials, constant user ones. */
function permittivityOf(spec: SimulationSpec, name: string): [number, number] | null {
  const m = userMaterial(spec, name);
  if (m) {
    // Only a lossless constant is free; σ and poles need the solver's model (dispersion/).
    if ((m.conductivity ?? 0) !== 0 || (m.poles?.length ?? 0) > 0) return null;
    return [m.permittivity ?? 1, 0];
  }
  try {
    const eps = libraryMaterials.permittivity(name, spec.source.wavelength);
    return [Number(eps.re.toPrecision(6)), Number(eps.im.toPrecision(6))];
  } catch {
    return null; // PEC has none
  }
}

/** The preview's materials (the background first), each with its colour. */
function sceneMaterials(spec: SimulationSpec, preview: SetupPreview): SceneMaterial[] {
  return preview.materials.map((m) => {
    const eps = permittivityOf(spec, m.name);
    const library = userMaterial(spec, m.name) ? null : (findMaterial(m.name)?.name ?? null);
    return { name: m.name, kind: m.kind, eps, color: materialColor(library, m.kind, eps) };
  });
}

/** A source's plane: `box` flattened onto the injection plane, cut to the grid. */
function injectionBox(normal: number, positionM: number, box: Box, grid: Box): Box {
  const out = { min: [...box.min] as Vec3, max: [...box.max] as Vec3 };
  out.min[normal] = positionM;
  out.max[normal] = positionM;
  return clipped(out, grid) ?? { min: vec(out.min), max: vec(out.max) };
}

/** A dipole's point and axis. */
function dipoleSource(source: Extract<SimulationSpec["source"], { source_type: "point_dipole" }>) {
  const axis: Vec3 = [0, 0, 0];
  axis[AXES.indexOf(source.polarization[1]!.toLowerCase() as Axis)] = 1;
  const at = vec(source.center);
  return {
    type: source.source_type,
    name: `dipole ${source.polarization}`,
    shape: "point" as const,
    min: at,
    max: [...at] as Vec3,
    polarization: source.polarization,
    axis,
  };
}

/**
 * The source's injection planes or its point. A plane wave's plane is where the solver puts
 * it (a few cells inside the upstream face, across the whole grid), not where the request
 * could be read to put it; a beam's and a mode's are snapped to the grid's node plane.
 */
function sceneSources(spec: SimulationSpec, preview: SetupPreview, grid: Box): SceneSource[] {
  const source = spec.source;
  const on = (name: string, box: Box) => {
    const p = preview.injections.find((i) => i.name === name)!;
    return injectionBox(p.normal, p.positionM, box, grid);
  };
  const plane = "plane" as const;
  switch (source.source_type) {
    case "plane_wave": {
      const at = on("TFSF plane", grid);
      const { polarization } = source;
      const direction = unit(source.direction);
      const name = "plane wave (TFSF plane)";
      return [{ type: source.source_type, name, shape: plane, ...at, direction, polarization }];
    }
    case "point_dipole":
      return [dipoleSource(source)];
    case "gaussian_beam": {
      const at = on("beam plane", around(source.center, source.size));
      const { polarization } = source;
      const direction = unit(source.direction);
      const name = "gaussian beam";
      return [{ type: source.source_type, name, shape: plane, ...at, direction, polarization }];
    }
    case "mode": {
      const at = on("mode plane", around(source.center, source.size));
      const direction = unitAlong(source.direction);
      const name = `mode ${source.mode_index}`;
      return [{ type: source.source_type, name, shape: plane, ...at, direction }];
    }
    case "ports":
      // Only the launched ports have a source plane (ports.ts, a few cells into the device).
      return (spec.ports ?? []).flatMap((port): SceneSource[] => {
        const name = `port ${port.name} source`;
        if (!preview.injections.some((i) => i.name === name)) return [];
        const at = on(name, around(port.center, port.size));
        return [{ type: "port", name, shape: plane, ...at, direction: unitAlong(port.direction) }];
      });
  }
}

const monitorShape = (size: readonly number[]): SceneMonitor["shape"] =>
  (["box", "plane", "line", "point"] as const)[size.filter((s) => s === 0).length]!;

/** The grid, the region of interest and the absorber's thickness per side. */
function sceneDomain(spec: SimulationSpec, preview: SetupPreview): SetupScene["domain"] {
  const pick = (f: (a: SetupPreview["axes"][number]) => number) => preview.axes.map(f) as Vec3;
  const thickness = (a: SetupPreview["axes"][number]): [number, number] =>
    a.boundary === "pml"
      ? [metres(a.interiorM[0] - a.gridM[0]), metres(a.gridM[1] - a.interiorM[1])]
      : [0, 0];
  return {
    min: vec(pick((a) => a.interiorM[0])),
    max: vec(pick((a) => a.interiorM[1])),
    gridMin: vec(pick((a) => a.gridM[0])),
    gridMax: vec(pick((a) => a.gridM[1])),
    boundaries: [...spec.domain.boundary_conditions],
    pml: preview.axes.map(thickness) as SetupScene["domain"]["pml"],
  };
}

/**
 * The set-up of a checked simulation (JobService.check's spec, gds structures resolved) as a
 * 3-D scene in metres: the grid and its absorber, every structure with its material's colour,
 * where the source injects, the monitors, ports, mesh overrides and mirror planes.
 */
export function setupScene(spec: SimulationSpec): SetupScene {
  const preview = previewSetupOf(spec, []);
  const domain = sceneDomain(spec, preview);
  const grid: Box = { min: domain.gridMin, max: domain.gridMax };
  const materials = sceneMaterials(spec, preview);
  const structures = spec.structures.flatMap((s, index) => {
    // 0 is the background's, which a structure of vacuum shares.
    const m = materials[preview.structureMaterial[index]!]!;
    const shape = sceneStructure(s, { index, material: s.material, color: m.color }, grid);
    return shape ? [shape] : [];
  });
  const boxOf = (o: { center: Vec3; size: Vec3 }) =>
    clipped(around(o.center, o.size), grid) ?? { ...around(o.center, o.size) };
  return {
    domain,
    wavelength: spec.source.wavelength,
    // The legend: the materials of the structures (the background only if one is of it).
    materials: materials.filter((_, k) => preview.structureMaterial.includes(k)),
    structures,
    sources: sceneSources(spec, preview, grid),
    monitors: spec.monitors.map((m) => ({
      name: m.name,
      type: m.monitor_type,
      shape: monitorShape(m.size),
      ...boxOf(m),
    })),
    ports: (spec.ports ?? []).map((p) => ({
      name: p.name,
      ...boxOf(p),
      direction: unitAlong(p.direction),
      modes: p.mode_spec.num_modes,
    })),
    meshOverrides: (spec.domain.mesh_overrides ?? []).map((o, i) => ({
      name: `mesh_overrides[${i}]`,
      ...boxOf(o),
      resolution: o.resolution,
    })),
    symmetry: preview.axes.flatMap((a, i) =>
      a.mirror === "none" ? [] : [{ axis: AXES[i]!, kind: a.mirror }],
    ),
  };
}
