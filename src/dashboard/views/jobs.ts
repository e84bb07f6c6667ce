/**
 * Jobs: the account's list (live while jobs run), one job's page with its progress, details,
 * result download and field plots, and the cancel confirmation.
 */
import type { JobRecord } from "../../jobs/records.js";
import type { SimulationSpec } from "../../solver/index.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField } from "./forms.js";
import { fabricationSection } from "./fabrication.js";
import {
  formatBytes,
  formatDuration,
  metadataValue,
  shortId,
  sweptValueText,
  timeElement,
} from "./format.js";
import { setupFacts, storedSpec } from "./job-setup.js";
import { reportCard } from "./run-report.js";
import { farFieldSection, farFieldsOfReport } from "./far-field.js";
import { sMatrixOfReport, sParametersSection } from "./s-parameters.js";
import { spectraOfReport, spectraSection } from "./spectra.js";

const ACTIVE = new Set(["QUEUED", "RUNNING"]);

export function isActive(status: string): boolean {
  return ACTIVE.has(status);
}

const STATUS_LABEL: Record<string, string> = {
  QUEUED: "Queued",
  RUNNING: "Running",
  COMPLETED: "Completed",
  FAILED: "Failed",
};

/** A job's or a batch's state as a badge (with "Cancelling" while a cancel takes effect). */
export function statusBadge(job: Pick<JobRecord, "status" | "cancel_requested">): SafeHtml {
  const cancelling = job.cancel_requested && isActive(job.status);
  return html`<span class="badge badge-${job.status.toLowerCase()}" data-status-badge
      >${STATUS_LABEL[job.status] ?? job.status}</span
    >${cancelling ? html` <span class="badge badge-warning">Cancelling</span>` : ""}`;
}

export function percent(fraction: number): string {
  const p = Math.max(0, Math.min(1, fraction)) * 100;
  return p < 10 ? p.toFixed(1) : p.toFixed(0);
}

function progressBar(job: JobRecord, large = false): SafeHtml | string {
  if (job.status === "QUEUED") {
    return html`<p class="status-note">Waiting for a worker</p>`;
  }
  if (job.status !== "RUNNING") return "";
  const label = `Progress of job ${shortId(job.job_id)}`;
  const cls = large ? "progress progress-large" : "progress";
  const p = job.progress;
  if (!p) {
    // No report yet (the solver is setting up): an indeterminate bar.
    return html`<div class="${cls}">
      <progress aria-label="${label}">starting</progress>
      <span class="progress-text">Starting…</span>
    </div>`;
  }
  if (p.phase === "setup") {
    // Painting the structures (and solving a mode source's plane): its own fraction.
    const done = p.setup_fraction ?? 0;
    return html`<div class="${cls}">
      <progress max="1" value="${done}" aria-label="${label}">${percent(done)} %</progress>
      <span class="progress-text"
        >${`Setting up ${percent(done)} %${large ? " · before the first step" : ""}`}</span
      >
    </div>`;
  }
  const steps = large
    ? ` · step ${p.step.toLocaleString("en")} of ${p.total_steps.toLocaleString("en")}`
    : "";
  return html`<div class="${cls}">
    <progress max="1" value="${p.fraction}" aria-label="${label}">
      ${percent(p.fraction)} %
    </progress>
    <span class="progress-text">${`${percent(p.fraction)} %${steps}`}</span>
  </div>`;
}

function metadataChips(metadata: Record<string, unknown>, max = 3): SafeHtml {
  const entries = Object.entries(metadata);
  const shown = entries.slice(0, max);
  return html`<div class="chips">
    ${shown.map(
      ([k, v]) =>
        html`<span class="chip"><span class="chip-key">${k}</span> ${metadataValue(v)}</span>`,
    )}${entries.length > max ? html`<span class="chip chip-more">+${entries.length - max}</span>` : ""}
  </div>`;
}

