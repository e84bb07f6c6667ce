/**
 * A note per metal sphere or cylinder whose radius spans fewer than METAL_RADIUS_CELLS cells,
 * in the run report (simulation.ts) and the estimate (index.ts setupNotes). A metal's curved
 * surface is a staircase (medium.ts, isMetal), and a particle's plasmon resonance moves with
 * it: the 100 nm gold sphere's Q_ext is up to 38 % above the Mie series at 10 cells per radius,
 * 14 % at 20, 7 % at 40, 3.6 % at 80 and 1.8 % at 160 (docs/validation.md), where a dielectric
 * sphere (n = 2, r = 0.2 µm) is within
 * 2 % at 20 cells per radius. Boxes and polyslabs are left out: their faces are planes, and a
 * face normal to an axis is smoothed as a dielectric's is.
 */
import { planGrid, stepsOver, type GridPlan } from "./grid.js";
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
  return notes;
}
