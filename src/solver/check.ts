/**
 * Semantic checks of a schema-valid request: everything that would make a run fail or be
 * meaningless and that can be known before running (DESIGN §2: a job that is accepted must
 * not fail for a reason that could have been checked at submission). Each part of the request
 * has its checks in checks/: domain and settings, source, structures, materials, monitors,
 * symmetry.
 */
import { checkContext } from "./checks/common.js";
import {
  checkDomain,
  checkMeshOverrides,
  checkResolution,
  checkSettings,
} from "./checks/domain.js";
import { checkMaterials } from "./checks/materials.js";
import { checkModeMaterials, modeWavelengths } from "./checks/mode-materials.js";
import { checkMonitors } from "./checks/monitors.js";
import { checkPorts } from "./checks/ports.js";
import { checkSource } from "./checks/source.js";
import { checkStructures } from "./checks/structures.js";
import { checkSymmetry } from "./checks/symmetry.js";
import type { MaterialResolver } from "./simulation.js";
import type { GridPlan } from "./grid.js";
import type { SimulationSpec, SpecProblem } from "./types.js";

export { MIN_CELLS_PER_WAVELENGTH } from "./checks/domain.js";
export {
  MAX_FLUX_WAVELENGTHS,
  MAX_MONITOR_WAVELENGTHS,
  MAX_OBLIQUE_ANGLE_DEG,
} from "./checks/monitors.js";

/**
 * A request's problems and, when it has none, its grid: planned once here for the checks, and
 * handed on to the estimate and the set-up notes (one plan per submission).
 */
export interface CheckedSimulation {
  problems: SpecProblem[];
  plan: GridPlan | null;
}

/** Every problem found (an empty list means the request can run), and the grid it plans. */
export function checkAndPlanWith(
  spec: SimulationSpec,
  materials: MaterialResolver,
): CheckedSimulation {
  const ctx = checkContext(spec, materials);
  checkDomain(ctx);
  checkMeshOverrides(ctx);
  checkSettings(ctx);
  const source = checkSource(ctx);
  checkStructures(ctx);
  const dense = checkMaterials(ctx);
  checkModeMaterials(ctx, modeWavelengths(spec));
  const wavelengths = [...checkMonitors(ctx, source.planeWave), ...checkPorts(ctx)];
  checkSymmetry(ctx, source);
  checkResolution(ctx, dense, wavelengths);
  return { problems: ctx.problems, plan: ctx.problems.length === 0 ? ctx.grid() : null };
}

/** Every problem found; an empty list means the request can run. */
export function checkSimulationWith(
  spec: SimulationSpec,
  materials: MaterialResolver,
): SpecProblem[] {
  return checkAndPlanWith(spec, materials).problems;
}
