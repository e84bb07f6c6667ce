/**
 * A note per metal sphere or cylinder whose radius spans fewer than METAL_RADIUS_CELLS cells,
 * in the run report (simulation.ts) and the estimate (index.ts setupNotes). A metal's curved
 * surface is a staircase (medium.ts, isMetal), and a particle's plasmon resonance moves with
 * it: the 100 nm gold sphere's Q_ext is up to 38 % above the Mie series at 10 cells per radius,
 * 14 % at 20, 7 % at 40, 3.6 % at 80 and 1.8 % at 160 (docs/validation.md), where a dielectric
 * sphere (n = 2, r = 0.2 µm) is within
 * 2 % at 20 cells per radius. A face normal to an axis (a box's, a polyslab's top and bottom)
 * is smoothed as a dielectric's is for E parallel to it; for E normal to it the error is first
 * order in the face's offset from the grid's nodes (a gold film's plasmon dip at oblique tm
 * incidence: 0.16 against 0.53 half a cell off, docs/materials.md), so a face off the nodes
 * gets a note where the source drives E along its normal.
 */
import { nodeIndexAt, planGrid, stepsOver, type GridPlan } from "./grid.js";
import { planeWaveGeometry } from "./sources/plane-wave.js";
import type { SimulationSpec } from "./types.js";

/** Fewest cells across a curved metal surface's radius before the run report warns. */
export const METAL_RADIUS_CELLS = 20;

/**
 * `metal(i)`: whether structure i's material is a metal (a Drude pole). The cells across a
 * radius are counted at the longest step of the cells the structure spans (the grid step, or
 * what mesh overrides make it there); `plan` is the run's grid, planned here when absent.
 */
export function metalSurfaceNotes(
  spec: SimulationSpec,
  metal: (i: number) => boolean,
  plan?: GridPlan,
): string[] {
  const notes: string[] = [];
  let grid = plan;
  spec.structures.forEach((s, i) => {
    if (s.type !== "sphere" && s.type !== "cylinder") return;
    if (!metal(i)) return;
    let step = spec.domain.resolution;
    if (spec.domain.mesh_overrides && spec.domain.mesh_overrides.length > 0) {
      grid ??= planGrid(spec.domain, spec.fdtd_settings.courant_factor);
      const g = grid;
      step = Math.max(
        ...[0, 1, 2].map((a) => {
          const half = s.type === "cylinder" && "xyz"[a] === s.axis ? s.height / 2 : s.radius;
          return stepsOver(g.axes[a], s.center[a] - half, s.center[a] + half).maxM;
        }),
      );
    }
    const cells = s.radius / step;
    if (cells >= METAL_RADIUS_CELLS * (1 - 1e-9)) return;
    notes.push(
      `structures[${i}] (a ${s.type} of ${s.material}) has ${cells.toFixed(1)} cells across ` +
        "its radius: a metal's curved surface is painted as a staircase, which shifts a " +
        "particle's plasmon resonances (a 100 nm gold sphere's extinction is up to 38 % off " +
        `at 10 cells per radius, 14 % at 20, 7 % at 40, 3.6 % at 80, 1.8 % at 160); use ` +
        `${METAL_RADIUS_CELLS} or more ` +
        "(a mesh override around the particle refines it without refining the whole grid) " +
        "and compare two resolutions (docs/materials.md)",
    );
  });
  const planned = () => (grid ??= planGrid(spec.domain, spec.fdtd_settings.courant_factor));
  return [...notes, ...offNodeFaceNotes(spec, metal, planned)];
}

/** Fraction of a cell a face may lie off a node and still count as on it. */
const ON_NODE = 0.01;

/** Whether the source can drive E along axis a (a plane wave only along its polarisation). */
function drivesNormalE(spec: SimulationSpec, a: number): boolean {
  if (spec.source.source_type !== "plane_wave") return true;
  return Math.abs(planeWaveGeometry(spec.source).polarization[a]!) > 1e-9;
}

/** A note per metal box or polyslab with a face normal to an axis off the grid's nodes. */
function offNodeFaceNotes(
  spec: SimulationSpec,
  metal: (i: number) => boolean,
  plan: () => GridPlan,
): string[] {
  const notes: string[] = [];
  spec.structures.forEach((s, i) => {
    if (!metal(i) || (s.type !== "box" && s.type !== "polyslab")) return;
    const faces: [number, number][] =
      s.type === "box"
        ? [0, 1, 2].flatMap((a) =>
            [-1, 1].map((k): [number, number] => [a, s.center[a]! + (k * s.size[a]!) / 2]),
          )
        : [
            [2, s.z_min],
            [2, s.z_max],
          ];
    const off = faces.filter(([a, x]) => {
      if (!(Math.abs(x) < spec.domain.size[a]! / 2) || !drivesNormalE(spec, a)) return false;
      const at = nodeIndexAt(plan().axes[a]!, x);
      return Math.abs(at - Math.round(at)) > ON_NODE;
    });
    if (off.length === 0) return;
    const where = off.map(([a, x]) => `${"xyz"[a]} = ${Number(x.toPrecision(6))} m`).join(", ");
    notes.push(
      `structures[${i}] (a ${s.type} of ${s.material}): its face${off.length > 1 ? "s" : ""} ` +
        `at ${where} lie${off.length > 1 ? "" : "s"} between grid nodes where the source ` +
        "drives E normal to them; a metal face's error there is first order in its offset " +
        "(a gold film's plasmon dip at oblique tm incidence is far off half a cell away): put " +
        "metal faces on grid nodes (docs/materials.md)",
    );
  });
  return notes;
}
