/**
 * The JSON the dashboard's own scripts fetch, authenticated by the session cookie (GET only, so
 * no CSRF token; SameSite=Lax keeps the cookie off other sites' subrequests): job and batch
 * lists and one job or batch for live updates (with the server-rendered rows so the page needs no
 * second template), a completed job's plot data, and a completed batch's sweep plot redrawn for
 * another choice.
 */
import type { FastifyInstance } from "fastify";
import { DashboardError, type Dashboard } from "../context.js";
import type { BatchSweeps } from "../batch-sweeps.js";
import type { PlotService } from "../plots.js";
import { sweepPlotParts } from "../views/batch-plot.js";
import { batchJobRows, batchLive, batchRow, parameterUnits } from "../views/batches.js";
import { isActive, jobLive, jobRow } from "../views/jobs.js";
import {
  BATCH_JOBS_PAGE_SIZE,
  BATCHES_PAGE_SIZE,
  batchIdOf,
  jobsFrom,
  requestedPlot,
} from "./batches.js";
import { JOBS_PAGE_SIZE, jobIdOf } from "./jobs.js";

type JobParams = { Params: { id: string } };
type BatchParams = { Params: { id: string } };

function intParam(value: unknown, fallback: number | null, max: number): number | null {
  if (value === undefined || value === "") return fallback;
  if (typeof value !== "string" || !/^\d{1,6}$/.test(value) || Number(value) > max) {
    throw new DashboardError(400, "A number parameter is out of range.");
  }
  return Number(value);
}

export function apiRoutes(
  app: FastifyInstance,
  d: Dashboard,
  plots: PlotService,
  sweeps: BatchSweeps,
): void {
  const { jobs } = d.deps;
  batchApiRoutes(app, d, sweeps);

  app.get("/api/jobs", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const csrf = d.csrfFor(req, reply);
    const page = await jobs.list(account.id, { limit: JOBS_PAGE_SIZE });
    const records = page.jobs.map((j) => jobs.record(j));
    return reply.header("Cache-Control", "no-store").send({
      jobs: records.map((job) => ({
        job_id: job.job_id,
        status: job.status,
        updated_at: job.updated_at,
        progress: job.progress,
        duration_seconds: job.duration_seconds,
        row_html: jobRow(job, csrf).value,
      })),
      active: records.some((j) => isActive(j.status)),
    });
  });

  app.get<JobParams>("/api/jobs/:id", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const job = jobs.record(await jobs.getOwnJob(account.id, jobIdOf(req.params.id)));
    return reply.header("Cache-Control", "no-store").send({
      job,
      active: isActive(job.status),
      live_html: jobLive(job).value,
    });
  });

  async function completedJob(accountId: string, id: string) {
    const row = await jobs.getOwnJob(accountId, jobIdOf(id));
    if (row.status !== "COMPLETED" || !row.resultKey) {
      throw new DashboardError(
        409,
        `Job ${row.jobId} is ${row.status}; plots need a completed job.`,
      );
    }
    return { jobId: row.jobId, resultKey: row.resultKey };
  }

  app.get<JobParams>("/api/jobs/:id/result", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const { jobId, resultKey } = await completedJob(account.id, req.params.id);
    const summary = await plots.summary(jobId, resultKey);
    // Private data: not kept by the browser, where it would outlive sign-out (the page keeps
    // what it fetched in memory, and the server caches payloads).
    return reply.header("Cache-Control", "no-store").send(summary);
  });

  app.get<JobParams>("/api/jobs/:id/field", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const { jobId, resultKey } = await completedJob(account.id, req.params.id);
    const q = req.query as Record<string, unknown>;
    const monitor = typeof q.monitor === "string" ? q.monitor : "";
    const quantity = typeof q.quantity === "string" ? q.quantity : "";
    if (!monitor || !/^(E|H|[EH][xyz])$/.test(quantity)) {
      throw new DashboardError(400, "Give a monitor and a quantity (E, H, Ex … Hz).");
    }
    const payload = await plots.field(jobId, resultKey, {
      monitor,
      quantity,
      wavelengthIndex: intParam(q.wavelength, 0, 10_000)!,
      sliceIndex: intParam(q.slice, null, 1_000_000),
    });
    return reply.header("Cache-Control", "no-store").send(payload);
  });
}

/** The batches list and one batch for live updates, and the sweep plot for another choice. */
function batchApiRoutes(app: FastifyInstance, d: Dashboard, sweeps: BatchSweeps): void {
  const { batches } = d.deps;

  app.get("/api/batches", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const csrf = d.csrfFor(req, reply);
    const page = await batches.page(account.id, { limit: BATCHES_PAGE_SIZE });
    return reply.header("Cache-Control", "no-store").send({
      batches: page.batches.map((b) => ({
        batch_id: b.batch_id,
        status: b.status,
        updated_at: b.updated_at,
        row_html: batchRow(b, csrf).value,
      })),
      active: page.batches.some((b) => isActive(b.status)),
    });
  });

  // The live part of a batch's page and the rows of its jobs table (?from=, the page shown).
  app.get<BatchParams>("/api/batches/:id", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const batch = await batches.record(account.id, batchIdOf(req.params.id));
    const from = jobsFrom(req.query, batch.jobs.length);
    const { jobs: batchJobs, ...summary } = batch;
    return reply.header("Cache-Control", "no-store").send({
      batch: {
        batch_id: batch.batch_id,
        status: batch.status,
        updated_at: batch.updated_at,
        counts: batch.counts,
        progress: batch.progress,
        cancel_requested: batch.cancel_requested,
      },
      active: isActive(batch.status),
      live_html: batchLive(summary).value,
      jobs_html: batchJobRows(
        batchJobs.slice(from, from + BATCH_JOBS_PAGE_SIZE),
        parameterUnits(batch),
      ).value,
    });
  });

  app.get<BatchParams>("/api/batches/:id/plot", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const id = batchIdOf(req.params.id);
    const { sweep, choice, chart } = await requestedPlot(d, sweeps, account.id, id, req.query);
    return reply.header("Cache-Control", "no-store").send(sweepPlotParts(id, sweep, choice, chart));
  });
}
