/**
 * The Gaussian beam of a cross-section: the field the `gaussian_beam` source injects where the
 * domain is one cell thick along an axis t across the beam (a 2-D run, uniform along t), and
 * the reference its tests compare with. The 2-D counterpart of beam-profile.ts, with the same
 * conventions (time dependence e^{−iωt}, lossless non-magnetic medium of index n, k = 2πn/λ0).
 *
 * Definition. In the focal plane the field is A·ê·exp(−p²/w0²), uniform along t, where p is
 * the coordinate along p̂ = t̂ × d (across the beam, in the cross-section) and ê is the plane
 * wave's polarisation for the direction (beamFrame): along t (E out of the cross-section) or
 * along p̂ (E in it). The field everywhere is the 1-D angular spectrum of that line: the
 * plane wave of wavenumber q across the beam (k⃗ = q p̂ + k_s d̂, k_s = √(k² − q²)) carries
 * Ã(q) = A √π w0 exp(−q²w0²/4) along ê, plus the longitudinal part −q (p̂·ê) Ã/k_s along d̂
 * that makes it transverse, so that
 *   E(r) = (1/2π) ∫ Ã(q) [ê − (q p̂·ê/k_s) d̂] e^{i(q p + k_s s)} dq,   H = k⃗ × E/(k η).
 * A is the peak |E| at the focus. Evanescent components (|q| > k, k_s = iκ) are kept on and
 * downstream of the focal plane unless `evanescent: false`, as in 3-D.
 *
 * Method. q = k sin θ over the propagating part (dq = k_s dθ) and |q| = √(k² + κ²) over the
 * evanescent part (dq = κ dκ/|q|), so that no integrand keeps the 1/k_s singularity; composite
 * 16-point Gauss–Legendre, with as many panels as the phase over the points asked needs.
 *
 * Power. Per metre along t, through a line normal to d (the same at every distance, lossless):
 * P′ = (1/4πη) ∫_{|q|<k} |Ã|² w(q) dq with w = k_s/k for E along t and k/k_s for E in the
 * cross-section (each plane wave's Poynting vector along d), in W/m; for a wide beam both tend
 * to the paraxial A² w0 √(π/2) / 2η.
 */
import { ETA0 } from "../constants.js";
import {
  beamFrame,
  beamWavenumber,
  cross,
  type BeamFieldOptions,
  type GaussianBeam,
} from "./beam-profile.js";
import { gaussLegendre } from "./gauss-legendre.js";

type Vec3 = [number, number, number];

const GL = gaussLegendre(16);
/** Phase (rad) one 16-point panel takes (beam-profile.ts: error ~4e-9 of the integrand). */
const PHASE_PER_PANEL = 14;
const MIN_PANELS = 4;
/** The spectrum is cut where exp(−q²w0²/4) < 1e-10. */
const SPECTRUM_CUT = 2 * Math.sqrt(Math.log(1e10));
/** Points within this many metres upstream of the focal plane count as on it. */
const FOCAL_PLANE_TOLERANCE = 1e-15;

/** One quadrature node: q, k_s (re, im) and the weight of Ã(q)/2π·dq in the variable used. */
interface Node {
  q: number;
  ksRe: number;
  ksIm: number;
  /** Weight of the ê part (times A√π·w0). */
  wT: number;
  /** Weight of the longitudinal part, re and im (times A√π·w0 and −p̂·ê). */
  wLRe: number;
  wLIm: number;
}

/** The beam's frame for a cross-section thin along `thin`. */
export function beamFrame2d(beam: GaussianBeam, thin: number): { e: Vec3; p: Vec3; d: Vec3 } {
  const { u, d } = beamFrame(beam);
  if (Math.abs(d[thin]!) > 1e-9) {
    throw new RangeError(
      "gaussian beam: in a cross-section the direction must lie in it (no component along " +
        "its thin axis)",
    );
  }
  const t: Vec3 = [0, 0, 0];
  t[thin] = 1;
  return { e: u, p: cross(t, d), d };
}

/** The spectrum's cut q_cut (exp(−q²w0²/4) < 1e-10 past it) and the propagating θ it spans. */
function spectrumRange(k: number, w0: number): { qCut: number; thetaMax: number } {
  const qCut = SPECTRUM_CUT / w0;
  return { qCut, thetaMax: qCut >= k ? Math.PI / 2 : Math.asin(qCut / k) };
}

