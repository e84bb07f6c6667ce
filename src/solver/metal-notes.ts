/**
 * A note per metal sphere or cylinder whose radius spans fewer than METAL_RADIUS_CELLS cells,
 * in the run report (simulation.ts) and the estimate (index.ts setupNotes). A metal's curved
 * surface is a staircase (medium.ts, isMetal), and a particle's plasmon resonance moves with
 * it: the 100 nm gold sphere's Q_ext is up to 38 % above the Mie series at 10 cells per radius
 * and 14 % at 20 (docs/validation.md), where a dielectric sphere (n = 2, r = 0.2 µm) is within
 * 2 % at 20 cells per radius. Boxes and polyslabs are left out: their faces are planes, and a
 * face normal to an axis is smoothed as a dielectric's is.
 */
import type { SimulationSpec } from "./types.js";

/** Fewest cells across a curved metal surface's radius before the run report warns. */
export const METAL_RADIUS_CELLS = 20;

/** `metal(i)`: whether structure i's material is a metal (a Drude pole). */
export function metalSurfaceNotes(spec: SimulationSpec, metal: (i: number) => boolean): string[] {
  const notes: string[] = [];
  spec.structures.forEach((s, i) => {
    if (s.type !== "sphere" && s.type !== "cylinder") return;
    if (!metal(i)) return;
    const cells = s.radius / spec.domain.resolution;
    if (cells >= METAL_RADIUS_CELLS) return;
    notes.push(
      `structures[${i}] (a ${s.type} of ${s.material}) has ${cells.toFixed(1)} cells across ` +
        "its radius: a metal's curved surface is painted as a staircase, which shifts a " +
        "particle's plasmon resonances (a 100 nm gold sphere's extinction is up to 38 % off " +
        `at 10 cells per radius, 14 % at 20); use ${METAL_RADIUS_CELLS} or more and compare ` +
        "two resolutions (docs/materials.md)",
    );
  });
  return notes;
}
