/**
 * Jobs: the list, one job's page, cancel, and the result download (the same pre-signed
 * storage address the API's /results redirect gives, made by JobService).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { DashboardError, field, type Dashboard } from "../context.js";
import { polarPatternPng } from "../../plot/polar.js";
import { sParametersPng } from "../../plot/s-parameters.js";
import { spectraPng } from "../../plot/spectrum.js";
import { touchstone } from "../../results/touchstone.js";
import { parameterUnits, type BatchDimensions } from "../views/batches.js";
import { cancelConfirmBody, jobBody, jobsBody } from "../views/jobs.js";
import { farFieldsOfReport } from "../views/far-field.js";
import { sMatrixOfReport, touchstoneFileName } from "../views/s-parameters.js";
import { spectraOfReport } from "../views/spectra.js";

type JobParams = { Params: { id: string } };

export const JOBS_PAGE_SIZE = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function jobIdOf(value: string): string {
  if (!UUID.test(value)) throw new DashboardError(404, "There is no job with that id.");
  return value.toLowerCase();
}

export function jobRoutes(app: FastifyInstance, d: Dashboard): void {
  jobPageRoutes(app, d);
  jobPlotRoutes(app, d);
  sParameterRoutes(app, d);
  jobActionRoutes(app, d);
}

/**
 * A job's or a batch's plots as PNG images. Not kept by the browser (no-store): they are an
 * account's private data, which a cached copy would show after sign-out.
 */
export function sendPng(reply: FastifyReply, png: Uint8Array) {
  return reply.header("Content-Type", "image/png").header("Cache-Control", "no-store").send(png);
}

/** The list of jobs and one job's page. */
function jobPageRoutes(app: FastifyInstance, d: Dashboard): void {
  const { jobs, config } = d.deps;

  app.get("/jobs", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const before = (req.query as Record<string, unknown>).before;
    const cursor = typeof before === "string" && UUID.test(before) ? before : undefined;
    const page = await jobs.list(account.id, {
      limit: JOBS_PAGE_SIZE,
      ...(cursor ? { cursor } : {}),
    });
    return d.sendPage(reply, req, {
      title: "Jobs",
      section: "jobs",
      body: jobsBody({
        jobs: page.jobs.map((j) => jobs.record(j)),
        csrf: d.csrfFor(req, reply),
        nextCursor: page.nextCursor,
        firstPage: !cursor,
        baseUrl: config.baseUrl,
      }),
    });
  });

  app.get<JobParams>("/jobs/:id", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const row = await jobs.getOwnJob(account.id, jobIdOf(req.params.id));
    // A batch job's parameters are shown with their units (a length in µm), from its batch.
    const batch = row.batchId ? await d.deps.stores.batches.getBatch(row.batchId) : null;
    return d.sendPage(reply, req, {
      title: `Job ${row.jobId.slice(0, 8)}`,
      section: "jobs",
      wide: true,
      body: jobBody({
        job: jobs.record(row),
        specJson: row.specJson,
        csrf: d.csrfFor(req, reply),
        units: batch ? parameterUnits({ parameters: batch.dimensions as BatchDimensions }) : {},
      }),
    });
  });
}

/** The plots drawn from the job record: flux spectra and far-field patterns. */
function jobPlotRoutes(app: FastifyInstance, d: Dashboard): void {
  const { jobs } = d.deps;
  // The flux monitors' spectra, drawn from the job record (no result file needed) by the same
  // plotting code as the CLI's `emsim plot`.
  app.get<JobParams>("/jobs/:id/spectra.png", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const record = jobs.record(await jobs.getOwnJob(account.id, jobIdOf(req.params.id)));
    const spectra = spectraOfReport(record.solver_report);
    if (spectra.length === 0) throw new DashboardError(404, "This job has no flux monitors.");
    return sendPng(reply, spectraPng(spectra, `spectra of job ${record.job_id.slice(0, 8)}`));
  });

  // A far-field monitor's radiation pattern at one of its wavelengths (?monitor=&wavelength=,
  // an index), drawn from the job record like the spectra, by the CLI's `emsim plot --far-field`.
  app.get<JobParams>("/jobs/:id/far-field.png", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const record = jobs.record(await jobs.getOwnJob(account.id, jobIdOf(req.params.id)));
    const query = req.query as Record<string, unknown>;
    const pattern = farFieldsOfReport(record.solver_report).find((p) => p.name === query.monitor);
    if (!pattern) throw new DashboardError(404, "This job has no such far-field monitor.");
    const w = Number(query.wavelength ?? 0);
    if (!Number.isInteger(w) || w < 0 || w >= pattern.wavelengthsM.length) {
      throw new DashboardError(404, "That far-field monitor did not record such a wavelength.");
    }
    return sendPng(reply, polarPatternPng(pattern, { wavelengthIndex: w }));
  });
}

/**
 * A ports job's |S|² in dB against wavelength, drawn from the job record like the spectra (by
 * `emsim sparams --plot`'s code), and its Touchstone file as the API's `?format=touchstone`
 * gives it (the same writer, the same name), for the browser to save.
 */
function sParameterRoutes(app: FastifyInstance, d: Dashboard): void {
  const { jobs } = d.deps;
  app.get<JobParams>("/jobs/:id/sparameters.png", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const record = jobs.record(await jobs.getOwnJob(account.id, jobIdOf(req.params.id)));
    const m = sMatrixOfReport(record.solver_report);
    if (!m || m.inputs.length === 0) throw new DashboardError(404, "This job has no S-parameters.");
    return sendPng(reply, sParametersPng(m, `S-parameters of job ${record.job_id.slice(0, 8)}`));
  });

  app.get<JobParams>("/jobs/:id/touchstone", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const id = jobIdOf(req.params.id);
    // The API's own checks: 409 until COMPLETED, 404 for a job without ports.
    const m = await jobs.sParameters(account.id, id);
    return reply
      .header("Content-Type", "text/plain; charset=utf-8")
      .header(
        "Content-Disposition",
        `attachment; filename="${touchstoneFileName(id, m.ports.length)}"`,
      )
      .header("Cache-Control", "no-store")
      .send(touchstone(m, `emsim S-parameters of job ${id}`));
  });
}

/** The result download and cancelling. */
function jobActionRoutes(app: FastifyInstance, d: Dashboard): void {
  const { jobs } = d.deps;

  app.get<JobParams>("/jobs/:id/download", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const url = await jobs.resultDownloadUrl(account.id, jobIdOf(req.params.id));
    return reply.header("Cache-Control", "no-store").redirect(url, 303);
  });

  app.post<JobParams>("/jobs/:id/cancel", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const id = jobIdOf(req.params.id);
    if (field(req.body, "confirm") !== "yes") {
      const row = await jobs.getOwnJob(account.id, id);
      return d.sendPage(reply, req, {
        title: "Cancel job",
        section: "jobs",
        body: cancelConfirmBody(jobs.record(row), d.csrfFor(req, reply)),
      });
    }
    await jobs.cancel(account.id, id);
    return reply.redirect(`/dashboard/jobs/${id}?notice=job-cancelled`, 303);
  });
}
