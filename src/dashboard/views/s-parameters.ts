/**
 * The S-parameters section of a completed ports job: |S_ji|² in dB against wavelength for each
 * out/in pair run (routes/jobs.ts draws the image from the job record with the plotting code of
 * `emsim sparams --plot`, src/plot/s-parameters.ts), the Touchstone file to download, and the
 * numbers in the table `emsim sparams` prints.
 */
import type { SolverReport } from "../../schema/responses.js";
import { notRunInputs, touchstoneExtension, type SMatrixJson } from "../../results/touchstone.js";
import { sParameterTable } from "../../plot/s-parameters.js";
import { html, type SafeHtml } from "../html.js";
import { numbersTable } from "./numbers-table.js";

/** The S-matrix of a job record's solver report (worker/report.ts's shape), if it has one. */
export function sMatrixOfReport(report: SolverReport | null | undefined): SMatrixJson | null {
  const m = report?.s_matrix as Partial<SMatrixJson> | undefined;
  if (!m || !Array.isArray(m.ports) || !Array.isArray(m.inputs) || !Array.isArray(m.s)) {
    return null;
  }
  if (!Array.isArray(m.wavelengths_m) || m.ports.length === 0) return null;
  return { n_eff: [], ...m } as SMatrixJson;
}

/** The file name the download gets, as the API's Content-Disposition gives it. */
export function touchstoneFileName(jobId: string, ports: number): string {
  return `emsim-${jobId}${touchstoneExtension(ports)}`;
}

/** What the view says of the inputs that were not run (notRunInputs), or "". */
export function notRunText(m: SMatrixJson): string {
  const { empty, whole, part } = notRunInputs(m);
  const says: string[] = [];
  if (whole.length > 0) says.push(`filled from port_symmetries: ${whole.join(", ")}`);
  if (part.length > 0) {
    says.push(`partly filled from port_symmetries (the rest 0 in Touchstone): ${part.join(", ")}`);
  }
  if (empty.length > 0) says.push(`no curves, 0 in Touchstone: ${empty.join(", ")}`);
  return says.length > 0 ? `Inputs not run — ${says.join("; ")}.` : "";
}

export function sParametersSection(id: string, m: SMatrixJson): SafeHtml {
  const file = touchstoneFileName(id, m.ports.length);
  return html`<section class="card" id="sparameters" aria-labelledby="sparameters-title">
    <h2 id="sparameters-title">S-parameters</h2>
    <p class="muted">
      |S<sub>ji</sub>|² in dB against wavelength: the power that leaves through port j for 1 W
      launched into port i, for each of the ${m.ports.length} ports (${m.ports.join(", ")}).
      ${notRunText(m)}
    </p>
    <img
      class="spectra"
      src="/dashboard/jobs/${id}/sparameters.png"
      alt="|S|² in dB against wavelength for each out/in pair of the job's ports"
    />
    <p>
      <a
        class="btn btn-small"
        id="touchstone-download"
        href="/dashboard/jobs/${id}/touchstone"
        download="${file}"
        >Download Touchstone (${touchstoneExtension(m.ports.length)})</a
      >
    </p>
    <details class="spectra-numbers">
      <summary>Numbers</summary>
      ${numbersTable(sParameterTable(m), { id: "sparameters-table" })}
    </details>
  </section>`;
}
