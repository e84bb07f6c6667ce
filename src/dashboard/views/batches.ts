/**
 * Batches (issue #30): the account's list (live while batches run), one batch's page — its
 * parameters, status, counts and progress, its jobs, the download of its one result file and,
 * once completed, the sweep plot (batch-plot.ts) — and the cancel confirmation.
 */
import type { BatchRecord } from "../../batches/records.js";
import type { ParameterValue } from "../../batches/variants.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField } from "./forms.js";
import { metadataValue, shortId, sweptValueText, timeElement, unitOfParameter } from "./format.js";
import { isActive, pager, percent, statusBadge } from "./jobs.js";

/** A batch as the list shows it (the API's list leaves the jobs out). */
export type BatchSummary = Omit<BatchRecord, "jobs">;

/** A parameter as the request gave it: its name, the JSON Pointer it sets, its values. */
export interface RequestParameter {
  name: string;
  path: string;
  values: ParameterValue[];
}

/** Values listed in full up to this many; longer lists show their ends. */
const VALUES_SHOWN = 12;
/** The longest failure detail a jobs table row shows. */
const DETAIL_CHARS = 300;

/** "3 completed · 1 failed · 2 queued": the states that have jobs, in a run's order. */
export function countsText(batch: BatchSummary): string {
  const c = batch.counts;
  const parts = [
    c.COMPLETED ? `${c.COMPLETED} completed` : "",
    c.FAILED ? `${c.FAILED} failed` : "",
    c.RUNNING ? `${c.RUNNING} running` : "",
    c.QUEUED ? `${c.QUEUED} queued` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : "no jobs";
}

function finished(batch: BatchSummary): number {
  return batch.counts.COMPLETED + batch.counts.FAILED;
}

function batchProgress(batch: BatchSummary, large = false): SafeHtml | string {
  if (!isActive(batch.status)) return "";
  const fraction = batch.progress.fraction;
  const label = `Progress of batch ${shortId(batch.batch_id)}`;
  const jobs = `${finished(batch)} of ${batch.job_count} jobs ended`;
  return html`<div class="${large ? "progress progress-large" : "progress"}">
    <progress max="1" value="${fraction}" aria-label="${label}">${percent(fraction)} %</progress>
    <span class="progress-text">${`${percent(fraction)} %${large ? ` · ${jobs}` : ""}`}</span>
  </div>`;
}

/** "thickness ×3", "material ×2": each dimension and how many values it has. */
function dimensionChips(batch: BatchSummary): SafeHtml {
  return html`<div class="chips">
    ${batch.parameters.map(
      (d) =>
        html`<span class="chip"><span class="chip-key">${d.name}</span> ×${d.values.length}</span>`,
    )}
  </div>`;
}

function cancelForm(batch: BatchSummary, csrf: string, small: boolean): SafeHtml {
  const id = batch.batch_id;
  const left = batch.counts.QUEUED + batch.counts.RUNNING;
  return html`<form
    method="post"
    action="/dashboard/batches/${id}/cancel"
    class="inline-form"
    data-confirm="Cancel batch ${shortId(id)}? Its ${left} queued or running jobs end FAILED; the jobs already finished keep their results."
    data-confirm-button="Cancel batch"
  >
    ${csrfField(csrf)}
    <button
      type="submit"
      class="btn btn-danger-quiet${small ? " btn-small" : ""}"
      aria-label="Cancel batch ${shortId(id)}"
    >
      Cancel
    </button>
  </form>`;
}

function rowActions(batch: BatchSummary, csrf: string): SafeHtml {
  const id = batch.batch_id;
  if (batch.status === "COMPLETED") {
    return html`<a class="btn btn-small" href="/dashboard/batches/${id}#sweep-plot">Plot</a>
      <a
        class="btn btn-small btn-quiet"
        href="/dashboard/batches/${id}/download"
        download
        aria-label="Download the result of batch ${shortId(id)}"
        >Download</a
      >`;
  }
  if (isActive(batch.status) && !batch.cancel_requested) return cancelForm(batch, csrf, true);
  return html`<a class="btn btn-small btn-quiet" href="/dashboard/batches/${id}">Details</a>`;
}

export function batchRow(batch: BatchSummary, csrf: string): SafeHtml {
  const id = batch.batch_id;
  return html`<tr
    id="batch-${id}"
    data-batch-id="${id}"
    data-status="${batch.status}"
    data-updated="${batch.updated_at}"
  >
    <td data-label="Batch">
      <a class="mono job-link" href="/dashboard/batches/${id}" title="${id}">${shortId(id)}</a
      >${dimensionChips(batch)}
    </td>
    <td data-label="Status" class="status-cell">
      ${statusBadge(batch)}${batchProgress(batch)}
      <p class="status-note">${countsText(batch)}</p>
    </td>
    <td data-label="Jobs" class="num">${batch.job_count}</td>
    <td data-label="Submitted">${timeElement(batch.created_at)}</td>
    <td class="actions">${rowActions(batch, csrf)}</td>
  </tr>`;
}

export interface BatchesListView {
  batches: BatchSummary[];
  csrf: string;
  nextCursor: string | null;
  firstPage: boolean;
  baseUrl: string;
}

export function batchesBody(view: BatchesListView): SafeHtml {
  const empty = view.batches.length === 0 && view.firstPage;
  return html`<div class="page-head">
      <h1>Batches</h1>
      <p class="muted">
        Sweeps of one simulation over parameters, newest first. This page updates by itself while
        batches run.
      </p>
    </div>
    <section class="card card-flush" aria-labelledby="batches-title">
      <h2 id="batches-title" class="sr-only">Your batches</h2>
      ${empty ? emptyBatches(view.baseUrl) : ""}
      <div class="table-wrap" ${empty ? html` hidden` : ""}>
        <table class="table responsive jobs-table">
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">Jobs</th>
              <th scope="col">Submitted</th>
              <th scope="col"><span class="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody
            id="batches-body"
            data-poll="/dashboard/api/batches"
            ${view.firstPage ? html` data-first-page` : ""}
          >
            ${view.batches.map((b) => batchRow(b, view.csrf))}
          </tbody>
        </table>
      </div>
    </section>
    ${pager("/dashboard/batches", view.firstPage, view.nextCursor)}`;
}

function emptyBatches(baseUrl: string): SafeHtml {
  return html`<div class="empty-state" id="batches-empty">
    <h3>No batches yet</h3>
    <p>
      Submit a sweep with an <a href="/dashboard/keys">API key</a>: a simulation and the parameters
      to vary; it appears here at once.
    </p>
    <pre class="code"><code>curl -X POST ${baseUrl}/v1/batches \\
  -H "Authorization: Bearer $EMSIM_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"simulation": {…}, "parameters": [{"name": "thickness", "path": "/structures/0/size/2", "values": [3e-7, 5e-7]}]}'</code></pre>
  </div>`;
}

/** The part of a batch's page that changes while it runs (re-rendered by the poller). */
export function batchLive(batch: BatchSummary): SafeHtml {
  const summary =
    batch.status === "COMPLETED" || batch.status === "FAILED"
      ? `All ${batch.job_count} jobs ended: ${countsText(batch)}`
      : `${finished(batch)} of ${batch.job_count} jobs ended: ${countsText(batch)}`;
  return html`<div class="live-status">
      ${statusBadge(batch)} <span class="status-summary">${summary}</span>
    </div>
    ${batchProgress(batch, true)}
    ${
      batch.status === "FAILED"
        ? html`<p class="status-note">
            No job completed${batch.cancel_requested ? ": the batch was cancelled" : ""}, so there
            is no result file or plot. Each job's failure is in the table below.
          </p>`
        : ""
    }`;
}

/** Each parameter's unit by name ("m": shown in µm), from the paths the record gives. */
export type ParameterUnits = Record<string, string | null>;

/** A batch's dimensions as its record gives them (with their paths, where stored). */
export type BatchDimensions = BatchRecord["parameters"];

export function parameterUnits(batch: Pick<BatchRecord, "parameters">): ParameterUnits {
  const all = batch.parameters.flatMap((d) => [d, ...(d.along ?? [])]);
  return Object.fromEntries(all.map((d) => [d.name, unitOfParameter(d.path)]));
}

function jobParameters(
  parameters: Record<string, ParameterValue>,
  units: ParameterUnits,
): SafeHtml {
  return html`<div class="chips">
    ${Object.entries(parameters).map(
      ([k, v]) =>
        html`<span class="chip"
          ><span class="chip-key">${k}</span> ${sweptValueText(v, units[k] ?? null)}</span
        >`,
    )}
  </div>`;
}

function detail(text: string | null): string {
  if (!text) return "No detail was recorded.";
  return text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS - 1)}…` : text;
}

/** The batch's jobs in variant order: one table row each. */
export function batchJobRows(jobs: BatchRecord["jobs"], units: ParameterUnits): SafeHtml {
  return html`${jobs.map(
    (j) =>
      html`<tr data-job-id="${j.job_id}" data-status="${j.status}">
        <td data-label="#" class="num">${j.index}</td>
        <td data-label="Parameters">${jobParameters(j.parameters, units)}</td>
        <td data-label="Status" class="status-cell">
          ${statusBadge({ status: j.status, cancel_requested: false })}
          ${
            j.status === "FAILED"
              ? html`<p class="status-note error-note pre-line">${detail(j.error_detail)}</p>`
              : ""
          }
        </td>
        <td data-label="Job">
          <a
            class="mono job-link"
            href="/dashboard/jobs/${j.job_id}"
            aria-label="Job ${shortId(j.job_id)} (variant ${j.index})"
            >${shortId(j.job_id)}</a
          >
        </td>
      </tr>`,
  )}`;
}

/** A list of values, its middle left out when long. */
function valuesText(values: readonly ParameterValue[], unit: string | null): string {
  // A length's values in µm, the unit said once at the end.
  const one = (v: ParameterValue) => sweptValueText(v, unit).replace(/ µm$/, "");
  const text = (vs: readonly ParameterValue[]) => vs.map(one).join(", ");
  const suffix = unit === "m" && typeof values[0] === "number" ? " µm" : "";
  if (values.length <= VALUES_SHOWN) return text(values) + suffix;
  const half = VALUES_SHOWN / 2;
  return `${text(values.slice(0, half))}, … ${text(values.slice(-half))}${suffix}`;
}

function parametersCard(batch: BatchRecord, request: RequestParameter[]): SafeHtml {
  const sizes = batch.parameters.map((d) => d.values.length);
  const how =
    batch.combine === "zip"
      ? `zip: the i-th value of each parameter, ${batch.job_count} variants along ${batch.parameters[0]?.name ?? "one dimension"}`
      : sizes.length === 1
        ? `${batch.job_count} variants, one per value`
        : `product: every combination, ${sizes.join(" × ")} = ${batch.job_count} variants, the first parameter outermost`;
  const rows: RequestParameter[] =
    request.length > 0 ? request : batch.parameters.map((d) => ({ ...d, path: "" }));
  return html`<section class="card" aria-labelledby="parameters-title">
    <h2 id="parameters-title">Parameters</h2>
    <p class="muted">${how}.</p>
    <div class="table-wrap">
      <table class="table responsive" id="batch-parameters">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Sets</th>
            <th scope="col" class="num">Count</th>
            <th scope="col">Values</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (p) =>
              html`<tr>
                <td data-label="Name" class="mono">${p.name}</td>
                <td data-label="Sets" class="mono break">${p.path || "—"}</td>
                <td data-label="Count" class="num">${p.values.length}</td>
                <td data-label="Values" class="break">
                  ${valuesText(p.values, unitOfParameter(p.path))}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${
      Object.keys(batch.metadata).length > 0
        ? html`<h3 class="subhead">Metadata</h3>
            <dl class="facts">
              ${Object.entries(batch.metadata).map(
                ([k, v]) =>
                  html`<div>
                    <dt>${k}</dt>
                    <dd class="break">${metadataValue(v)}</dd>
                  </div>`,
              )}
            </dl>`
        : ""
    }
  </section>`;
}

