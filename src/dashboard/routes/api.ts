/**
 * The JSON the dashboard's own scripts fetch, authenticated by the session cookie (GET only, so
 * no CSRF token; SameSite=Lax keeps the cookie off other sites' subrequests): job lists and one
 * job for live updates (with the server-rendered row so the page needs no second template), and
 * a completed job's plot data.
 */
import type { FastifyInstance } from "fastify";
import { DashboardError, type Dashboard } from "../context.js";
import type { PlotService } from "../plots.js";
import { isActive, jobLive, jobRow } from "../views/jobs.js";
import { JOBS_PAGE_SIZE, jobIdOf } from "./jobs.js";

type JobParams = { Params: { id: string } };

function intParam(value: unknown, fallback: number | null, max: number): number | null {
  if (value === undefined || value === "") return fallback;
  if (typeof value !== "string" || !/^\d{1,6}$/.test(value) || Number(value) > max) {
    throw new DashboardError(400, "A number parameter is out of range.");
  }
  return Number(value);
}

export function apiRoutes(app: FastifyInstance, d: Dashboard, plots: PlotService): void {
  const { jobs } = d.deps;

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
