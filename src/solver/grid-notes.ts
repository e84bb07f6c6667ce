/**
 * The notes a grid gets, in the run report (simulation.ts) and in the estimate (index.ts
 * setupNotes): a graded grid's (mesh overrides) range of steps per graded axis and how much
 * shorter the time step is than on the uniform grid of `domain.resolution`, which is why such
 * a run takes more steps than its cell count suggests; and a `max_step_ratio` that grades
 * nothing.
 */
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import type { GridPlan } from "./grid.js";
import type { DomainSpec } from "./types.js";
import { numberText } from "./number-text.js";

/** Four significant digits: 9.914e-9, not 9.913999999999999e-9. */
const metres = (v: number) => numberText(v, 4);

/** The note of a graded plan; null for a uniform one. */
export function gradedGridNote(plan: GridPlan): string | null {
  if (plan.uniform) return null;
  const names = "xyz";
  const along = [0, 1, 2]
    .filter((a) => plan.axes[a].uniformStepM === null)
    .map((a) => {
      const ax = plan.axes[a];
      return `${metres(ax.minStepM)}–${metres(ax.maxStepM)} m along ${names[a]}`;
    });
  const uniformDt = (plan.courantFactor * plan.baseStepM) / (SPEED_OF_LIGHT_M_PER_S * Math.sqrt(3));
  return (
    `graded grid (mesh_overrides): cells of ${along.join(", ")}; the time step follows the ` +
    `shortest cells, ${(uniformDt / plan.dtSeconds).toFixed(1)}× shorter than on a uniform ` +
    `${metres(plan.baseStepM)} m grid, so the run takes that many times more steps`
  );
}

/**
 * The note of a `max_step_ratio` given without mesh overrides: the grid is uniform, so it has
 * no effect (accepted, as a default written out is, but said, since a user may have meant it
 * to grade the grid); null otherwise.
 */
export function unusedStepRatioNote(domain: DomainSpec): string | null {
  if (domain.max_step_ratio === undefined) return null;
  if (domain.mesh_overrides && domain.mesh_overrides.length > 0) return null;
  return (
    "domain.max_step_ratio has no effect without domain.mesh_overrides: the grid is uniform, " +
    `of domain.resolution (${metres(domain.resolution)} m)`
  );
}

/**
 * What `domain.symmetry` does to a run (grid.ts planGrid, run.ts), for the estimate and the
 * run report; null without it.
 */
export function symmetryNote(domain: DomainSpec): string | null {
  const names = "xyz";
  const mirrors = [0, 1, 2].filter((a) => (domain.symmetry?.[a] ?? "none") !== "none");
  if (mirrors.length === 0) return null;
  const walls = mirrors.map((a) => `${domain.symmetry![a]} on ${names[a]} = 0`).join(", ");
  return (
    `mirror symmetry (${walls}): the grid holds the part at ` +
    `${mirrors.map((a) => `${names[a]} ≥ 0`).join(", ")}, ${2 ** mirrors.length} times ` +
    "fewer cells; monitors centred on those planes report the whole domain (field phasors " +
    "mirrored with each component's parity, flux over the whole surface)"
  );
}
