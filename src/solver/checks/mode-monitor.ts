/**
 * Checks of a mode monitor (mode-results.ts): a plane (zero size along exactly one axis), clear
 * of the absorber along its normal (it records H half a cell either side), at least two cells
 * across and at most MAX_MODE_PLANE_CELLS, and a usable mode_spec. Its placement about mirror
 * planes is checked with every monitor's (symmetry.ts); across one, the mode solver solves the
 * half with the run's mirror wall, so the modes it decomposes into are those of the run's
 * parity.
 */
import { fluxShape } from "../flux.js";
import { nodeIndexAt } from "../grid.js";
import { checkBend, checkModeSpecOf, checkPlaneCells } from "./mode-source.js";
import type { ModeMonitorSpec } from "../types.js";
import { AXES, finite, type CheckContext } from "./common.js";

/** The most wavelengths a mode monitor records (each is a mode solve after the run). */
export const MAX_MODE_MONITOR_WAVELENGTHS = 64;

export function checkModeMonitor(ctx: CheckContext, m: ModeMonitorSpec, path: string): void {
  checkModeSpecOf(ctx, m, path);
  const axis = fluxShape(m.size);
  if (axis === null || axis < 0) {
    ctx.add(`${path}.size`, "a mode monitor is a plane: zero size along exactly one axis");
    return;
  }
  checkBend(ctx, m.mode_spec, axis, m.size, `${path}.mode_spec`);
  const plan = ctx.grid();
  if (!plan || !m.center.every(finite)) return;
  const ax = plan.axes[axis];
  const node = Math.round(nodeIndexAt(ax, m.center[axis]));
  if (ax.boundary !== "periodic" && (node <= ax.pmlLo || node >= ax.cells - ax.pmlHi)) {
    ctx.add(
      `${path}.center`,
      `the mode monitor's plane must lie inside the region of interest along ${AXES[axis]}, ` +
        "off the absorber",
    );
  }
  const plane = { ...m, numModes: m.mode_spec.num_modes };
  checkPlaneCells(ctx, plan, axis, plane, path, "the mode monitor's plane");
}
