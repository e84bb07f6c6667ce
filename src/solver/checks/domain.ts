/**
 * Checks of `domain` and `fdtd_settings`: sizes, grid step, absorber, time stepping, and the
 * grid step's resolution of the shortest wavelength in the densest material.
 */
import {
  MAX_LENGTH_M,
  MAX_MESH_REFINEMENT,
  MIN_COURANT_FACTOR,
  MIN_GRID_STEP_M,
} from "../bounds.js";
import { stepsOver } from "../grid.js";
import { structureBounds } from "../surface.js";
import type { Vec3 } from "../types.js";
import { AXES, finite, fmt, type CheckContext } from "./common.js";

/** Fewest grid cells per wavelength in the densest material we accept. */
export const MIN_CELLS_PER_WAVELENGTH = 10;

/**
 * Cells a graded axis may hold before planning it is refused: far beyond any grid the
 * backends hold (541³ cells fill the wasm backend's 4 GiB), and few enough that planning the
 * nodes of a request that asks for more costs nothing noticeable. A uniform axis is held to it
 * too, so that the grid plan of any request that passes the checks is small.
 */
export const MAX_AXIS_CELLS = 100_000;

/**
 * `domain`: a grid step from MIN_GRID_STEP_M up to the smallest extent, extents up to
 * MAX_LENGTH_M and MAX_AXIS_CELLS steps, and pml layers where needed.
 */
export function checkDomain(ctx: CheckContext): void {
  const { spec, add, dx, size } = ctx;
  const { domain } = spec;
  const dxOk = finite(dx) && dx >= MIN_GRID_STEP_M;
  if (!(finite(dx) && dx > 0)) add("domain.resolution", "must be a positive number of metres");
  else if (!dxOk) add("domain.resolution", `must be at least ${MIN_GRID_STEP_M} m`);
  for (let a = 0; a < 3; a++) {
    const at = `domain.size[${a}]`;
    if (!(finite(size[a]) && size[a] > 0)) {
      add(at, "must be a positive number of metres");
    } else if (size[a] > MAX_LENGTH_M) {
      add(at, `must be at most ${MAX_LENGTH_M} m`);
    } else if (dxOk && dx > size[a] * (1 + 1e-9)) {
      add(
        "domain.resolution",
        `grid step ${fmt(dx)} m is larger than the domain extent along ${AXES[a]} ` +
          `(${at} = ${fmt(size[a])} m); it must be at most the smallest extent`,
      );
    } else if (dxOk && size[a] / dx > MAX_AXIS_CELLS) {
      add(
        "domain.resolution",
        `the grid would have about ${fmt(size[a] / dx)} cells along ${AXES[a]} (${at} = ` +
          `${fmt(size[a])} m at ${fmt(dx)} m), more than ${MAX_AXIS_CELLS}; use a coarser ` +
          "resolution or a smaller domain",
      );
    }
  }
  const hasPml = domain.boundary_conditions.includes("pml");
  if (hasPml && !(Number.isInteger(domain.pml_layers) && domain.pml_layers >= 1)) {
    add("domain.pml_layers", "must be an integer of at least 1 when a boundary is pml");
  }
}

/**
 * A mesh override's steps along x, y and z, with a problem added for any that is not positive,
 * coarser than domain.resolution, or more than MAX_MESH_REFINEMENT times finer (the planner
 * cannot grade to it: bounds.ts). Null when one is not positive or coarser; steps that are too
 * fine are returned, so that the cells they would make are counted (and reported) too.
 */
