/**
 * Batches: the list, one batch's page with its sweep plot (drawn from the jobs' records by the
 * spectra's line chart), cancel, and the download of the batch's one result file (the same
 * pre-signed storage address the API's /v1/batches/{id}/results gives, made by BatchService).
 */
import type { FastifyInstance } from "fastify";
import { parameterValues, type BatchParameter } from "../../batches/variants.js";
import { lineChartPng } from "../../plot/spectrum.js";
import type { BatchSweeps } from "../batch-sweeps.js";
import { DashboardError, field, type Dashboard } from "../context.js";
import {
  batchPlotSection,
  sweepChart,
  sweepChoice,
  type Sweep,
  type SweepChoice,
} from "../views/batch-plot.js";
import {
  batchBody,
  batchCancelConfirmBody,
  batchesBody,
  type RequestParameter,
} from "../views/batches.js";
import { shortId } from "../views/format.js";
import { sendPng } from "./jobs.js";

type BatchParams = { Params: { id: string } };

export const BATCHES_PAGE_SIZE = 25;
/** Rows of a batch's jobs table per page (a batch may have 10 000). */
export const BATCH_JOBS_PAGE_SIZE = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function batchIdOf(value: string): string {
  if (!UUID.test(value)) throw new DashboardError(404, "There is no batch with that id.");
  return value.toLowerCase();
}

/** The first job the page's table shows (`?from=`, a multiple of the page size). */
export function jobsFrom(query: unknown, jobCount: number): number {
  const from = (query as Record<string, unknown>).from;
  if (typeof from !== "string" || !/^\d{1,6}$/.test(from)) return 0;
  const n = Math.floor(Number(from) / BATCH_JOBS_PAGE_SIZE) * BATCH_JOBS_PAGE_SIZE;
  return n < jobCount ? n : 0;
}

/** The chart a choice draws, its title naming the batch. */
function chartOf(batchId: string, sweep: Sweep, choice: SweepChoice) {
  return sweepChart(sweep, choice, `${choice.quantity.label} of batch ${shortId(batchId)}`);
}

/**
 * The plot a request's query asks for (the PNG and the page script's JSON): 409 until the batch
 * has ended, 404 for a choice the batch does not have.
 */
export async function requestedPlot(
  d: Dashboard,
  sweeps: BatchSweeps,
  accountId: string,
  batchId: string,
  query: unknown,
) {
  const sweep = await sweeps.sweepOf(accountId, await d.deps.batches.record(accountId, batchId));
  const chosen = sweepChoice(sweep, query as Record<string, unknown>);
  if (!chosen) throw new DashboardError(404, "This batch's jobs recorded nothing to plot.");
  if (chosen.invalid) {
    throw new DashboardError(404, "This batch has no such quantity, wavelength or value.");
  }
  return { sweep, choice: chosen.choice, chart: chartOf(batchId, sweep, chosen.choice) };
}

export function batchRoutes(app: FastifyInstance, d: Dashboard, sweeps: BatchSweeps): void {
  batchPageRoutes(app, d, sweeps);
  batchPlotRoutes(app, d, sweeps);
  batchActionRoutes(app, d);
}

/** The request's parameters with their paths (the record lists only the sweep's dimensions). */
function requestParameters(requestJson: string): RequestParameter[] {
  try {
    const request = JSON.parse(requestJson) as { parameters?: BatchParameter[] };
    return (request.parameters ?? []).map((p) => ({
      name: p.name,
      path: p.path,
      values: parameterValues(p),
    }));
  } catch {
    return [];
  }
}

function batchPageRoutes(app: FastifyInstance, d: Dashboard, sweeps: BatchSweeps): void {
  const { batches, config } = d.deps;

  app.get("/batches", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const before = (req.query as Record<string, unknown>).before;
    const cursor = typeof before === "string" && UUID.test(before) ? before : undefined;
    const page = await batches.page(account.id, {
      limit: BATCHES_PAGE_SIZE,
      ...(cursor ? { cursor } : {}),
    });
    return d.sendPage(reply, req, {
      title: "Batches",
      section: "batches",
      body: batchesBody({
        batches: page.batches,
        csrf: d.csrfFor(req, reply),
        nextCursor: page.next_cursor,
        firstPage: !cursor,
        baseUrl: config.baseUrl,
      }),
    });
  });

  app.get<BatchParams>("/batches/:id", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const id = batchIdOf(req.params.id);
    const batch = await batches.record(account.id, id);
    const row = await batches.getOwn(account.id, id);
    let plot = null;
    if (batch.status === "COMPLETED") {
      const sweep = await sweeps.sweepOf(account.id, batch);
      // The page shows the defaults for anything the query names that the sweep lacks.
      const chosen = sweepChoice(sweep, req.query as Record<string, unknown>);
      if (chosen) {
        plot = batchPlotSection(id, sweep, chosen.choice, chartOf(id, sweep, chosen.choice));
      }
    }
    return d.sendPage(reply, req, {
      title: `Batch ${shortId(id)}`,
      section: "batches",
      wide: true,
      body: batchBody({
        batch,
        request: requestParameters(row.requestJson),
        csrf: d.csrfFor(req, reply),
        jobs: { from: jobsFrom(req.query, batch.jobs.length), pageSize: BATCH_JOBS_PAGE_SIZE },
        plot,
      }),
    });
  });
}

/**
 * The sweep plot as a PNG (?quantity=&wavelength=&at_<dimension>=, as the page's form sends
 * them), drawn from the jobs' records; 404 for a choice the batch does not have.
 */
function batchPlotRoutes(app: FastifyInstance, d: Dashboard, sweeps: BatchSweeps): void {
  app.get<BatchParams>("/batches/:id/plot.png", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const id = batchIdOf(req.params.id);
    const { chart } = await requestedPlot(d, sweeps, account.id, id, req.query);
    return sendPng(reply, lineChartPng(chart.series, chart.options));
  });
}

/** The result download and cancelling. */
function batchActionRoutes(app: FastifyInstance, d: Dashboard): void {
  const { batches } = d.deps;

  app.get<BatchParams>("/batches/:id/download", async (req, reply) => {
    const { account } = d.requireAccount(req);
    // The API's own checks: 409 until the batch has ended with a completed job.
    const url = await batches.resultDownloadUrl(account.id, batchIdOf(req.params.id));
    return reply.header("Cache-Control", "no-store").redirect(url, 303);
  });

  app.post<BatchParams>("/batches/:id/cancel", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const id = batchIdOf(req.params.id);
    if (field(req.body, "confirm") !== "yes") {
      const { jobs: _jobs, ...batch } = await batches.record(account.id, id);
      return d.sendPage(reply, req, {
        title: "Cancel batch",
        section: "batches",
        body: batchCancelConfirmBody(batch, d.csrfFor(req, reply)),
      });
    }
    await batches.cancel(account.id, id);
    return reply.redirect(`/dashboard/batches/${id}?notice=batch-cancelled`, 303);
  });
}
