/**
 * Progress on stderr while a job or a batch runs or a file downloads. On a terminal one line is redrawn
 * in place; otherwise (a log file, CI, a pipe) plain lines are written when something changes
 * — a new status, another 10 % (25 % for downloads) — and at least every 15 s, so logs stay
 * short but show the run is alive.
 */
import type { BatchRecord, DownloadProgress, JobRecord } from "../client/index.js";
import { formatBytes, formatDuration } from "./output.js";

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const HEARTBEAT_MS = 15_000;
const MIN_GAP_MS = 1_000;

/** One status line: redrawn on a TTY, throttled plain lines elsewhere. */
export class StatusLine {
  readonly tty: boolean;
  private shown = false;
  private lastKey = "";
  private lastAt: number | null = null;

  constructor(
    private readonly stream: ProgressStream,
    private readonly now: () => number = Date.now,
  ) {
    this.tty = stream.isTTY === true;
  }

  /** Characters a line may use: the terminal width (100 when unknown or not a terminal). */
  get width(): number {
    return Math.max(20, (this.tty ? this.stream.columns || 100 : 100) - 1);
  }

  /**
   * `key` identifies what a plain-text log should record: a line is written when it changes
   * (at most once a second) or when the heartbeat interval has passed.
   */
  update(text: string, key: string): void {
    if (this.tty) {
      this.stream.write(`\r${text.slice(0, this.width)}\x1b[K`);
      this.shown = true;
      return;
    }
    const t = this.now();
    const since = this.lastAt === null ? Infinity : t - this.lastAt;
    if ((key !== this.lastKey && since >= MIN_GAP_MS) || since >= HEARTBEAT_MS) {
      this.stream.write(`${text}\n`);
      this.lastKey = key;
      this.lastAt = t;
    }
  }

  /** Ends the line (a TTY keeps its last state visible); `text` is written as a final line. */
  finish(text?: string): void {
    if (this.tty && this.shown) this.stream.write(text !== undefined ? `\r${text}\x1b[K\n` : "\n");
    else if (text !== undefined) this.stream.write(`${text}\n`);
    this.shown = false;
  }
}

function bar(fraction: number, width = 24): string {
  const f = Math.min(1, Math.max(0, fraction));
  const full = Math.round(f * width);
  return `[${"█".repeat(full)}${"░".repeat(width - full)}]`;
}

/** Seconds left of a RUNNING job: its run time so far scaled by the steps left. */
export function etaSeconds(job: JobRecord): number | null {
  const f = job.progress?.fraction ?? 0;
  if (job.status !== "RUNNING" || f < 0.02 || !(job.duration_seconds > 0)) return null;
  return (job.duration_seconds * (1 - f)) / f;
}

export function formatChange(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toExponential(1);
}

/** Renders a job's progress: time step, percent, last relative change, elapsed and ETA. */
export class JobProgressView {
  private readonly line: StatusLine;
  private readonly startedAt: number;

  constructor(
    stream: ProgressStream,
    private readonly now: () => number = Date.now,
  ) {
    this.line = new StatusLine(stream, now);
    this.startedAt = now();
  }

  update(job: JobRecord): void {
    const elapsed = formatDuration((this.now() - this.startedAt) / 1000);
    const p = job.progress;
    const id = job.job_id.slice(0, 8);
    if (job.status === "QUEUED" || (job.status === "RUNNING" && !p)) {
      const what = job.status === "QUEUED" ? "waiting for a worker" : "starting";
      this.line.update(`job ${id} ${job.status}  ${what}  elapsed ${elapsed}`, job.status);
      return;
    }
    if (job.status !== "RUNNING" || !p) return;
    const pct = `${(p.fraction * 100).toFixed(1)}%`.padStart(6);
    const eta = etaSeconds(job);
    const etaText = eta === null ? "ETA --:--" : `ETA ≤${formatDuration(eta)}`;
    const prefix = `job ${id} RUNNING`;
    const suffix = [
      pct,
      `step ${p.step}/${p.total_steps}`,
      `Δ ${formatChange(p.last_relative_change)}`,
      `elapsed ${elapsed}`,
      etaText,
    ].join("  ");
    // On a terminal the bar takes what the line has left, so the numbers are never cut off;
    // in a log it has a fixed width.
    const room = this.line.tty ? this.line.width - prefix.length - suffix.length - 6 : 20;
    const text =
      room >= 8
        ? `${prefix}  ${bar(p.fraction, Math.min(30, room))}  ${suffix}`
        : `${prefix}  ${suffix}`;
    this.line.update(text, `RUNNING:${Math.floor(p.fraction * 10)}`);
  }

