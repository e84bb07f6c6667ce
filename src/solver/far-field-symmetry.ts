/**
 * A far-field surface across mirror planes (domain.symmetry): the grid holds the half at ≥ 0
 * of each symmetric axis, so a far-field monitor centred on a mirror plane recorded only the
 * part of its surface at ≥ 0. The part left out is that part's mirror image, and its fields
 * are the images of the recorded ones: across the plane normal to axis a, E (a polar vector)
 * and H (an axial one) map as E′(R r) = s R E(r), H′(R r) = −s R H(r), R the reflection and
 * s = −1 for a pec plane, +1 for a pmc one: each component keeps or flips its sign as
 * grid.ts's mirrorSign says (pec: tangential E and normal H odd; pmc: normal E and
 * tangential H odd), as the field monitors' unfolding does (run.ts). A surface wholly at ≥ 0
 * needs nothing: the fields it recorded are the whole problem's there (checks/far-field.ts
 * refuses one with a face on the mirror wall, which the flux surface leaves out).
 *
 * Two ways to use that were weighed: unfold the surface (add the image points with the image
 * fields, then project the whole surface), or project the half and add the image currents'
 * radiation vectors, N′(r̂) = ±R N(R r̂) per plane, which needs the pattern at the mirrored
 * directions as well, i.e. either a grid closed under the reflections or up to 2^m times the
 * directions. Unfolding is the one chosen: it is exact, independent of the direction grid,
 * leaves the projection (far-field.ts) untouched, and costs what the projection of the same
 * box without symmetry costs (the image points join the same faces' groups: the images of a
 * face along the plane share its normal and plane and are appended to it; only the face
 * normal to the mirror axis gets a separate image face, on the far side). The stepping, which
 * dominates, is still halved per plane.
 *
 * Quadrature and power scale. A point on the plane (a node row of a face across it) weighs
 * half its dual cell in the half (flux.ts's trapezoid rule), and its image, on the same spot,
 * the other half: an even component counts whole, an odd one (zero there: pec walls hold
 * tangential E and normal H at zero) cancels. So the unfolded sum is the whole surface's
 * trapezoid rule, and the pattern, and ∫U dΩ, are the whole surface's: the power the flux
 * monitor of the same box reports (2^m times its half's, flux-results.ts), with no factor to
 * apply here. On a uniform grid with a node on each plane the unfolded points are exactly the
 * whole run's, so the pattern matches the run without symmetry to float32 round-off.
 */
import type { FarFieldFace } from "./far-field.js";
import { mirrorSign } from "./grid.js";
import type { Symmetry } from "./types.js";

/** One mirror plane a far-field surface spans: the axis it is normal to and its kind. */
export interface MirrorPlane {
  axis: number;
  mirror: Exclude<Symmetry, "none">;
}

/**
 * The whole surface from the part at ≥ 0 of each plane: the faces with their mirror images
 * about every plane in turn (2^planes.length copies of each point in all).
 *
 * @param faces the recorded faces (points in m, areas in m², E in V/m, H in A/m).
 * @param planes the mirror planes the surface spans (through the origin).
 */
export function unfoldMirroredFaces(
  faces: readonly FarFieldFace[],
  planes: readonly MirrorPlane[],
): FarFieldFace[] {
  let out = [...faces];
  for (const plane of planes) {
    out = out.flatMap((face) => {
      const image = mirrorFace(face, plane);
      // A face along the plane and its image share normal and plane: one face of twice the points.
      return face.normal[plane.axis] === 0 ? [joinFaces(face, image)] : [face, image];
    });
  }
  return out;
}

/** A face's mirror image about a plane: points, normal and fields reflected. */
export function mirrorFace(face: FarFieldFace, { axis, mirror }: MirrorPlane): FarFieldFace {
  const normal: FarFieldFace["normal"] = [...face.normal];
  normal[axis] = -normal[axis];
  const points = Float64Array.from(face.points);
  for (let p = axis; p < points.length; p += 3) points[p] = -points[p];
  const reflect = (values: Float64Array, first: number) => {
    const out = Float64Array.from(values);
    for (let d = 0; d < 3; d++) {
      if (mirrorSign(mirror, first + d, axis) > 0) continue;
      for (let o = 2 * d; o < out.length; o += 6) {
        out[o] = -out[o];
        out[o + 1] = -out[o + 1];
      }
    }
    return out;
  };
  return {
    normal,
    points,
    areas: Float64Array.from(face.areas),
    e: reflect(face.e, 0),
    h: reflect(face.h, 3),
  };
}

/** Two faces with the same normal and plane as one: the second's points after the first's. */
function joinFaces(a: FarFieldFace, b: FarFieldFace): FarFieldFace {
  const join = (x: Float64Array, y: Float64Array) => {
    const out = new Float64Array(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  return {
    normal: a.normal,
    points: join(a.points, b.points),
    areas: join(a.areas, b.areas),
    e: join(a.e, b.e),
    h: join(a.h, b.h),
  };
}
