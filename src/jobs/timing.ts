/**
 * How long a run takes, for estimates: set-up plus, per time step, a fixed cost and a cost per
 * cell,
 *
 *   seconds = setup + steps · (perStep + perCell · cells).
 *
 * The fixed per-step cost (sources, boundaries, monitors, thread synchronisation) is what
 * dominates small and thin jobs: a 2·10⁴-cell cross-section steps at about 50 Mcell/s where a
 * 256³ grid reaches 600–700 on the same machine, so one throughput figure misjudges one or
 * the other by an order of magnitude. The two costs are fitted by weighted least squares to the
 * completed runs this process has seen (each run's stepping seconds per step against its
 * cells), on top of two prior points from the table below, measured on the 2-core machine
 * these figures come from (docs/benchmarks.md), which keep the fit sensible until runs of
 * different sizes have been seen and fade as they are.
 */

/** Prior: seconds per step of a small (2·10⁴ cells) and a large (1.7·10⁷ cells) grid. */
const PRIOR: readonly { cells: number; secondsPerStep: number }[] = [
  { cells: 2e4, secondsPerStep: 3.9e-4 },
  { cells: 1.7e7, secondsPerStep: 2.6e-2 },
];
/** Runs remembered (the most recent). */
const WINDOW = 32;
/** Set-up seconds assumed until a run is seen (thread start, kernel compile, painting). */
const DEFAULT_SETUP_SECONDS = 0.6;

export interface RunObservation {
  cells: number;
  steps: number;
  steppingSeconds: number;
  setupSeconds: number;
}

export class RunTimeModel {
  private readonly runs: RunObservation[] = [];
  private perStep = 0;
  private perCell = 0;
  private setup = DEFAULT_SETUP_SECONDS;

  constructor() {
    this.fit();
  }

  /** Learns from a completed run (ignored when it has nothing to learn from). */
  observe(run: RunObservation): void {
    if (!(run.cells > 0 && run.steps > 0 && run.steppingSeconds > 0)) return;
    if (!Number.isFinite(run.steppingSeconds) || !Number.isFinite(run.setupSeconds)) return;
    this.runs.push(run);
    if (this.runs.length > WINDOW) this.runs.shift();
    this.setup = 0.7 * this.setup + 0.3 * Math.max(0, run.setupSeconds);
    this.fit();
  }

  /** The fitted costs, and how many runs they are fitted to (0: the prior alone). */
  costs(): {
    setupSeconds: number;
    secondsPerStep: number;
    secondsPerCellUpdate: number;
    runsObserved: number;
  } {
    return {
      setupSeconds: this.setup,
      secondsPerStep: this.perStep,
      secondsPerCellUpdate: this.perCell,
      runsObserved: this.runs.length,
    };
  }

  /** Predicted seconds of a run of `cells` cells for `steps` steps. */
  seconds(cells: number, steps: number): number {
    return this.setup + steps * this.secondsPerStep(cells);
  }

  /** Predicted stepping rate for a grid of `cells` cells, in million cell-updates per second. */
  mcellsPerSecond(cells: number): number {
    return cells / this.secondsPerStep(cells) / 1e6;
  }

  private secondsPerStep(cells: number): number {
    return this.perStep + this.perCell * cells;
  }

  /**
   * Weighted least squares of seconds per step against cells, in relative terms (each point
   * weighted by 1/y², so a small job's 0.4 ms counts as much as a large job's 30 ms), with
   * both costs kept non-negative.
   */
  private fit(): void {
    const points = [
      // The prior counts as half a run while none has been seen, and fades as runs come in.
      ...PRIOR.map((p) => ({ x: p.cells, y: p.secondsPerStep, w: 0.5 / (1 + this.runs.length) })),
      ...this.runs.map((r) => ({ x: r.cells, y: r.steppingSeconds / r.steps, w: 1 })),
    ];
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let t0 = 0;
    let t1 = 0;
    for (const { x, y, w } of points) {
      const k = w / (y * y);
      s0 += k;
      s1 += k * x;
      s2 += k * x * x;
      t0 += k * y;
      t1 += k * x * y;
    }
    const det = s0 * s2 - s1 * s1;
    let a = det !== 0 ? (t0 * s2 - t1 * s1) / det : 0;
    let b = det !== 0 ? (s0 * t1 - s1 * t0) / det : 0;
    if (a < 0) {
      a = 0;
      b = t1 / s2;
    } else if (b <= 0) {
      b = 1e-12;
      a = (t0 - b * s1) / s0;
    }
    this.perStep = a;
    this.perCell = b;
  }
}
