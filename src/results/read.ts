/**
 * Reading result files back (CLI `inspect`/`plot`, dashboard plots): the monitors with their
 * coordinates and shapes, the solver report, one component at one wavelength as a 2-D
 * field map with real and imaginary parts, downsampled when large, the flux monitors' spectra
 * and the far-field monitors' radiation patterns.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import h5wasm, { type Dataset, type File as H5File, type Group } from "h5wasm/node";
import { BATCH_RESULT_FORMAT, RESULT_FORMAT } from "./hdf5.js";

export interface MonitorInfo {
  name: string;
  /** The group's `type`: field, flux, far_field or mode. */
  type: string;
  center: number[];
  size: number[];
  wavelengthsM: number[];
  components: string[];
  /** Sample counts along x, y, z. */
  shape: [number, number, number];
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
}

export interface ResultInfo {
  jobId: string;
  formatVersion: number;
  solverVersion: string;
  request: Record<string, unknown>;
  solver: Record<string, number | string>;
  materials: Record<string, Record<string, number | string>>;
  monitors: MonitorInfo[];
}

/** One flux monitor's spectrum (the file's /monitors/<name>/flux and cross-sections). */
export interface Spectrum {
  name: string;
  /** transmittance, reflectance, flux, power or box (solver/types.ts FluxQuantity). */
  quantity: string;
  wavelengthsM: readonly number[];
  /** The normalised flux; a box's net outflow in m². */
  flux: readonly number[];
  /** A box's cross-sections in m². */
  crossSections?: { scattering: readonly number[]; absorption: readonly number[] };
}

/**
 * One far-field monitor's radiation pattern (the file's /monitors/<name>/radiant_intensity with
 * its scales, or the job record's solver_report.far_field.<name>).
 */
export interface FarFieldPattern {
  name: string;
  wavelengthsM: readonly number[];
  /** Polar angles from +z, degrees. */
  thetaDeg: readonly number[];
  /** Azimuths from +x about +z, degrees. */
  phiDeg: readonly number[];
  /** Radiant intensity as [wavelength][theta][phi] in `unit`; NaN where not finite. */
  radiantIntensity: readonly (readonly (readonly number[])[])[];
  /** W/sr, or W/rad over one period for a 2-D cross-section's line pattern. */
  unit: FarFieldUnit;
}

export type FarFieldUnit = "W/sr" | "W/rad";

/** A far-field pattern's unit: a 2-D cross-section's (thin along an axis) is a line's, W/rad. */
export const farFieldUnit = (crossSectionAxis: unknown): FarFieldUnit =>
  crossSectionAxis === null || crossSectionAxis === undefined ? "W/sr" : "W/rad";

/** A 2-D map of one component: value[i * ny2 + j] with axes `axes[0]` (rows) × `axes[1]`. */
export interface FieldMap {
  monitor: string;
  component: string;
  wavelengthM: number;
  /** The two axes plotted, e.g. ["x", "z"]; a line monitor has one real axis and a dummy. */
  axes: [string, string];
  u: Float64Array;
  v: Float64Array;
  re: Float32Array;
  im: Float32Array;
  /** Original sample counts along (u, v) before downsampling. */
  fullShape: [number, number];
  /** For a volume monitor, the axis and coordinate of the slice shown. */
  slice: { axis: string; coordinate: number } | null;
}

type AttrValue = number | string | bigint | number[] | Float64Array | BigInt64Array | unknown;

function scalar(v: AttrValue): number | string {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number" || typeof v === "string") return v;
  if (ArrayBuffer.isView(v) || Array.isArray(v)) {
    const arr = Array.from(v as ArrayLike<number | bigint>, Number);
    return arr.length === 1 ? arr[0]! : JSON.stringify(arr);
  }
  return String(v);
}

function numbers(v: AttrValue): number[] {
  if (ArrayBuffer.isView(v) || Array.isArray(v)) {
    return Array.from(v as ArrayLike<number | bigint>, Number);
  }
  return [Number(v)];
}

function attrs(g: Group | Dataset): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [k, a] of Object.entries(g.attrs)) out[k] = scalar(a.value as AttrValue);
  return out;
}

const COMPONENTS = ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"];

const HDF5_SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The file size an HDF5 superblock at `at` declares (its base address plus its end-of-file
 * address); "cut" when the file ends before that address does (the header itself is cut);
 * null where it cannot say (another superblock version, an undefined address). Versions 0
 * and 1 keep the size of offsets at byte 13 and the base address at 24 or 28; versions 2 and
 * 3 at 9 and 12. The end-of-file address is two offsets after the base.
 */