function overrideSteps(ctx: CheckContext, resolution: number | Vec3, path: string): Vec3 | null {
  const { add, dx } = ctx;
  const steps: Vec3 =
    typeof resolution === "number" ? [resolution, resolution, resolution] : resolution;
  const dxOk = finite(dx) && dx > 0;
  for (let a = 0; a < 3; a++) {
    const r = steps[a];
    if (!(finite(r) && r > 0)) {
      add(`${path}.resolution`, "must be a positive number of metres, or three of them");
      return null;
    }
    if (dxOk && r > dx * (1 + 1e-9)) {
      add(
        `${path}.resolution`,
        `${fmt(r)} m along ${AXES[a]} is coarser than domain.resolution (${fmt(dx)} m): ` +
          "a mesh override can only make the grid finer",
      );
      return null;
    }
  }
  const finest = Math.min(...steps);
  if (dxOk && finest < (dx / MAX_MESH_REFINEMENT) * (1 - 1e-9)) {
    add(
      `${path}.resolution`,
      `${fmt(finest)} m along ${AXES[steps.indexOf(finest)]} is more than ` +
        `${MAX_MESH_REFINEMENT} times finer than domain.resolution (${fmt(dx)} m); use a step ` +
        `of at least ${fmt(dx / MAX_MESH_REFINEMENT)} m`,
    );
  }
  return steps;
}

/**
 * `domain.mesh_overrides` and `max_step_ratio`: finite boxes that overlap the region of
 * interest, with usable steps (overrideSteps), and not so fine that planning the axis would be
 * the work (MAX_AXIS_CELLS).
 */
export function checkMeshOverrides(ctx: CheckContext): void {
  const { spec, add, dx, halfSize } = ctx;
  const { domain } = spec;
  const ratio = domain.max_step_ratio;
  if (ratio !== undefined && !(finite(ratio) && ratio >= 1.05 && ratio <= 2)) {
    add("domain.max_step_ratio", "must be a number from 1.05 to 2");
  }
  const overrides = domain.mesh_overrides ?? [];
  // Per axis, an upper bound on the cells the overrides make: each one's extent at its step
  // (the grading adds fewer than the base cells it replaces, and a point one cell).
  const base = [0, 1, 2].map((a) => (finite(dx) && dx > 0 ? halfSize[a] / dx : 0) * 2);
  const bound = [...base];
  overrides.forEach((o, i) => {
    const path = `domain.mesh_overrides[${i}]`;
    if (!o.center.every(finite)) {
      add(`${path}.center`, "must be three finite numbers of metres");
      return;
    }
    if (!o.size.every((v) => finite(v) && v >= 0)) {
      add(`${path}.size`, "must be three finite numbers of metres, each at least 0");
      return;
    }
    const steps = overrideSteps(ctx, o.resolution, path);
    for (let a = 0; a < 3; a++) {
      const lo = o.center[a] - o.size[a] / 2;
      const hi = o.center[a] + o.size[a] / 2;
      if (finite(halfSize[a]) && (hi < -halfSize[a] || lo > halfSize[a])) {
        add(
          `${path}.center`,
          `the override spans ${fmt(lo)} m to ${fmt(hi)} m along ${AXES[a]}, outside the domain ` +
            `(${fmt(-halfSize[a])} m to ${fmt(halfSize[a])} m)`,
        );
        return;
      }
      if (steps && steps[a] < dx) {
        const inside = Math.min(hi, halfSize[a]) - Math.max(lo, -halfSize[a]);
        bound[a] += inside / steps[a] + 1;
      }
    }
  });
  for (let a = 0; a < 3; a++) {
    // A base grid already over the limit is checkDomain's to report.
    if (base[a] <= MAX_AXIS_CELLS && bound[a] > MAX_AXIS_CELLS) {
      add(
        "domain.mesh_overrides",
        `the overrides would put more than ${MAX_AXIS_CELLS} cells along ${AXES[a]} ` +
          `(about ${bound[a] < 1e15 ? Math.round(bound[a]) : Number(bound[a].toPrecision(3))}); use coarser override resolutions or smaller boxes`,
      );
    }
  }
}

/** `fdtd_settings`: the Courant factor, step counts and the convergence threshold. */
export function checkSettings(ctx: CheckContext): void {
  const { add } = ctx;
  const fdtd = ctx.spec.fdtd_settings;
  const S = fdtd.courant_factor;
  if (!(finite(S) && S >= MIN_COURANT_FACTOR && S <= 1)) {
    add(
      "fdtd_settings.courant_factor",
      `must be from ${MIN_COURANT_FACTOR} to 1 (dt = S·dx/(c·√3))`,
    );
  }
  if (!(Number.isInteger(fdtd.time_steps) && fdtd.time_steps >= 1)) {
    add("fdtd_settings.time_steps", "must be an integer of at least 1");
  }
  if (!(Number.isInteger(fdtd.check_every_n) && fdtd.check_every_n >= 1)) {
    add("fdtd_settings.check_every_n", "must be an integer of at least 1");
  }
  if (!(finite(fdtd.convergence_threshold) && fdtd.convergence_threshold >= 0)) {
    add("fdtd_settings.convergence_threshold", "must be at least 0 (0 turns early stopping off)");
  }
}

