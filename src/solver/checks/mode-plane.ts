/**
 * Checks of a mode request (POST /v1/modes, modes/plane-modes.ts): the domain and the
 * structures as a simulation's (domain.ts, structures.ts), the materials at every requested
 * wavelength (known, within their valid range, passive: a gain pole that no simulation could
 * step is refused as a simulation refuses it; a metal's Re ε < 0 is fine here: the mode
 * solver takes complex ε as it is; finite: mode-materials.ts), the grid resolving the shortest wavelength in the densest
 * material, the plane (zero size along exactly one axis, inside the domain and off its faces,
 * at most MAX_MODE_PLANE_CELLS cells) and the mode_spec.
 */
import type { PlaneModesRequest } from "../modes/plane-modes.js";
import { MAX_MODE_WAVELENGTHS, MAX_MODES_PER_WAVELENGTH } from "../modes/plane-modes.js";
import { planeNormal } from "../modes/plane-medium.js";
import { listOf } from "../monitors.js";
import type { MaterialResolver } from "../update-material.js";
import type { SimulationSpec, SpecProblem } from "../types.js";
import { AXES, checkContext, checkRangeSpan, finite, fmt, type CheckContext } from "./common.js";
import { checkDomain, checkMeshOverrides, checkResolution, type DenseStructure } from "./domain.js";
import { checkStructures } from "./structures.js";
import { unsteppablePoles } from "./materials.js";
import { checkModeMaterials } from "./mode-materials.js";
import { checkBend, checkPlaneCells } from "./mode-source.js";

/** How the answer is asked for: with each mode's fields (`include_fields`) or without. */
export interface ModeRequestOptions {
  includeFields?: boolean;
}

/**
 * The most cell-modes (the plane's cells × modes × wavelengths) an answer with fields holds:
 * twelve numbers each (six complex components), so about 130 MB of JSON at the bound; the
 * full largest plane with four modes at three wavelengths fits.
 */
export const MAX_MODE_FIELD_CELLS = 500_000;

/** Every problem of a schema-valid mode request; an empty list means it can be solved. */
export function checkModeRequest(
  request: PlaneModesRequest,
  materials: MaterialResolver,
  options: ModeRequestOptions = {},
): SpecProblem[] {
  const wavelengths = listOf(request.wavelengths);
  const ctx = checkContext(asSimulation(request, wavelengths), materials);
  checkDomain(ctx);
  checkMeshOverrides(ctx);
  checkStructures(ctx);
  checkRangeSpan(ctx, request.wavelengths, "wavelengths");
  const usable = checkWavelengths(ctx, wavelengths);
  const dense = usable ? checkMaterialsAt(ctx, wavelengths) : [];
  if (usable) checkModeMaterials(ctx, wavelengths);
  if (usable) checkResolution(ctx, dense, wavelengths);
  checkPlane(ctx, request, wavelengths, options);
  checkModeSpec(ctx, request);
  const normal = planeNormal(request.plane.size);
  if (normal >= 0) checkBend(ctx, request.mode_spec ?? {}, normal, request.plane.size, "mode_spec");
  return ctx.problems;
}

/** The request as the simulation the shared checks read (no source or monitors of its own). */
function asSimulation(request: PlaneModesRequest, wavelengths: number[]): SimulationSpec {
  return {
    solver: "fdtd",
    domain: request.domain,
    structures: [...request.structures],
    ...(request.materials ? { materials: request.materials } : {}),
    source: { source_type: "plane_wave", wavelength: Math.min(...wavelengths) },
    monitors: [],
    fdtd_settings: { courant_factor: 0.99 },
  } as unknown as SimulationSpec;
}

function checkWavelengths(ctx: CheckContext, wavelengths: number[]): boolean {
  if (wavelengths.length > MAX_MODE_WAVELENGTHS) {
    ctx.add("wavelengths", `at most ${MAX_MODE_WAVELENGTHS} wavelengths per request`);
    return false;
  }
  const bad = wavelengths.findIndex((w) => !(finite(w) && w > 0));
  if (bad >= 0) ctx.add(`wavelengths[${bad}]`, "must be a positive number of metres");
  return bad < 0 && wavelengths.length > 0;
}

