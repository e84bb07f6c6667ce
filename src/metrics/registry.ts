/**
 * Prometheus metrics (prom-client), one registry per app so tests can run several apps in a
 * process: HTTP latency by route, jobs by status, queue depth, solver throughput and the
 * process's default metrics.
 */
import { availableParallelism, cpus, totalmem } from "node:os";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { RunTimeModel } from "../jobs/timing.js";
import type { SolverAdapterReport } from "../schema/responses.js";
import type { JobQueue } from "../store/types.js";
import { JOB_STATUSES } from "../store/types.js";

/** Grid sizes (cells) /metrics shows the estimated stepping rate for: thin, mid, large. */
const ESTIMATE_GRID_CELLS = [2e4, 1e6, 1.6e7];

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<"method" | "route" | "status_code">;
  private readonly jobsFinished: Counter<"status">;
  private readonly jobDuration: Histogram<"status">;
  private readonly solverThroughput: Gauge;

  constructor(
    queue: JobQueue,
    solverBackend = "auto",
    /** The run-time model behind estimates and retry_after (jobs/timing.ts), if any. */
    runTimes: RunTimeModel | null = null,
    /** Threads a job's solver may use (EMSIM_SOLVER_THREADS). */
    solverThreads: number | null = null,
    /** The GPU adapter of the webgpu backend, if that runs. */
    adapter: SolverAdapterReport | null = null,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    if (solverThreads !== null) {
      new Gauge({
        name: "emsim_solver_threads",
        help: "Threads a job's solver may use in this process (fewer on small grids)",
        registers,
      }).set(solverThreads);
    }
    if (runTimes) this.registerEstimates(runTimes);
    // What the solver's speed depends on: the machine and the backend this process runs.
    this.registerMachine(solverBackend, adapter);
    this.httpDuration = new Histogram({
      name: "emsim_http_request_duration_seconds",
      help: "HTTP request duration by route",
      labelNames: ["method", "route", "status_code"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.registerQueue(queue);
    this.jobsFinished = new Counter({
      name: "emsim_jobs_finished_total",
      help: "Jobs finished by this process's worker, by final status",
      labelNames: ["status"],
      registers,
    });
    this.jobDuration = new Histogram({
      name: "emsim_job_duration_seconds",
      help: "Wall time of jobs run by this process's worker",
      labelNames: ["status"],
      buckets: [1, 5, 15, 60, 300, 900, 3600, 14400],
      registers,
    });
    this.solverThroughput = new Gauge({
      name: "emsim_solver_mcells_per_second",
      help: "Solver throughput of the last completed job (million cell-updates per second)",
      registers,
    });
  }

  jobFinished(status: "COMPLETED" | "FAILED", seconds: number, mcellsPerSecond: number | null) {
    this.jobsFinished.inc({ status });
    this.jobDuration.observe({ status }, seconds);
    if (mcellsPerSecond !== null && Number.isFinite(mcellsPerSecond)) {
      this.solverThroughput.set(mcellsPerSecond);
    }
  }

  /** The machine and solver backend, and the GPU adapter when the webgpu backend runs. */
  private registerMachine(solverBackend: string, adapter: SolverAdapterReport | null): void {
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
    if (!adapter) return;
    new Gauge({
      name: "emsim_solver_adapter_info",
      help: "The GPU adapter the webgpu solver backend runs on (value 1; facts in the labels)",
      labelNames: ["vendor", "architecture", "device", "description", "software"],
      registers: [this.registry],
    }).set(
      {
        vendor: adapter.vendor,
        architecture: adapter.architecture,
        device: adapter.device,
        description: adapter.description,
        software: String(adapter.software),
      },
      1,
    );
  }

  /** Jobs by status and the queue's depth, counted in the store when /metrics is read. */
  private registerQueue(queue: JobQueue): void {
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
  }

  /**
   * The calibrated estimate: set-up, the fixed cost of a time step and the cost of a cell
   * update, and the stepping rate they give for a thin, a mid-sized and a large grid.
   */
  private registerEstimates(runTimes: RunTimeModel): void {
    const registers = [this.registry];
    new Gauge({
      name: "emsim_estimate_setup_seconds",
      help: "Set-up seconds a run is estimated to take (calibrated)",
      registers,
      collect() {
        this.set(runTimes.costs().setupSeconds);
      },
    });
    new Gauge({
      name: "emsim_estimate_step_seconds",
      help: "Fixed seconds per time step outside the per-cell work (calibrated)",
      registers,
      collect() {
        this.set(runTimes.costs().secondsPerStep);
      },
    });
    new Gauge({
      name: "emsim_estimate_cell_update_seconds",
      help: "Seconds per cell update (calibrated)",
      registers,
      collect() {
        this.set(runTimes.costs().secondsPerCellUpdate);
      },
    });
    new Gauge({
      name: "emsim_estimate_mcells_per_second",
      help: "Estimated stepping rate by grid size in cells (million cell-updates per second)",
      labelNames: ["cells"],
      registers,
      collect() {
        for (const cells of ESTIMATE_GRID_CELLS) {
          this.set({ cells: String(cells) }, runTimes.mcellsPerSecond(cells));
        }
      },
    });
    new Gauge({
      name: "emsim_estimate_runs_observed",
      help: "Completed runs the estimate has been fitted to (0: the table measured here only)",
      registers,
      collect() {
        this.set(runTimes.costs().runsObserved);
      },
    });
  }
}
