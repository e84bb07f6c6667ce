/** Axis ticks at "nice" values (1, 2, 2.5 or 5 × 10^k) and their labels. */

/** About `target` ticks covering [min, max], at multiples of a nice step. */
export function niceTicks(min: number, max: number, target = 5): { step: number; ticks: number[] } {
  if (!(max > min) || !Number.isFinite(min) || !Number.isFinite(max)) {
    return { step: 0, ticks: Number.isFinite(min) ? [min] : [] };
  }
  const rough = (max - min) / Math.max(1, target);
  const exp = Math.floor(Math.log10(rough));
  const base = 10 ** exp;
  // The nice step nearest the rough one (in ratio), so the count stays close to `target`.
  const step = [1, 2, 2.5, 5, 10]
    .map((m) => m * base)
    .reduce((best, s) =>
      Math.abs(Math.log(s / rough)) < Math.abs(Math.log(best / rough)) ? s : best,
    );
  const ticks: number[] = [];
  const eps = step * 1e-9;
  for (let k = Math.ceil((min - eps) / step); k * step <= max + eps; k++) {
    ticks.push(Math.abs(k * step) < eps ? 0 : k * step);
  }
  return { step, ticks };
}

/**
 * Label for a tick at `value` on an axis whose step is `step`: enough decimals to tell ticks
 * apart, exponent notation for very small or large magnitudes, and a real minus sign.
 */
export function tickLabel(value: number, step: number): string {
  const magnitude = Math.max(Math.abs(value), Math.abs(step));
  let text: string;
  if (value === 0) text = "0";
  else if (magnitude >= 1e5 || magnitude < 1e-3) {
    const digits = Math.max(
      0,
      Math.floor(Math.log10(Math.abs(value))) - Math.floor(Math.log10(step)),
    );
    text = value.toExponential(Math.min(4, digits)).replace("e+", "e");
  } else {
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (isHalfStep(step) ? 1 : 0));
    text = value.toFixed(Math.min(6, decimals));
  }
  return text.replace(/^-/, "−");
}

function isHalfStep(step: number): boolean {
  const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
  return Math.abs(mantissa - 2.5) < 1e-6;
}