/** Composite Gauss–Legendre over [lo, hi] in `panels` panels: (x, weight) pairs. */
function composite(lo: number, hi: number, panels: number, visit: (x: number, w: number) => void) {
  const h = (hi - lo) / panels;
  for (let p = 0; p < panels; p++) {
    for (let i = 0; i < GL.x.length; i++) {
      visit(lo + h * (p + (GL.x[i]! + 1) / 2), (h / 2) * GL.w[i]!);
    }
  }
}

/**
 * The quadrature nodes for points up to `reach` metres from the focus: propagating over
 * θ ∈ [−θmax, θmax], and evanescent (both signs of q) when asked.
 */
function nodes(k: number, w0: number, reach: number, evanescent: boolean): Node[] {
  const { qCut, thetaMax } = spectrumRange(k, w0);
  const out: Node[] = [];
  // Ã(q)/2π over A·√π·w0 (the amplitude factored out in beamFields2d).
  const gauss = (q: number) => Math.exp((-q * q * w0 * w0) / 4) / (2 * Math.PI);
  // Over θ the phase q p + k_s s turns at k·√(p² + s²) at most.
  const propagating = Math.max(MIN_PANELS, Math.ceil((2 * thetaMax * k * reach) / PHASE_PER_PANEL));
  composite(-thetaMax, thetaMax, propagating, (theta, w) => {
    const q = k * Math.sin(theta);
    const ks = k * Math.cos(theta);
    const g = gauss(q) * w;
    // dq = k_s dθ: the ê part weighs g·k_s, the longitudinal part g·q (its 1/k_s cancelled).
    out.push({ q, ksRe: ks, ksIm: 0, wT: g * ks, wLRe: g * q, wLIm: 0 });
  });
  if (!evanescent || qCut <= k) return out;
  const kappaMax = Math.sqrt(qCut * qCut - k * k);
  // Over κ the phase q p turns at most as fast as κ·p/|q| < p.
  const panels = Math.max(MIN_PANELS, Math.ceil((kappaMax * reach) / PHASE_PER_PANEL));
  composite(0, kappaMax, panels, (kappa, w) => {
    const qa = Math.sqrt(k * k + kappa * kappa);
    const g = gauss(qa) * w;
    for (const sign of [-1, 1]) {
      // dq = κ dκ/|q|; longitudinal: q/(iκ)·κ dκ/|q| = −i·sign dκ.
      out.push({
        q: sign * qa,
        ksRe: 0,
        ksIm: kappa,
        wT: (g * kappa) / qa,
        wLRe: 0,
        wLIm: -g * sign,
      });
    }
  });
  return out;
}

/**
 * E (V/m) and H (A/m) of the beam of a cross-section thin along axis `thin` at points (x, y,
 * z in metres, 3 numbers per point): 6 numbers per point each, re and im of x, y, z, as
 * beamFields in 3-D. The direction must have no component along `thin`.
 */
export function beamFields2d(
  beam: GaussianBeam,
  thin: number,
  points: Float64Array,
  options: BeamFieldOptions = {},
): { e: Float64Array; h: Float64Array } {
  const k = beamWavenumber(beam);
  const { e: eHat, p: pHat, d } = beamFrame2d(beam, thin);
  const count = Math.floor(points.length / 3);
  const local = new Float64Array(3 * count);
  let reach = 0;
  for (let i = 0; i < count; i++) {
    const r = [0, 1, 2].map((a) => points[3 * i + a]! - beam.focus[a]!);
    local[3 * i] = r[0]! * pHat[0] + r[1]! * pHat[1] + r[2]! * pHat[2];
    local[3 * i + 1] = r[0]! * d[0] + r[1]! * d[1] + r[2]! * d[2];
    reach = Math.max(reach, Math.hypot(local[3 * i]!, local[3 * i + 1]!));
  }
  const evanescent = options.evanescent ?? true;
  const all = nodes(k, beam.waistRadius, reach, evanescent);
  const pe = pHat[0] * eHat[0] + pHat[1] * eHat[1] + pHat[2] * eHat[2];
  const amp = beam.amplitude * beam.waistRadius * Math.sqrt(Math.PI);
  const frame = {
    eHat,
    d,
    pe,
    amp,
    hScale: amp / (k * (ETA0 / beam.index)),
    pxe: cross(pHat, eHat),
    dxe: cross(d, eHat),
    pxd: cross(pHat, d),
  };
  const e = new Float64Array(6 * count);
  const h = new Float64Array(6 * count);
  // Sums over the nodes of T = Σ wT·φ and L = Σ wL·φ, and of q·T, q·L, k_s·T, k_s·L.
  const sums = new Float64Array(12);
  for (let i = 0; i < count; i++) {
    const [p, s] = [local[3 * i]!, local[3 * i + 1]!];
    const upstream = s < -FOCAL_PLANE_TOLERANCE;
    sums.fill(0);
    for (const n of all) {
      if (n.ksIm > 0 && upstream) continue;
      const decay = Math.exp(-n.ksIm * s);
      const phase = n.q * p + n.ksRe * s;
      const [cr, ci] = [decay * Math.cos(phase), decay * Math.sin(phase)];
      const [tr, ti] = [n.wT * cr, n.wT * ci];
      const [lr, li] = [n.wLRe * cr - n.wLIm * ci, n.wLRe * ci + n.wLIm * cr];
      accumulateNode(sums, n, tr, ti, lr, li);
    }
    writePoint(e, h, i, sums, frame);
  }
  return { e, h };
}

