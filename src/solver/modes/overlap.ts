/**
 * The overlap of two sets of mode fields on one plane:
 *   ⟨a, b⟩ = ¼ ∫ (E_a × H_b* + E_b* × H_a) · n dA,
 * the amplitude of b's mode in a's field when b carries 1 W: the modes of one plane are
 * orthogonal under it (lossless guides), and ⟨m, m⟩ = ½ Re ∫ E × H* · n dA = 1 for a 1 W
 * mode. Each product is
 * taken where the Yee grid has both of its factors (E_u with H_v, E_v with H_u), with the
 * plane's dual-cell weights (fields.ts planeWeights).
 */
import type { ModeFields, PlaneWeights } from "./fields.js";

/** ⟨a, b⟩ as [re, im]. */
export function complexOverlap(a: ModeFields, b: ModeFields, w: PlaneWeights): [number, number] {
  const { eh, he } = overlapHalves(a, b, w);
  return [(eh[0] + he[0]) / 4, (eh[1] + he[1]) / 4];
}

/**
 * The two halves of 4⟨a, b⟩: eh = ∫ E_a × H_b* · n dA and he = ∫ E_b* × H_a · n dA, each as
 * [re, im]. A field (E_a, H_a) on the plane launches ¼(eh + he) of b's mode forward and
 * ¼(he − eh) of it backward (sources/mode-impedance.ts).
 */
export function overlapHalves(
  a: ModeFields,
  b: ModeFields,
  w: PlaneWeights,
): { eh: [number, number]; he: [number, number] } {
  const eh: [number, number] = [0, 0];
  const he: [number, number] = [0, 0];
  for (let k = 0; k < w.eu.length; k++) {
    // E_a,u H_b,v* − E_a,v H_b,u* and E_b,u* H_a,v − E_b,v* H_a,u
    const t1r = a.Eu.re[k]! * b.Hv.re[k]! + a.Eu.im[k]! * b.Hv.im[k]!;
    const t1i = a.Eu.im[k]! * b.Hv.re[k]! - a.Eu.re[k]! * b.Hv.im[k]!;
    const t2r = a.Ev.re[k]! * b.Hu.re[k]! + a.Ev.im[k]! * b.Hu.im[k]!;
    const t2i = a.Ev.im[k]! * b.Hu.re[k]! - a.Ev.re[k]! * b.Hu.im[k]!;
    const t3r = b.Eu.re[k]! * a.Hv.re[k]! + b.Eu.im[k]! * a.Hv.im[k]!;
    const t3i = b.Eu.re[k]! * a.Hv.im[k]! - b.Eu.im[k]! * a.Hv.re[k]!;
    const t4r = b.Ev.re[k]! * a.Hu.re[k]! + b.Ev.im[k]! * a.Hu.im[k]!;
    const t4i = b.Ev.re[k]! * a.Hu.im[k]! - b.Ev.im[k]! * a.Hu.re[k]!;
    eh[0] += t1r * w.eu[k]! - t2r * w.ev[k]!;
    eh[1] += t1i * w.eu[k]! - t2i * w.ev[k]!;
    he[0] += t3r * w.eu[k]! - t4r * w.ev[k]!;
    he[1] += t3i * w.eu[k]! - t4i * w.ev[k]!;
  }
  return { eh, he };
}
