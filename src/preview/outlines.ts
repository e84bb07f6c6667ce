/**
 * The outlines of a set-up's objects on a preview plane, in metres on the plane's (first,
 * second) axes: each structure's cross-section (the plotting core's, src/plot/sections.ts: a
 * box's rectangle, a sphere's or a cylinder's circle or rectangle, a polyslab's polygons with
 * their sloped walls), and the boxes of everything else — the source's planes where the solver
 * puts them, monitors, ports, mesh overrides, the absorber's slabs and the mirror planes — cut
 * by the plane.
 *
 * A box that is a plane normal to the preview plane's normal (a flux plane, a source plane)
 * counts as on the plane within half the grid's step there, since the preview shows a node
 * plane and the object may sit between two of them.
 */
import { crossSection, type AxisIndex, type Section } from "../plot/sections.js";
import { structureShape } from "../plot/structures.js";
import type { PreviewObject } from "../schema/preview.js";
import type { PreviewPlane, SetupPreview, SimulationSpec, Vec3 } from "../solver/index.js";

/** Points of the polygon a circle's section is drawn as. */
const CIRCLE_POINTS = 64;

const AXES = "xyz";

type Ring = [number, number][];

/** An object as an axis-aligned box (degenerate along an axis for a plane, a line, a point). */
interface BoxObject {
  kind: PreviewObject["kind"];
  name: string;
  lo: Vec3;
  hi: Vec3;
  direction?: number[];
}

/** A section's rings on the plane. */
function sectionRings(s: Section): Ring[] {
  if (s.shape === "polygon") return (s.rings ?? []).map((r) => r.map(([u, v]) => [u, v]));
  if (s.shape === "rect") {
    return [
      [
        [s.u0, s.v0],
        [s.u1, s.v0],
        [s.u1, s.v1],
        [s.u0, s.v1],
      ],
    ];
  }
  const cu = (s.u0 + s.u1) / 2;
  const cv = (s.v0 + s.v1) / 2;
  const ru = (s.u1 - s.u0) / 2;
  const rv = (s.v1 - s.v0) / 2;
  return [
    Array.from({ length: CIRCLE_POINTS }, (_, k): [number, number] => {
      const t = (2 * Math.PI * k) / CIRCLE_POINTS;
      return [cu + ru * Math.cos(t), cv + rv * Math.sin(t)];
    }),
  ];
}

/** A box's cut with the plane: a rectangle, a segment or a point; null if it misses. */
function boxRing(box: BoxObject, plane: PreviewPlane): Ring | null {
  const a = plane.normal;
  const tol = plane.normalStepM / 2;
  if (box.lo[a] > plane.positionM + tol || box.hi[a] < plane.positionM - tol) return null;
  const [u, v] = plane.axes;
  const [u0, u1, v0, v1] = [box.lo[u], box.hi[u], box.lo[v], box.hi[v]];
  const flatU = u0 === u1;
  const flatV = v0 === v1;
  if (flatU && flatV) return [[u0, v0]];
  if (flatU || flatV) {
    return [
      [u0, v0],
      [u1, v1],
    ];
  }
  return [
    [u0, v0],
    [u1, v0],
    [u1, v1],
    [u0, v1],
  ];
}

const around = (center: readonly number[], size: readonly number[]) => ({
  lo: center.map((c, a) => c - size[a]! / 2) as Vec3,
  hi: center.map((c, a) => c + size[a]! / 2) as Vec3,
});

const unitAlong = (direction: string): number[] => {
  const out = [0, 0, 0];
  out[AXES.indexOf(direction[1]!)] = direction[0] === "-" ? -1 : 1;
  return out;
};

/** The absorber's slabs and the mirror planes, over the whole grid. */
function gridBoxes(preview: SetupPreview): BoxObject[] {
  const grid = preview.axes.map((ax) => ax.gridM);
  const whole = (): [Vec3, Vec3] => [grid.map((g) => g[0]) as Vec3, grid.map((g) => g[1]) as Vec3];
  const out: BoxObject[] = [];
  preview.axes.forEach((ax, a) => {
    if (ax.boundary === "pml") {
      const [lo, hi] = whole();
      hi[a] = ax.interiorM[0];
      out.push({ kind: "pml", name: `pml -${AXES[a]}`, lo, hi });
      const [lo2, hi2] = whole();
      lo2[a] = ax.interiorM[1];
      out.push({ kind: "pml", name: `pml +${AXES[a]}`, lo: lo2, hi: hi2 });
    }
  });
  preview.axes.forEach((ax, a) => {
    if (ax.mirror === "none") return;
    const [lo, hi] = whole();
    lo[a] = 0;
    hi[a] = 0;
    out.push({ kind: "symmetry", name: `${AXES[a]} = 0 (${ax.mirror})`, lo, hi });
  });
  return out;
}