/** Known materials, valid at every wavelength; the dense ones for the resolution check. */
function checkMaterialsAt(ctx: CheckContext, wavelengths: number[]): DenseStructure[] {
  const [lo, hi] = [Math.min(...wavelengths), Math.max(...wavelengths)];
  const dense: DenseStructure[] = [];
  ctx.spec.structures.forEach((s, i) => {
    const path = `structures[${i}].material`;
    const info = ctx.materials.describe(s.material);
    if (!info) return ctx.add(path, `unknown material "${s.material}"`);
    if (info.perfectConductor) return;
    const [from, to] = info.validRangeM;
    if (lo < from * (1 - 1e-9) || hi > to * (1 + 1e-9)) {
      return ctx.add(
        path,
        `${info.name} is valid from ${fmt(from)} m to ${fmt(to)} m; the wavelengths ` +
          `span ${fmt(lo)} m to ${fmt(hi)} m`,
      );
    }
    const poles = ctx.materials.dispersion?.(s.material)?.model;
    const dx = ctx.spec.domain.resolution;
    const gain = poles && finite(dx) && dx > 0 && unsteppablePoles(ctx.spec, info.name, poles, dx);
    if (gain) return ctx.add(path, gain);
    const eps = ctx.materials.permittivity(s.material, lo);
    if (eps.re > 1) dense.push({ index: i, n: Math.sqrt(eps.re), name: info.name });
  });
  return dense;
}

function checkPlane(
  ctx: CheckContext,
  request: PlaneModesRequest,
  wavelengths: number[],
  options: ModeRequestOptions,
): void {
  const { center, size } = request.plane;
  const a = planeNormal(size);
  if (a < 0) {
    ctx.add("plane.size", "a mode plane has zero size along exactly one axis (its normal)");
    return;
  }
  if (size.some((v) => !(v >= 0))) ctx.add("plane.size", "must be non-negative");
  const plan = ctx.grid();
  if (!plan) return;
  const ax = plan.axes[a];
  const half = ctx.halfSize[a]!;
  if (!(Math.abs(center[a]) < half)) {
    ctx.add(
      `plane.center[${a}]`,
      `the plane (normal to ${AXES[a]}) must lie inside the domain, ` +
        `(${fmt(-half)}, ${fmt(half)}) m along ${AXES[a]}`,
    );
    return;
  }
  const numModes = request.mode_spec?.num_modes ?? 1;
  const cells = checkPlaneCells(ctx, plan, a, { ...request.plane, numModes }, "plane", "the plane");
  if (cells && options.includeFields) checkFieldsReply(ctx, cells, numModes, wavelengths.length);
  if (ax.cells < 2 && ax.boundary !== "periodic") {
    ctx.add(`plane.center[${a}]`, `the domain is one cell thick along ${AXES[a]}`);
  }
}

/** An answer with fields within MAX_MODE_FIELD_CELLS: one too large is refused before solving. */
function checkFieldsReply(
  ctx: CheckContext,
  [nu, nv]: [number, number],
  numModes: number,
  wavelengths: number,
): void {
  const total = nu * nv * numModes * wavelengths;
  if (total <= MAX_MODE_FIELD_CELLS) return;
  ctx.add(
    "include_fields",
    `the fields of ${numModes} modes at ${wavelengths} wavelengths on ${nu} × ${nv} cells are ` +
      `${total} cell-modes; an answer holds at most ${MAX_MODE_FIELD_CELLS}: ask for fewer ` +
      "modes or wavelengths per request, or a smaller plane",
  );
}

function checkModeSpec(ctx: CheckContext, request: PlaneModesRequest): void {
  const spec = request.mode_spec ?? {};
  const n = spec.num_modes ?? 1;
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_MODES_PER_WAVELENGTH)) {
    ctx.add("mode_spec.num_modes", `must be a whole number from 1 to ${MAX_MODES_PER_WAVELENGTH}`);
  }
  const target = spec.target_neff;
  if (target !== undefined && target !== null && !(finite(target) && target > 0)) {
    ctx.add("mode_spec.target_neff", "must be a positive number");
  }
}
