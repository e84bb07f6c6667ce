/**
 * Checks of `monitors`: unique names, inside the domain, a flux monitor's shape, components,
 * a far-field monitor's surface (far-field.ts), and wavelengths the source pulse covers (narrower at oblique incidence, and not grazing).
 */
import { MAX_MODE_MONITOR_WAVELENGTHS, checkModeMonitor } from "./mode-monitor.js";
import { fluxShape } from "../flux.js";
import { MAX_RELATIVE_DETUNING, pulseFor } from "../sources/pulse.js";
import {
  AXES,
  checkRangeSpan,
  finite,
  digitsApart,
  fmt,
  wavelengthsToCheck,
  type CheckContext,
} from "./common.js";
import { checkBoxHoldsCells } from "./closed-box.js";
import { numberText } from "../number-text.js";
import { checkFarField, MAX_FAR_FIELD_WAVELENGTHS } from "./far-field.js";
import type { PlaneWave } from "./plane-wave.js";
import type { MonitorSpec } from "../types.js";

/** Most wavelengths one field monitor may record. */
export const MAX_MONITOR_WAVELENGTHS = 64;
/** Most wavelengths one flux monitor may record (a spectrum; its data is one value each). */
export const MAX_FLUX_WAVELENGTHS = 200;
/** Largest angle from the sheet normal at a monitor wavelength for oblique incidence. */
export const MAX_OBLIQUE_ANGLE_DEG = 85;

/** For oblique incidence the pulse is narrowed (sources/pulse.ts, pulseFor): the band it covers. */
interface ObliqueBand {
  relative: number;
  loM: number;
  hiM: number;
}

function obliqueBand(ctx: CheckContext, geometry: PlaneWave | null): ObliqueBand | null {
  const { spec, lambda0, lambdaOk } = ctx;
  if (!(geometry && geometry.cosTheta < 1 && lambdaOk)) return null;
  const all = spec.monitors.flatMap((m) =>
    wavelengthsToCheck(m)
      .filter(({ w }) => finite(w) && w > 0)
      .map(({ w }) => w),
  );
  const p = pulseFor(lambda0, all, Math.sqrt(1 - geometry.cosTheta ** 2));
  const relative = p.bandwidth / p.omega0;
  return { relative, loM: lambda0 / (1 + relative), hiM: lambda0 / Math.max(1 - relative, 1e-9) };
}

/** The monitors' problems; returns every wavelength recorded (the source's first). */
export function checkMonitors(ctx: CheckContext, geometry: PlaneWave | null): number[] {
  const band = obliqueBand(ctx, geometry);
  const names = new Map<string, number>();
  const allWavelengths: number[] = ctx.lambdaOk ? [ctx.lambda0] : [];
  ctx.spec.monitors.forEach((m, i) => {
    const path = `monitors[${i}]`;
    const prev = names.get(m.name);
    if (prev !== undefined)
      ctx.add(`${path}.name`, `duplicate monitor name "${m.name}" (also monitors[${prev}])`);
    else names.set(m.name, i);
    checkPlacement(ctx, m, path);
    checkKind(ctx, m, path);
    checkWavelengthCount(ctx, m, path);
    for (const { w, at } of wavelengthsToCheck(m)) {
      if (checkWavelength(ctx, w, `${path}.wavelengths${at}`, geometry, band)) {
        allWavelengths.push(w);
      }
    }
  });
  return allWavelengths;
}

/** The monitor's centre and extent lie inside the domain. */
function checkPlacement(ctx: CheckContext, m: MonitorSpec, path: string): void {
  const { add, size, halfSize } = ctx;
  for (let a = 0; a < 3; a++) {
    const c = m.center[a];
    const s = m.size[a];
    if (!finite(c)) {
      add(`${path}.center`, "must be finite");
      break;
    }
    if (!(finite(s) && s >= 0)) {
      add(`${path}.size[${a}]`, "must be a non-negative number of metres");
      continue;
    }
    const tol = 1e-9 * size[a];
    if (Math.abs(c) > halfSize[a] + tol) {
      const d = digitsApart(Math.abs(c), halfSize[a]);
      add(
        `${path}.center`,
        `outside the domain along ${AXES[a]}: ${numberText(c, d)} m is beyond ` +
          `±${numberText(halfSize[a], d)} m`,
      );
    } else if (Math.abs(c) + s / 2 > halfSize[a] + tol) {
      const d = digitsApart(Math.abs(c) + s / 2, halfSize[a]);
      add(
        `${path}.size[${a}]`,
        `the monitor extends outside the domain along ${AXES[a]}: [${numberText(c - s / 2, d)}, ` +
          `${numberText(c + s / 2, d)}] m, the domain is ±${numberText(halfSize[a], d)} m`,
      );
    }
  }
}

