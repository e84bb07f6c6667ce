/**
 * Transfer-matrix method for a planar multilayer: reflection, transmission and absorption of
 * a plane wave at normal or oblique incidence, s or p polarised, with complex indices. The
 * analytic reference for slabs, films and coatings simulated by the FDTD solver.
 *
 * Characteristic-matrix formulation (M. Born & E. Wolf, "Principles of Optics", §1.6;
 * H. A. Macleod, "Thin-Film Optical Filters", ch. 2), written for the exp(−iωt) convention
 * with n + i k, k ≥ 0 for loss. The tangential fields (E, H) at the top of layer j follow
 * from those at its bottom by
 *
 *   [E]       [ cos δ_j        −i sin δ_j / η_j ] [E]
 *   [H]_top = [ −i η_j sin δ_j   cos δ_j        ] [H]_bottom,   δ_j = (2π/λ) q_j d_j,
 *
 * where q_j = n_j cos θ_j = √(n_j² − n_0² sin² θ_0) (the root with Im q ≥ 0, so that the wave
 * decays away from the interface it enters through) and the tilted admittances, in units of
 * the free-space admittance, are η = q for s and η = n²/q for p polarisation. Starting from
 * (E, H) = (1, η_substrate) at the substrate and multiplying upwards gives (B, C) at the top;
 * then r = (η_0 B − C)/(η_0 B + C) and the incident tangential field is (η_0 B + C)/(2η_0).
 *
 * The flux through any plane is ½ Re(E H*), so absorption in each layer is the difference of
 * the fluxes at its two faces; R + T + Σ A_j = 1 then holds layer by layer.
 */
import { type Complex, abs2, add, cos, cx, div, mul, scale, sin, sqrt, sub } from "./complex.js";

export interface Layer {
  /** Complex index n + i k (k ≥ 0), or a real index. */
  index: Complex | number;
  /** Physical thickness in metres (≥ 0). */
  thicknessM: number;
}

export interface MultilayerInput {
  /** Vacuum wavelength in metres. */
  wavelengthM: number;
  /** Real index of the (lossless) incidence medium, e.g. 1 for air. */
  incidentIndex: number;
  /** Layers from the incidence side down. */
  layers: readonly Layer[];
  /** Index of the semi-infinite exit medium (complex allowed; T is the flux just inside it). */
  substrateIndex: Complex | number;
  /** Angle of incidence in radians in the incidence medium, 0 ≤ θ < π/2 (default 0). */
  angleRad?: number;
  /** Polarisation: "s" (TE, E perpendicular to the plane of incidence) or "p" (TM). */
  polarization?: "s" | "p";
}

export interface MultilayerResult {
  /**
   * Amplitude reflection coefficient, the ratio of reflected to incident tangential E
   * (so r_s = r_p at normal incidence; r = (n_0 − n_1)/(n_0 + n_1) for a bare interface).
   */
  r: Complex;
  /** Amplitude transmission coefficient, the ratio of transmitted to incident tangential E. */
  t: Complex;
  /** Reflectance |r|². */
  R: number;
  /** Transmittance: flux into the substrate over the incident flux. */
  T: number;
  /** Total absorptance of the layers, Σ layerAbsorptance. */
  A: number;
  /** Fraction of the incident flux absorbed in each layer, in input order. */
  layerAbsorptance: number[];
}

function asComplex(v: Complex | number): Complex {
  return typeof v === "number" ? cx(v) : v;
}

/** n cos θ in a medium of index n for the conserved transverse index β = n_0 sin θ_0. */
function normalIndex(n: Complex, beta: number): Complex {
  const q = sqrt(sub(mul(n, n), cx(beta * beta)));
  // The principal root has Re q ≥ 0; for a lossless medium beyond the critical angle it is
  // ±i|q| depending on the sign of a zero imaginary part. Take the decaying root.
  return q.im < 0 ? scale(q, -1) : q;
}

/**
 * Reflection, transmission and absorption of a planar multilayer (see the module comment).
 * @throws RangeError for a non-positive wavelength or incident index, an angle outside
 *   [0, π/2), a negative thickness, or a gain medium (Im n < 0)
 */
export function multilayer(input: MultilayerInput): MultilayerResult {
  const { wavelengthM, incidentIndex: n0, layers } = input;
  const angle = input.angleRad ?? 0;
  const pol = input.polarization ?? "s";
  if (!(wavelengthM > 0 && Number.isFinite(wavelengthM))) {
    throw new RangeError(`wavelength must be > 0, got ${wavelengthM}`);
  }
  if (!(n0 > 0 && Number.isFinite(n0))) {
    throw new RangeError(`incident index must be real and > 0, got ${n0}`);
  }
  if (!(angle >= 0 && angle < Math.PI / 2)) {
    throw new RangeError(`angle of incidence must be in [0, π/2), got ${angle}`);
  }
  const indices = [...layers.map((l) => asComplex(l.index)), asComplex(input.substrateIndex)];
  for (const n of indices) {
    if (!(n.im >= 0 && Number.isFinite(n.re) && Number.isFinite(n.im))) {
      throw new RangeError(`indices must be finite with Im n ≥ 0, got ${n.re} + ${n.im}i`);
    }
  }
  for (const l of layers) {
    if (!(l.thicknessM >= 0 && Number.isFinite(l.thicknessM))) {
      throw new RangeError(`layer thickness must be ≥ 0, got ${l.thicknessM}`);
    }
  }

  const beta = n0 * Math.sin(angle);
  const admittance = (n: Complex): Complex => {
    const q = normalIndex(n, beta);
    return pol === "s" ? q : div(mul(n, n), q);
  };
  const eta0 = pol === "s" ? n0 * Math.cos(angle) : n0 / Math.cos(angle);
  const k0 = (2 * Math.PI) / wavelengthM;

  // Tangential (E, H) from the substrate upwards, with E = 1 in the substrate.
  const etaSub = admittance(indices[indices.length - 1]);
  let e = cx(1);
  let h = etaSub;
  const flux = (ee: Complex, hh: Complex) => ee.re * hh.re + ee.im * hh.im; // Re(E H*)
  const fluxBelow: number[] = new Array<number>(layers.length);
  const fluxAbove: number[] = new Array<number>(layers.length);
  for (let j = layers.length - 1; j >= 0; j--) {
    const n = indices[j];
    const eta = admittance(n);
    const delta = scale(normalIndex(n, beta), k0 * layers[j].thicknessM);
    const c = cos(delta);
    const s = sin(delta);
    const minusIs = cx(s.im, -s.re); // −i sin δ
    fluxBelow[j] = flux(e, h);
    const eTop = add(mul(c, e), div(mul(minusIs, h), eta));
    const hTop = add(mul(mul(minusIs, eta), e), mul(c, h));
    e = eTop;
    h = hTop;
    fluxAbove[j] = flux(e, h);
  }
  const denominator = add(scale(e, eta0), h); // η0 B + C = 2 η0 E_incident
  const r = div(sub(scale(e, eta0), h), denominator);
  const t = div(cx(2 * eta0), denominator);
  const incidentFlux = abs2(denominator) / (4 * eta0); // η0 |E_i|²
  const layerAbsorptance = layers.map((_, j) => (fluxAbove[j] - fluxBelow[j]) / incidentFlux);
  return {
    r,
    t,
    R: abs2(r),
    T: (etaSub.re * abs2(t)) / eta0,
    A: layerAbsorptance.reduce((sum, a) => sum + a, 0),
    layerAbsorptance,
  };
}
