/**
 * Where a run's time went, from its report: the set-up's parts, the stepping's parts and the
 * writing of the result file, in the order they happen. `emsim inspect` prints it as a line per
 * phase; the dashboard's job page draws it as a bar with the same words beside it.
 */
import type { SolverReport } from "../schema/responses.js";
import { formatPercent, formatSeconds } from "./units.js";

export type TimePhase = "setup" | "stepping" | "result";

const PHASE_LABELS: Record<TimePhase, string> = {
  setup: "set-up",
  stepping: "stepping",
  result: "result file",
};

export interface TimePart {
  /** Stable name of the part (the dashboard's colour): `grid`, `kernel`, `result`… */
  key: string;
  phase: TimePhase;
  label: string;
  seconds: number;
  /** Of the split's total. */
  fraction: number;
}

export interface TimeSplit {
  /** The parts' sum: about wall_seconds, plus the writing of the result file when reported. */
  totalSeconds: number;
  /** Parts that took any time, in the order they happen. */
  parts: TimePart[];
}

type PartSource = [TimePhase, string, string, (r: SolverReport) => number | undefined];

/** The parts a report breaks its time into (SolverReportSchema's `setup` and `stepping`). */
const DETAILED: readonly PartSource[] = [
  ["setup", "grid", "grid and monitors", (r) => r.setup?.grid_seconds],
  ["setup", "painting", "painting structures", (r) => r.setup?.painting_seconds],
  ["setup", "fields", "fields and tables", (r) => r.setup?.fields_seconds],
  ["setup", "compile", "compiling the kernel", (r) => r.setup?.compile_seconds],
  ["setup", "threads", "starting threads", (r) => r.setup?.thread_start_seconds],
  ["stepping", "kernel", "kernel", (r) => r.stepping?.kernel_seconds],
  ["stepping", "source", "source", (r) => r.stepping?.source_seconds],
  ["stepping", "monitors", "monitors (DFT)", (r) => r.stepping?.monitor_seconds],
  ["stepping", "checks", "convergence checks", (r) => r.stepping?.checks_seconds],
  ["stepping", "yields", "yields and progress", (r) => r.stepping?.yield_seconds],
  ["stepping", "other", "other", (r) => r.stepping?.other_seconds],
];

/** Reports from before the parts were timed have the two phases only. */
const COARSE: readonly PartSource[] = [
  ["setup", "setup", "set-up", (r) => r.setup_seconds],
  ["stepping", "stepping", "stepping", (r) => r.stepping_seconds],
];

const RESULT: PartSource = [
  "result",
  "result",
  "writing the result file",
  (r) => r.result_writing_seconds,
];

/** The report's time split, or null when it has none (only `wall_seconds`). */
export function timeSplit(report: SolverReport): TimeSplit | null {
  const sources = [...(report.setup && report.stepping ? DETAILED : COARSE), RESULT];
  const timed = sources
    .map(([phase, key, label, read]) => ({ phase, key, label, seconds: read(report) ?? 0 }))
    .filter((p) => Number.isFinite(p.seconds) && p.seconds > 0);
  const totalSeconds = timed.reduce((sum, p) => sum + p.seconds, 0);
  if (!timed.some((p) => p.phase !== "result")) return null;
  return { totalSeconds, parts: timed.map((p) => ({ ...p, fraction: p.seconds / totalSeconds })) };
}

/** Each phase that took time, with its seconds and fraction, in order. */
export function phasesOf(
  split: TimeSplit,
): { phase: TimePhase; seconds: number; parts: TimePart[] }[] {
  const phases = (["setup", "stepping", "result"] as const).map((phase) => {
    const parts = split.parts.filter((p) => p.phase === phase);
    return { phase, seconds: parts.reduce((sum, p) => sum + p.seconds, 0), parts };
  });
  return phases.filter((p) => p.parts.length > 0);
}

/** `kernel 73 ms (33 %)`. */
export function partText(part: { label: string; seconds: number; fraction: number }): string {
  return `${part.label} ${formatSeconds(part.seconds)} (${formatPercent(part.fraction)})`;
}

/** `stepping 180 ms (81 %)`. */
export function phaseText(split: TimeSplit, phase: { phase: TimePhase; seconds: number }): string {
  return partText({
    label: PHASE_LABELS[phase.phase],
    seconds: phase.seconds,
    fraction: phase.seconds / split.totalSeconds,
  });
}

/**
 * One line per phase: `stepping 180 ms (81 %): kernel 73 ms, source 80 ms, …`; a phase of one
 * part (the result file, or an old report's phases) without the list.
 */
export function timeSplitLines(split: TimeSplit): string[] {
  return phasesOf(split).map((phase) => {
    const head = phaseText(split, phase);
    if (phase.parts.length === 1) return head;
    return `${head}: ${phase.parts.map((p) => `${p.label} ${formatSeconds(p.seconds)}`).join(", ")}`;
  });
}
