/**
 * Checks of a far-field monitor (far-field-results.ts): a box (or a plane) clear of the
 * absorber, in one medium all round (no structure crossing its surface: the projection
 * assumes a homogeneous medium outside it), centred on each mirror plane of domain.symmetry or
 * clear of it (far-field-symmetry.ts unfolds the first; a face on the mirror wall would be left
 * out), a domain more than one cell thick (the projection is three-dimensional), and a
 * bounded number of directions.
 */
import { centreIndexAt, nodeIndexAt, periodicThinAxes } from "../grid.js";
import type { FarFieldMonitorSpec, StructureSpec, Vec3 } from "../types.js";
import { AXES, checkRangeSpan, finite, fmt, type CheckContext } from "./common.js";
import { checkBoxHoldsCells } from "./closed-box.js";

/** Most wavelengths one far-field monitor may record (each a pattern over every direction). */
export const MAX_FAR_FIELD_WAVELENGTHS = 16;
/** Most directions (θ × φ) of one far-field monitor: a 1° grid over the whole sphere. */
export const MAX_FAR_FIELD_DIRECTIONS = 181 * 181;

export function checkFarField(ctx: CheckContext, m: FarFieldMonitorSpec, path: string): void {
  const { add, spec, halfSize } = ctx;
  if (!m.center.every(finite) || !m.size.every(finite)) return;
  if (!checkThreeDimensional(ctx, path)) return;
  const zeros = m.size.filter((s) => s === 0).length;
  if (zeros > 1) {
    add(`${path}.size`, "a far-field monitor is a box (no zero extent) or a plane (one zero)");
    return;
  }
  if (zeros === 0) checkBoxHoldsCells(ctx, m, path);
  for (let a = 0; a < 3; a++) {
    const reach = Math.abs(m.center[a]) + m.size[a] / 2;
    if (reach >= halfSize[a] * (1 - 1e-9) && spec.domain.boundary_conditions[a] === "pml") {
      add(
        `${path}.size[${a}]`,
        `the far-field surface must lie inside the domain, clear of the absorber: along ` +
          `${AXES[a]} it reaches ${fmt(reach)} m of the domain's ±${fmt(halfSize[a])} m`,
      );
    }
    if ((spec.domain.symmetry?.[a] ?? "none") !== "none") checkMirrorWall(ctx, m, a, path);
  }
  spec.structures.forEach((s, i) => {
    const [lo, hi] = boundsOf(s);
    if (crossesSurface(lo, hi, m.center, m.size)) {
      add(
        `${path}.size`,
        `structures[${i}] (${s.type} of ${s.material}) crosses the far-field surface: the ` +
          "projection needs one medium all round it; enlarge or shrink the box so that each " +
          "structure lies wholly inside it, wholly outside it, or around all of it",
      );
    }
  });
  checkRangeSpan(ctx, m.theta_deg, `${path}.theta_deg`);
  checkRangeSpan(ctx, m.phi_deg, `${path}.phi_deg`);
  const count = (v: FarFieldMonitorSpec["theta_deg"]) => (Array.isArray(v) ? v.length : v.points);
  const directions = count(m.theta_deg) * count(m.phi_deg);
  if (directions > MAX_FAR_FIELD_DIRECTIONS) {
    add(
      `${path}.phi_deg`,
      `${directions} directions (θ × φ); at most ${MAX_FAR_FIELD_DIRECTIONS} are allowed`,
    );
  }
}

/**
 * The projection is to three-dimensional space. In a 2-D cross-section (periodic and one cell
 * thick along an axis) or a 1-D column the grid's fields are a line's or a sheet's, and a
 * one-cell slice of them projected so would read neither the line's pattern per length nor
 * the power the flux monitors see: refused, not answered wrongly.
 */
