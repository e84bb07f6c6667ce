/**
 * A number as the checks' messages and the run's notes write it: `digits` significant digits
 * (−9.2e-7, not −9.199999999999999e-7), in exponent form below 1e-3, so that a length in metres
 * reads 1.55e-6, not 0.00000155 beside 2.1e-7 in the same sentence (the dashboard's numbers do
 * the same), and from 1e21 as JavaScript writes it.
 */
export function numberText(v: number, digits = 6): string {
  const n = Number(v.toPrecision(digits));
  return n !== 0 && Math.abs(n) < 1e-3 ? n.toExponential() : String(n);
}