/** A structure's material and the refractive index the resolution check holds it to. */
export interface DenseStructure {
  index: number;
  n: number;
  name: string;
}

/**
 * The grid against the shortest recorded wavelength: at least MIN_CELLS_PER_WAVELENGTH cells
 * per wavelength in vacuum at `domain.resolution`, and in each dielectric structure at the
 * longest step of the cells it spans (domain.resolution on a uniform grid; what the mesh
 * overrides make it on a graded one).
 */
export function checkResolution(
  ctx: CheckContext,
  dense: readonly DenseStructure[],
  allWavelengths: number[],
): void {
  const { add, dx, spec } = ctx;
  if (!(finite(dx) && dx > 0 && allWavelengths.length > 0)) return;
  const lambdaMin = Math.min(...allWavelengths);
  const plan = ctx.grid();
  // The structure (or the vacuum) with the fewest cells per wavelength, when under the minimum.
  const shortfalls: { cells: number; n: number; name: string; where: string }[] = [];
  const consider = (n: number, name: string, step: number, where: string) => {
    const cells = lambdaMin / (n * step);
    // Round-off aside: 7e-7 / 7e-8 is 9.999999999999998, and "at most 7e-8 m" would be no help.
    if (cells < MIN_CELLS_PER_WAVELENGTH * (1 - 1e-9)) shortfalls.push({ cells, n, name, where });
  };
  consider(1, "vacuum", dx, "");
  for (const d of dense) {
    let step = dx;
    if (plan && !plan.uniform) {
      // Along an axis one periodic cell thick nothing varies: its step resolves nothing.
      const { lo, hi } = structureBounds(spec.structures[d.index]);
      step = Math.max(
        ...plan.axes.map((ax, a) =>
          ax.cells === 1 && ax.boundary === "periodic" ? 0 : stepsOver(ax, lo[a], hi[a]).maxM,
        ),
      );
    }
    consider(d.n, d.name, step, plan && !plan.uniform ? ` (structures[${d.index}])` : "");
  }
  const w = shortfalls.reduce<(typeof shortfalls)[number] | null>(
    (a, b) => (a && a.cells <= b.cells ? a : b),
    null,
  );
  if (w) add("domain.resolution", resolutionAdvice(w, lambdaMin));
}

/** What a shortfall of cells per wavelength asks for: a finer step, or a longer wavelength. */
function resolutionAdvice(
  w: { cells: number; n: number; name: string; where: string },
  lambdaMin: number,
): string {
  const wanted = lambdaMin / (w.n * MIN_CELLS_PER_WAVELENGTH);
  const found =
    `${fmt(w.cells)} cells per wavelength in ${w.name}${w.where} (n = ${fmt(w.n)}) at ` +
    `${fmt(lambdaMin)} m; at least ${MIN_CELLS_PER_WAVELENGTH} are needed for an accurate result`;
  if (wanted < MIN_GRID_STEP_M) {
    // No grid step the service allows would do: the wavelength is what to change.
    const shortest = MIN_GRID_STEP_M * w.n * MIN_CELLS_PER_WAVELENGTH;
    return (
      `${found}, which takes a grid step of ${fmt(wanted)} m, below the finest allowed ` +
      `(${MIN_GRID_STEP_M} m): the shortest wavelength that can be resolved in ${w.name} is ` +
      `${fmt(shortest)} m`
    );
  }
  return (
    `${found}: use a grid step of at most ${fmt(wanted)} m` +
    (w.where ? " there (domain.resolution, or a mesh override over the structure)" : "")
  );
}