function firstLine(text: string | null, max = 120): string {
  if (!text) return "";
  const line = text.split("\n")[0]!;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function jobRow(job: JobRecord, csrf: string): SafeHtml {
  const id = job.job_id;
  return html`<tr
    id="job-${id}"
    data-job-id="${id}"
    data-status="${job.status}"
    data-updated="${job.updated_at}"
  >
    <td data-label="Job">
      <a class="mono job-link" href="/dashboard/jobs/${id}" title="${id}">${shortId(id)}</a
      >${metadataChips(job.metadata)}
    </td>
    <td data-label="Status" class="status-cell">
      ${statusBadge(job)}${progressBar(job)}${
        job.status === "FAILED"
          ? html`<p class="status-note error-note" title="${job.error_detail ?? ""}">
              ${firstLine(job.error_detail)}
            </p>`
          : ""
      }
    </td>
    <td data-label="Submitted">${timeElement(job.created_at)}</td>
    <td data-label="Duration" class="num">
      ${job.status === "QUEUED" ? "—" : formatDuration(job.duration_seconds)}
    </td>
    <td class="actions">${rowActions(job, csrf)}</td>
  </tr>`;
}

function rowActions(job: JobRecord, csrf: string): SafeHtml {
  const id = job.job_id;
  if (job.status === "COMPLETED") {
    return html`<a class="btn btn-small" href="/dashboard/jobs/${id}#plots">Plots</a>
      <a
        class="btn btn-small btn-quiet"
        href="/dashboard/jobs/${id}/download"
        download
        aria-label="Download the result of job ${shortId(id)}"
        >Download</a
      >`;
  }
  if (isActive(job.status) && !job.cancel_requested) {
    return cancelForm(job, csrf, true);
  }
  return html`<a class="btn btn-small btn-quiet" href="/dashboard/jobs/${id}">Details</a>`;
}

function cancelForm(job: JobRecord, csrf: string, small: boolean): SafeHtml {
  return html`<form
    method="post"
    action="/dashboard/jobs/${job.job_id}/cancel"
    class="inline-form"
    data-confirm="Cancel job ${shortId(job.job_id)}? ${job.status === "RUNNING" ? "It stops within about a second and ends FAILED; its partial fields are not kept." : "It ends FAILED without running."}"
    data-confirm-button="Cancel job"
  >
    ${csrfField(csrf)}
    <button
      type="submit"
      class="btn btn-danger-quiet${small ? " btn-small" : ""}"
      aria-label="Cancel job ${shortId(job.job_id)}"
    >
      Cancel
    </button>
  </form>`;
}

export interface JobsListView {
  jobs: JobRecord[];
  csrf: string;
  nextCursor: string | null;
  firstPage: boolean;
  baseUrl: string;
}

export function jobsBody(view: JobsListView): SafeHtml {
  const empty = view.jobs.length === 0 && view.firstPage;
  return html`<div class="page-head">
      <h1>Jobs</h1>
      <p class="muted">
        Your simulations, newest first. This page updates by itself while jobs run.
      </p>
    </div>
    <section class="card card-flush" aria-labelledby="jobs-title">
      <h2 id="jobs-title" class="sr-only">Your jobs</h2>
      ${empty ? emptyJobs(view.baseUrl) : ""}
      <div class="table-wrap" ${empty ? html` hidden` : ""}>
        <table class="table responsive jobs-table">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Status</th>
              <th scope="col">Submitted</th>
              <th scope="col" class="num">Duration</th>
              <th scope="col"><span class="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody
            id="jobs-body"
            data-poll="/dashboard/api/jobs"
            ${view.firstPage ? html` data-first-page` : ""}
          >
            ${view.jobs.map((j) => jobRow(j, view.csrf))}
          </tbody>
        </table>
      </div>
    </section>
    ${pager("/dashboard/jobs", view.firstPage, view.nextCursor)}`;
}

/** Newest and Older links of a list paged by a `before` cursor (jobs, batches). */
export function pager(path: string, firstPage: boolean, nextCursor: string | null): SafeHtml {
  return html`<nav class="pager" aria-label="Pages">
    ${firstPage ? "" : html`<a class="btn btn-quiet btn-small" href="${path}">← Newest</a>`}
    ${nextCursor ? html`<a class="btn btn-quiet btn-small" href="${path}?before=${nextCursor}">Older →</a>` : ""}
  </nav>`;
}

function emptyJobs(baseUrl: string): SafeHtml {
  return html`<div class="empty-state" id="jobs-empty">
    <h3>No jobs yet</h3>
    <p>
      Submit a simulation with an <a href="/dashboard/keys">API key</a>; it appears here at once.
    </p>
    <pre class="code"><code>curl -X POST ${baseUrl}/v1/simulations \\
  -H "Authorization: Bearer $EMSIM_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d @simulation.json</code></pre>
  </div>`;
}

/** The part of a job's page that changes while it runs (re-rendered by the poller). */
function liveSummary(job: JobRecord): SafeHtml | string {
  if (job.status === "COMPLETED") {
    const r = job.solver_report;
    const steps = r ? r.steps_run.toLocaleString("en") : null;
    const convergence =
      r?.converged === true
        ? ` · converged after ${steps ?? "?"} steps`
        : steps
          ? ` · ran ${steps} steps without reaching the convergence threshold`
          : "";
    return html`<span class="status-summary"
      >Finished ${timeElement(job.finished_at)} in
      ${formatDuration(job.duration_seconds)}${convergence}</span
    >`;
  }
  if (job.status === "FAILED") {
    return html`<span class="status-summary"
      >Ended
      ${timeElement(job.finished_at)}${job.attempts > 1 ? ` after ${job.attempts} attempts` : ""}</span
    >`;
  }
  if (job.status === "RUNNING") {
    return html`<span class="status-summary">Started ${timeElement(job.started_at)}</span>`;
  }
  return "";
}

export function jobLive(job: JobRecord): SafeHtml {
  const p = job.progress;
  return html`<div class="live-status">${statusBadge(job)} ${liveSummary(job)}</div>
    ${
      job.status === "RUNNING"
        ? html`${progressBar(job, true)}
            <dl class="facts facts-inline">
              <div>
                <dt>Elapsed</dt>
                <dd>${formatDuration(job.duration_seconds)}</dd>
              </div>
              ${
                p?.mcells_per_second
                  ? html`<div>
                      <dt>Speed</dt>
                      <dd>${p.mcells_per_second.toFixed(0)} Mcell/s</dd>
                    </div>`
                  : ""
              }
              ${
                p?.last_relative_change !== null && p?.last_relative_change !== undefined
                  ? html`<div>
                      <dt>Last relative change</dt>
                      <dd>${p.last_relative_change.toExponential(2)}</dd>
                    </div>`
                  : ""
              }
            </dl>`
        : ""
    }
    ${job.status === "QUEUED" ? html`<p class="status-note">Waiting for a worker to pick it up.</p>` : ""}
    ${
      job.status === "FAILED"
        ? html`<div class="alert alert-error" role="alert">
            <h2>Why it failed</h2>
            <p class="pre-line">${job.error_detail ?? "No detail was recorded."}</p>
          </div>`
        : ""
    }`;
}

export interface JobView {
  job: JobRecord;
  specJson: string;
  csrf: string;
  /** A batch job's parameters' units by name ("m": shown in µm); absent: none known. */
  units?: Record<string, string | null>;
}

/** "Part of batch 1a2b3c4d · thickness = 0.5 µm": a batch job's way back to its batch. */
function batchLine(job: JobRecord, units: JobView["units"] = {}): SafeHtml | string {
  if (!job.batch_id) return "";
  const values = Object.entries(job.parameters ?? {})
    .map(([k, v]) => `${k} = ${sweptValueText(v, units[k] ?? null)}`)
    .join(", ");
  return html`<p class="muted" id="job-batch">
    Part of batch
    <a class="mono" href="/dashboard/batches/${job.batch_id}">${shortId(job.batch_id)}</a
    >${values ? ` · ${values}` : ""}
  </p>`;
}

/** Breadcrumbs, the job's id and the Download and Cancel buttons. */
function jobHead(job: JobRecord, csrf: string, units: JobView["units"]): SafeHtml {
  const id = job.job_id;
  return html`<nav class="crumbs" aria-label="Breadcrumb">
      <a href="/dashboard/jobs">Jobs</a> <span aria-hidden="true">/</span>
      <span class="mono" aria-current="page">${shortId(id)}</span>
    </nav>
    <div class="page-head job-head">
      <div>
        <h1>Job <span class="mono job-id">${id}</span></h1>
        <p class="muted">Submitted ${timeElement(job.created_at)}</p>
        ${batchLine(job, units)}
      </div>
      <div class="head-actions">
        ${job.status === "COMPLETED" ? html`<a class="btn btn-primary" href="/dashboard/jobs/${id}/download" download>Download result${job.result_bytes ? html` <span class="btn-note">${formatBytes(job.result_bytes)} · HDF5</span>` : ""}</a>` : ""}
        ${isActive(job.status) && !job.cancel_requested ? cancelForm(job, csrf, false) : ""}
        <a class="btn btn-quiet" href="/dashboard/simulations/new?from=${id}">Edit and run again</a>
      </div>
    </div>`;
}

/**
 * Whether the job has field monitors to plot: a request with only flux, mode or far-field
 * monitors (an S-parameter job, a sweep's spectra) gets no Fields card of empty controls. A
 * request that cannot be read keeps the card, whose script then says what the file holds.
 */
function recordsFields(spec: SimulationSpec | null): boolean {
  if (!spec || !Array.isArray(spec.monitors)) return true;
  return spec.monitors.some((m) => (m.monitor_type ?? "field") === "field");
}

/** The interactive field plots of a completed job (drawn by the dashboard's plot script). */
function plotsSection(id: string): SafeHtml {
  return html`<section
    class="card plots"
    id="plots"
    aria-labelledby="plots-title"
    data-result="/dashboard/api/jobs/${id}/result"
    data-field="/dashboard/api/jobs/${id}/field"
  >
    <div class="plots-head">
      <h2 id="plots-title">Fields</h2>
      <div class="plot-controls">
        <div class="field">
          <label for="plot-monitor">Monitor</label
          ><select id="plot-monitor" disabled></select>
        </div>
        <div class="field">
          <label for="plot-quantity">Field</label
          ><select id="plot-quantity" disabled></select>
        </div>
        <div class="field">
          <label for="plot-wavelength">Wavelength</label
          ><select id="plot-wavelength" disabled></select>
        </div>
        <div class="field" id="plot-slice-field" hidden>
          <label for="plot-slice"
            >Slice <output id="plot-slice-value" for="plot-slice"></output></label
          ><input id="plot-slice" type="range" min="0" max="0" step="1" value="0" />
        </div>
      </div>
    </div>
    <figure class="plot-figure">
      <div class="plot-stage" id="plot-stage">
        <canvas id="plot-canvas" role="img" aria-label="Field plot (loading)"></canvas>
        <div class="plot-status" id="plot-status" role="status">Loading fields…</div>
      </div>
      <figcaption id="plot-caption" class="plot-caption"></figcaption>
    </figure>
    <p class="plot-readout mono" id="plot-readout" aria-hidden="true"></p>
    <noscript
      ><p class="hint">
        The field plots need JavaScript. You can still download the result file.
      </p></noscript
    >
  </section>`;
}

/** Status, times, attempts, and the result file's size and checksum. */
function detailsCard(job: JobRecord): SafeHtml {
  return html`<section class="card" aria-labelledby="details-title">
    <h2 id="details-title">Details</h2>
    <dl class="facts">
      <div>
        <dt>Status</dt>
        <dd>${job.status}</dd>
      </div>
      <div>
        <dt>Submitted</dt>
        <dd>${timeElement(job.created_at)}</dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>${timeElement(job.started_at)}</dd>
      </div>
      <div>
        <dt>Finished</dt>
        <dd>${timeElement(job.finished_at)}</dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>
          ${
            job.status === "QUEUED"
              ? "—"
              : job.status === "RUNNING"
                ? "running (the elapsed time is above)"
                : formatDuration(job.duration_seconds)
          }
        </dd>
      </div>
      <div>
        <dt>Solver</dt>
        <dd>${job.solver}</dd>
      </div>
      <div>
        <dt>Attempts</dt>
        <dd>${job.attempts}</dd>
      </div>
      ${
        job.status === "COMPLETED"
          ? html`<div>
                <dt>Result</dt>
                <dd>${formatBytes(job.result_bytes)} (HDF5)</dd>
              </div>
              <div>
                <dt>SHA-256</dt>
                <dd class="mono break">${job.checksum ?? "—"}</dd>
              </div>`
          : ""
      }
    </dl>
  </section>`;
}

/** The submitted metadata and a summary of the set-up. */
function metadataCard(job: JobRecord, spec: SimulationSpec | null): SafeHtml {
  const metadata = Object.entries(job.metadata);
  return html`<section class="card" aria-labelledby="metadata-title">
    <h2 id="metadata-title">Metadata</h2>
    ${
      metadata.length === 0
        ? html`<p class="empty">No metadata was submitted with this job.</p>`
        : html`<dl class="facts">
            ${metadata.map(
              ([k, v]) =>
                html`<div>
                  <dt>${k}</dt>
                  <dd class="break">${metadataValue(v)}</dd>
                </div>`,
            )}
          </dl>`
    }
    <h2 class="subhead" id="setup-title">Setup</h2>
    ${setupFacts(spec)}
  </section>`;
}

export function jobBody(view: JobView): SafeHtml {
  const { job } = view;
  const spec = storedSpec(view.specJson);
  const completed = job.status === "COMPLETED";
  const spectra = completed ? spectraOfReport(job.solver_report) : [];
  const farFields = completed ? farFieldsOfReport(job.solver_report) : [];
  const sMatrix = completed ? sMatrixOfReport(job.solver_report) : null;
  return html`${jobHead(job, view.csrf, view.units)}
    <section
      class="card live"
      id="job-live"
      aria-live="polite"
      data-job-poll="/dashboard/api/jobs/${job.job_id}"
      data-status="${job.status}"
      data-updated="${job.updated_at}"
    >
      ${jobLive(job)}
    </section>
    ${sMatrix ? sParametersSection(job.job_id, sMatrix) : ""}
    ${spectra.length > 0 ? spectraSection(job.job_id, spectra) : ""}
    ${farFields.length > 0 ? farFieldSection(job.job_id, farFields, spec?.source?.wavelength) : ""}
    ${completed && recordsFields(spec) ? plotsSection(job.job_id) : ""}
    ${completed ? fabricationSection(job.job_id, view.csrf) : ""}
    <div class="grid-2">${detailsCard(job)} ${metadataCard(job, spec)}</div>
    ${job.solver_report ? reportCard(job.solver_report) : ""}
    <details class="card disclosure">
      <summary>Simulation request (with defaults filled in)</summary>
      <pre class="code"><code>${spec ? JSON.stringify(spec, null, 2) : view.specJson}</code></pre>
    </details>`;
}

export function cancelConfirmBody(job: JobRecord, csrf: string): SafeHtml {
  return html`<section class="card confirm-card" aria-labelledby="confirm-title">
    <h1 id="confirm-title">Cancel job <span class="mono">${shortId(job.job_id)}</span>?</h1>
    <p>
      ${job.status === "RUNNING" ? "It stops within about a second and ends FAILED; its partial fields are not kept." : "It ends FAILED without running."}
    </p>
    <form method="post" action="/dashboard/jobs/${job.job_id}/cancel" class="actions-row">
      ${csrfField(csrf)}
      <input type="hidden" name="confirm" value="yes" />
      <button type="submit" class="btn btn-danger">Cancel job</button>
      <a class="btn btn-quiet" href="/dashboard/jobs/${job.job_id}">Keep it running</a>
    </form>
  </section>`;
}
