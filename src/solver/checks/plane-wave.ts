/**
 * Checks of a plane-wave `source`: its amplitude and direction, what it needs of the boundaries
 * (pml along its axis, periodic across it at oblique incidence, walls that do not short out its
 * field), and its parity about a symmetry plane.
 */
import { interiorCellsFor } from "../grid.js";
import { TFSF_OFFSET_CELLS, planeWaveGeometry } from "../sources/plane-wave.js";
import type { PlaneWaveSpec } from "../types.js";
import { AXES, finite, fmt, type CheckContext } from "./common.js";

export type PlaneWave = ReturnType<typeof planeWaveGeometry>;

/** The plane wave's problems; returns its geometry when the direction is usable. */
export function checkPlaneWave(ctx: CheckContext, source: PlaneWaveSpec): PlaneWave | null {
  const { add } = ctx;
  if (!finite(source.amplitude)) add("source.amplitude", "must be a finite number of V/m");
  const dir = source.direction;
  const dirOk = dir.every(finite) && Math.hypot(dir[0], dir[1], dir[2]) > 0;
  if (!dirOk) {
    add("source.direction", "must be a finite, non-zero vector");
    return null;
  }
  const geometry = planeWaveGeometry(source);
  checkPropagationAxis(ctx, geometry);
  for (let t = 0; t < 3; t++) {
    if (t !== geometry.axis) checkTransverseAxis(ctx, source, geometry, t);
  }
  return geometry;
}

/** Along the propagation axis: a pml boundary, and room for the source plane. */
function checkPropagationAxis(ctx: CheckContext, geometry: PlaneWave): void {
  const { spec, add, dx, size } = ctx;
  const a = geometry.axis;
  const b = spec.domain.boundary_conditions[a];
  if (b !== "pml") {
    add(
      `domain.boundary_conditions[${a}]`,
      `the plane wave propagates along ${AXES[a]} (source.direction), so this boundary ` +
        "must be pml " +
        `(a ${b} boundary along the propagation axis would reflect it back into the source)`,
    );
  }
  if (finite(size[a]) && finite(dx) && dx > 0) {
    const cells = interiorCellsFor(size[a], dx);
    const need = 2 * TFSF_OFFSET_CELLS + 2;
    if (cells < need) {
      add(
        `domain.size[${a}]`,
        `along the propagation axis ${AXES[a]} the domain needs at least ${need} cells ` +
          `(${fmt(need * dx)} m) to hold the source plane; it has ${cells}`,
      );
    }
  }
}

/**
 * Across the propagation axis, along axis t: at oblique incidence (a direction with a t
 * component) a uniform grid and a periodic boundary; else walls that do not short out the
 * wave's field.
 */
function checkTransverseAxis(
  ctx: CheckContext,
  source: PlaneWaveSpec,
  geometry: PlaneWave,
  t: number,
): void {
  const { add } = ctx;
  const bt = ctx.spec.domain.boundary_conditions[t];
  const u = 3 - geometry.axis - t; // the other transverse axis
  const e = geometry.polarization;
  const oblique = geometry.direction[t] !== 0;
  if (oblique) checkObliqueGrid(ctx, geometry.axis, t);
  if (oblique && bt !== "periodic") {
    add(
      "source.direction",
      `oblique incidence (direction has a ${AXES[t]} component) needs a periodic ` +
        `boundary along ${AXES[t]}; boundary_conditions[${t}] is ${bt}`,
    );
  } else if (bt === "pec" && Math.abs(e[u]) > 1e-9) {
    add(
      `domain.boundary_conditions[${t}]`,
      `pec walls normal to ${AXES[t]} short out the plane wave's E along ${AXES[u]} ` +
        `(${source.polarization} polarisation has E = (${e.map(fmt).join(", ")})); use ` +
        "pmc, periodic or pml here, or the other polarisation",
    );
  } else if (bt === "pmc" && Math.abs(e[t]) > 1e-9) {
    add(
      `domain.boundary_conditions[${t}]`,
      `pmc walls normal to ${AXES[t]} short out the plane wave's H (its E along ` +
        `${AXES[t]} is ${fmt(e[t])}); use pec, periodic or pml here, or the other polarisation`,
    );
  }
}

/**
 * Oblique incidence with a component along t: the Bloch phase across needs the same cells all
 * along the period (sources/plane-wave.ts), so no mesh override may refine t.
 */
function checkObliqueGrid(ctx: CheckContext, a: number, t: number): void {
  const { spec, add, dx } = ctx;
  (spec.domain.mesh_overrides ?? []).forEach((o, i) => {
    const r = typeof o.resolution === "number" ? o.resolution : o.resolution[t];
    if (finite(r) && finite(dx) && r < dx * (1 - 1e-9)) {
      add(
        `domain.mesh_overrides[${i}].resolution`,
        `oblique incidence (direction has a ${AXES[t]} component) needs a uniform grid ` +
          `along ${AXES[t]}; give this override domain.resolution (${fmt(dx)} m) along ` +
          `${AXES[t]} and refine along ${AXES[a]}, the propagation axis, only`,
      );
    }
  });
}

/**
 * The plane wave's parity about the plane normal to axis a against the one requested; `what`
 * names the source in the messages (a Gaussian beam's parity is its axis's plane wave's).
 */
export function checkPlaneWaveParity(
  ctx: CheckContext,
  g: PlaneWave,
  a: number,
  path: string,
  what = "the plane wave",
): void {
  const { add, spec } = ctx;
  const s = spec.domain.symmetry![a];
  if (Math.abs(g.direction[a]) > 1e-9) {
    add(
      path,
      `${what} travels along (${g.direction.map(fmt).join(", ")}), which has a ` +
        `${AXES[a]} component: it is not its own mirror image about ${AXES[a]} = 0; use none here`,
    );
    return;
  }
  const e = g.polarization;
  const along = Math.abs(e[a]) > 1e-9;
  const across = [0, 1, 2].some((t) => t !== a && Math.abs(e[t]) > 1e-9);
  if (along && across) {
    add(
      path,
      `${what}'s E = (${e.map(fmt).join(", ")}) has parts along and across ${AXES[a]}: ` +
        `it is neither odd nor even about ${AXES[a]} = 0; use none here`,
    );
    return;
  }
  const needed = along ? "pec" : "pmc";
  if (s !== needed) {
    add(
      path,
      `${what}'s E = (${e.map(fmt).join(", ")}) is ${along ? "along" : "across"} ` +
        `${AXES[a]}, so its tangential E is ${along ? "odd" : "even"} about ${AXES[a]} = 0: ` +
        `the symmetry is ${needed}, not ${s} (with ${(spec.source as PlaneWaveSpec).polarization} polarisation)`,
    );
  }
}
