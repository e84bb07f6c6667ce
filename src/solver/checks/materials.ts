/**
 * Checks of the materials structures name: known, valid at the source wavelength, steppable
 * (a constant with Re ε ≥ 1, or a multi-pole model stable at the requested Courant factor and
 * holding every band wavelength), and request-defined ones not hiding library names (PEC's
 * included). PEC, the perfect conductor, needs none of the others: it holds at every
 * wavelength and the update holds E at zero in it.
 */
import type { PoleModel } from "../dispersion/model.js";
import { courantLimit } from "../dispersion/stability.js";
import { findMaterial } from "../materials.js";
import type { SimulationSpec, SpecProblem } from "../types.js";
import { equivalentStepM } from "../grid.js";
import { finite, fmt, wavelengthsToCheck, type CheckContext } from "./common.js";
import type { DenseStructure } from "./domain.js";

/** What to check in a material that no Courant factor steps stably: its definition, if ours. */
function checkWhat(spec: SimulationSpec, name: string): string {
  const defined = spec.materials !== undefined && Object.hasOwn(spec.materials, name);
  return defined
    ? `check its definition, materials.${name} (a permittivity far below 1, or a gain pole ` +
        "with Δε < 0, grows)"
    : "check the poles (a gain pole, Δε < 0, grows)";
}

/** The words for a material no Courant factor steps stably (a gain pole, say). */
function neverSteppable(spec: SimulationSpec, name: string, dx: number): string {
  return (
    `${name}'s poles make the time stepping unstable at any courant_factor above 0.01 ` +
    `with a ${fmt(dx)} m grid; ${checkWhat(spec, name)}`
  );
}

/**
 * A request-defined multi-pole material that no simulation could step at any Courant factor
 * (a gain pole): POST /v1/modes refuses it as a simulation would, since its materials are a
 * simulation's. Null when some Courant factor steps it.
 */
export function unsteppablePoles(
  spec: SimulationSpec,
  name: string,
  model: PoleModel,
  dx: number,
): string | null {
  const limit = courantLimit(model, dx, 0.99);
  return !limit.stable && limit.largestStable <= 0 ? neverSteppable(spec, name, dx) : null;
}

/**
 * A multi-pole material's problems: the update's stability at the requested Courant factor
 * (stability.ts), and, over a band, monitor wavelengths outside the range its model holds.
 */
function poleProblems(
  model: PoleModel,
  name: string,
  ctx: CheckContext,
  broadband: boolean,
  validRangeM: [number, number],
): string[] {
  const out: string[] = [];
  const { spec } = ctx;
  const S = spec.fdtd_settings.courant_factor;
  // On a graded grid the analysis runs on the uniform grid with the same time step.
  const plan = ctx.grid();
  const dx = plan ? equivalentStepM(plan) : spec.domain.resolution;
  if (finite(S) && S > 0 && finite(dx) && dx > 0) {
    const limit = courantLimit(model, dx, S);
    if (!limit.stable) {
      out.push(
        limit.largestStable > 0
          ? `${name}'s poles make the time stepping unstable at courant_factor ${fmt(S)} ` +
              `with a ${fmt(dx)} m grid; the largest stable courant_factor is ` +
              `${fmt(limit.largestStable)}: set fdtd_settings.courant_factor to at most that`
          : neverSteppable(spec, name, dx),
      );
    }
  }
  if (broadband) {
    const [lo, hi] = validRangeM;
    for (const [j, m] of spec.monitors.entries()) {
      for (const { w, at } of wavelengthsToCheck(m)) {
        if (finite(w) && (w < lo * (1 - 1e-9) || w > hi * (1 + 1e-9))) {
          out.push(
            `${name} is modelled from ${fmt(lo)} m to ${fmt(hi)} m; monitor "${m.name}" ` +
              `records ${fmt(w)} m (monitors[${j}].wavelengths${at}), outside that range`,
          );
        }
      }
    }
  }
  return out;
}

/** Problems of the request's own `materials`: a name that hides a library material. */
function userMaterialProblems(spec: SimulationSpec): SpecProblem[] {
  const out: SpecProblem[] = [];
  for (const name of Object.keys(spec.materials ?? {})) {
    const library = findMaterial(name);
    if (library) {
      out.push({
        path: `materials.${name}`,
        message: `"${name}" is the library's ${library.name}; give the material another name`,
      });
    }
  }
  return out;
}

/**
 * The structures' materials; returns the dielectric ones with their real index at the source
 * wavelength, which the resolution check needs.
 */
export function checkMaterials(ctx: CheckContext): DenseStructure[] {
  const { spec, materials, add, lambda0, lambdaOk } = ctx;
  for (const problem of userMaterialProblems(spec)) add(problem.path, problem.message);
  const broadband = spec.monitors.some((m) =>
    wavelengthsToCheck(m).some(({ w }) => finite(w) && Math.abs(w - lambda0) > 1e-12 * w),
  );
  const dense: DenseStructure[] = [];
  const indexOf = new Map<string, number>();
  spec.structures.forEach((s, i) => {
    const path = `structures[${i}]`;
    const info = materials.describe(s.material);
    if (!info) {
      add(`${path}.material`, `unknown material "${s.material}"`);
    } else if (info.perfectConductor) {
      // Nothing to check: PEC holds at every wavelength, has no index for the grid to resolve
      // and no poles to step.
    } else if (lambdaOk) {
      const [lo, hi] = info.validRangeM;
      if (lambda0 < lo * (1 - 1e-9) || lambda0 > hi * (1 + 1e-9)) {
        add(
          `${path}.material`,
          `${info.name} is valid from ${fmt(lo)} m to ${fmt(hi)} m; the source wavelength ` +
            `(source.wavelength) ${fmt(lambda0)} m is outside that range`,
        );
      } else if (indexOf.has(info.name)) {
        const n = indexOf.get(info.name)!;
        if (n > 1) dense.push({ index: i, n, name: info.name });
      } else {
        const eps = materials.permittivity(s.material, lambda0);
        indexOf.set(info.name, eps.re >= 1 ? Math.sqrt(eps.re) : 0);
        const dispersion = materials.dispersion?.(s.material);
        const poles = dispersion && (dispersion.always || broadband) ? dispersion.model : null;
        if (poles) {
          for (const problem of poleProblems(poles, info.name, ctx, broadband, info.validRangeM)) {
            add(`${path}.material`, problem);
          }
        } else if (eps.re < 1) {
          add(
            `${path}.material`,
            `${info.name} has Re ε = ${fmt(eps.re)} < 1 at ${fmt(lambda0)} m and no ` +
              "multi-pole model to step it with; the solver needs Re ε ≥ 1 for a constant " +
              "material (define it with poles in `materials`)",
          );
        }
        // Metals (Re ε < 1) bound the grid through their skin depth, not the wavelength.
        if (eps.re > 1) dense.push({ index: i, n: Math.sqrt(eps.re), name: info.name });
      }
    }
  });
  return dense;
}