/** A page of the jobs table: `from` the first shown, `pageSize` of them. */
export interface JobsWindow {
  from: number;
  pageSize: number;
}

function jobsCard(batch: BatchRecord, window: JobsWindow): SafeHtml {
  const id = batch.batch_id;
  const shown = batch.jobs.slice(window.from, window.from + window.pageSize);
  const paged = batch.jobs.length > window.pageSize;
  const prev = Math.max(0, window.from - window.pageSize);
  const next = window.from + window.pageSize;
  return html`<section class="card" id="batch-jobs" aria-labelledby="batch-jobs-title">
    <h2 id="batch-jobs-title">
      Jobs<span class="count"
        >${paged ? `${window.from}–${window.from + shown.length - 1} of ` : ""}${batch.jobs.length}</span
      >
    </h2>
    <div class="table-wrap">
      <table class="table responsive batch-jobs-table">
        <thead>
          <tr>
            <th scope="col" class="num">#</th>
            <th scope="col">Parameters</th>
            <th scope="col">Status</th>
            <th scope="col">Job</th>
          </tr>
        </thead>
        <tbody id="batch-jobs-body">
          ${batchJobRows(shown, parameterUnits(batch))}
        </tbody>
      </table>
    </div>
    ${
      paged
        ? html`<nav class="pager" aria-label="Pages of jobs">
            ${window.from > 0 ? html`<a class="btn btn-quiet btn-small" href="/dashboard/batches/${id}?from=${prev}#batch-jobs">← Earlier</a>` : ""}
            ${next < batch.jobs.length ? html`<a class="btn btn-quiet btn-small" href="/dashboard/batches/${id}?from=${next}#batch-jobs">Later →</a>` : ""}
          </nav>`
        : ""
    }
  </section>`;
}

