/**
 * A closed box of a flux or far-field monitor holds at least one cell centre along each axis.
 * A smaller box was sampled as the one cell beside its centre (monitors.ts sampleBox), and
 * around a dipole it read an eighth of the power, or a 64th of the far field.
 */
import { cellStepM, centreIndexAt } from "../grid.js";
import { axesWithoutCells } from "../monitors.js";
import type { MonitorSpec } from "../types.js";
import { AXES, fmt, type CheckContext } from "./common.js";

export function checkBoxHoldsCells(
  ctx: CheckContext,
  m: Pick<MonitorSpec, "center" | "size">,
  path: string,
): void {
  const plan = ctx.grid();
  if (!plan || !m.center.every(Number.isFinite) || !m.size.every(Number.isFinite)) return;
  const [a] = axesWithoutCells(plan, m.center, m.size);
  if (a === undefined) return;
  const ax = plan.axes[a]!;
  const cell = Math.min(ax.cells - 1, Math.max(0, Math.round(centreIndexAt(ax, m.center[a]!))));
  ctx.add(
    `${path}.size`,
    `the box holds no cell centre along ${AXES[a]} (${fmt(m.size[a]!)} m across, centred at ` +
      `${fmt(m.center[a]!)} m, in cells of ${fmt(cellStepM(ax, cell))} m): a closed surface ` +
      "needs cells inside it; make it at least a cell across, or two cells around a point",
  );
}
