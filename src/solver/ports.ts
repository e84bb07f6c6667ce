/**
 * Ports and S-parameters (`source_type: "ports"`, DESIGN §10): one run per input port and
 * mode, each a mode source just inside its port (sources/mode.ts) with a mode monitor on every
 * port's plane (mode-results.ts), and the scattering matrix assembled from the runs' amplitudes.
 *
 * Each run launches 1 W of port i's mode m from a plane SOURCE_OFFSET_CELLS cells inside the
 * device from port i's plane, so the port's own monitor, upstream of the source, sees only what
 * comes back out. A port's `direction` is the way into the device: what leaves through port j
 * travels against it, and is its monitor's amplitude along −direction. Phases are referred to
 * each port's plane as the request gives it, wherever the grid's nodes fall: the launched
 * wave, 1 at the source plane, is e^{−iβδ} at port i's plane (δ the offset), and the leaving
 * wave, a_j on the node plane port j's monitor records, is a_j·e^{iβ_j·d} at port j's plane
 * (d beyond that node, outwards), so S_{j,i} = a_j·e^{i(βδ + β_j·d)}. Each run stops when its monitors' amplitudes stop
 * changing (the run's convergence test covers the mode monitors' recorded fields), so the
 * S-parameters carry no ripple from stopping early.
 *
 * The request's own monitors are recorded in every run, named `<name>@<port>@<mode>` in the
 * result; progress goes over all runs; one cancel stops them all.
 */
import { nodeIndexAt, nodeM, planGrid, type GridPlan } from "./grid.js";
import { listOf } from "./monitors.js";
import { portsFacingOut } from "./preview-warnings.js";
import type {
  ModeMonitorSpec,
  ModeSourceSpec,
  PortSpec,
  PortsSourceSpec,
  RunOptions,
  SimulationSpec,
  SMatrixResult,
  SolverResult,
  Vec3,
} from "./types.js";

/** How far inside the device from its port's plane a run's source sits. */
export const SOURCE_OFFSET_CELLS = 2;

/** One run: the port and mode it launches and the simulation that does. */
export interface PortRun {
  input: string;
  port: PortSpec;
  mode: number;
  spec: SimulationSpec;
  /** The source plane's distance into the device from the port's plane as given (m). */
  offsetM: number;
}

/** `o1@0`: port o1's mode 0. */
export const portMode = (port: string, mode: number) => `${port}@${mode}`;

/** Every port@mode, in the order of the ports and their modes (the S-matrix's rows). */
export function portModes(ports: readonly PortSpec[]): string[] {
  return ports.flatMap((p) =>
    Array.from({ length: p.mode_spec.num_modes }, (_, m) => portMode(p.name, m)),
  );
}

const axisOf = (p: PortSpec) => "xyz".indexOf(p.direction[1]!);
const signOf = (p: PortSpec) => (p.direction[0] === "-" ? -1 : 1);
const monitorName = (p: PortSpec) => `port ${p.name}`;

/** The runs a ports request makes: each input port's modes, in order. */
export function portRuns(spec: SimulationSpec): PortRun[] {
  const source = spec.source as PortsSourceSpec;
  const ports = spec.ports ?? [];
  const plan = planGrid(spec.domain, spec.fdtd_settings.courant_factor);
  const wavelengths = listOf(source.wavelengths);
  const monitors: ModeMonitorSpec[] = ports.map((p) => ({
    name: monitorName(p),
    port: p.name,
    monitor_type: "mode",
    center: [...p.center],
    size: [...p.size],
    wavelengths,
    mode_spec: p.mode_spec,
  }));
  return ports
    .filter((p) => source.run_ports.includes(p.name))
    .flatMap((port) =>
      Array.from({ length: port.mode_spec.num_modes }, (_, mode) => {
        const a = axisOf(port);
        const ax = plan.axes[a];
        const node = Math.round(nodeIndexAt(ax, port.center[a]));
        const sourceNode = node + signOf(port) * SOURCE_OFFSET_CELLS;
        const center = [...port.center] as Vec3;
        center[a] = nodeM(ax, sourceNode);
        const modeSource: ModeSourceSpec = {
          source_type: "mode",
          wavelength: source.wavelength,
          center,
          size: [...port.size],
          direction: port.direction,
          mode_index: mode,
          mode_spec: port.mode_spec,
        };
        const own = spec.monitors.map((m) => ({
          ...m,
          name: `${m.name}@${portMode(port.name, mode)}`,
        }));
        return {
          input: portMode(port.name, mode),
          port,
          mode,
          offsetM: Math.abs(center[a] - port.center[a]),
          spec: { ...spec, source: modeSource, monitors: [...monitors, ...own] },
        };
      }),
    );
}

/**
 * How far a port's plane as given lies beyond the node plane its monitor records on, along
 * the way a wave leaves the device through it (m; negative when it lies inside).
 */
function outwardFromNode(plan: GridPlan, port: PortSpec): number {
  const a = axisOf(port);
  const ax = plan.axes[a];
  const node = nodeM(ax, Math.round(nodeIndexAt(ax, port.center[a])));
  return (port.center[a] - node) * -signOf(port);
}

/**
 * The S-matrix from the runs' results: column i from run i's mode monitors, the amplitude
 * leaving through each port, referred to the input port's plane.
 */
