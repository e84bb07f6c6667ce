/**
 * Exact (non-paraxial) vector field of a Gaussian beam: what the `gaussian_beam` source
 * (DESIGN §10) injects on its plane, and the reference its validation compares with.
 *
 * Definition. The beam travels along the unit vector d in a lossless, non-magnetic medium of
 * index n at vacuum wavelength λ0 (k = 2πn/λ0), time dependence e^{−iωt}. In the focal plane
 * (normal to d through the focus) the transverse E is A·ê·exp(−ρ²/w0²), ê the polarisation
 * of the plane wave with the same direction (te: ê = ŝ = ẑ×d/|ẑ×d|, or ŷ when d ∥ z; tm:
 * ê = ŝ × d; DESIGN §1, sources/plane-wave.ts). The field everywhere is the angular-spectrum
 * (plane-wave) superposition of that focal-plane field (L. Novotny & B. Hecht, "Principles of
 * Nano-Optics", 2nd ed., §3.2–3.6; J. W. Goodman, "Introduction to Fourier Optics", §3.10):
 * the plane wave of transverse wavevector k_t carries the transverse amplitude
 * Ã = A π w0² exp(−k_t² w0²/4) along ê, plus the longitudinal part −(k_t·ê)Ã/k_z that makes it
 * transverse (E·k = 0), with k_z = √(k² − k_t²), and H = k × E/(ωμ0) = (k/k) × E/η, η = η0/n.
 * A is the peak |E| at the focus (DESIGN §10): E is A·ê on the axis there, and smaller off it.
 *
 * Evanescent components (k_t > k, k_z = iκ) are kept on the focal plane and downstream of it,
 * where they decay as e^{−κs}: that is the field a sheet in the focal plane launches forward, and
 * it makes the focal-plane field exactly the Gaussian above. Upstream (s < 0) they would grow,
 * so there the field is the propagating part only. `{evanescent: false}` drops them everywhere:
 * the field an injection plane upstream of the focus launches (its evanescent part dies before
 * the focus). They weigh exp(−k²w0²/4) at most: 8.5 % of A for w0 = λ/2n, 5e-5 for w0 = λ/n,
 * nothing from w0 = 1.5λ/n; near k_t = k they decay slowly (E_z's part as 1/(ks)).
 *
 * Method. In the beam's frame (u along ê, v = d × ê, s along d; the point at ρ, φ from u) the
 * azimuthal integral is closed with ∫ e^{inψ} e^{ik_tρ cos(ψ−φ)} dψ = 2π iⁿ Jₙ(k_tρ) e^{inφ} (as
 * Novotny & Hecht's focal-field integrals I₀₀…I₀₂), so with C = A w0²/2, G = exp(−k_t²w0²/4) and
 * P = e^{ik_z s}, five radial integrals ∫ k_t dk_t G P (…) give everything:
 *   I_A: J0, I_B: (k_t/k_z) J1, I_C: (k_t²/2k_z) J2, I_D: (k_z + k_t²/2k_z) J0, I_E: k_t J1;
 *   E_u = C I_A, E_v = 0, E_s = −i C cos φ I_B,
 *   ηH_u = (C/k) sin 2φ I_C, ηH_v = (C/k)(I_D − cos 2φ I_C), ηH_s = −i (C/k) sin φ I_E.
 * The 1/k_z singularity at k_t = k is removed by the variables: k_t = k sin θ for the
 * propagating part (k_t dk_t/k_z = k sin θ dθ) and κ = √(k_t² − k²) for the evanescent part
 * (k_t dk_t = κ dκ), so both integrands are smooth and composite 16-point Gauss–Legendre
 * converges spectrally; the number of panels follows the phase the integrand turns through at
 * that point (k_tρ from the Bessel function, k_z s from the propagation). The spectrum is cut
 * where G < 1e-10. J0 and J1 come from Abramowitz & Stegun 9.4.1–9.4.6 (error < 1e-7), J2 from
 * the recurrence. Against an independent brute-force sum of plane waves over (k_t, ψ), E and ηH
 * agree within 4e-8 of A for waists from λ/2 to 20λ, out to 5 w(s) and 10 z_R; the focal plane
 * is the Gaussian within 2e-8 of A (test file). Cost: 60–130 nodes a point on a 200 × 200 plane
 * spanning ±3 w(z_R); 0.30–0.47 s of CPU for the 40 000 points (Node 20, on a loaded 2-core
 * host; normal or tilted 45° to the beam: a plane normal to it shares the phases e^{ik_z s}).
 */
