/**
 * What a structure is to the smoothing (geometry.ts, polyslab.ts, medium.ts): its bounds and
 * the fill fraction of a cell box, and the faces of the region of interest its shape is built
 * against. Declared apart from geometry.ts, which builds the shapes with polyslab.ts, so that
 * polyslab.ts names them without importing geometry.ts.
 */
import type { Vec3 } from "./types.js";

export interface Shape {
  /** Axis-aligned bounds of the (possibly extended) shape in metres; may be ±Infinity. */
  readonly lo: Vec3;
  readonly hi: Vec3;
  /**
   * Fill fraction of the box of sides `h` (metres, per axis) centred on `p`; writes the
   * outward unit normal into `normal` when 0 < f < 1.
   */
  fill(p: Vec3, h: Vec3, normal: Vec3): number;
  /**
   * The part of that box inside the shape, as a box in the cube's unit coordinates (0 … 1 per
   * axis), where it is one (an axis-aligned box's); undefined otherwise (cube-shares.ts then
   * takes the part as a half-space).
   */
  clip?(p: Vec3, h: Vec3): [Vec3, Vec3] | undefined;
  /**
   * Set when every cube's fill is 1 (a box reaching every absorbing face and spanning every
   * periodic axis: a cladding or background box): painting it needs no fill at all.
   */
  readonly coversAll?: boolean;
}

/** Faces of the region of interest, per axis, and whether the axis absorbs (pml). */
export interface DomainFaces {
  lo: Vec3;
  hi: Vec3;
  extends: [boolean, boolean, boolean];
  /** Period (grid length) along periodic axes, 0 elsewhere. */
  period: Vec3;
}