function declaredEnd(fd: number, at: number): number | "cut" | null {
  const b = Buffer.alloc(48);
  const got = readSync(fd, b, 0, 48, at);
  if (got < 14) return "cut";
  const version = b[8]!;
  const [sizeAt, baseAt] =
    version <= 1 ? [13, version === 0 ? 24 : 28] : version <= 3 ? [9, 12] : [-1, -1];
  const size = sizeAt < 0 ? 0 : b[sizeAt]!;
  if (size !== 4 && size !== 8) return null;
  if (got < baseAt + 3 * size) return "cut";
  const address = (offset: number) =>
    size === 8 ? b.readBigUInt64LE(offset) : BigInt(b.readUInt32LE(offset));
  const undefinedAddress = size === 8 ? 0xffffffffffffffffn : 0xffffffffn;
  const [base, eof] = [address(baseAt), address(baseAt + 2 * size)];
  if (base === undefinedAddress || eof === undefinedAddress) return null;
  return Number(base + eof);
}

/**
 * Throws unless `path` is a regular file with the HDF5 signature: the fs's ENOENT for a
 * missing one, an Error with code EISDIR for anything but a file, "not an HDF5 file"
 * otherwise. Checked before h5wasm opens it, which would first print pages of HDF5
 * diagnostics to stderr and then fail with an unhelpful message.
 */
export function assertHdf5File(path: string): void {
  const stat = statSync(path);
  if (!stat.isFile()) {
    throw Object.assign(new Error(`${path} is not a file`), { code: "EISDIR" });
  }
  const fd = openSync(path, "r");
  try {
    // The superblock starts at 0, or at 512, 1024, 2048, … after a user block.
    const head = Buffer.alloc(8);
    for (let at = 0; at + 8 <= stat.size; at = at === 0 ? 512 : 2 * at) {
      readSync(fd, head, 0, 8, at);
      if (!head.equals(HDF5_SIGNATURE)) continue;
      const end = declaredEnd(fd, at);
      if (end !== null && (end === "cut" || stat.size < end)) {
        // HDF5 itself would print a page of diagnostics and then fail with "name not defined".
        const declared =
          end === "cut" ? "; its header is cut off" : ` of the ${end} its header declares`;
        throw new Error(
          `${path} is truncated: it has ${stat.size} bytes${declared} (an interrupted download? fetch it again)`,
        );
      }
      return;
    }
  } finally {
    closeSync(fd);
  }
  throw new Error(`${path} is not an HDF5 file`);
}

/** Opens an HDF5 file read-only and passes it to `fn`; always closes it. */
async function withHdf5File<T>(path: string, fn: (file: H5File) => T): Promise<T> {
  assertHdf5File(path);
  await h5wasm.ready;
  const file = new h5wasm.File(path, "r");
  try {
    return fn(file);
  } finally {
    file.close();
  }
}

/** Opens a result file, checks its format and passes it to `fn`; always closes it. */
export async function withResultFile<T>(path: string, fn: (file: H5File) => T): Promise<T> {
  return withHdf5File(path, (file) => {
    const format = file.attrs.format?.value;
    if (format === BATCH_RESULT_FORMAT) {
      throw new Error(
        `${path} is a batch's file (emsim sweep or emsim batch --out): one job's result file is ` +
          "read here; read a batch's with the Python client's emsim.load (docs/python.md) or h5py",
      );
    }
    if (format !== RESULT_FORMAT) throw new Error(`${path} is not an emsim result file`);
    return fn(file);
  });
}

/**
 * The `notes` of a batch's result file (batch-merge.ts): one line per group it could not
 * stack, with the reason. Empty for a file that stacked everything.
 */
export async function readBatchNotes(path: string): Promise<string[]> {
  return withHdf5File(path, (file) => {
    if (file.attrs.format?.value !== BATCH_RESULT_FORMAT) {
      throw new Error(`${path} is not an emsim batch result file`);
    }
    const notes = String(file.attrs.notes?.value ?? "");
    return notes.split("\n").filter((line) => line.trim() !== "");
  });
}

/**
 * A monitor's summary; far-field and mode monitors have no sample coordinates (shape 0 × 0 × 0).
 */
function monitorInfo(g: Group, name: string): MonitorInfo {
  const axis = (a: string) =>
    ((g.get(a) as Dataset | null)?.value as Float64Array | undefined) ?? new Float64Array(0);
  const [x, y, z] = [axis("x"), axis("y"), axis("z")];
  const keys = g.keys();
  return {
    name,
    type: String(g.attrs.type?.value ?? "field"),
    center: numbers(g.attrs.center?.value),
    size: numbers(g.attrs.size?.value),
    wavelengthsM: numbers(g.attrs.wavelengths?.value),
    components: COMPONENTS.filter((c) => keys.includes(c)),
    shape: [x.length, y.length, z.length],
    x,
    y,
    z,
  };
}

