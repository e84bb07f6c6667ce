/**
 * The Spectra section of a completed job with flux monitors: the plot (routes/jobs.ts draws it
 * with the CLI's plotting code) and the numbers, in the tables `emsim inspect` prints
 * (src/plot/spectrum-table.ts).
 */
import type { Spectrum } from "../../results/read.js";
import type { SolverReport } from "../../schema/responses.js";
import { spectrumTable } from "../../plot/spectrum-table.js";
import { html, type SafeHtml } from "../html.js";
import { numbersTable } from "./numbers-table.js";

/** The flux monitors' spectra in a job record's solver report (worker/report.ts's shape). */
export function spectraOfReport(report: SolverReport | null | undefined): Spectrum[] {
  const flux = report?.flux as Record<string, Record<string, unknown>> | undefined;
  if (!flux) return [];
  const numbers = (v: unknown) => (Array.isArray(v) ? v.map((x) => Number(x ?? NaN)) : []);
  return Object.entries(flux).map(([name, m]) => ({
    name,
    quantity: String(m.quantity),
    wavelengthsM: numbers(m.wavelengths_m),
    flux: numbers(m.flux),
    ...(m.scattering_cross_section_m2 && m.absorption_cross_section_m2
      ? {
          crossSections: {
            scattering: numbers(m.scattering_cross_section_m2),
            absorption: numbers(m.absorption_cross_section_m2),
          },
        }
      : {}),
  }));
}

function spectrumNumbers(spectrum: Spectrum): SafeHtml {
  const caption = html`<strong>${spectrum.name}</strong> (${spectrum.quantity})`;
  return numbersTable(spectrumTable(spectrum), { caption });
}

export function spectraSection(id: string, spectra: readonly Spectrum[]): SafeHtml {
  return html`<section class="card" id="spectra" aria-labelledby="spectra-title">
    <h2 id="spectra-title">Spectra</h2>
    <p class="muted">
      Flux monitors against wavelength (transmittance and reflectance as fractions of the incident
      power; a box's cross-sections in µm²). The numbers are below and in the result file.
    </p>
    <img
      class="spectra"
      src="/dashboard/jobs/${id}/spectra.png"
      alt="Spectra of the job's flux monitors against wavelength"
    />
    <details class="spectra-numbers">
      <summary>Numbers</summary>
      <div class="spectra-tables">${spectra.map(spectrumNumbers)}</div>
    </details>
  </section>`;
}