import { ETA0 } from "../constants.js";
import { gaussLegendre } from "./gauss-legendre.js";

type Vec3 = [number, number, number];

export interface GaussianBeam {
  /** Propagation direction (normalised here; not zero). */
  direction: Vec3;
  /** Focus (the waist's centre) in metres. */
  focus: Vec3;
  /** Waist radius w0 in metres: 1/e radius of |E| (1/e² of |E|²) in the focal plane. */
  waistRadius: number;
  /** Vacuum wavelength λ0 in metres. */
  wavelength: number;
  /** Refractive index n of the lossless, non-magnetic medium. */
  index: number;
  /** te: E ⟂ the plane holding the direction and z; tm: the other (as the plane wave). */
  polarization: "te" | "tm";
  /** Peak |E| at the focus in V/m. */
  amplitude: number;
}

export interface BeamFieldOptions {
  /**
   * Keep the evanescent spectrum on and downstream of the focal plane (default true). Use
   * false for the field an injection plane upstream of the focus launches.
   */
  evanescent?: boolean;
}

/** Paraxial Rayleigh range z_R = π w0² n / λ0 in metres. */
export function rayleighRange(beam: GaussianBeam): number {
  return (Math.PI * beam.waistRadius * beam.waistRadius * beam.index) / beam.wavelength;
}

/** Paraxial 1/e² intensity radius w(s) = w0 √(1 + (s/z_R)²) in metres, s from the focus. */
export function paraxialWidth(beam: GaussianBeam, distanceM: number): number {
  const q = distanceM / rayleighRange(beam);
  return beam.waistRadius * Math.sqrt(1 + q * q);
}

/** Gauss–Legendre order of one panel. */
const GL_ORDER = 16;
/**
 * Phase (rad) one 16-point panel takes: its error is ~(Φ/2)³²/32! of the integrand's size,
 * 4e-9 at Φ = 14 (1e-13 at 10, 3e-7 at 16), below the Bessel functions' 1e-7.
 */
const PHASE_PER_PANEL = 14;
const MIN_PANELS = 2;
/** The spectrum is cut where exp(−k_t²w0²/4) < 1e-10. */
const SPECTRUM_CUT = 2 * Math.sqrt(Math.log(1e10));
/** ... and the evanescent part where e^{−κs} < 1e-10 too. */
const DECAY_CUT = Math.log(1e10);

/** Points within this many 1/k upstream of the focal plane count as on it. */
const FOCAL_PLANE_TOLERANCE = 1e-9;

/** Nodes of one quadrature: k_t, k_z and the five complex weights (re, im) per node. */
interface NodeSet {
  kt: Float64Array;
  /** Propagating: k_z; evanescent: κ (k_z = iκ). */
  kz: Float64Array;
  /** Per node: A, B, C, D, E weights, re and im: 10 numbers. */
  w: Float64Array;
  /** e^{ik_z s} (re, im) per node at s = phaseS (NaN before the first point). */
  pr: Float64Array;
  pi: Float64Array;
  phaseS: number;
}

interface BeamContext {
  u: Vec3;
  v: Vec3;
  d: Vec3;
  focus: Vec3;
  k: number;
  w0: number;
  /** A w0² / 2. */
  c0: number;
  eta: number;
  /** Upper ends of θ (propagating) and κ (evanescent, 0 when the spectrum ends before k). */
  thetaMax: number;
  kappaMax: number;
  evanescent: boolean;
  nodes: Map<string, NodeSet>;
}

/** a × b. */
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: Vec3) => Math.hypot(a[0], a[1], a[2]);
const scale = (a: Vec3, f: number): Vec3 => [a[0] * f, a[1] * f, a[2] * f];

/** Below this, a component of the unit direction counts as zero (as plane-wave.ts). */
const DIRECTION_EPS = 1e-9;

/**
 * The beam's frame: u = ê, v = d × ê, d, with ê as the plane wave's (plane-wave.ts's
 * planeWaveGeometry, whose conventions and thresholds this follows).
 */
