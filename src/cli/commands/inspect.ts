/**
 * `emsim inspect result.h5 [--json]`: what a result file holds — the solver report, the
 * source, the materials, and each monitor's kind, shape, components and wavelengths (with the
 * values of point monitors, and the spectrum of flux monitors: the normalised flux, and a
 * box's cross-sections).
 */
import {
  readFieldMap,
  readSpectra,
  type MonitorInfo,
  type ResultInfo,
  type Spectrum,
} from "../../results/read.js";
import {
  defaultIo,
  EXIT,
  fields,
  formatMicrons,
  printJson,
  runClientCommand,
  table,
  type CommandIo,
} from "../output.js";
import { parse, UsageError } from "../usage.js";
import { readResult } from "./plot.js";

function kind(m: MonitorInfo, spectrum?: Spectrum): string {
  if (spectrum) return `flux (${spectrum.quantity})`;
  return ["point", "line", "plane", "volume"][m.shape.filter((n) => n > 1).length]!;
}

/** A flux monitor's spectrum as rows: λ, the normalised flux, and a box's cross-sections. */
function spectrumTable(s: Spectrum): string[][] {
  const cs = s.crossSections;
  const header = ["λ (µm)", s.quantity === "box" ? "net outflow (m²)" : s.quantity];
  if (cs) header.push("σ_ext (m²)", "σ_sca (m²)", "σ_abs (m²)");
  const g = (v: number) => (s.quantity === "box" || cs ? v.toExponential(4) : v.toFixed(5));
  return [
    header,
    ...s.wavelengthsM.map((w, i) => [
      String(Number((w * 1e6).toPrecision(4))),
      g(s.flux[i]!),
      ...(cs
        ? [cs.scattering[i]! + cs.absorption[i]!, cs.scattering[i]!, cs.absorption[i]!].map((v) =>
            v.toExponential(4),
          )
        : []),
    ]),
  ];
}

const vec = (v: number[]) => `(${v.map((x) => Number((x * 1e6).toPrecision(4))).join(", ")})`;
const num = (v: unknown) => (typeof v === "number" ? v : Number(v));

/** |value| of every component at every wavelength of a point monitor. */
async function pointValues(file: string, m: MonitorInfo): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const c of m.components) {
    out[c] = [];
    for (let w = 0; w < m.wavelengthsM.length; w++) {
      const map = await readFieldMap(file, m.name, c, { wavelengthIndex: w });
      out[c].push(Math.hypot(map.re[0]!, map.im[0]!));
    }
  }
  return out;
}

/** ", refined to 10 nm by 2 mesh overrides" for a graded grid, "" for a uniform one. */
function refinedTo(overrides: { resolution: number | number[] }[] | undefined): string {
  if (!overrides || overrides.length === 0) return "";
  const finest = Math.min(
    ...overrides.flatMap((o) => (typeof o.resolution === "number" ? [o.resolution] : o.resolution)),
  );
  const n = overrides.length;
  return `, refined to ${formatMicrons(finest)} by ${n} mesh override${n === 1 ? "" : "s"}`;
}

function solverLines(info: ResultInfo): [string, string][] {
  const s = info.solver;
  const converged = num(s.converged) === 1;
  const grid = (() => {
    try {
      return (JSON.parse(String(s.grid_shape)) as number[]).join(" × ");
    } catch {
      return String(s.grid_shape);
    }
  })();
  const request = info.request as {
    domain?: {
      resolution?: number;
      mesh_overrides?: { resolution: number | number[] }[];
    };
    source?: {
      wavelength?: number;
      polarization?: string;
      direction?: number[];
      amplitude?: number;
    };
  };
  const rows: [string, string][] = [
    [
      "run",
      `${num(s.steps_run)} of ${num(s.time_steps_limit)} steps, ${converged ? `converged at step ${num(s.converged_at_step)}` : "did not converge"} (last relative change ${num(s.last_relative_change).toExponential(1)})`,
    ],
    [
      "grid",
      `${grid} = ${num(s.cells).toLocaleString("en-US")} cells, step ${formatMicrons(num(request.domain?.resolution))}${refinedTo(request.domain?.mesh_overrides)}, dt ${num(s.dt).toExponential(3)} s`,
    ],
    [
      "speed",
      `${num(s.wall_seconds).toFixed(1)} s, ${num(s.mcells_per_second).toFixed(1)} Mcells/s, kernel ${String(s.kernel)}, ${num(s.threads)} thread(s)`,
    ],
  ];
  const src = request.source;
  if (src) {
    rows.push([
      "source",
      `plane wave λ = ${formatMicrons(num(src.wavelength))}, ${src.polarization}, direction (${src.direction?.join(", ")}), amplitude ${src.amplitude} V/m`,
    ]);
  }
  const notes = String(s.notes ?? "").trim();
  if (notes) rows.push(["notes", notes]);
  return rows;
}

