/**
 * How long a run takes, for estimates: set-up plus, per time step, a fixed cost and a cost per
 * cell, where a cell that a structure's surface crosses (solver/surface.ts) counts for more,
 *
 *   seconds = setup + setupPerCell · cells + setupPerSurfaceCell · surface + Σ mode solves
 *             + steps · (perStep + perCell · (cells + w · surface + w_a · absorber)).
 *
 * The fixed per-step cost (sources, boundaries, monitors, thread synchronisation) is what
 * dominates small and thin jobs: a 2·10⁴-cell cross-section steps at about 300 Mcell/s (its
 * 2-D path, solver/wasm/thin.ts) and a 1.3·10⁵-cell 3-D unit cell at about 350, where a 256³
 * grid reaches 475–750 on the hosts measured, so one throughput figure misjudges one or the
 * other by several times. Set-up grows with the grid too (allocating and faulting in the
 * fields, painting): 0.1–0.2 s for small grids, 0.8 s for 250³. perStep and perCell are fitted
 * by weighted least squares to the completed runs this process has seen (each run's stepping
 * seconds per step against its cells), on top of two prior points from the table below, measured on the 2-core machine
 * these figures come from (docs/benchmarks.md), which keep the fit sensible until runs of
 * different sizes have been seen and fade as they are.
 */

/**
 * Prior: seconds per step of a small (2·10⁴ cells: the README's strip waveguide, 4 500 steps
 * in 0.27 s, the fastest of the runs of docs/benchmarks.md's issue #15 section on the thin
 * path) and a large (1.56·10⁷ cells: 250³) grid, through the API on the 2-core machines of
 * docs/benchmarks.md. The hosts these sessions get differ: 250³ stepped at 750 Mcell/s on an
 * AMD EPYC and 475 on an Intel Xeon, both quiet; the prior takes their geometric mean, 600,
 * which is within 1.26 × of either until this server's own runs take over.
 */
const PRIOR: readonly { cells: number; secondsPerStep: number }[] = [
  { cells: 2e4, secondsPerStep: 6e-5 },
  { cells: 1.56e7, secondsPerStep: 2.6e-2 },
];
/**
 * w above: a cell that the structures' surfaces cross costs the time step about this many
 * plain cells more, its coefficients gathered lane by lane in a mixed piece of the kernel's row
 * (wasm/runs.ts). Measured on a 160³ grid with lattices of 1 to 1 000 spheres, two threads,
 * 2026-11-26: 0.8–1.8 (3.5 before the mixed pieces, when each such cell was a kernel run of its
 * own).
 */
const SURFACE_CELL_WEIGHT = 1.2;
/**
 * w_a: a cell of the CPML absorber costs the time step about this many plain cells more (the
 * ψ of one to three slabs read, updated and written beside the fields). Measured on an
 * 80 × 60 × 50 grid with 10 absorber cells on every face, one thread, 2026-11-29: 4.75 ns a
 * cell without absorbers, 14–18 with (70 % of the cells in them), about 3.3 times an interior
 * cell's cost per absorber cell.
 */
const ABSORBER_CELL_WEIGHT = 2.3;
/**
 * Seconds of one mode solve of a plane of n cells (operator, ordering, factorisation,
 * Arnoldi): a·n^1.3, through docs/benchmarks.md's figures on this 2-core host (a 60 × 50
 * port plane about 0.07 s a wavelength, a 200 × 150 plane 1.4 s).
 */
const modeSolveSeconds = (cells: number) => 2.1e-6 * Math.max(0, cells) ** 1.3;
/** Set-up seconds per surface cell: painting's fill fractions (1 000 spheres on 200³: 1 s). */
const SETUP_SECONDS_PER_SURFACE_CELL = 6.5e-7;
/** Runs remembered (the most recent). */
const WINDOW = 32;
/** Set-up seconds of a grid's size, beyond the fixed part (fields, tables): 250³ → 0.6 s. */
const SETUP_SECONDS_PER_CELL = 4e-8;
/** Fixed set-up seconds assumed until a run is seen (kernel compile, thread start). */
const DEFAULT_SETUP_SECONDS = 0.2;