export function beamFrame(beam: GaussianBeam): { u: Vec3; v: Vec3; d: Vec3 } {
  const peak = Math.max(...beam.direction.map(Math.abs));
  if (!(peak > 0) || !Number.isFinite(peak)) {
    throw new RangeError(`gaussian beam: direction must be finite and non-zero`);
  }
  const scaled = beam.direction.map((c) => c / peak) as Vec3;
  const len = norm(scaled);
  const d0 = scaled.map((c) => (Math.abs(c / len) < DIRECTION_EPS ? 0 : c / len)) as Vec3;
  const d = scale(d0, 1 / norm(d0));
  const zxd = cross([0, 0, 1], d);
  const s: Vec3 = norm(zxd) > DIRECTION_EPS ? scale(zxd, 1 / norm(zxd)) : [0, 1, 0];
  const u = beam.polarization === "te" ? s : cross(s, d);
  return { u, v: cross(d, u), d };
}

/** The wavenumber k = 2πn/λ0 of a beam whose waist, wavelength and index are valid (or throws). */
export function beamWavenumber(beam: GaussianBeam): number {
  for (const [name, value] of [
    ["waistRadius", beam.waistRadius],
    ["wavelength", beam.wavelength],
    ["index", beam.index],
  ] as const) {
    if (!(value > 0) || !Number.isFinite(value)) {
      throw new RangeError(`gaussian beam: ${name} must be positive and finite, got ${value}`);
    }
  }
  return (2 * Math.PI * beam.index) / beam.wavelength;
}

function beamContext(beam: GaussianBeam, options: BeamFieldOptions): BeamContext {
  const k = beamWavenumber(beam);
  const w0 = beam.waistRadius;
  const ktCut = SPECTRUM_CUT / w0;
  return {
    ...beamFrame(beam),
    focus: beam.focus,
    k,
    w0,
    c0: (beam.amplitude * w0 * w0) / 2,
    eta: ETA0 / beam.index,
    thetaMax: ktCut >= k ? Math.PI / 2 : Math.asin(ktCut / k),
    kappaMax: ktCut > k ? Math.sqrt(ktCut * ktCut - k * k) : 0,
    evanescent: options.evanescent ?? true,
    nodes: new Map(),
  };
}

const GAUSS_LEGENDRE = gaussLegendre(GL_ORDER);

/**
 * The five weights of one node from base = (k_t dk_t / k_z)·G·(quadrature weight), complex
 * (re, im), and k_z (re, im): A = base·k_z, B = base·k_t, C = base·k_t²/2,
 * D = base·(k_z² + k_t²/2), E = A·k_t.
 */
function setWeights(w: Float64Array, j: number, kt: number, base: [number, number], kz: Vec3) {
  const [br, bi] = base;
  const [zr, zi, kz2] = kz;
  const o = 10 * j;
  w[o] = br * zr - bi * zi;
  w[o + 1] = br * zi + bi * zr;
  w[o + 2] = br * kt;
  w[o + 3] = bi * kt;
  w[o + 4] = (br * kt * kt) / 2;
  w[o + 5] = (bi * kt * kt) / 2;
  w[o + 6] = br * (kz2 + (kt * kt) / 2);
  w[o + 7] = bi * (kz2 + (kt * kt) / 2);
  w[o + 8] = w[o] * kt;
  w[o + 9] = w[o + 1] * kt;
}

/** Composite Gauss–Legendre nodes over θ ∈ [0, θmax] (propagating) or κ ∈ [0, κmax]. */
function buildNodes(ctx: BeamContext, panels: number, upper: number, evanescent: boolean) {
  const n = panels * GL_ORDER;
  const set: NodeSet = {
    kt: new Float64Array(n),
    kz: new Float64Array(n),
    w: new Float64Array(10 * n),
    pr: new Float64Array(n),
    pi: new Float64Array(n),
    phaseS: Number.NaN,
  };
  const { k, w0 } = ctx;
  const h = upper / panels;
  for (let p = 0; p < panels; p++) {
    for (let i = 0; i < GL_ORDER; i++) {
      const j = p * GL_ORDER + i;
      const x = h * (p + (GAUSS_LEGENDRE.x[i] + 1) / 2);
      const q = (h / 2) * GAUSS_LEGENDRE.w[i];
      // Propagating: k_t dk_t/k_z = k sin θ dθ. Evanescent: k_t dk_t/k_z = κ dκ/(iκ) = −i dκ.
      const kt = evanescent ? Math.sqrt(k * k + x * x) : k * Math.sin(x);
      const kz = evanescent ? x : k * Math.cos(x);
      const g = Math.exp((-kt * kt * w0 * w0) / 4);
      set.kt[j] = kt;
      set.kz[j] = kz;
      if (evanescent) setWeights(set.w, j, kt, [0, -q * g], [0, kz, -kz * kz]);
      else setWeights(set.w, j, kt, [q * k * Math.sin(x) * g, 0], [kz, 0, kz * kz]);
    }
  }
  return set;
}