export function assembleSMatrix(
  spec: SimulationSpec,
  plan: GridPlan,
  runs: readonly PortRun[],
  results: readonly SolverResult[],
): SMatrixResult {
  const ports = spec.ports ?? [];
  const names = portModes(ports);
  const P = names.length;
  const first = results[0]!.modeMonitors ?? [];
  const wavelengthsM = first[0]?.wavelengthsM ?? [];
  const W = wavelengthsM.length;
  const s = new Float64Array(2 * P * P * W).fill(Number.NaN);
  runs.forEach((run, r) => {
    const i = names.indexOf(run.input);
    const monitors = results[r]!.modeMonitors ?? [];
    const input = monitors.find((m) => m.name === monitorName(run.port))!;
    for (const port of ports) {
      const m = monitors.find((x) => x.name === monitorName(port))!;
      const out = signOf(port) > 0 ? m.backward : m.forward;
      const beyond = outwardFromNode(plan, port);
      for (let k = 0; k < port.mode_spec.num_modes; k++) {
        const o = names.indexOf(portMode(port.name, k));
        for (let w = 0; w < W; w++) {
          // The launched wave is e^{−iβδ} at the input port's plane (β of its mode); the leaving
          // wave gains e^{iβ'd} from its monitor's node plane out to the output port's plane.
          const beta = (2 * Math.PI * input.nEff[w * input.modes + run.mode]!) / wavelengthsM[w]!;
          const betaOut = (2 * Math.PI * m.nEff[w * m.modes + k]!) / wavelengthsM[w]!;
          const phase = beta * run.offsetM + betaOut * beyond;
          const [c, sn] = [Math.cos(phase), Math.sin(phase)];
          const [ar, ai] = [out[2 * (w * m.modes + k)]!, out[2 * (w * m.modes + k) + 1]!];
          const at = 2 * ((o * P + i) * W + w);
          s[at] = ar * c - ai * sn;
          s[at + 1] = ar * sn + ai * c;
        }
      }
    }
  });
  const nEff = new Float64Array(P * W);
  for (const port of ports) {
    const m = first.find((x) => x.name === monitorName(port))!;
    for (let k = 0; k < port.mode_spec.num_modes; k++) {
      const o = names.indexOf(portMode(port.name, k));
      for (let w = 0; w < W; w++) nEff[o * W + w] = m.nEff[w * m.modes + k]!;
    }
  }
  fillFromSymmetries(s, names, W, (spec.source as PortsSourceSpec).port_symmetries ?? {});
  return {
    ports: names,
    inputs: runs.map((r) => r.input),
    wavelengthsM,
    frequenciesHz: first[0]?.frequenciesHz ?? [],
    nEff,
    s,
  };
}

/** Copies each computed "out,in" element onto the elements its symmetry names (ports.ts). */
function fillFromSymmetries(
  s: Float64Array,
  names: readonly string[],
  W: number,
  symmetries: Record<string, readonly string[]>,
): void {
  const P = names.length;
  const offset = (key: string) => {
    const [out, input] = key.split(",").map((x) => names.indexOf(x.trim()));
    return 2 * (out! * P + input!) * W;
  };
  for (const [from, targets] of Object.entries(symmetries)) {
    const src = offset(from);
    for (const target of targets) s.copyWithin(offset(target), src, src + 2 * W);
  }
}

/**
 * Runs every input and assembles the result: the last run's grid, materials and report, the
 * request's own monitors of every run (renamed per input), and the S-matrix.
 */
export async function runPorts(
  spec: SimulationSpec,
  runOne: (spec: SimulationSpec, options: RunOptions) => Promise<SolverResult>,
  options: RunOptions,
): Promise<SolverResult> {
  const plan = planGrid(spec.domain, spec.fdtd_settings.courant_factor);
  const runs = portRuns(spec);
  const results: SolverResult[] = [];
  for (const [r, run] of runs.entries()) {
    const onProgress = options.onProgress;
    const before = results.reduce((n, x) => n + x.report.stepsRun, 0);
    const result = await runOne(run.spec, {
      ...options,
      onProgress: onProgress && ((p) => onProgress(overRuns(p, r, runs.length, before))),
    });
    results.push(result);
  }
  const last = results[results.length - 1]!;
  const own = new Set(spec.monitors.map((m) => m.name));
  const ownOf = <T extends { name: string }>(list: readonly T[]) =>
    list.filter((m) => own.has(m.name.slice(0, m.name.indexOf("@"))));
  return {
    ...last,
    monitors: results.flatMap((x) => ownOf(x.monitors)),
    fluxMonitors: results.flatMap((x) => ownOf(x.fluxMonitors)),
    farFieldMonitors: results.flatMap((x) => ownOf(x.farFieldMonitors)),
    modeMonitors: results.flatMap((x) => ownOf(x.modeMonitors ?? [])),
    // Every run paints the same structures: the first run's planes, under the monitors' names.
    permittivity: ownOf(results[0]!.permittivity ?? []).map((p) => ({
      ...p,
      name: p.name.slice(0, p.name.indexOf("@")),
    })),
    sMatrix: assembleSMatrix(spec, plan, runs, results),
    report: {
      ...last.report,
      notes: [
        ...last.report.notes,
        `ports: ${runs.length} runs (${runs.map((r) => r.input).join(", ")}); the report's figures are the last run's`,
        // What the preview warns of ports, said with their S-matrix too.
        ...portsFacingOut(spec, plan).map((w) => w.message),
      ],
    },
  };
}

/**
 * Run r's progress as progress over all n runs: the steps the runs before it took (`before`)
 * and its own, out of those and the step limits of the runs still to come.
 */
function overRuns(
  p: Parameters<NonNullable<RunOptions["onProgress"]>>[0],
  r: number,
  n: number,
  before: number,
) {
  const fraction = (r + p.fraction) / n;
  return { ...p, fraction, step: before + p.step, totalSteps: before + p.totalSteps * (n - r) };
}