/** The /monitors groups of one `type` (flux, far_field, mode), with their names. */
function monitorsOfType(file: H5File, type: string): [string, Group][] {
  const monitors = file.get("monitors") as Group | null;
  return (monitors?.keys() ?? [])
    .map((name): [string, Group] => [name, monitors!.get(name) as Group])
    .filter(([, g]) => String(g.attrs.type?.value) === type);
}

/** The flux monitors' spectra of a result file (/monitors/<name> with type "flux"). */
export async function readSpectra(path: string): Promise<Spectrum[]> {
  return withResultFile(path, (file) => {
    const out: Spectrum[] = [];
    for (const [name, g] of monitorsOfType(file, "flux")) {
      const values = (key: string) => {
        const ds = g.get(key) as Dataset | null;
        return ds ? Array.from(ds.value as Float64Array, Number) : null;
      };
      const scattering = values("scattering_cross_section");
      const absorption = values("absorption_cross_section");
      out.push({
        name,
        quantity: String(g.attrs.quantity?.value),
        wavelengthsM: numbers(g.attrs.wavelengths?.value),
        flux: values("flux") ?? [],
        ...(scattering && absorption ? { crossSections: { scattering, absorption } } : {}),
      });
    }
    return out;
  });
}

/**
 * The far-field monitors' patterns of a result file (/monitors/<name> with type "far_field"):
 * radiant_intensity, shaped (nw, ntheta, nphi), along the wavelengths and the theta and phi
 * scales, in the job record's nesting.
 */
export async function readFarFields(path: string): Promise<FarFieldPattern[]> {
  return withResultFile(path, (file) => {
    const out: FarFieldPattern[] = [];
    for (const [name, g] of monitorsOfType(file, "far_field")) {
      const values = (key: string) =>
        Array.from(((g.get(key) as Dataset | null)?.value ?? []) as ArrayLike<number>, Number);
      const [thetaDeg, phiDeg, flat] = [
        values("theta"),
        values("phi"),
        values("radiant_intensity"),
      ];
      const wavelengthsM = numbers(g.attrs.wavelengths?.value);
      const [nt, np] = [thetaDeg.length, phiDeg.length];
      if (flat.length !== wavelengthsM.length * nt * np) {
        throw new Error(`far-field monitor '${name}': radiant_intensity has the wrong size`);
      }
      out.push({
        name,
        wavelengthsM,
        thetaDeg,
        phiDeg,
        unit: farFieldUnit(g.attrs.cross_section_axis?.value),
        radiantIntensity: wavelengthsM.map((_, w) =>
          thetaDeg.map((_, t) => flat.slice((w * nt + t) * np, (w * nt + t + 1) * np)),
        ),
      });
    }
    return out;
  });
}

/** A mode monitor's decomposition, per wavelength (rows) and mode (columns). */
export interface ModeDecomposition {
  name: string;
  wavelengthsM: number[];
  nEff: number[][];
  /** |amplitude|² along +normal and −normal: the power in the mode (W, of a 1 W source). */
  forwardPower: number[][];
  backwardPower: number[][];
}

/** The mode monitors of a result file (/monitors/<name> with type "mode"). */
export async function readModeMonitors(path: string): Promise<ModeDecomposition[]> {
  return withResultFile(path, (file) => {
    const out: ModeDecomposition[] = [];
    for (const [name, g] of monitorsOfType(file, "mode")) {
      const wavelengthsM = numbers(g.attrs.wavelengths?.value);
      const [nw, nm] = [wavelengthsM.length, Number((g.get("mode_index") as Dataset).shape![0])];
      const byRow = <T>(flat: ArrayLike<T>, offset: number, f: (v: T) => number) =>
        Array.from({ length: nw }, (_, w) =>
          Array.from({ length: nm }, (_, k) => f(flat[offset + w * nm + k]!)),
        );
      const nEff = (g.get("n_eff") as Dataset).value as Float64Array;
      // h5wasm returns compound data as rows [r, i]; amps is (direction, nw, nmode), + first.
      const amps = (g.get("amps") as Dataset).value as unknown as [number, number][];
      const power = ([r, i]: [number, number]) => r * r + i * i;
      out.push({
        name,
        wavelengthsM,
        nEff: byRow(nEff, 0, Number),
        forwardPower: byRow(amps, 0, power),
        backwardPower: byRow(amps, nw * nm, power),
      });
    }
    return out;
  });
}