function checkThreeDimensional(ctx: CheckContext, path: string): boolean {
  const plan = ctx.grid();
  const thin = plan ? periodicThinAxes(plan) : [];
  if (thin.length === 0) return true;
  const along = thin.map((a) => AXES[a]).join(" and ");
  ctx.add(
    `${path}.monitor_type`,
    `a far-field monitor projects to three-dimensional space; this domain is one periodic ` +
      `cell thick along ${along} (a ${thin.length === 1 ? "2-D cross-section" : "1-D column"}), ` +
      "where that projection would be a one-cell slice's, not the pattern of what the grid " +
      "holds: use flux planes here, or a domain more than one cell thick",
  );
  return false;
}

/**
 * With symmetry along axis a the grid's low face is a mirror wall on a = 0. A far-field box
 * centred on it is the half at ≥ 0 of a whole box, unfolded before the projection; any other
 * box must keep its low face off the wall, and a plane normal to a must not lie on it: the
 * flux surface leaves a face on the wall out (no normal flux crosses it), but its tangential
 * currents radiate, so the projection would miss them.
 */
function checkMirrorWall(ctx: CheckContext, m: FarFieldMonitorSpec, a: number, path: string): void {
  const ax = ctx.grid()?.axes[a];
  if (!ax) return;
  const c = m.center[a];
  const half = m.size[a] / 2;
  const centred = Math.abs(c) <= 1e-9 * Math.max(ctx.spec.domain.size[a], Math.abs(c));
  // The grid's choice of the low face (monitors.ts sampleBox, flux.ts fluxSurface).
  const onWall =
    half > 0
      ? !centred && Math.ceil(centreIndexAt(ax, c - half) - 1e-9) <= 0
      : Math.round(nodeIndexAt(ax, c)) <= 0;
  if (!onWall) return;
  ctx.add(
    `${path}.center`,
    `with symmetry along ${AXES[a]} the far-field surface must be centred on ${AXES[a]} = 0 ` +
      `(its other half is then the mirror image) or keep clear of that plane, at least half a ` +
      `cell above it: this one has a face on the mirror wall, whose currents the projection ` +
      `would miss`,
  );
}

/** Whether a structure's bounding box [lo, hi] meets the surface without holding all of it. */
function crossesSurface(lo: Vec3, hi: Vec3, center: Vec3, size: Vec3): boolean {
  const bLo = center.map((c, a) => c - size[a]! / 2);
  const bHi = center.map((c, a) => c + size[a]! / 2);
  const disjoint = [0, 1, 2].some((a) => hi[a]! <= bLo[a]! || lo[a]! >= bHi[a]!);
  const inside = [0, 1, 2].every((a) => lo[a]! > bLo[a]! && hi[a]! < bHi[a]!);
  const around = [0, 1, 2].every((a) => lo[a]! < bLo[a]! && hi[a]! > bHi[a]!);
  return !(disjoint || inside || around);
}

/** A structure's axis-aligned bounding box (a polyslab's grown by its sloped walls). */
function boundsOf(s: StructureSpec): [Vec3, Vec3] {
  switch (s.type) {
    case "box":
      return [
        s.center.map((c, a) => c - s.size[a]! / 2) as Vec3,
        s.center.map((c, a) => c + s.size[a]! / 2) as Vec3,
      ];
    case "sphere":
      return [s.center.map((c) => c - s.radius) as Vec3, s.center.map((c) => c + s.radius) as Vec3];
    case "cylinder": {
      const axis = "xyz".indexOf(s.axis);
      const half = s.center.map((_, a) => (a === axis ? s.height / 2 : s.radius));
      return [
        s.center.map((c, a) => c - half[a]!) as Vec3,
        s.center.map((c, a) => c + half[a]!) as Vec3,
      ];
    }
    case "polyslab": {
      const grow =
        Math.abs(Math.tan(((s.sidewall_angle_deg ?? 0) * Math.PI) / 180)) * (s.z_max - s.z_min);
      const xs = s.vertices.map((v) => v[0]);
      const ys = s.vertices.map((v) => v[1]);
      return [
        [Math.min(...xs) - grow, Math.min(...ys) - grow, s.z_min],
        [Math.max(...xs) + grow, Math.max(...ys) + grow, s.z_max],
      ];
    }
  }
}
