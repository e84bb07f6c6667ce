/**
 * A request's plane solved for its modes (DESIGN §10, the mode solver endpoint's work): the
 * plane painted as the FDTD paints it (plane-medium.ts), solved at each wavelength
 * (solve.ts), with a limit on the plane's cells so that a synchronous solve stays a few
 * seconds on a small machine (bench/modes.ts: 30 000 cells, 60 000 unknowns, 4.5 s on two
 * cores).
 */
import { listOf } from "../monitors.js";
import type {
  DomainSpec,
  ModeSpecSpec,
  StructureSpec,
  UserMaterialSpec,
  Vec3,
  WavelengthRange,
} from "../types.js";
import type { MaterialResolver } from "../update-material.js";
import { modePlane, type ModePlane } from "./plane-medium.js";
import { modeNotes, unguidedNotes } from "./mode-notes.js";
import { bendOf, solveModes, type SolvedMode } from "./solve.js";

/** The most cells a mode plane may have (its window on the grid, absorber cells included). */
export const MAX_MODE_PLANE_CELLS = 40_000;
/** The most wavelengths one mode request may ask for. */
export const MAX_MODE_WAVELENGTHS = 32;
/** The most modes per wavelength. */
export const MAX_MODES_PER_WAVELENGTH = 20;

export interface PlaneModesRequest {
  domain: DomainSpec;
  structures: readonly StructureSpec[];
  /** The request's own materials (as a simulation request's `materials`). */
  materials?: Record<string, UserMaterialSpec>;
  plane: { center: Vec3; size: Vec3 };
  wavelengths: number[] | WavelengthRange;
  mode_spec?: Partial<ModeSpecSpec>;
  /** Also the group index of each mode (lossless guides). */
  group_index?: boolean;
}

export interface PlaneModes {
  plane: ModePlane;
  wavelengthsM: number[];
  /** modes[w][m]. */
  modes: SolvedMode[][];
  unknowns: number;
  seconds: number;
  /** What the answer cannot say by itself (mode-notes.ts). */
  notes: string[];
}

/** The cells of a plane's window on the grid. */
export function planeCells(plane: ModePlane): number {
  return (plane.axes[0].nodesM.length - 1) * (plane.axes[1].nodesM.length - 1);
}

/**
 * Solves a request's plane; throws RangeError with a message for users when the plane is too
 * large or not a plane of the domain.
 */
export function solvePlaneModes(
  request: PlaneModesRequest,
  materials: MaterialResolver,
): PlaneModes {
  const start = performance.now();
  const wavelengthsM = listOf(request.wavelengths);
  const plane = modePlane(
    {
      domain: request.domain,
      structures: request.structures,
      plane: request.plane,
      wavelengthsM,
    },
    materials,
  );
  const cells = planeCells(plane);
  if (cells > MAX_MODE_PLANE_CELLS) {
    throw new RangeError(
      `the mode plane covers ${cells} grid cells; at most ${MAX_MODE_PLANE_CELLS} are solved ` +
        `synchronously: make the plane smaller or the grid coarser`,
    );
  }
  const bend = request.mode_spec ? bendOf(request.mode_spec) : undefined;
  const result = solveModes({
    axes: plane.axes,
    planeEps: plane.permittivityAt,
    wavelengths_m: wavelengthsM,
    mode_spec: request.mode_spec,
    bend,
    groupIndex: request.group_index,
    leftHanded: plane.leftHanded,
  });
  return {
    plane,
    wavelengthsM,
    modes: result.modes,
    unknowns: result.unknowns,
    seconds: (performance.now() - start) / 1000,
    notes: [
      ...modeNotes(plane.axes, plane.transverse, bend, result.modes),
      ...unguidedNotes(result.modes, result.edgeIndex),
    ],
  };
}