/** Adds one node's ê part T and longitudinal part L, and their products with q and k_s. */
function accumulateNode(
  sums: Float64Array,
  n: Node,
  tr: number,
  ti: number,
  lr: number,
  li: number,
): void {
  sums[0] += tr;
  sums[1] += ti;
  sums[2] += lr;
  sums[3] += li;
  sums[4] += n.q * tr;
  sums[5] += n.q * ti;
  sums[6] += n.q * lr;
  sums[7] += n.q * li;
  // k_s·T and k_s·L with k_s = ksRe + i·ksIm.
  sums[8] += n.ksRe * tr - n.ksIm * ti;
  sums[9] += n.ksRe * ti + n.ksIm * tr;
  sums[10] += n.ksRe * lr - n.ksIm * li;
  sums[11] += n.ksRe * li + n.ksIm * lr;
}

/**
 * E = amp·(T ê − (p̂·ê) L d̂) and H = amp/(kη)·(q p̂ + k_s d̂) × (T ê − (p̂·ê) L d̂) at point i,
 * from the node sums: the cross products are p̂ × ê, d̂ × ê and p̂ × d̂ times sums (d̂ × d̂ = 0).
 */
function writePoint(
  e: Float64Array,
  h: Float64Array,
  i: number,
  sums: Float64Array,
  f: {
    eHat: Vec3;
    d: Vec3;
    pe: number;
    amp: number;
    hScale: number;
    pxe: Vec3;
    dxe: Vec3;
    pxd: Vec3;
  },
): void {
  const { eHat, d, pe, amp, hScale, pxe, dxe, pxd } = f;
  for (let a = 0; a < 3; a++) {
    for (let part = 0; part < 2; part++) {
      const o = 6 * i + 2 * a + part;
      e[o] = amp * (sums[part]! * eHat[a]! - pe * sums[2 + part]! * d[a]!);
      // (q p̂)×(T ê) + (k_s d̂)×(T ê) − (p̂·ê)(q p̂)×(L d̂).
      h[o] =
        hScale *
        (sums[4 + part]! * pxe[a]! + sums[8 + part]! * dxe[a]! - pe * sums[6 + part]! * pxd[a]!);
    }
  }
}

/**
 * The beam's power per metre along the thin axis through a line normal to it (W/m), from its
 * propagating spectrum (module comment).
 */
export function beamPower2d(beam: GaussianBeam, thin: number): number {
  const k = beamWavenumber(beam);
  const { e: eHat } = beamFrame2d(beam, thin);
  const outOfPlane = Math.abs(eHat[thin]!) > 0.5;
  const w0 = beam.waistRadius;
  const eta = ETA0 / beam.index;
  const { thetaMax } = spectrumRange(k, w0);
  let sum = 0;
  composite(-thetaMax, thetaMax, 64, (theta, w) => {
    const q = k * Math.sin(theta);
    const ks = k * Math.cos(theta);
    const a2 = Math.PI * w0 * w0 * beam.amplitude ** 2 * Math.exp((-q * q * w0 * w0) / 2);
    // dq = k_s dθ: w·dq is k_s²/k dθ (E along t) or k dθ (E in the cross-section).
    sum += a2 * (outOfPlane ? (ks * ks) / k : k) * w;
  });
  return sum / (4 * Math.PI * eta);
}
