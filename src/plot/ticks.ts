/**
 * Axis ticks at "nice" values (1, 2 or 5 × 10^k) and their labels: the CLI's PNGs and the
 * dashboard's canvases (which load this module compiled, as /dashboard/static/plot-ticks.js)
 * place and label their ticks alike. So: plain TypeScript, no imports.
 */

const MINUS = "\u2212";

/** About `count` ticks covering [min, max], at multiples of a nice step. */
export function niceTicks(min: number, max: number, count = 5): { ticks: number[]; step: number } {
  const span = max - min;
  if (!(span > 0) || !Number.isFinite(span)) return { ticks: [min], step: 1 };
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  }
  return { ticks, step };
}

/**
 * The label of a tick at `value` on an axis whose step is `step`: as many decimals as the step
 * needs, exponent notation for very small or large magnitudes, and a real minus sign.
 */
export function tickLabel(value: number, step: number): string {
  const abs = Math.max(Math.abs(value), step);
  if (abs >= 1e5 || abs < 1e-3) {
    return value === 0 ? "0" : value.toExponential(1).replace("-", MINUS);
  }
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  return value.toFixed(decimals).replace("-", MINUS);
}