/**
 * A flux monitor is a plane or a box; a far-field monitor has its own checks (far-field.ts); a
 * field monitor lists its components once each.
 */
function checkKind(ctx: CheckContext, m: MonitorSpec, path: string): void {
  if (m.monitor_type === "far_field") {
    checkFarField(ctx, m, path);
    return;
  }
  if (m.monitor_type === "mode") {
    checkModeMonitor(ctx, m, path);
    return;
  }
  if (m.monitor_type === "flux") {
    const shape = fluxShape(m.size);
    if (shape === null) {
      ctx.add(
        `${path}.size`,
        "a flux monitor is a plane (a zero extent along exactly one axis) or a box (no " +
          "zero extent); this one is a line or a point",
      );
    } else if (shape === -1) checkBoxHoldsCells(ctx, m, path);
    return;
  }
  const comps = new Set(m.components);
  if (m.components.length === 0) ctx.add(`${path}.components`, "must list at least one component");
  else if (comps.size !== m.components.length)
    ctx.add(`${path}.components`, "lists a component twice");
}

/** A list of wavelengths or a range's points: at least one, at most the monitor's kind's. */
function checkWavelengthCount(ctx: CheckContext, m: MonitorSpec, path: string): void {
  const ws = m.wavelengths;
  const most = {
    field: MAX_MONITOR_WAVELENGTHS,
    flux: MAX_FLUX_WAVELENGTHS,
    far_field: MAX_FAR_FIELD_WAVELENGTHS,
    mode: MAX_MODE_MONITOR_WAVELENGTHS,
  }[m.monitor_type];
  if (Array.isArray(ws)) {
    if (ws.length === 0)
      ctx.add(`${path}.wavelengths`, "must list at least one wavelength or be omitted");
    if (ws.length > most) {
      ctx.add(`${path}.wavelengths`, `lists ${ws.length} wavelengths; at most ${most} are allowed`);
    }
  } else if (ws) {
    if (!(Number.isInteger(ws.points) && ws.points >= 1 && ws.points <= most)) {
      ctx.add(`${path}.wavelengths.points`, `must be an integer from 1 to ${most}`);
    } else checkRangeSpan(ctx, ws, `${path}.wavelengths`);
  }
}

/**
 * One monitor wavelength: positive, within the source pulse's band (the narrower oblique band
 * at oblique incidence), and not grazing. Returns whether it is a wavelength the run records.
 */
export function checkWavelength(
  ctx: CheckContext,
  w: number,
  wPath: string,
  geometry: PlaneWave | null,
  band: ObliqueBand | null,
): boolean {
  const { add, lambda0 } = ctx;
  if (!(finite(w) && w > 0)) {
    add(wPath, "must be a positive number of metres");
    return false;
  }
  if (!ctx.lambdaOk) return true;
  const detune = Math.abs(lambda0 / w - 1);
  if (detune > MAX_RELATIVE_DETUNING) {
    const lo = lambda0 / (1 + MAX_RELATIVE_DETUNING);
    const hi = lambda0 / (1 - MAX_RELATIVE_DETUNING);
    add(
      wPath,
      `${fmt(w)} m is outside the source pulse's band: monitor wavelengths must lie ` +
        `within ${fmt(lo)}–${fmt(hi)} m (frequency within ±${MAX_RELATIVE_DETUNING * 100} % ` +
        "of the source's)",
    );
  } else if (band && detune > band.relative * (1 + 1e-9)) {
    add(
      wPath,
      `${fmt(w)} m is outside the band the oblique-incidence pulse covers ` +
        `(${fmt(band.loM)}–${fmt(band.hiM)} m; the pulse must be narrow to keep its ` +
        "spectrum away from grazing angles): use wavelengths closer to the source's",
    );
  } else if (geometry && geometry.cosTheta < 1) {
    const sinT = Math.sqrt(1 - geometry.cosTheta ** 2) * (w / lambda0);
    if (sinT >= Math.sin((MAX_OBLIQUE_ANGLE_DEG * Math.PI) / 180)) {
      add(
        wPath,
        `with the transverse wavevector fixed by the source, the wave at ${fmt(w)} m ` +
          `travels at more than ${MAX_OBLIQUE_ANGLE_DEG}° from the normal (or is ` +
          "evanescent); use shorter wavelengths or a smaller angle",
      );
    }
  }
  return true;
}
