/**
 * Prometheus metrics (prom-client), one registry per app so tests can run several apps in a
 * process: HTTP latency by route, jobs by status, queue depth, solver throughput and the
 * process's default metrics.
 */
import { availableParallelism, cpus, totalmem } from "node:os";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { JobQueue } from "../store/types.js";
import { JOB_STATUSES } from "../store/types.js";

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<"method" | "route" | "status_code">;
  private readonly jobsFinished: Counter<"status">;
  private readonly jobDuration: Histogram<"status">;
  private readonly solverThroughput: Gauge;

  constructor(queue: JobQueue, solverBackend = "auto") {
    collectDefaultMetrics({ register: this.registry });
    // What the solver's speed depends on: the machine and the backend this process runs.
    new Gauge({
      name: "emsim_machine_info",
      help: "The machine and solver backend of this process (value 1; facts in the labels)",
      labelNames: ["cpu", "cores", "memory_bytes", "solver_backend"],
      registers: [this.registry],
    }).set(
      {
        cpu: cpus()[0]?.model.trim() ?? "unknown",
        cores: String(availableParallelism()),
        memory_bytes: String(totalmem()),
        solver_backend: solverBackend,
      },
      1,
    );
    this.httpDuration = new Histogram({
      name: "emsim_http_request_duration_seconds",
      help: "HTTP request duration by route",
      labelNames: ["method", "route", "status_code"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    new Gauge({
      name: "emsim_jobs",
      help: "Jobs by status",
      labelNames: ["status"],
      registers: [this.registry],
      async collect() {
        const counts = await queue.countJobsByStatus();
        for (const s of JOB_STATUSES) this.set({ status: s }, counts[s]);
      },
    });
    new Gauge({
      name: "emsim_queue_depth",
      help: "Jobs waiting for a worker (QUEUED)",
      registers: [this.registry],
      async collect() {
        this.set((await queue.countJobsByStatus()).QUEUED);
      },
    });
    this.jobsFinished = new Counter({
      name: "emsim_jobs_finished_total",
      help: "Jobs finished by this process's worker, by final status",
      labelNames: ["status"],
      registers: [this.registry],
    });
    this.jobDuration = new Histogram({
      name: "emsim_job_duration_seconds",
      help: "Wall time of jobs run by this process's worker",
      labelNames: ["status"],
      buckets: [1, 5, 15, 60, 300, 900, 3600, 14400],
      registers: [this.registry],
    });
    this.solverThroughput = new Gauge({
      name: "emsim_solver_mcells_per_second",
      help: "Solver throughput of the last completed job (million cell-updates per second)",
      registers: [this.registry],
    });
  }

  jobFinished(status: "COMPLETED" | "FAILED", seconds: number, mcellsPerSecond: number | null) {
    this.jobsFinished.inc({ status });
    this.jobDuration.observe({ status }, seconds);
    if (mcellsPerSecond !== null && Number.isFinite(mcellsPerSecond)) {
      this.solverThroughput.set(mcellsPerSecond);
    }
  }
}
