/**
 * The Radiation patterns section of a completed job with far-field monitors: each monitor's
 * polar plot at the source wavelength (or its first), its other wavelengths behind a
 * disclosure; routes/jobs.ts draws the images from the job record with the CLI's plotting code
 * (src/plot/polar.ts).
 */
import { farFieldUnit, type FarFieldPattern } from "../../results/read.js";
import type { SolverReport } from "../../schema/responses.js";
import { isEquatorial } from "../../plot/polar.js";
import { formatLength } from "../../plot/units.js";
import { html, type SafeHtml } from "../html.js";

const numbers = (v: unknown): number[] =>
  Array.isArray(v) ? v.map((x) => (x === null ? NaN : Number(x))) : [];

/** The far-field monitors' patterns in a job record's solver report (worker/report.ts's shape). */
export function farFieldsOfReport(report: SolverReport | null | undefined): FarFieldPattern[] {
  const far = report?.far_field as Record<string, Record<string, unknown>> | undefined;
  if (!far) return [];
  return Object.entries(far).map(([name, m]) => ({
    name,
    wavelengthsM: numbers(m.wavelengths_m),
    thetaDeg: numbers(m.theta_deg),
    phiDeg: numbers(m.phi_deg),
    unit: farFieldUnit(m.cross_section_axis),
    radiantIntensity: Array.isArray(m.radiant_intensity)
      ? m.radiant_intensity.map((rows: unknown) =>
          Array.isArray(rows) ? rows.map((row: unknown) => numbers(row)) : [],
        )
      : [],
  }));
}

/** The wavelength shown first: the source's where the monitor recorded it, else its first. */
export function shownWavelengthIndex(
  pattern: FarFieldPattern,
  sourceM: number | undefined,
): number {
  const i = pattern.wavelengthsM.findIndex(
    (w) => sourceM !== undefined && Math.abs(w - sourceM) <= 1e-9 * sourceM,
  );
  return Math.max(0, i);
}

function patternImage(jobId: string, pattern: FarFieldPattern, w: number, lazy: boolean): SafeHtml {
  const lambda = formatLength(pattern.wavelengthsM[w]!);
  const src = `/dashboard/jobs/${jobId}/far-field.png?monitor=${encodeURIComponent(pattern.name)}&wavelength=${w}`;
  return html`<figure class="far-field">
    <img
      class="far-field"
      src="${src}"
      alt="Radiation pattern of far-field monitor ${pattern.name} at ${lambda}: radiant intensity ${isEquatorial(pattern) ? "against φ in the x–y plane" : "against θ in azimuthal cuts"}"
      ${lazy ? html`loading="lazy"` : ""}
    />
    <figcaption>${pattern.name}, λ = ${lambda}</figcaption>
  </figure>`;
}

function monitorPatterns(jobId: string, pattern: FarFieldPattern, sourceM?: number): SafeHtml {
  const shown = shownWavelengthIndex(pattern, sourceM);
  const others = pattern.wavelengthsM.map((_, w) => w).filter((w) => w !== shown);
  return html`<div class="far-field-monitor">
    ${patternImage(jobId, pattern, shown, false)}
    ${
      others.length > 0
        ? html`<details class="far-field-more">
            <summary>Other wavelengths of ${pattern.name} (${others.length})</summary>
            <div class="far-field-plots">
              ${others.map((w) => patternImage(jobId, pattern, w, true))}
            </div>
          </details>`
        : ""
    }
  </div>`;
}

export function farFieldSection(
  jobId: string,
  patterns: readonly FarFieldPattern[],
  sourceWavelengthM: number | undefined,
): SafeHtml {
  return html`<section class="card" id="far-field" aria-labelledby="far-field-title">
    <h2 id="far-field-title">Radiation patterns</h2>
    <p class="muted">
      Each far-field monitor's radiant intensity against θ (from +z, up) in the φ = 0° and 90° cuts
      where recorded, φ on the right and φ + 180° on the left, over its peak in any direction, which
      the title gives in W/sr (in W/rad per period for a 2-D cross-section's line pattern; one
      recorded in the x–y plane alone is drawn against φ, 0° to the right, 90° up). Every direction
      is in the result file; <code>emsim plot --far-field --phi …</code> draws other cuts.
    </p>
    <div class="far-field-plots">
      ${patterns.map((p) => monitorPatterns(jobId, p, sourceWavelengthM))}
    </div>
  </section>`;
}