/** A flux monitor's spectrum in `inspect --json`. */
function spectrumJson(s: Spectrum | undefined): Record<string, unknown> {
  if (!s) return {};
  return {
    quantity: s.quantity,
    flux: s.flux,
    ...(s.crossSections
      ? {
          scattering_cross_section_m2: s.crossSections.scattering,
          absorption_cross_section_m2: s.crossSections.absorption,
        }
      : {}),
  };
}

export async function runInspect(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new UsageError("usage: emsim inspect <result.h5> [--json]");
  io = { ...io, json: values.json === true };
  const file = positionals[0]!;
  return runClientCommand(io, async () => {
    const info = await readResult(file);
    const spectra = new Map((await readSpectra(file)).map((s) => [s.name, s]));
    const points = new Map<string, Record<string, number[]>>();
    for (const m of info.monitors)
      if (kind(m, spectra.get(m.name)) === "point") points.set(m.name, await pointValues(file, m));

    if (io.json) {
      printJson(io, {
        file,
        job_id: info.jobId,
        format_version: info.formatVersion,
        solver_version: info.solverVersion,
        solver: info.solver,
        materials: info.materials,
        monitors: info.monitors.map((m) => ({
          name: m.name,
          kind: kind(m, spectra.get(m.name)),
          shape: m.shape,
          components: m.components,
          wavelengths_m: m.wavelengthsM,
          center_m: m.center,
          size_m: m.size,
          ...(points.has(m.name) ? { abs_values: points.get(m.name) } : {}),
          ...spectrumJson(spectra.get(m.name)),
        })),
        request: info.request,
      });
      return EXIT.ok;
    }

    const out: string[] = [];
    out.push(
      `${file}: emsim result format ${info.formatVersion}, job ${info.jobId}, solver ${info.solverVersion}`,
    );
    out.push("", fields(solverLines(info)));
    out.push("", "Materials");
    out.push(
      table([
        ["NAME", "ε AT λ0", "σ (S/m)", "VALID (µm)", "MODEL"],
        ...Object.entries(info.materials).map(([name, a]) => {
          let range = String(a.valid_range);
          try {
            const [lo, hi] = JSON.parse(range) as number[];
            range =
              hi! > 1
                ? "all"
                : `${Number((lo! * 1e6).toPrecision(3))}–${Number((hi! * 1e6).toPrecision(4))}`;
          } catch {
            // leave as stored
          }
          return [
            name,
            `${num(a.permittivity_real).toFixed(4)}${num(a.permittivity_imag) !== 0 ? ` + ${num(a.permittivity_imag).toExponential(2)}i` : ""}`,
            String(num(a.conductivity)),
            range,
            String(a.model),
          ];
        }),
      ]),
    );
    out.push("", "Monitors");
    out.push(
      table([
        [
          "NAME",
          "KIND",
          "SHAPE (x × y × z)",
          "COMPONENTS",
          "WAVELENGTHS (µm)",
          "CENTER (µm)",
          "SIZE (µm)",
        ],
        ...info.monitors.map((m) => [
          m.name,
          kind(m, spectra.get(m.name)),
          m.shape.join(" × "),
          m.components.join(" "),
          m.wavelengthsM.map((w) => Number((w * 1e6).toPrecision(4))).join(" "),
          vec(m.center),
          vec(m.size),
        ]),
      ]),
    );
    for (const [name, byComponent] of points) {
      const m = info.monitors.find((x) => x.name === name)!;
      out.push("", `Point monitor '${name}' (|value| per wavelength)`);
      out.push(
        table([
          ["λ (µm)", ...Object.keys(byComponent).map((c) => `|${c}|`)],
          ...m.wavelengthsM.map((w, i) => [
            String(Number((w * 1e6).toPrecision(4))),
            ...Object.values(byComponent).map((v) => v[i]!.toPrecision(4)),
          ]),
        ]),
      );
    }
    for (const spectrum of spectra.values()) {
      out.push("", `Flux monitor '${spectrum.name}' (${spectrum.quantity})`);
      out.push(table(spectrumTable(spectrum)));
    }
    io.stdout.write(`${out.join("\n")}\n`);
    return EXIT.ok;
  });
}