/** Panel counts are rounded up to 2^(m/4) so that a cloud of points shares few node sets. */
function roundPanels(phase: number): number {
  const p = Math.max(MIN_PANELS, phase / PHASE_PER_PANEL);
  return Math.ceil(2 ** (Math.ceil(4 * Math.log2(p)) / 4));
}

function nodesFor(ctx: BeamContext, evanescent: boolean, panels: number, upper: number) {
  const key = `${evanescent ? "e" : "p"}${panels}:${upper}`;
  let set = ctx.nodes.get(key);
  if (!set) {
    set = buildNodes(ctx, panels, upper, evanescent);
    ctx.nodes.set(key, set);
  }
  return set;
}

/**
 * J0, J1 and J2 of x ≥ 0 into out[0..2]: Abramowitz & Stegun 9.4.1, 9.4.3, 9.4.4, 9.4.6
 * (|error| < 1e-7); J2 = 2J1/x − J0, with J1/x from the series below x = 3.
 */
function bessel012(x: number, out: Float64Array): void {
  if (x < 3) {
    const y = (x / 3) * (x / 3);
    const j0 =
      1 +
      y *
        (-2.2499997 +
          y * (1.2656208 + y * (-0.3163866 + y * (0.0444479 + y * (-0.0039444 + y * 0.00021)))));
    const j1x =
      0.5 +
      y *
        (-0.56249985 +
          y *
            (0.21093573 +
              y * (-0.03954289 + y * (0.00443319 + y * (-0.00031761 + y * 0.00001109)))));
    out[0] = j0;
    out[1] = j1x * x;
    out[2] = 2 * j1x - j0;
    return;
  }
  const t = 3 / x;
  const f0 =
    0.79788456 +
    t *
      (-0.00000077 +
        t *
          (-0.0055274 + t * (-0.00009512 + t * (0.00137237 + t * (-0.00072805 + t * 0.00014476)))));
  const th0 =
    x -
    0.78539816 +
    t *
      (-0.04166397 +
        t *
          (-0.00003954 +
            t * (0.00262573 + t * (-0.00054125 + t * (-0.00029333 + t * 0.00013558)))));
  const f1 =
    0.79788456 +
    t *
      (0.00000156 +
        t *
          (0.01659667 + t * (0.00017105 + t * (-0.00249511 + t * (0.00113653 - t * 0.00020033)))));
  const th1 =
    x -
    2.35619449 +
    t *
      (0.12499612 +
        t * (0.0000565 + t * (-0.00637879 + t * (0.00074348 + t * (0.00079824 - t * 0.00029166)))));
  const r = 1 / Math.sqrt(x);
  out[0] = f0 * r * Math.cos(th0);
  out[1] = f1 * r * Math.cos(th1);
  out[2] = (2 * out[1]) / x - out[0];
}

const besselScratch = new Float64Array(3);
/** Which Bessel order each of the integrals A…E takes. */
const ORDER = [0, 1, 2, 0, 1] as const;

/**
 * P = e^{ik_z s} at every node (a phase when propagating, e^{−κs} when evanescent), kept for the
 * last s: the points of a plane normal to the beam share it.
 */
function phases(set: NodeSet, s: number, evanescent: boolean): void {
  if (set.phaseS === s) return;
  const { kz, pr, pi } = set;
  for (let j = 0; j < kz.length; j++) {
    pr[j] = evanescent ? Math.exp(-kz[j] * s) : Math.cos(kz[j] * s);
    pi[j] = evanescent ? 0 : Math.sin(kz[j] * s);
  }
  set.phaseS = s;
}

