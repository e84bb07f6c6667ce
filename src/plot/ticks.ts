/**
 * Axis ticks at "nice" values (1, 2, 2.5 or 5 × 10^k) and their labels: the CLI's PNGs and the
 * dashboard's canvases (which load this module compiled; dashboard/assets.ts). Plain
 * TypeScript, no Node or DOM.
 */

/**
 * How a rough step (its mantissa in [1, 10)) rounds to a nice one: each row is a nice mantissa
 * and the rough mantissas below which it is chosen. One rule, two tables, because the two media
 * read differently.
 */
export type StepRule = readonly (readonly [mantissa: number, below: number])[];

/**
 * The CLI's PNGs: the nice step nearest the rough one in ratio (thresholds at the geometric
 * means), so the count stays close to the target; quarter steps read well on its bitmap font.
 */
export const NICE_STEPS: StepRule = [
  [1, Math.SQRT2],
  [2, Math.sqrt(5)],
  [2.5, Math.sqrt(12.5)],
  [5, Math.sqrt(50)],
  [10, Infinity],
];

/** The dashboard's canvases: never quarter steps, and a little readier to round down. */
export const ROUND_STEPS: StepRule = [
  [1, 1.5],
  [2, 3],
  [5, 7],
  [10, Infinity],
];

/** About `target` ticks covering [min, max], at multiples of a step chosen by `rule`. */
export function niceTicks(
  min: number,
  max: number,
  target = 5,
  rule: StepRule = NICE_STEPS,
): { step: number; ticks: number[] } {
  if (!(max > min) || !Number.isFinite(min) || !Number.isFinite(max)) {
    return { step: 0, ticks: Number.isFinite(min) ? [min] : [] };
  }
  const rough = (max - min) / Math.max(1, target);
  const base = 10 ** Math.floor(Math.log10(rough));
  const mantissa = rough / base;
  const step = (rule.find(([, below]) => mantissa < below) ?? rule[rule.length - 1]!)[0] * base;
  const ticks: number[] = [];
  const eps = step * 1e-9;
  for (let k = Math.ceil((min - eps) / step); k * step <= max + eps; k++) {
    ticks.push(Math.abs(k * step) < eps ? 0 : k * step);
  }
  return { step, ticks };
}

/**
 * Label for a tick at `value` on an axis whose step is `step`: enough decimals to tell ticks
 * apart (one more for quarter steps, 2.5 × 10^k), exponent notation for very small or large
 * magnitudes, and a real minus sign. `extent`, the largest |tick| of the axis, decides the
 * notation, so that one axis does not mix 5e-4 with 0.00100 (`axisLabels`).
 */
export function tickLabel(value: number, step: number, extent = Math.abs(value)): string {
  const magnitude = Math.max(extent, Math.abs(value), Math.abs(step));
  const quarter = isHalfStep(step) ? 1 : 0;
  let text: string;
  if (value === 0) text = "0";
  else if (magnitude >= 1e5 || magnitude < 1e-3) {
    const digits = Math.max(
      0,
      Math.floor(Math.log10(Math.abs(value))) - Math.floor(Math.log10(step) + 1e-9) + quarter,
    );
    text = value.toExponential(Math.min(4, digits)).replace("e+", "e");
  } else {
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + quarter);
    text = value.toFixed(Math.min(6, decimals));
  }
  return text.replace(/^-/, "−");
}

/** The labels of an axis's ticks (`niceTicks`), in one notation. */
export function axisLabels(axis: { step: number; ticks: readonly number[] }): string[] {
  const extent = Math.max(0, ...axis.ticks.map(Math.abs));
  return axis.ticks.map((t) => tickLabel(t, axis.step, extent));
}

function isHalfStep(step: number): boolean {
  const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
  return Math.abs(mantissa - 2.5) < 1e-6;
}
