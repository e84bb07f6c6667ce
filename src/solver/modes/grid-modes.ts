/**
 * The modes of a node plane of a run's own grid and painted medium: what a mode source
 * injects and what a mode monitor decomposes into (sources/mode.ts, mode-results.ts), solved
 * on exactly the cells, sub-cell averaging and mirror walls the FDTD steps, so that the grid
 * carries the modes it is given. The plane's window is a range of nodes along each of its
 * transverse axes (Tidy3D's order, plane-medium.ts).
 */
import type { GridPlan, YeeLayout } from "../grid.js";
import type { Medium } from "../medium-types.js";
import type { StopCheck } from "../stop-flag.js";
import type { ModeAxis } from "./operator.js";
import type { Vec3 } from "../types.js";
import { modeAxis, planePermittivity, transverseAxes, windowNodes } from "./plane-medium.js";
import {
  bendOf,
  solveModes,
  type ModeSpec,
  type SolveModesResult,
  type SolveModesInput,
} from "./solve.js";

/** A plane of the grid: its normal, node index, transverse axes and window. */
export interface GridModeWindow {
  normal: number;
  planeIndex: number;
  transverse: [number, number];
  /** The first node of the window along each transverse axis. */
  origin: [number, number];
  /** Cells across along each transverse axis (the mode arrays are cells[0] × cells[1]). */
  cells: [number, number];
  axes: [ModeAxis, ModeAxis];
}

/** The window of nodes [first, last] along each of the plane's transverse axes. */
export function gridModeWindow(
  plan: GridPlan,
  normal: number,
  planeIndex: number,
  nodes: readonly [readonly [number, number], readonly [number, number]],
): GridModeWindow {
  const transverse = transverseAxes(normal);
  return {
    normal,
    planeIndex,
    transverse,
    origin: [nodes[0][0], nodes[1][0]],
    cells: [nodes[0][1] - nodes[0][0], nodes[1][1] - nodes[1][0]],
    axes: [
      modeAxis(plan.axes[transverse[0]], [nodes[0][0], nodes[0][1]]),
      modeAxis(plan.axes[transverse[1]], [nodes[1][0], nodes[1][1]]),
    ],
  };
}

/**
 * The window of a plane given by its centre and size, on node plane `planeIndex` along
 * `normal`: the nodes within its extent across, clamped to the grid. A mode source and a mode
 * monitor on the same port both place their windows so, so that they solve the same plane
 * (and the mode cache serves the second from the first).
 */
export function placedModeWindow(
  plan: GridPlan,
  normal: number,
  planeIndex: number,
  center: Readonly<Vec3>,
  size: Readonly<Vec3>,
): GridModeWindow {
  const nodes = transverseAxes(normal).map((b) =>
    windowNodes(plan.axes[b], center[b] - size[b] / 2, center[b] + size[b] / 2),
  ) as [[number, number], [number, number]];
  return gridModeWindow(plan, normal, planeIndex, nodes);
}

/**
 * How a plane's modes are solved: the group index where, the threads the solve may use, the
 * run's cancel (read at every step) and progress (SolveModesInput.onSolved).
 */
export interface GridModeOptions {
  groupIndex?: SolveModesInput["groupIndex"];
  threads?: number;
  checkStop?: StopCheck;
  onSolved?: SolveModesInput["onSolved"];
}

/**
 * Whether a plane normal to `normal` has a left-handed frame (u, v, u × v = −normal): a
 * y-normal plane's (x, z). Its modes' H is turned round to travel along +normal, so that the
 * frame's overlaps (overlap.ts) of a mode with itself come out −1, not 1.
 */
export function isLeftHanded(normal: number): boolean {
  return normal === 1;
}

/**
 * The window's modes: modes[w][m] at each wavelength, fields for propagation along +normal,
 * and the index a guided mode exceeds there (`edgeIndex`).
 */
export function gridModes(
  layout: YeeLayout,
  medium: Medium,
  window: GridModeWindow,
  wavelengthsM: readonly number[],
  modeSpec: ModeSpec & { bend_radius?: number | null; bend_axis?: 0 | 1 },
  { groupIndex = false, threads = 1, checkStop, onSolved }: GridModeOptions = {},
): SolveModesResult {
  const { normal, planeIndex, transverse, origin, cells, axes } = window;
  return solveModes({
    axes,
    planeEps: (w) =>
      planePermittivity(medium, layout, normal, planeIndex, transverse, origin, cells, w),
    wavelengths_m: wavelengthsM,
    mode_spec: modeSpec,
    bend: bendOf(modeSpec),
    groupIndex,
    leftHanded: isLeftHanded(normal),
    threads,
    checkStop,
    onSolved,
  });
}