export async function readResultInfo(path: string): Promise<ResultInfo> {
  return withResultFile(path, (file) => {
    const monitorsGroup = file.get("monitors") as Group | null;
    const materialsGroup = file.get("materials") as Group | null;
    const materials: ResultInfo["materials"] = {};
    for (const name of materialsGroup?.keys() ?? []) {
      materials[name] = attrs(materialsGroup!.get(name) as Group);
    }
    return {
      jobId: String(file.attrs.job_id?.value),
      formatVersion: Number(scalar(file.attrs.format_version?.value)),
      solverVersion: String(file.attrs.solver_version?.value),
      request: JSON.parse(String((file.get("simulation") as Group).attrs.request_json?.value)),
      solver: attrs(file.get("solver") as Group),
      materials,
      monitors: (monitorsGroup?.keys() ?? []).map((name) =>
        monitorInfo(monitorsGroup!.get(name) as Group, name),
      ),
    };
  });
}

/**
 * One component of one monitor at one wavelength as a 2-D map. Singleton axes are dropped;
 * a volume monitor is cut at `sliceIndex` (default: the middle) along its shortest axis; the
 * map is downsampled by striding to at most `maxSamples` per axis.
 */
export async function readFieldMap(
  path: string,
  monitor: string,
  component: string,
  options: { wavelengthIndex?: number; maxSamples?: number; sliceIndex?: number } = {},
): Promise<FieldMap> {
  return withResultFile(path, (file) => {
    const g = file.get(`monitors/${monitor}`) as Group | null;
    if (!g) throw new Error(`no monitor '${monitor}' in the result`);
    const info = monitorInfo(g, monitor);
    if (!info.components.includes(component)) {
      throw new Error(
        `monitor '${monitor}' did not record ${component} (it has ${info.components.join(", ")})`,
      );
    }
    const w = options.wavelengthIndex ?? 0;
    if (!Number.isInteger(w) || w < 0 || w >= info.wavelengthsM.length) {
      throw new Error(`wavelength index ${w} out of range 0–${info.wavelengthsM.length - 1}`);
    }
    const ds = g.get(component) as Dataset;
    const [nx, ny, nz] = info.shape;
    const axisNames = ["x", "y", "z"] as const;
    const coords = [info.x, info.y, info.z];
    const counts = [nx, ny, nz];
    let kept = [0, 1, 2].filter((a) => counts[a]! > 1);
    let slice: FieldMap["slice"] = null;
    const fixed = [0, 0, 0];
    if (kept.length === 3) {
      const cut = kept.reduce((best, a) => (counts[a]! < counts[best]! ? a : best), kept[0]!);
      const index = Math.min(counts[cut]! - 1, options.sliceIndex ?? Math.floor(counts[cut]! / 2));
      fixed[cut] = index;
      slice = { axis: axisNames[cut]!, coordinate: coords[cut]![index]! };
      kept = kept.filter((a) => a !== cut);
    }
    while (kept.length < 2) {
      const extra = [0, 1, 2].find((a) => !kept.includes(a))!;
      kept = [...kept, extra].sort();
    }
    const [ua, va] = kept as [number, number];
    const max = options.maxSamples ?? 400;
    const stride = [1, 1, 1];
    stride[ua] = Math.max(1, Math.ceil(counts[ua]! / max));
    stride[va] = Math.max(1, Math.ceil(counts[va]! / max));
    const nu = Math.ceil(counts[ua]! / stride[ua]!);
    const nv = Math.ceil(counts[va]! / stride[va]!);

    // Read only the strided hyperslab that is plotted, never the whole dataset: the plotted
    // axes with their strides, one index along every other axis (and one wavelength).
    const ranges: [number, number, number][] = [0, 1, 2].map((a) =>
      a === ua || a === va ? [0, counts[a]!, stride[a]!] : [fixed[a]!, fixed[a]! + 1, 1],
    );
    if (ds.shape!.length === 4) ranges.unshift([w, w + 1, 1]);
    // h5wasm returns compound data as rows [r, i], in C order over the slab: u before v.
    const rows = ds.slice(ranges) as unknown as [number, number][];
    const re = new Float32Array(nu * nv);
    const im = new Float32Array(nu * nv);
    for (let p = 0; p < nu * nv; p++) {
      re[p] = rows[p]![0];
      im[p] = rows[p]![1];
    }
    const u = new Float64Array(nu);
    const v = new Float64Array(nv);
    for (let a = 0; a < nu; a++) u[a] = coords[ua]![a * stride[ua]!]!;
    for (let b = 0; b < nv; b++) v[b] = coords[va]![b * stride[va]!]!;
    return {
      monitor,
      component,
      wavelengthM: info.wavelengthsM[w]!,
      axes: [axisNames[ua]!, axisNames[va]!],
      u,
      v,
      re,
      im,
      fullShape: [counts[ua]!, counts[va]!],
      slice,
    };
  });
}
