/**
 * The far field of a 2-D cross-section: a domain periodic and one cell (of length L) thick
 * along an axis t holds a structure and sources uniform along t, a line's fields. They fall
 * off as 1/√ρ in the plane normal to t, and a far-field monitor reports, per direction φ in
 * that plane, the power per radian over one period L, U₂ in W/rad (∫U₂ dφ over the plane is
 * the power out of the box in watts per period, as the flux monitors report it), and
 * √ρ·E at ρ = 1 m.
 *
 * Both come from the 3-D projection of the one-cell slice (far-field.ts), at directions in
 * the plane, where the phase of a point does not depend on its position along t. The slice
 * radiates E₃ = (ik e^{ikr}/4πr)·F with F its currents' radiation vector, L times a line's
 * per length f; the line radiates, by the integral of e^{ikR}/(4πR) along t, which is
 * (i/4)·H₀⁽¹⁾(kρ) → (i/4)·√(2/(πkρ))·e^{i(kρ − π/4)} far away,
 *
 *   √ρ·E₂ = ik·f·(i/4)·√(2/(πk))·e^{−iπ/4} = r·E₃ · e^{iπ/4}·√(2π/k) / L,
 *   U₂ = L·ρ|E₂|²/(2η) = U₃ · 2π/(kL),
 *
 * with k the background's wavenumber and U₃ the slice's W/sr. The directions must lie in
 * the plane (checks/far-field.ts): for t = x, φ = 90° or 270°; for t = y, φ = 0° or 180°; for
 * t = z, θ = 90°.
 */
import type { FarFieldPattern } from "./far-field.js";

/** Angles within this of the plane's (degrees) count as in it. */
const PLANE_TOLERANCE_DEG = 1e-9;

/** The plane of directions of a cross-section thin along axis t, as a sentence names it. */
export function crossSectionPlaneWords(t: number): string {
  return [
    "φ = 90° or 270° (the y–z plane)",
    "φ = 0° or 180° (the x–z plane)",
    "θ = 90° (the x–y plane)",
  ][t]!;
}

/** Whether the direction (θ, φ) in degrees lies in the plane normal to axis t. */
export function inCrossSectionPlane(t: number, thetaDeg: number, phiDeg: number): boolean {
  const near = (value: number, targets: number[]) =>
    targets.some((target) => {
      const d = Math.abs(((((value - target) % 360) + 540) % 360) - 180);
      return d <= PLANE_TOLERANCE_DEG;
    });
  // θ = 0° or 180° (±z) lies in every plane through the z axis, whatever φ says.
  const pole = near(thetaDeg, [0, 180]);
  if (t === 0) return pole || near(phiDeg, [90, 270]);
  if (t === 1) return pole || near(phiDeg, [0, 180]);
  return near(thetaDeg, [90]);
}

/**
 * A line's pattern from its one-cell slice's 3-D one (see the header): the same directions,
 * E scaled by e^{iπ/4}·√(2π/k)/L and the intensity by 2π/(kL), per period L (m).
 */
export function lineFarField(slice: FarFieldPattern, k: number, periodM: number): FarFieldPattern {
  // e^{iπ/4} = (1 + i)/√2: (re + i·im)·c(1 + i) = c(re − im) + i·c(re + im).
  const c = (Math.sqrt((2 * Math.PI) / k) / periodM) * Math.SQRT1_2;
  const rotate = (e: Float64Array) => {
    const out = new Float64Array(e.length);
    for (let i = 0; i < e.length; i += 2) {
      out[i] = c * (e[i]! - e[i + 1]!);
      out[i + 1] = c * (e[i]! + e[i + 1]!);
    }
    return out;
  };
  const scale = (2 * Math.PI) / (k * periodM);
  return {
    eTheta: rotate(slice.eTheta),
    ePhi: rotate(slice.ePhi),
    radiantIntensity: slice.radiantIntensity.map((u) => u * scale),
  };
}