/** Adds Σ weight · P · J_n(k_t ρ) over a node set to sums (A…E, re and im). */
function accumulate(set: NodeSet, rho: number, s: number, evanescent: boolean, sums: Float64Array) {
  phases(set, s, evanescent);
  const J = besselScratch;
  const { kt, w, pr, pi } = set;
  for (let j = 0; j < kt.length; j++) {
    bessel012(kt[j] * rho, J);
    const o = 10 * j;
    for (let m = 0; m < 5; m++) {
      const wr = w[o + 2 * m];
      const wi = w[o + 2 * m + 1];
      const jn = J[ORDER[m]];
      sums[2 * m] += (wr * pr[j] - wi * pi[j]) * jn;
      sums[2 * m + 1] += (wr * pi[j] + wi * pr[j]) * jn;
    }
  }
}

/** The radial integrals I_A…I_E (re, im) at (ρ, s) in the beam's frame. */
function radialIntegrals(ctx: BeamContext, rho: number, s: number, sums: Float64Array): void {
  sums.fill(0);
  const { k, thetaMax, kappaMax } = ctx;
  const kt = k * Math.sin(thetaMax);
  const propPhase = kt * rho + k * Math.abs(s) * (1 - Math.cos(thetaMax));
  const prop = nodesFor(ctx, false, roundPanels(propPhase), thetaMax);
  accumulate(prop, rho, s, false, sums);
  // A point on the focal plane of a tilted beam can land a rounding error upstream of it.
  if (!ctx.evanescent || s < -FOCAL_PLANE_TOLERANCE / k || kappaMax === 0) return;
  const down = Math.max(s, 0);
  // e^{−κs} < 1e-10 beyond DECAY_CUT/s; the bound is rounded up to a power of 2^(1/4) of κmax
  // so that points at nearby s share nodes.
  let upper = kappaMax;
  if (down * kappaMax > DECAY_CUT) {
    upper = kappaMax * 2 ** (Math.ceil(4 * Math.log2(DECAY_CUT / (down * kappaMax))) / 4);
  }
  const evanPhase = (Math.sqrt(k * k + upper * upper) - k) * rho + upper * down;
  accumulate(nodesFor(ctx, true, roundPanels(evanPhase), upper), rho, down, true, sums);
}

const localSums = new Float64Array(10);

/**
 * E and H in the beam's frame (u, v, s; re and im each: 6 + 6 numbers into out) at the point
 * (x, y) from the axis along u and v, s along d from the focus.
 */
function localFields(ctx: BeamContext, x: number, y: number, s: number, out: Float64Array) {
  const sums = localSums;
  const rho = Math.hypot(x, y);
  radialIntegrals(ctx, rho, s, sums);
  // On the axis the φ-dependent integrals vanish (J1(0) = J2(0) = 0): any φ will do.
  const cos = rho > 0 ? x / rho : 1;
  const sin = rho > 0 ? y / rho : 0;
  const cos2 = cos * cos - sin * sin;
  const sin2 = 2 * sin * cos;
  const c = ctx.c0;
  const ch = c / (ctx.k * ctx.eta);
  const [aR, aI, bR, bI, cR, cI, dR, dI, eR, eI] = sums;
  out[0] = c * aR;
  out[1] = c * aI;
  out[2] = 0;
  out[3] = 0;
  out[4] = c * cos * bI;
  out[5] = -c * cos * bR;
  out[6] = ch * sin2 * cR;
  out[7] = ch * sin2 * cI;
  out[8] = ch * (dR - cos2 * cR);
  out[9] = ch * (dI - cos2 * cI);
  out[10] = ch * sin * eI;
  out[11] = -ch * sin * eR;
}

/**
 * E (V/m) and H (A/m) of the beam at points (x, y, z in metres, 3 numbers per point): 6 numbers
 * per point each, re and im of x, y, z (re x, im x, re y, …), for e^{−iωt}.
 */
export function beamFields(
  beam: GaussianBeam,
  points: Float64Array,
  options: BeamFieldOptions = {},
): { e: Float64Array; h: Float64Array } {
  const ctx = beamContext(beam, options);
  const count = Math.floor(points.length / 3);
  const e = new Float64Array(6 * count);
  const h = new Float64Array(6 * count);
  const local = new Float64Array(12);
  const { u, v, d, focus } = ctx;
  for (let p = 0; p < count; p++) {
    const r: Vec3 = [
      points[3 * p] - focus[0],
      points[3 * p + 1] - focus[1],
      points[3 * p + 2] - focus[2],
    ];
    const x = r[0] * u[0] + r[1] * u[1] + r[2] * u[2];
    const y = r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
    const s = r[0] * d[0] + r[1] * d[1] + r[2] * d[2];
    localFields(ctx, x, y, s, local);
    for (let a = 0; a < 3; a++) {
      for (let part = 0; part < 2; part++) {
        const o = 6 * p + 2 * a + part;
        e[o] = local[part] * u[a] + local[2 + part] * v[a] + local[4 + part] * d[a];
        h[o] = local[6 + part] * u[a] + local[8 + part] * v[a] + local[10 + part] * d[a];
      }
    }
  }
  return { e, h };
}