export interface BatchView {
  batch: BatchRecord;
  request: RequestParameter[];
  csrf: string;
  jobs: JobsWindow;
  /** The sweep plot section, when the batch completed and its jobs recorded something to plot. */
  plot: SafeHtml | null;
}

function batchHead(batch: BatchRecord, csrf: string): SafeHtml {
  const id = batch.batch_id;
  return html`<nav class="crumbs" aria-label="Breadcrumb">
      <a href="/dashboard/batches">Batches</a> <span aria-hidden="true">/</span>
      <span class="mono" aria-current="page">${shortId(id)}</span>
    </nav>
    <div class="page-head job-head">
      <div>
        <h1>Batch <span class="mono job-id">${id}</span></h1>
        <p class="muted">Submitted ${timeElement(batch.created_at)} · ${batch.job_count} jobs</p>
      </div>
      <div class="head-actions">
        ${batch.status === "COMPLETED" ? html`<a class="btn btn-primary" href="/dashboard/batches/${id}/download" download>Download result <span class="btn-note">one HDF5 file</span></a>` : ""}
        ${isActive(batch.status) && !batch.cancel_requested ? cancelForm(batch, csrf, false) : ""}
      </div>
    </div>`;
}

export function batchBody(view: BatchView): SafeHtml {
  const { batch } = view;
  const completedWithoutPlot =
    batch.status === "COMPLETED" && !view.plot
      ? html`<p class="card muted" id="sweep-plot-none">
          The jobs recorded no flux monitor spectra or S-parameters, so there is nothing to plot
          against the sweep here; the result file holds every monitor.
        </p>`
      : "";
  return html`${batchHead(batch, view.csrf)}
    <section
      class="card live"
      id="batch-live"
      aria-live="polite"
      data-batch-poll="/dashboard/api/batches/${batch.batch_id}?from=${view.jobs.from}"
      data-status="${batch.status}"
      data-updated="${batch.updated_at}"
    >
      ${batchLive(batch)}
    </section>
    ${view.plot ?? ""} ${completedWithoutPlot} ${parametersCard(batch, view.request)}
    ${jobsCard(batch, view.jobs)}`;
}

export function batchCancelConfirmBody(batch: BatchSummary, csrf: string): SafeHtml {
  const id = batch.batch_id;
  return html`<section class="card confirm-card" aria-labelledby="confirm-title">
    <h1 id="confirm-title">Cancel batch <span class="mono">${shortId(id)}</span>?</h1>
    <p>
      Its queued jobs end FAILED at once and its running ones stop within about a second; the jobs
      already finished keep their results.
    </p>
    <form method="post" action="/dashboard/batches/${id}/cancel" class="actions-row">
      ${csrfField(csrf)}
      <input type="hidden" name="confirm" value="yes" />
      <button type="submit" class="btn btn-danger">Cancel batch</button>
      <a class="btn btn-quiet" href="/dashboard/batches/${id}">Keep it running</a>
    </form>
  </section>`;
}
