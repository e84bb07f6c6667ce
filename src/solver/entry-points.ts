/**
 * The solver's entry points: running a simulation with the materials library and a request's
 * own materials, checking and planning a request, and the notes its run report will carry.
 * The outside world reaches them, as everything else of the solver, through index.ts.
 */
import { checkAndPlanWith, type CheckedSimulation } from "./check.js";
import { findMaterial, permittivityAt } from "./materials.js";
import { runWithMaterials } from "./run.js";
import { withUserMaterials } from "./dispersion/user.js";
import { isMetal } from "./medium.js";
import { planGrid, type GridPlan } from "./grid.js";
import { gradedGridNote, symmetryNote, unusedStepRatioNote } from "./grid-notes.js";
import { metalSurfaceNotes } from "./metal-notes.js";
import { paintingOf, type MaterialResolver } from "./simulation.js";
import { previewSetup, type PreviewPlaneRequest, type SetupPreview } from "./preview.js";
import { checkModeRequest, type ModeRequestOptions } from "./checks/mode-plane.js";
import { portRuns, runPorts } from "./ports.js";
import { solvePlaneModes, type PlaneModes, type PlaneModesRequest } from "./modes/plane-modes.js";
import type { RunOptions, SimulationSpec, SolverResult, SpecProblem } from "./types.js";

/** Version of the physics core, recorded in every result file. */
export const SOLVER_VERSION = "0.1.0";

/**
 * The materials library as the solver sees it: each entry's pole model steps it over a band;
 * metals (a Drude pole: Re ε < 0 has no constant form) always. PEC is described as a perfect
 * conductor and has neither a permittivity nor a pole model.
 */
export const libraryMaterials: MaterialResolver = {
  describe: (name) => findMaterial(name),
  permittivity: (name, wavelengthM) => permittivityAt(name, wavelengthM),
  dispersion: (name) => {
    const entry = findMaterial(name);
    if (!entry || entry.perfectConductor) return undefined;
    const model = entry.dispersion;
    return { model, always: model.poles.some((p) => p.kind === "drude") };
  },
};

/**
 * Runs a simulation to convergence or `time_steps`. Yields to the event loop about every
 * 50 ms; rejects with an Error named "AbortError" when `options.signal` aborts, and with a
 * `SolverDivergenceError` when the fields blow up.
 */
export function runSimulation(
  spec: SimulationSpec,
  options: RunOptions = {},
): Promise<SolverResult> {
  const materials = withUserMaterials(libraryMaterials, spec.materials);
  if (spec.source.source_type === "ports") {
    return runPorts(spec, (one, o) => runWithMaterials(one, materials, o), options);
  }
  return runWithMaterials(spec, materials, options);
}

/**
 * What the run report will note about a schema-valid request before it runs (the estimate
 * shows them): a graded grid's steps and time step, or a max_step_ratio that grades nothing,
 * the part a mirror symmetry steps (grid-notes.ts), metal particles too coarsely resolved
 * (metal-notes.ts). `plan` is the request's grid (checkAndPlan), planned here when absent.
 */
export function setupNotes(spec: SimulationSpec, plan?: GridPlan): string[] {
  const materials = withUserMaterials(libraryMaterials, spec.materials);
  const graded =
    spec.domain.mesh_overrides && spec.domain.mesh_overrides.length > 0
      ? gradedGridNote((plan ??= planGrid(spec.domain, spec.fdtd_settings.courant_factor)))
      : unusedStepRatioNote(spec.domain);
  const mirrored = symmetryNote(spec.domain);
  return [
    ...(graded ? [graded] : []),
    ...(mirrored ? [mirrored] : []),
    ...metalSurfaceNotes(
      spec,
      (i) => isMetal(materials.dispersion?.(spec.structures[i]!.material)?.model.poles),
      plan,
    ),
  ];
}

/**
 * Physics and geometry problems of a schema-valid request, each with a dotted `path` and a
 * message naming the bound (an empty list means it can run), and, when it has none, its grid.
 */
export function checkAndPlan(spec: SimulationSpec): CheckedSimulation {
  return checkAndPlanWith(spec, withUserMaterials(libraryMaterials, spec.materials));
}

/** The problems of checkAndPlan alone. */
export function checkSimulation(spec: SimulationSpec): SpecProblem[] {
  return checkAndPlan(spec).problems;
}

/**
 * The modes of a request's plane (POST /v1/modes): painted with the library's and the
 * request's materials as a simulation of the same domain and structures would be.
 * @throws RangeError, with a message for users, for a plane too large or not in the domain.
 */
export function solveModesOf(request: PlaneModesRequest): PlaneModes {
  return solvePlaneModes(request, withUserMaterials(libraryMaterials, request.materials));
}

/** The problems of a schema-valid mode request, each with its path; empty: it can be solved. */
export function checkModesOf(
  request: PlaneModesRequest,
  options: ModeRequestOptions = {},
): SpecProblem[] {
  const materials = withUserMaterials(libraryMaterials, request.materials);
  return checkModeRequest(request, materials, options);
}

/**
 * The set-up of a checked request on planes, painted as its run paints it (POST
 * /v1/simulations/preview, `emsim preview`; preview.ts). A ports request is painted as its
 * port runs are: the same grid and structures, with the materials over the S-matrix's band.
 */
export function previewSetupOf(
  spec: SimulationSpec,
  planes: readonly PreviewPlaneRequest[],
): SetupPreview {
  const materials = withUserMaterials(libraryMaterials, spec.materials);
  const run = spec.source.source_type === "ports" ? (portRuns(spec)[0]?.spec ?? spec) : spec;
  return previewSetup(spec, paintingOf(run, materials), planes);
}
