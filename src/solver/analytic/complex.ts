/**
 * Minimal complex arithmetic for the analytic references (Mie series, transfer matrices).
 * Values are plain {re, im} objects, the same shape as the dispersion model's Complex.
 */
import type { Complex } from "../dispersion/model.js";

export type { Complex };

export const cx = (re: number, im = 0): Complex => ({ re, im });

export const add = (a: Complex, b: Complex): Complex => ({ re: a.re + b.re, im: a.im + b.im });

export const sub = (a: Complex, b: Complex): Complex => ({ re: a.re - b.re, im: a.im - b.im });

export const mul = (a: Complex, b: Complex): Complex => ({
  re: a.re * b.re - a.im * b.im,
  im: a.re * b.im + a.im * b.re,
});

export const scale = (a: Complex, s: number): Complex => ({ re: a.re * s, im: a.im * s });

export const conj = (a: Complex): Complex => ({ re: a.re, im: -a.im });

export const abs2 = (a: Complex): number => a.re * a.re + a.im * a.im;

/** a / b, scaled (Smith's algorithm) so that large or small moduli do not overflow. */
export function div(a: Complex, b: Complex): Complex {
  if (Math.abs(b.re) >= Math.abs(b.im)) {
    const r = b.im / b.re;
    const d = b.re + b.im * r;
    return { re: (a.re + a.im * r) / d, im: (a.im - a.re * r) / d };
  }
  const r = b.re / b.im;
  const d = b.re * r + b.im;
  return { re: (a.re * r + a.im) / d, im: (a.im * r - a.re) / d };
}

/** Principal square root (Re ≥ 0). */
export function sqrt(a: Complex): Complex {
  const m = Math.hypot(a.re, a.im);
  const re = Math.sqrt(Math.max(0, (m + a.re) / 2));
  const im = Math.sqrt(Math.max(0, (m - a.re) / 2));
  return { re, im: a.im < 0 ? -im : im };
}

/** cos z = cos x cosh y − i sin x sinh y. */
export const cos = (a: Complex): Complex => ({
  re: Math.cos(a.re) * Math.cosh(a.im),
  im: -Math.sin(a.re) * Math.sinh(a.im),
});

/** sin z = sin x cosh y + i cos x sinh y. */
export const sin = (a: Complex): Complex => ({
  re: Math.sin(a.re) * Math.cosh(a.im),
  im: Math.cos(a.re) * Math.sinh(a.im),
});