/** What a run's cost depends on besides its cells and surface cells. */
export interface RunExtras {
  /** Cells of the CPML absorber (the grid's cells outside its region of interest). */
  absorberCells?: number;
  /** Mode solves of the set-up: each plane's cells and how many times it is solved. */
  modeSolves?: readonly { cells: number; count: number }[];
}

export interface RunObservation extends RunExtras {
  cells: number;
  /** Cells the structures' surfaces cross (solver/surface.ts); 0 if not known. */
  surfaceCells?: number;
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
    const fixedSetup = run.setupSeconds - sizedSetupSeconds(run.cells, run.surfaceCells, run);
    this.setup = 0.7 * this.setup + 0.3 * Math.max(0, fixedSetup);
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

  /**
   * Predicted seconds of a run of `cells` cells, `surfaceCells` of them crossed by the
   * structures' surfaces, for `steps` steps.
   */
  seconds(cells: number, steps: number, surfaceCells = 0, extras: RunExtras = {}): number {
    return (
      this.setupSeconds(cells, surfaceCells, extras) +
      steps * this.secondsPerStep(cells, surfaceCells, extras)
    );
  }

  /** Predicted set-up seconds of a run of `cells` cells. */
  setupSeconds(cells: number, surfaceCells = 0, extras: RunExtras = {}): number {
    return this.setup + sizedSetupSeconds(cells, surfaceCells, extras);
  }

  /** Predicted stepping rate for a grid of `cells` cells, in million cell-updates per second. */
  mcellsPerSecond(cells: number, surfaceCells = 0, extras: RunExtras = {}): number {
    return cells / this.secondsPerStep(cells, surfaceCells, extras) / 1e6;
  }

  private secondsPerStep(cells: number, surfaceCells = 0, extras: RunExtras = {}): number {
    return this.perStep + this.perCell * work(cells, surfaceCells, extras.absorberCells);
  }

  /**
   * Weighted least squares of seconds per step against cells, in relative terms (each point
   * weighted by 1/y², so a small job's 0.4 ms counts as much as a large job's 30 ms), with
   * both costs kept non-negative.
   */
  private fit(): void {
    const points = [
      // The prior counts as half a run while none has been seen, and fades quickly as runs
      // come in (with the square of their count: in relative terms a thin cross-section's
      // small prior would otherwise hold a machine twenty times slower per step back).
      ...PRIOR.map((p) => ({
        x: p.cells,
        y: p.secondsPerStep,
        w: 0.5 / (1 + this.runs.length) ** 2,
      })),
      ...this.runs.map((r) => ({
        x: work(r.cells, r.surfaceCells, r.absorberCells),
        y: r.steppingSeconds / r.steps,
        w: 1,
      })),
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

/**
 * A time step's work in plain cells: the grid's cells and the extra of the surface cells and
 * of the absorber's cells.
 */
function work(cells: number, surfaceCells = 0, absorberCells = 0): number {
  return (
    cells +
    SURFACE_CELL_WEIGHT * Math.min(surfaceCells, cells) +
    ABSORBER_CELL_WEIGHT * Math.min(absorberCells, cells)
  );
}

/**
 * Set-up seconds beyond the fixed part: the grid's fields and tables, painting the surfaces,
 * the mode solves.
 */
function sizedSetupSeconds(cells: number, surfaceCells = 0, extras: RunExtras = {}): number {
  const modes = (extras.modeSolves ?? []).reduce(
    (sum, m) => sum + m.count * modeSolveSeconds(m.cells),
    0,
  );
  return SETUP_SECONDS_PER_CELL * cells + SETUP_SECONDS_PER_SURFACE_CELL * surfaceCells + modes;
}
