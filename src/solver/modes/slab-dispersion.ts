/**
 * Guided modes of a symmetric three-layer slab waveguide from its dispersion relations, for
 * the mode solver's tests and validation (Marcuse, Theory of Dielectric Optical Waveguides,
 * 2nd ed., §1.3; Snyder & Love §12). Core index n1, thickness d, cladding n2 < n1, vacuum
 * wavenumber k0; κ = k0·√(n1² − n²), γ = k0·√(n² − n2²) for effective index n:
 *   TE (E parallel to the layers): even κ·tan(κd/2) = γ,  odd −κ·cot(κd/2) = γ;
 *   TM (H parallel): the same with κ/n1² and γ/n2² in place of κ and γ.
 * Each branch of the trigonometric function holds one mode; bisection on it gives n.
 */

/** Effective index of the slab's m-th TE or TM mode (m = 0, 1, …), or null if cut off. */
export function slabModeIndex(
  pol: "te" | "tm",
  m: number,
  n1: number,
  n2: number,
  thicknessM: number,
  wavelengthM: number,
): number | null {
  const k0 = (2 * Math.PI) / wavelengthM;
  const half = thicknessM / 2;
  const w1 = pol === "te" ? 1 : 1 / (n1 * n1);
  const w2 = pol === "te" ? 1 : 1 / (n2 * n2);
  // In terms of the phase φ = κd/2 ∈ (m·π/2, (m+1)·π/2): f(φ) = 0 with γ from φ.
  const vNumber = k0 * half * Math.sqrt(n1 * n1 - n2 * n2);
  const lo = (m * Math.PI) / 2;
  if (lo >= vNumber) return null;
  const hi = Math.min(((m + 1) * Math.PI) / 2, vNumber);
  const f = (phi: number) => {
    const gammaHalf = Math.sqrt(Math.max(vNumber * vNumber - phi * phi, 0));
    const lhs = m % 2 === 0 ? phi * Math.tan(phi) : -phi / Math.tan(phi);
    return w1 * lhs - w2 * gammaHalf;
  };
  let a = lo + 1e-15;
  let b = hi - 1e-15;
  for (let it = 0; it < 200 && b - a > 1e-16 * b; it++) {
    const c = (a + b) / 2;
    if (f(c) < 0) a = c;
    else b = c;
  }
  const phi = (a + b) / 2;
  const kappa = phi / half;
  return Math.sqrt(n1 * n1 - (kappa / k0) ** 2);
}
