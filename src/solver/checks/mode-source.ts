/**
 * Checks of a mode `source` (sources/mode.ts): a plane normal to the axis of its direction,
 * inside the domain and a cell clear of the absorber along that axis, at least two cells
 * across and at most MAX_MODE_PLANE_CELLS, pml along the axis (another boundary would send
 * the mode back through the plane), no mirror plane across that axis (its image would travel the
 * other way), a mode_index within mode_spec.num_modes. About a symmetry
 * plane across the mode's plane, the plane must be centred on it or lie wholly at ≥ 0: the
 * mode solver then solves the half with the same mirror wall as the run, so the modes it
 * offers (and `mode_index` counts) are those of the run's parity.
 */
import { MAX_MODE_PLANE_CELLS, MAX_MODES_PER_WAVELENGTH } from "../modes/plane-modes.js";
import { transverseAxes, windowNodes } from "../modes/plane-medium.js";
import type { GridPlan } from "../grid.js";
import type { ModeSourceSpec } from "../types.js";
import { AXES, finite, fmt, notCrossSection, type CheckContext } from "./common.js";

export function checkModeSource(ctx: CheckContext, source: ModeSourceSpec): void {
  checkModePlane(ctx, source, "source");
}

/**
 * The checks of a mode's plane, its direction and mode_spec, at `path` (`source`, or a port's
 * `ports[i]`, which has no mode_index of its own).
 */
export function checkModePlane(
  ctx: CheckContext,
  source: Pick<ModeSourceSpec, "center" | "size" | "direction" | "mode_spec"> & {
    mode_index?: number;
    name?: string;
  },
  path: string,
): void {
  const { add, spec } = ctx;
  const axis = "xyz".indexOf(source.direction[1]!);
  checkModeSpecOf(ctx, source, path);
  checkBend(ctx, source.mode_spec, axis, source.size, `${path}.mode_spec`);
  if (!source.center.every(finite) || !source.size.every((s) => finite(s) && s >= 0)) return;
  const zeros = [0, 1, 2].filter((a) => source.size[a] === 0);
  if (zeros.length !== 1 || zeros[0] !== axis) {
    add(
      `${path}.size`,
      `the mode's plane must be normal to ${AXES[axis]}, the axis of its direction ` +
        `"${source.direction}": give size[${axis}] = 0 and a non-zero extent across`,
    );
    return;
  }
  // The boundary first: along a periodic axis one cell thick no plane can be placed, and the
  // placement's complaint would hide the cause.
  if (spec.domain.boundary_conditions[axis] !== "pml") {
    add(
      `domain.boundary_conditions[${axis}]`,
      `the mode travels along ${AXES[axis]}, so this boundary must be pml (another would ` +
        "reflect it back through the source's plane)",
    );
    return;
  }
  if ((spec.domain.symmetry?.[axis] ?? "none") !== "none") {
    const what = source.name === undefined ? "the mode source" : `${path} ("${source.name}")`;
    add(
      `domain.symmetry[${axis}]`,
      `${what} sends its mode one way along ${AXES[axis]}, and its mirror image about ` +
        `${AXES[axis]} = 0 would send it the other way: not the same problem (a port's image ` +
        `would be measured as its reflection); give "none" here`,
    );
    return;
  }
  checkPlacement(ctx, source, axis, path);
}

export function checkModeSpecOf(
  ctx: CheckContext,
  source: Pick<ModeSourceSpec, "mode_spec"> & { mode_index?: number },
  path: string,
): void {
  const { num_modes: n, target_neff: target } = source.mode_spec;
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_MODES_PER_WAVELENGTH)) {
    ctx.add(
      `${path}.mode_spec.num_modes`,
      `must be a whole number from 1 to ${MAX_MODES_PER_WAVELENGTH}`,
    );
  }
  if (target !== null && !(finite(target) && target > 0)) {
    ctx.add(`${path}.mode_spec.target_neff`, "must be a positive number");
  }
  const index = source.mode_index;
  if (index !== undefined && !(Number.isInteger(index) && index >= 0 && index < n)) {
    ctx.add(
      `${path}.mode_index`,
      `must be a whole number below mode_spec.num_modes (${n}): the modes are counted from 0`,
    );
  }
}

