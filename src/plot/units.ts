/**
 * Lengths, durations, counts and sizes as people read them, the same in `emsim inspect` and on
 * the dashboard's job page (the plots' axis lengths are labels.ts's micrometres).
 */

/** A length in metres in nm below 1 µm, else in µm, to 4 significant digits: `10 nm`, `1.55 µm`. */
export function formatLength(metres: number): string {
  if (!Number.isFinite(metres)) return String(metres);
  const abs = Math.abs(metres);
  if (abs !== 0 && abs < 1e-6) return `${+(metres * 1e9).toPrecision(4)} nm`;
  return `${+(metres * 1e6).toPrecision(4)} µm`;
}

/** Lengths in metres as one µm triple: `0.05 × 0.05 × 3 µm`. */
export function formatSizeMicrons(metres: readonly number[]): string {
  return `${metres.map((v) => +(v * 1e6).toPrecision(4)).join(" × ")} µm`;
}

/**
 * A duration in seconds, to 2 or 3 significant digits: `0.021 ms`, `19 ms`, `1.23 s`, `12.3 s`,
 * `2 min 05 s`, `1 h 02 min`. The parts of a run span six decades, so each gets its own scale.
 */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "—";
  if (seconds === 0) return "0 s";
  const ms = +(seconds * 1e3).toPrecision(2);
  if (ms < 1000) return `${ms} ms`;
  if (seconds < 59.95) return `${+seconds.toPrecision(3)} s`;
  return formatMinutes(seconds);
}

/** A duration of a minute or more, to the second: `2 min 05 s`, `1 h 02 min`. */
export function formatMinutes(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0
    ? `${h} h ${String(m).padStart(2, "0")} min`
    : `${m} min ${String(s).padStart(2, "0")} s`;
}

/** A whole number with thousands separators: `1,234,567`. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** `1 thread`, `4 threads`. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : nouns}`;
}

/** A size in binary units: `512 B`, `3.4 MiB`, `126 GiB`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/** A fraction as a whole percentage, `<1 %` for a part too small to round to one. */
export function formatPercent(fraction: number): string {
  const p = Math.round(fraction * 100);
  return p === 0 && fraction > 0 ? "<1 %" : `${p} %`;
}