  /** The last line once the job has ended. */
  finish(job: JobRecord): void {
    const elapsed = formatDuration((this.now() - this.startedAt) / 1000);
    const report = job.solver_report;
    const steps = report?.steps_run ?? job.progress?.step;
    const converged = report?.converged;
    if (job.status === "COMPLETED") {
      this.line.finish(
        `job ${job.job_id.slice(0, 8)} COMPLETED in ${job.duration_seconds.toFixed(1)} s` +
          (steps !== undefined ? `, ${String(steps)} steps` : "") +
          (converged === true ? " (converged)" : converged === false ? " (not converged)" : "") +
          `, elapsed ${elapsed}`,
      );
    } else {
      this.line.finish(`job ${job.job_id.slice(0, 8)} ${job.status}: ${job.error_detail ?? ""}`);
    }
  }

  /** Ends the line without a verdict (interrupted). */
  abandon(): void {
    this.line.finish();
  }
}

/**
 * Renders a batch's progress: the fraction over all its jobs (a running job by its own
 * progress), how many have ended and failed, elapsed time and an ETA from the rate so far.
 */
export class BatchProgressView {
  private readonly line: StatusLine;
  private readonly startedAt: number;
  /** When the batch was first seen RUNNING: the ETA's rate is measured from there. */
  private runningSince: number | null = null;

  constructor(
    stream: ProgressStream,
    private readonly now: () => number = Date.now,
  ) {
    this.line = new StatusLine(stream, now);
    this.startedAt = now();
  }

  update(batch: BatchRecord): void {
    const t = this.now();
    const elapsed = formatDuration((t - this.startedAt) / 1000);
    const id = batch.batch_id.slice(0, 8);
    if (batch.status === "QUEUED") {
      this.line.update(
        `batch ${id} QUEUED  ${batch.job_count} jobs, waiting for a worker  elapsed ${elapsed}`,
        "QUEUED",
      );
      return;
    }
    if (batch.status !== "RUNNING") return;
    this.runningSince ??= t;
    const f = batch.progress.fraction;
    const c = batch.counts;
    const ran = (t - this.runningSince) / 1000;
    const eta = f >= 0.02 && ran > 0 ? `ETA ${formatDuration((ran * (1 - f)) / f)}` : "ETA --:--";
    const prefix = `batch ${id} RUNNING`;
    const suffix = [
      `${(f * 100).toFixed(1)}%`.padStart(6),
      `jobs ${c.COMPLETED + c.FAILED}/${batch.job_count} done` +
        (c.FAILED > 0 ? ` (${c.FAILED} failed)` : ""),
      `elapsed ${elapsed}`,
      eta,
    ].join("  ");
    const room = this.line.tty ? this.line.width - prefix.length - suffix.length - 6 : 20;
    const text =
      room >= 8 ? `${prefix}  ${bar(f, Math.min(30, room))}  ${suffix}` : `${prefix}  ${suffix}`;
    this.line.update(text, `RUNNING:${Math.floor(f * 10)}:${c.FAILED}`);
  }

  /** The last line once every job has ended. */
  finish(batch: BatchRecord): void {
    const elapsed = formatDuration((this.now() - this.startedAt) / 1000);
    const c = batch.counts;
    const id = batch.batch_id.slice(0, 8);
    const failed = c.FAILED > 0 ? `, ${c.FAILED} FAILED` : "";
    this.line.finish(
      `batch ${id} ${batch.status}: ${c.COMPLETED} of ${batch.job_count} jobs completed${failed}, elapsed ${elapsed}`,
    );
  }

  /** Ends the line without a verdict (interrupted). */
  abandon(): void {
    this.line.finish();
  }
}

/** Renders a download's progress: percent, bytes, rate. */
export class DownloadProgressView {
  private readonly line: StatusLine;
  private readonly startedAt: number;

  constructor(
    stream: ProgressStream,
    private readonly name: string,
    private readonly now: () => number = Date.now,
  ) {
    this.line = new StatusLine(stream, now);
    this.startedAt = now();
  }

  update(p: DownloadProgress): void {
    const seconds = Math.max(0.001, (this.now() - this.startedAt) / 1000);
    const rate = `${formatBytes((p.receivedBytes - p.resumedFromBytes) / seconds)}/s`;
    const f = p.totalBytes ? p.receivedBytes / p.totalBytes : null;
    const resumed =
      p.resumedFromBytes > 0 ? `  (resumed at ${formatBytes(p.resumedFromBytes)})` : "";
    const text = [
      `downloading ${this.name}`,
      ...(f !== null ? [bar(f), `${(f * 100).toFixed(0)}%`.padStart(4)] : []),
      `${formatBytes(p.receivedBytes)}${p.totalBytes ? ` / ${formatBytes(p.totalBytes)}` : ""}`,
      rate,
    ].join("  ");
    this.line.update(text + resumed, f === null ? "" : String(Math.floor(f * 4)));
  }

  finish(text?: string): void {
    this.line.finish(text);
  }
}