/** Inside the domain, clear of the absorber along the axis, of a size the solver takes. */
function checkPlacement(
  ctx: CheckContext,
  source: Pick<ModeSourceSpec, "center" | "size" | "mode_spec">,
  axis: number,
  path: string,
): void {
  const { add, halfSize, dx, spec } = ctx;
  for (let a = 0; a < 3; a++) {
    const margin = a === axis ? dx : 0;
    if (Math.abs(source.center[a]) <= halfSize[a] - margin) continue;
    add(
      `${path}.center`,
      `the mode's plane centre at ${AXES[a]} = ${fmt(source.center[a])} m is outside the ` +
        `domain${margin > 0 ? " or within a cell of the absorber" : ""} (±${fmt(halfSize[a])} m)`,
    );
    return;
  }
  const plan = ctx.grid();
  if (!plan) return;
  const numModes = source.mode_spec.num_modes;
  checkPlaneCells(ctx, plan, axis, { ...source, numModes }, path, "the mode's plane");
  for (let b = 0; b < 3; b++) {
    if (b === axis || (spec.domain.symmetry?.[b] ?? "none") === "none") continue;
    const c = source.center[b];
    const centred = Math.abs(c) <= 1e-9 * spec.domain.size[b];
    if (!centred && c - source.size[b] / 2 < 0) {
      add(
        `${path}.center`,
        `with symmetry along ${AXES[b]} the mode's plane must be centred on ${AXES[b]} = 0 ` +
          `or lie at ${AXES[b]} ≥ 0`,
      );
    }
  }
}

/**
 * A bend's radius must reach past the plane along its radial axis (the transformation
 * 1 + x/R stays positive across it): |R| larger than the plane's half extent there.
 */
export function checkBend(
  ctx: CheckContext,
  spec: { bend_radius?: number | null; bend_axis?: 0 | 1 },
  normal: number,
  size: readonly number[],
  path: string,
): void {
  const r = spec.bend_radius;
  if (r === undefined || r === null) return;
  const radial = transverseAxes(normal)[(spec.bend_axis ?? 1) === 0 ? 1 : 0];
  const half = Math.min(size[radial]!, ctx.size[radial]!) / 2;
  if (!(finite(r) && Math.abs(r) > half)) {
    ctx.add(
      `${path}.bend_radius`,
      `must be a number of metres larger in size than the plane's half extent along ` +
        `${AXES[radial]}, the radial axis (${fmt(half)} m)`,
    );
  }
}

interface ModePlane {
  center: readonly number[];
  size: readonly number[];
}

/**
 * The cells a mode plane covers across (its window on the grid): at least two along each axis
 * (one where a periodic axis has only one: a 2-D problem's invariant axis), at most
 * MAX_MODE_PLANE_CELLS in all, and at least as many as the modes asked for (`numModes`, at
 * `path`.mode_spec.num_modes). `what` names the plane in the messages. Returns the cells
 * across (u, v), or null where it found a problem.
 */
export function checkPlaneCells(
  ctx: CheckContext,
  plan: GridPlan,
  normal: number,
  plane: ModePlane & { numModes: number },
  path: string,
  what: string,
): [number, number] | null {
  const across = [0, 1, 2].filter((b) => b !== normal);
  const cells = across.map((b) => {
    const lo = plane.center[b]! - plane.size[b]! / 2;
    const [first, last] = windowNodes(plan.axes[b], lo, lo + plane.size[b]!);
    return Math.max(0, last - first);
  });
  const fewest = across.map((b) => Math.min(2, plan.axes[b].cells));
  const short = cells.findIndex((n, i) => n < fewest[i]!);
  if (short >= 0) {
    const b = across[short]!;
    const thin = notCrossSection(ctx, b);
    ctx.add(
      `${path}.size`,
      `${what} covers fewer than two grid cells across (${cells[short]} along ${AXES[b]})${thin}`,
    );
    return null;
  }
  if (cells[0]! * cells[1]! > MAX_MODE_PLANE_CELLS) {
    ctx.add(
      `${path}.size`,
      `${what} covers ${cells[0]} × ${cells[1]} = ${cells[0]! * cells[1]!} grid cells; the ` +
        `mode solver takes at most ${MAX_MODE_PLANE_CELLS}: make the plane smaller or the grid coarser`,
    );
    return null;
  }
  const held = checkModesHeld(ctx, plane, across, cells, { path, what });
  return held ? [cells[0]!, cells[1]!] : null;
}

/**
 * A plane of nu × nv cells holds at most nu·nv modes (its operator has 2·nu·nv unknowns less
 * those on its walls): asking for more could only fail in the run, reading a mode the solver
 * never found. Across a mirror plane the grid, and so `cells`, is the half the run steps.
 */
function checkModesHeld(
  ctx: CheckContext,
  plane: ModePlane & { numModes: number },
  across: number[],
  cells: number[],
  where: { path: string; what: string },
): boolean {
  const held = cells[0]! * cells[1]!;
  if (!(plane.numModes > held)) return true;
  const halved = across.some(
    (b) =>
      (ctx.spec.domain.symmetry?.[b] ?? "none") !== "none" &&
      plane.center[b]! - plane.size[b]! / 2 < 0,
  );
  const { path, what } = where;
  ctx.add(
    `${path === "plane" ? "" : `${path}.`}mode_spec.num_modes`,
    `${what} covers ${cells[0]} × ${cells[1]} grid cells${halved ? " (the half beside the mirror plane)" : ""}: ` +
      `it holds at most ${held} modes, not ${plane.numModes}; ask for fewer modes or make ` +
      "the plane larger",
  );
  return false;
}
