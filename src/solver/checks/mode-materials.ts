/**
 * The materials where modes are solved: at every wavelength a mode solve takes (POST /v1/modes,
 * a mode source's recorded wavelengths, a mode monitor's, a ports run's), each structure's ε
 * must be a finite number of a size the mode solver can take. A lossless pole (γ = 0) exactly
 * at such a wavelength has no ε there (0/0), and one next to it an ε of 10¹³: the time
 * stepping is still fine (the update never divides by ω0² − ω²), but the mode solver's
 * eigenproblem has no answer. Refused at the structure's material, naming the wavelength.
 */
import { listOf } from "../monitors.js";
import type { SimulationSpec } from "../types.js";
import { fmt, type CheckContext } from "./common.js";

/**
 * The largest |ε| a mode solve takes: far beyond any material's at optical and infrared
 * wavelengths (a Drude metal's at 1 mm is about 10⁷ in size), and far below where a pole's
 * resonance leaves the operator without a meaning.
 */
export const MAX_MODE_PERMITTIVITY = 1e8;

/** The wavelengths at which a simulation's run solves modes (none without a mode plane). */
export function modeWavelengths(spec: SimulationSpec): number[] {
  const out: number[] = [];
  const source = spec.source;
  if (source.source_type === "mode") {
    out.push(source.wavelength);
    for (const m of spec.monitors) if (m.wavelengths) out.push(...listOf(m.wavelengths));
  } else if (source.source_type === "ports") {
    out.push(...listOf(source.wavelengths));
  }
  for (const m of spec.monitors) {
    if (m.monitor_type === "mode" && m.wavelengths) out.push(...listOf(m.wavelengths));
  }
  return [...new Set(out.filter((w) => Number.isFinite(w) && w > 0))];
}

/**
 * Each structure's material at every wavelength of `wavelengths`: a problem at
 * `structures[i].material` for the first where ε is not finite or larger in size than
 * MAX_MODE_PERMITTIVITY. Materials unknown, out of range or already refused are left to the
 * other checks.
 */
export function checkModeMaterials(ctx: CheckContext, wavelengths: readonly number[]): void {
  if (wavelengths.length === 0) return;
  const verdicts = new Map<string, string | null>();
  ctx.spec.structures.forEach((s, i) => {
    const path = `structures[${i}].material`;
    const info = ctx.materials.describe(s.material);
    if (!info || info.perfectConductor || ctx.problems.some((p) => p.path === path)) return;
    if (!verdicts.has(s.material))
      verdicts.set(s.material, problemOf(ctx, s.material, wavelengths));
    const problem = verdicts.get(s.material);
    if (problem) ctx.add(path, problem);
  });
}

const sci = (v: number) => v.toExponential(2).replace("e+", "e");

function problemOf(ctx: CheckContext, material: string, wavelengths: readonly number[]) {
  const [from, to] = ctx.materials.describe(material)!.validRangeM;
  for (const w of wavelengths) {
    if (w < from * (1 - 1e-9) || w > to * (1 + 1e-9)) continue;
    const eps = ctx.materials.permittivity(material, w);
    const size = Math.hypot(eps.re, eps.im);
    if (size <= MAX_MODE_PERMITTIVITY) continue;
    const what = Number.isFinite(size) ? `|ε| = ${sci(size)}` : "no finite ε";
    return (
      `"${material}" has ${what} at ${fmt(w)} m (${Number((w * 1e6).toPrecision(6))} µm), ` +
      `where modes are solved: a lossless pole at or next to its resonance. Give the pole a ` +
      `damping gamma > 0 or move its omega0 off the wavelengths (the mode solver takes ` +
      `|ε| up to ${sci(MAX_MODE_PERMITTIVITY)})`
    );
  }
  return null;
}