/** The source's planes (where the solver injects) or point, with their direction. */
function sourceBoxes(spec: SimulationSpec, preview: SetupPreview): BoxObject[] {
  const grid = preview.axes.map((ax) => ax.gridM);
  const source = spec.source;
  const at = (normal: number, positionM: number, box: { lo: Vec3; hi: Vec3 }) => {
    const lo = [...box.lo] as Vec3;
    const hi = [...box.hi] as Vec3;
    lo[normal] = positionM;
    hi[normal] = positionM;
    return { lo, hi };
  };
  const injection = preview.injections;
  switch (source.source_type) {
    case "plane_wave": {
      const p = injection[0]!;
      const whole = { lo: grid.map((g) => g[0]) as Vec3, hi: grid.map((g) => g[1]) as Vec3 };
      const norm = Math.hypot(...source.direction);
      const direction = source.direction.map((d) => d / norm);
      return [
        {
          kind: "source",
          name: "plane wave: TFSF plane",
          ...at(p.normal, p.positionM, whole),
          direction,
        },
      ];
    }
    case "point_dipole":
      return [
        {
          kind: "source",
          name: `point dipole (${source.polarization})`,
          lo: [...source.center] as Vec3,
          hi: [...source.center] as Vec3,
        },
      ];
    case "gaussian_beam": {
      const p = injection[0]!;
      const norm = Math.hypot(...source.direction);
      const direction = source.direction.map((d) => d / norm);
      const box = at(p.normal, p.positionM, around(source.center, source.size));
      return [{ kind: "source", name: "gaussian beam plane", ...box, direction }];
    }
    case "mode": {
      const p = injection[0]!;
      const box = at(p.normal, p.positionM, around(source.center, source.size));
      return [
        { kind: "source", name: "mode plane", ...box, direction: unitAlong(source.direction) },
      ];
    }
    case "ports":
      return (spec.ports ?? []).flatMap((port) => {
        const p = injection.find((i) => i.name === `port ${port.name} source`);
        if (!p) return [];
        const box = at(p.normal, p.positionM, around(port.center, port.size));
        const direction = unitAlong(port.direction);
        return [{ kind: "source" as const, name: `port ${port.name} source`, ...box, direction }];
      });
  }
}

/** Every object of the set-up as a box, but the structures. */
function objectBoxes(spec: SimulationSpec, preview: SetupPreview): BoxObject[] {
  const grid = gridBoxes(preview);
  return [
    ...grid.filter((b) => b.kind === "pml"),
    ...(spec.domain.mesh_overrides ?? []).map((o, i): BoxObject => ({
      kind: "mesh_override",
      name: `mesh_overrides[${i}]`,
      ...around(o.center, o.size),
    })),
    ...spec.monitors.map((m): BoxObject => ({
      kind: "monitor",
      name: m.name,
      ...around(m.center, m.size),
    })),
    ...(spec.ports ?? []).map((p): BoxObject => ({
      kind: "port",
      name: p.name,
      ...around(p.center, p.size),
      direction: unitAlong(p.direction),
    })),
    ...sourceBoxes(spec, preview),
    ...grid.filter((b) => b.kind === "symmetry"),
  ];
}

/** The objects a plane cuts, in drawing order (PreviewPlaneResult.objects). */
export function planeObjects(
  spec: SimulationSpec,
  preview: SetupPreview,
  plane: PreviewPlane,
): PreviewObject[] {
  const [u, v] = plane.axes as [AxisIndex, AxisIndex];
  const cut = { u, v, cut: plane.positionM };
  const structures: PreviewObject[] = [];
  spec.structures.forEach((s, i) => {
    const section = crossSection(structureShape(s), cut, i);
    if (!section) return;
    const outline = sectionRings(section);
    structures.push({ kind: "structure", name: `structures[${i}]`, outline, material: s.material });
  });
  const boxes: PreviewObject[] = [];
  for (const box of objectBoxes(spec, preview)) {
    const ring = boxRing(box, plane);
    if (!ring) continue;
    boxes.push({
      kind: box.kind,
      name: box.name,
      outline: [ring],
      ...(box.direction ? { direction: box.direction } : {}),
    });
  }
  const pml = boxes.filter((b) => b.kind === "pml");
  return [...pml, ...structures, ...boxes.filter((b) => b.kind !== "pml")];
}