/** What a width or power is taken of, on a plane normal to the beam. */
export type BeamQuantity = "intensity" | "transverse" | "flux";

export interface PlaneSampling extends BeamFieldOptions {
  /** |E|² (default), |E_⊥|² (the components normal to d) or the flux ½ Re(E × H*)·d. */
  quantity?: BeamQuantity;
  /** Half-width of the square sampled, in paraxial widths w(s) (default 4). */
  windowWidths?: number;
  /** Sample step in metres (default π/(4·min(k, 9.6/w0)): λ/8n for waists below ~1.5λ/n). */
  stepM?: number;
}

/** Second-moment widths: 1/e² intensity radii for a Gaussian, in metres. */
export interface BeamWidth {
  /** √(2⟨ρ²⟩). */
  radiusM: number;
  /** 2√⟨u²⟩, along the focal-plane polarisation. */
  alongPolarizationM: number;
  /** 2√⟨v²⟩, across it. */
  acrossPolarizationM: number;
  /** ∫ quantity dA over the window (W for the flux). */
  integral: number;
}

/** The density of a quantity from local fields (see localFields). */
function density(f: Float64Array, quantity: BeamQuantity): number {
  const transverse = f[0] * f[0] + f[1] * f[1] + f[2] * f[2] + f[3] * f[3];
  if (quantity === "transverse") return transverse;
  if (quantity === "intensity") return transverse + f[4] * f[4] + f[5] * f[5];
  // ½ Re(E × H*)·d = ½ Re(E_u H_v* − E_v H_u*).
  return 0.5 * (f[0] * f[8] + f[1] * f[9] - f[2] * f[6] - f[3] * f[7]);
}

/**
 * Second-moment widths of a quantity (default |E|²) over the plane normal to the beam at
 * distanceM along d from the focus, from the exact field sampled on a square window (trapezoid
 * rule, which is spectrally accurate for this band-limited, decaying integrand). The beam is
 * symmetric under u → −u and v → −v, so one quadrant is sampled and the centroid is the axis.
 */
export function beamWidth(
  beam: GaussianBeam,
  distanceM: number,
  options: PlaneSampling = {},
): BeamWidth {
  const ctx = beamContext(beam, options);
  const quantity = options.quantity ?? "intensity";
  // A product of two fields is integrated exactly by the trapezoid rule when their spectra stay
  // below π/step, here 4·min(k, cut): the propagating spectrum does, with room to spare, and
  // the evanescent part beyond 4k weighs exp(−4k²w0²) < 1e-17 from w0 = λ/2n on.
  const reach = Math.min(ctx.k, SPECTRUM_CUT / ctx.w0);
  const step = options.stepM ?? Math.PI / (4 * reach);
  const half = (options.windowWidths ?? 4) * paraxialWidth(beam, distanceM);
  const n = Math.ceil(half / step);
  const f = new Float64Array(12);
  let m0 = 0;
  let mu = 0;
  let mv = 0;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const x = i * step;
      const y = j * step;
      localFields(ctx, x, y, distanceM, f);
      // One quadrant stands for four: points on an axis for two, the origin for itself.
      const q = (i === 0 ? 1 : 2) * (j === 0 ? 1 : 2) * density(f, quantity);
      m0 += q;
      mu += q * x * x;
      mv += q * y * y;
    }
  }
  return {
    radiusM: Math.sqrt((2 * (mu + mv)) / m0),
    alongPolarizationM: 2 * Math.sqrt(mu / m0),
    acrossPolarizationM: 2 * Math.sqrt(mv / m0),
    integral: m0 * step * step,
  };
}

/** Power in W through the plane normal to the beam at distanceM from the focus (window 4 w(s)). */
export function beamPower(
  beam: GaussianBeam,
  distanceM: number,
  options: Omit<PlaneSampling, "quantity"> = {},
): number {
  return beamWidth(beam, distanceM, { ...options, quantity: "flux" }).integral;
}
