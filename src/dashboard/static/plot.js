// @ts-check
/* global document, window, fetch, atob, getComputedStyle, ResizeObserver, URLSearchParams, setTimeout, clearTimeout */
/**
 * Field plots of a completed job on a <canvas>: a heat map for plane monitors (and slices of
 * volume monitors) with axes in micrometres, a colour bar and the structures outlined; a line
 * plot of |E| and the real part of a component for line monitors. Data come from the
 * dashboard's JSON endpoints as 16-bit integers (see src/dashboard/plots.ts).
 */
// The colour maps are the plotting core's (src/plot/colormap.ts, compiled; assets.ts serves it).
import { diverging, paint, sequential } from "./plot-colormap.js";
import { niceTicks, tickLabel } from "./plot-ticks.js";

/**
 * @typedef {{ name: string, kind: "point"|"line"|"plane"|"volume", axes: string[],
 *   shape: number[], components: string[], wavelengths_m: number[], center_m: number[],
 *   size_m: number[], quantities: string[], plottable: boolean,
 *   slice: { axis: string, count: number, coordinates_um: number[] } | null }} Monitor
 * @typedef {{ type: string, material: string, center_m?: number[], size_m?: number[],
 *   radius_m?: number, height_m?: number, axis?: string }} Structure
 * @typedef {{ job_id: string, source_wavelength_m: number | null, monitors: Monitor[],
 *   structures: Structure[] }} Summary
 * @typedef {{ monitor: string, quantity: string, wavelength_m: number, kind: string,
 *   axes: string[], coords_um: number[][], shape: number[], full_shape: number[],
 *   slice: { axis: string, index: number, count: number, coordinate_um: number } | null,
 *   from_components: string[], scale: number, max_abs: number, abs?: string, re?: string,
 *   im?: string }} Payload
 * @typedef {{ payload: Payload, abs?: Float32Array, re?: Float32Array, im?: Float32Array }} Field
 */

const AXES = ["x", "y", "z"];
const FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const SMALL_FONT = "11px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const MINUS = "\u2212";

/** @param {string} q */
const isMagnitude = (q) => q === "E" || q === "H";
/** @param {string} q */
const unitOf = (q) => (q.startsWith("H") ? "A/m" : "V/m");
/** @param {string} q */
const quantityLabel = (q) => (isMagnitude(q) ? `|${q}|` : `Re ${q}`);

/** @param {number} m */
function nm(m) {
  return `${+(m * 1e9).toFixed(1)} nm`;
}

/** @param {number} v */
function formatUm(v) {
  return `${+v.toPrecision(4)}`.replace("-", MINUS);
}

/** @param {number} v */
function formatValue(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  const text = a >= 1e4 || a < 1e-3 ? v.toExponential(3) : v.toPrecision(4);
  return text.replace("-", MINUS);
}

/**
 * @param {string} b64 little-endian int16 samples
 * @param {number} scale
 */
function decode(b64, scale) {
  const bin = atob(b64);
  const out = new Float32Array(bin.length / 2);
  for (let i = 0; i < out.length; i++) {
    let v = bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8);
    if (v >= 32768) v -= 65536;
    out[i] = v * scale;
  }
  return out;
}

/**
 * Extent of samples along an axis, half a sample beyond the first and last (pixel edges).
 * @param {number[]} coords
 */
function extent(coords) {
  const n = coords.length;
  const first = coords[0] ?? 0;
  const last = coords[n - 1] ?? 0;
  const half = n > 1 ? (last - first) / (n - 1) / 2 : 0.05;
  return [first - half, last + half];
}

/**
 * The cross-sections of the structures with a plane (normal axis at `cut` µm) as rectangles or
 * circles in the plane's (u, v) coordinates, µm.
 * @param {Structure[]} structures
 * @param {number} normal axis index
 * @param {number} cut
 * @param {number} ua @param {number} va plotted axes indices
 */
function sections(structures, normal, cut, ua, va) {
  /** @type {{shape: "rect"|"circle", u0: number, u1: number, v0: number, v1: number, material: string}[]} */
  const out = [];
  for (const s of structures) {
    const c = (s.center_m ?? [0, 0, 0]).map((m) => m * 1e6);
    const cu = c[ua] ?? 0;
    const cv = c[va] ?? 0;
    const d = cut - (c[normal] ?? 0);
    if (s.type === "box" && s.size_m) {
      const size = s.size_m.map((m) => m * 1e6);
      if (Math.abs(d) > (size[normal] ?? 0) / 2 + 1e-9) continue;
      const hu = (size[ua] ?? 0) / 2;
      const hv = (size[va] ?? 0) / 2;
      out.push({
        shape: "rect",
        u0: cu - hu,
        u1: cu + hu,
        v0: cv - hv,
        v1: cv + hv,
        material: s.material,
      });
    } else if (s.type === "sphere" && s.radius_m) {
      const r = s.radius_m * 1e6;
      if (Math.abs(d) > r) continue;
      const rr = Math.sqrt(r * r - d * d);
      out.push({
        shape: "circle",
        u0: cu - rr,
        u1: cu + rr,
        v0: cv - rr,
        v1: cv + rr,
        material: s.material,
      });
    } else if (s.type === "cylinder" && s.radius_m && s.height_m) {
      const r = s.radius_m * 1e6;
      const h = s.height_m * 1e6;
      const axis = AXES.indexOf(s.axis ?? "z");
      if (axis === normal) {
        if (Math.abs(d) > h / 2) continue;
        out.push({
          shape: "circle",
          u0: cu - r,
          u1: cu + r,
          v0: cv - r,
          v1: cv + r,
          material: s.material,
        });
      } else {
        if (Math.abs(d) > r) continue;
        const chord = Math.sqrt(r * r - d * d);
        const hu = axis === ua ? h / 2 : chord;
        const hv = axis === va ? h / 2 : chord;
        out.push({
          shape: "rect",
          u0: cu - hu,
          u1: cu + hu,
          v0: cv - hv,
          v1: cv + hv,
          material: s.material,
        });
      }
    }
  }
  return out;
}

/**
 * Intervals along a line (axis `along`, through `point` µm) that lie inside structures.
 * @param {Structure[]} structures @param {number} along @param {number[]} point
 */
function lineCrossings(structures, along, point) {
  /** @type {{t0: number, t1: number, material: string}[]} */
  const out = [];
  for (const s of structures) {
    const c = (s.center_m ?? [0, 0, 0]).map((m) => m * 1e6);
    if (s.type === "box" && s.size_m) {
      const size = s.size_m.map((m) => m * 1e6);
      const inside = [0, 1, 2].every(
        (a) => a === along || Math.abs((point[a] ?? 0) - (c[a] ?? 0)) <= (size[a] ?? 0) / 2 + 1e-9,
      );
      if (inside) {
        const h = (size[along] ?? 0) / 2;
        out.push({ t0: (c[along] ?? 0) - h, t1: (c[along] ?? 0) + h, material: s.material });
      }
    } else if (s.type === "sphere" && s.radius_m) {
      const r = s.radius_m * 1e6;
      let d2 = 0;
      for (const a of [0, 1, 2]) if (a !== along) d2 += ((point[a] ?? 0) - (c[a] ?? 0)) ** 2;
      if (d2 <= r * r) {
        const h = Math.sqrt(r * r - d2);
        out.push({ t0: (c[along] ?? 0) - h, t1: (c[along] ?? 0) + h, material: s.material });
      }
    }
  }
  return out;
}

class FieldPlots {
  /** @param {HTMLElement} section */
  constructor(section) {
    this.section = section;
    /** @param {string} id */
    const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
    this.monitorSelect = /** @type {HTMLSelectElement} */ (el("plot-monitor"));
    this.quantitySelect = /** @type {HTMLSelectElement} */ (el("plot-quantity"));
    this.wavelengthSelect = /** @type {HTMLSelectElement} */ (el("plot-wavelength"));
    this.sliceField = el("plot-slice-field");
    this.sliceInput = /** @type {HTMLInputElement} */ (el("plot-slice"));
    this.sliceOutput = /** @type {HTMLOutputElement} */ (el("plot-slice-value"));
    this.canvas = /** @type {HTMLCanvasElement} */ (el("plot-canvas"));
    this.stage = el("plot-stage");
    this.status = el("plot-status");
    this.caption = el("plot-caption");
    this.readout = el("plot-readout");
    /** @type {Summary | null} */
    this.summary = null;
    /** @type {Map<string, Promise<Field>>} */
    this.cache = new Map();
    /** @type {{ monitor: Monitor, fields: Field[] } | null} */
    this.current = null;
    /** Geometry of the last drawing, for the hover read-out. */
    /** @type {{ x0: number, y0: number, w: number, h: number, u: number[], v: number[], ue: number[], ve: number[] } | null} */
    this.frame = null;
    /** @type {number | null} */
    this.hoverX = null;
    /** @type {{ label: string, values: Float32Array, color: string, width: number }[]} */
    this.lineSeries = [];
    this.loadSeq = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.sliceTimer = undefined;
  }

  async start() {
    try {
      const res = await fetch(this.section.dataset.result ?? "", {
        headers: { accept: "application/json" },
      });
      if (!res.ok)
        throw new Error((await res.json().catch(() => ({}))).detail ?? `HTTP ${res.status}`);
      this.summary = /** @type {Summary} */ (await res.json());
    } catch (err) {
      this.showStatus(
        `Could not read the result file: ${/** @type {Error} */ (err).message}`,
        true,
      );
      return;
    }
    const monitors = this.summary.monitors;
    if (monitors.length === 0) {
      this.showStatus("This simulation recorded no field monitors.", false);
      return;
    }
    for (const m of monitors) {
      const option = new window.Option(
        `${m.name} (${this.kindText(m)})${m.plottable ? "" : " — too large"}`,
        m.name,
      );
      option.disabled = !m.plottable;
      this.monitorSelect.append(option);
    }
    // Fields are best seen as maps: start with the first plane or volume, else what there is.
    const first =
      monitors.find((m) => m.plottable && (m.kind === "plane" || m.kind === "volume")) ??
      monitors.find((m) => m.plottable);
    if (!first) {
      this.showStatus("The monitors are too large to plot here; download the result file.", false);
      return;
    }
    this.monitorSelect.value = first.name;
    this.monitorSelect.disabled = false;
    this.monitorSelect.addEventListener("change", () => this.onMonitor());
    this.quantitySelect.addEventListener("change", () => this.load());
    this.wavelengthSelect.addEventListener("change", () => this.load());
    this.sliceInput.addEventListener("input", () => {
      this.updateSliceLabel();
      clearTimeout(this.sliceTimer);
      this.sliceTimer = setTimeout(() => this.load(), 150);
    });
    new ResizeObserver(() => this.draw()).observe(this.stage);
    this.canvas.addEventListener("pointermove", (e) => this.onPointer(e));
    this.canvas.addEventListener("pointerleave", () => this.onPointer(null));
    this.addSaveButton();
    this.onMonitor();
  }

  /** @param {Monitor} m */
  kindText(m) {
    if (m.kind === "plane") return `plane ${m.axes.join("–")}`;
    if (m.kind === "line") return `line along ${m.axes[0]}`;
    return m.kind;
  }

  monitor() {
    return this.summary?.monitors.find((m) => m.name === this.monitorSelect.value) ?? null;
  }

  onMonitor() {
    const m = this.monitor();
    if (!m) return;
    const previous = this.quantitySelect.value;
    this.quantitySelect.replaceChildren();
    // A line shows |E| (or |H|) always; the selector picks the component drawn beside it.
    const quantities = m.kind === "line" ? m.components : m.quantities;
    for (const q of quantities) {
      this.quantitySelect.append(
        new window.Option(
          m.kind === "line" ? `${quantityLabel(q)} with |${q[0]}|` : quantityLabel(q),
          q,
        ),
      );
    }
    this.quantitySelect.value = quantities.includes(previous)
      ? previous
      : this.defaultQuantity(m, quantities);
    this.quantitySelect.disabled = quantities.length < 2;
    this.wavelengthSelect.replaceChildren();
    m.wavelengths_m.forEach((w, i) => {
      const source = this.summary?.source_wavelength_m;
      const isSource =
        source !== null && source !== undefined && Math.abs(w - source) <= 1e-6 * source;
      this.wavelengthSelect.append(
        new window.Option(
          `${nm(w)}${isSource && m.wavelengths_m.length > 1 ? " (source)" : ""}`,
          String(i),
        ),
      );
    });
    this.wavelengthSelect.disabled = m.wavelengths_m.length < 2;
    if (m.slice) {
      this.sliceField.hidden = false;
      this.sliceInput.max = String(m.slice.count - 1);
      this.sliceInput.value = String(Math.floor(m.slice.count / 2));
      this.updateSliceLabel();
    } else {
      this.sliceField.hidden = true;
    }
    this.load();
  }

  /** @param {Monitor} m @param {string[]} quantities */
  defaultQuantity(m, quantities) {
    if (m.kind !== "line") return quantities[0] ?? "E";
    // The strongest-looking default: the component the source drives, unknown here, so the
    // first E component recorded.
    return quantities.find((q) => q.startsWith("E")) ?? quantities[0] ?? "E";
  }

  updateSliceLabel() {
    const m = this.monitor();
    if (!m?.slice) return;
    const c = m.slice.coordinates_um[Number(this.sliceInput.value)] ?? 0;
    this.sliceOutput.textContent = `${m.slice.axis} = ${formatUm(c)} µm`;
  }

  /** @param {string} text @param {boolean} error */
  showStatus(text, error) {
    this.status.hidden = false;
    this.status.textContent = text;
    this.status.classList.toggle("plot-error", error);
    if (error) this.canvas.dataset.state = "error";
  }

  /**
   * @param {Monitor} m @param {string} quantity @param {number} w @param {number | null} slice
   * @returns {Promise<Field>}
   */
  fetchField(m, quantity, w, slice) {
    const params = new URLSearchParams({ monitor: m.name, quantity, wavelength: String(w) });
    if (slice !== null) params.set("slice", String(slice));
    const url = `${this.section.dataset.field}?${params}`;
    let pending = this.cache.get(url);
    if (!pending) {
      pending = fetch(url, { headers: { accept: "application/json" } }).then(async (res) => {
        const body = await res.json();
        if (!res.ok) throw new Error(body.detail ?? `HTTP ${res.status}`);
        const payload = /** @type {Payload} */ (body);
        return {
          payload,
          ...(payload.abs ? { abs: decode(payload.abs, payload.scale) } : {}),
          ...(payload.re ? { re: decode(payload.re, payload.scale) } : {}),
          ...(payload.im ? { im: decode(payload.im, payload.scale) } : {}),
        };
      });
      pending.catch(() => this.cache.delete(url));
      this.cache.set(url, pending);
    }
    return pending;
  }

  async load() {
    const m = this.monitor();
    if (!m) return;
    const seq = ++this.loadSeq;
    const quantity = this.quantitySelect.value;
    const w = Number(this.wavelengthSelect.value || 0);
    const slice = m.slice ? Number(this.sliceInput.value) : null;
    const wanted =
      m.kind === "line" && !isMagnitude(quantity) && m.quantities.includes(quantity[0] ?? "")
        ? [quantity[0] ?? "E", quantity]
        : [quantity];
    const timer = setTimeout(() => this.showStatus("Loading fields…", false), 150);
    try {
      const fields = await Promise.all(wanted.map((q) => this.fetchField(m, q, w, slice)));
      if (seq !== this.loadSeq) return;
      this.current = { monitor: m, fields };
      this.status.hidden = true;
      this.draw();
    } catch (err) {
      if (seq === this.loadSeq)
        this.showStatus(`Could not load this field: ${/** @type {Error} */ (err).message}`, true);
    } finally {
      clearTimeout(timer);
    }
  }

  colors() {
    const style = getComputedStyle(this.section);
    /** @param {string} name @param {string} fallback */
    const v = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    return {
      text: v("--text", "#142033"),
      muted: v("--muted", "#5a687e"),
      border: v("--border-strong", "#c5cedb"),
      grid: v("--border", "#dce2eb"),
      surface: v("--surface", "#ffffff"),
      line1: v("--plot-line-1", "#142033"),
      line2: v("--plot-line-2", "#e0592a"),
      band: v("--plot-band", "rgba(58,86,212,0.1)"),
    };
  }

  /** @param {number} cssHeight */
  context(cssHeight) {
    const width = Math.max(240, this.stage.clientWidth);
    const dpr = Math.min(3, window.devicePixelRatio || 1);
    this.canvas.style.height = `${cssHeight}px`;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(cssHeight * dpr);
    const ctx = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext("2d"));
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, cssHeight);
    return { ctx, width };
  }

  draw() {
    if (!this.current) return;
    const { monitor, fields } = this.current;
    const field = fields[fields.length - 1];
    if (!field) return;
    if (field.payload.kind === "line") this.drawLine(monitor, fields);
    else if (field.payload.kind === "point") this.drawPoint(monitor, field);
    else this.drawMap(monitor, field);
    this.canvas.dataset.state = "ready";
    this.canvas.dataset.quantity = field.payload.quantity;
  }

  /** @param {Monitor} monitor @param {Field} field */
  drawPoint(monitor, field) {
    const p = field.payload;
    const { ctx, width } = this.context(120);
    const c = this.colors();
    const value = field.abs?.[0] ?? Math.hypot(field.re?.[0] ?? 0, field.im?.[0] ?? 0);
    ctx.fillStyle = c.text;
    ctx.font = "600 28px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.fillText(
      `${isMagnitude(p.quantity) ? quantityLabel(p.quantity) : `|${p.quantity}|`} = ${formatValue(value)} ${unitOf(p.quantity)}`,
      width / 2,
      64,
    );
    this.setCaption(monitor, p, false);
    this.frame = null;
  }

  /** @param {Monitor} monitor @param {Field} field */
  drawMap(monitor, field) {
    const p = field.payload;
    const c = this.colors();
    const [nu, nv] = /** @type {[number, number]} */ (p.shape);
    const u = p.coords_um[0] ?? [];
    const v = p.coords_um[1] ?? [];
    const ue = extent(u);
    const ve = extent(v);
    const magnitude = isMagnitude(p.quantity);
    const values = magnitude ? field.abs : field.re;
    if (!values) return;

    const width = Math.max(240, this.stage.clientWidth);
    const narrow = width < 520;
    const margin = { left: 58, right: narrow ? 74 : 92, top: 30, bottom: 48 };
    const available = width - margin.left - margin.right;
    const spanU = (ue[1] ?? 1) - (ue[0] ?? 0);
    const spanV = (ve[1] ?? 1) - (ve[0] ?? 0);
    const aspect = spanU / spanV;
    // Tall domains may take most of the window's height (phones included), wide ones the width.
    const maxH = Math.max(240, Math.min(window.innerHeight * 0.72, available * 2.5));
    let w = available;
    let h = w / aspect;
    let toScale = true;
    if (h > maxH) {
      h = maxH;
      w = h * aspect;
      // Very slender domains would become a sliver: widen them, and say so in the caption.
      const minW = Math.min(available, 140);
      if (w < minW) {
        w = minW;
        toScale = false;
      }
    }
    if (h < 160) {
      h = 160;
      toScale = false;
    }
    const { ctx } = this.context(Math.round(h + margin.top + margin.bottom));
    const x0 = margin.left + (available - w) / 2;
    const y0 = margin.top;

    // The samples as an image, one pixel each, scaled up smoothly onto the plot area.
    const image = document.createElement("canvas");
    image.width = nu;
    image.height = nv;
    const ictx = /** @type {CanvasRenderingContext2D} */ (image.getContext("2d"));
    const pixels = ictx.createImageData(nu, nv);
    const max = p.max_abs > 0 ? p.max_abs : 1;
    const map = magnitude ? sequential : diverging;
    for (let a = 0; a < nu; a++) {
      for (let b = 0; b < nv; b++) {
        const value = values[a * nv + b] ?? 0;
        const t = magnitude ? value / max : 0.5 + value / (2 * max);
        paint(map, t, pixels.data, ((nv - 1 - b) * nu + a) * 4);
      }
    }
    ictx.putImageData(pixels, 0, 0);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(image, x0, y0, w, h);

    const toX = (/** @type {number} */ uu) => x0 + ((uu - (ue[0] ?? 0)) / spanU) * w;
    const toY = (/** @type {number} */ vv) => y0 + h - ((vv - (ve[0] ?? 0)) / spanV) * h;

    // Structures cut by this plane, outlined (dark halo under a light dash: visible on any colour).
    const ua = AXES.indexOf(p.axes[0] ?? "x");
    const va = AXES.indexOf(p.axes[1] ?? "y");
    const normal = [0, 1, 2].find((a) => a !== ua && a !== va) ?? 2;
    const cut = p.slice ? p.slice.coordinate_um : (monitor.center_m[normal] ?? 0) * 1e6;
    const outlines = sections(this.summary?.structures ?? [], normal, cut, ua, va);
    ctx.save();
    ctx.beginPath();
    ctx.rect(x0, y0, w, h);
    ctx.clip();
    for (const s of outlines) {
      const sx0 = toX(s.u0);
      const sx1 = toX(s.u1);
      const sy0 = toY(s.v1);
      const sy1 = toY(s.v0);
      const path = () => {
        ctx.beginPath();
        if (s.shape === "rect") ctx.rect(sx0, sy0, sx1 - sx0, sy1 - sy0);
        else
          ctx.ellipse(
            (sx0 + sx1) / 2,
            (sy0 + sy1) / 2,
            (sx1 - sx0) / 2,
            (sy1 - sy0) / 2,
            0,
            0,
            2 * Math.PI,
          );
      };
      path();
      ctx.setLineDash([]);
      ctx.lineWidth = 3;
      ctx.strokeStyle = "rgba(0,0,0,0.35)";
      ctx.stroke();
      path();
      ctx.setLineDash([6, 4]);
      ctx.lineWidth = 1.4;
      ctx.strokeStyle = "rgba(255,255,255,0.9)";
      ctx.stroke();
      const lx = Math.max(sx0, x0) + 5;
      const ly = Math.max(sy0, y0) + 14;
      if (sx1 - sx0 > 36 && sy1 - sy0 > 20) {
        ctx.font = SMALL_FONT;
        ctx.textAlign = "left";
        ctx.lineWidth = 3;
        ctx.setLineDash([]);
        ctx.strokeStyle = "rgba(0,0,0,0.55)";
        ctx.strokeText(s.material, lx, ly);
        ctx.fillStyle = "#fff";
        ctx.fillText(s.material, lx, ly);
      }
    }
    ctx.restore();

    ctx.strokeStyle = c.border;
    ctx.lineWidth = 1;
    ctx.setLineDash([]);
    ctx.strokeRect(x0 + 0.5, y0 + 0.5, w - 1, h - 1);

    // Axes in µm.
    ctx.fillStyle = c.muted;
    ctx.strokeStyle = c.muted;
    ctx.font = FONT;
    const xt = niceTicks(ue[0] ?? 0, ue[1] ?? 1, Math.max(2, Math.round(w / 80)));
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    for (const t of xt.ticks) {
      const x = toX(t);
      ctx.beginPath();
      ctx.moveTo(x, y0 + h);
      ctx.lineTo(x, y0 + h + 5);
      ctx.stroke();
      ctx.fillText(tickLabel(t, xt.step), x, y0 + h + 8);
    }
    const yt = niceTicks(ve[0] ?? 0, ve[1] ?? 1, Math.max(2, Math.round(h / 60)));
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const t of yt.ticks) {
      const y = toY(t);
      ctx.beginPath();
      ctx.moveTo(x0, y);
      ctx.lineTo(x0 - 5, y);
      ctx.stroke();
      ctx.fillText(tickLabel(t, yt.step), x0 - 8, y);
    }
    ctx.fillStyle = c.text;
    ctx.font = `600 ${FONT}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    ctx.fillText(`${p.axes[0]} (µm)`, x0 + w / 2, y0 + h + 42);
    ctx.save();
    ctx.translate(x0 - 44, y0 + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(`${p.axes[1]} (µm)`, 0, 0);
    ctx.restore();

    // Colour bar.
    const bx = x0 + w + (narrow ? 14 : 22);
    const bw = 14;
    const bar = ctx.createLinearGradient(0, y0 + h, 0, y0);
    for (let i = 0; i <= 16; i++) {
      const k = Math.round((i / 16) * 255) * 3;
      bar.addColorStop(i / 16, `rgb(${map.lut[k]},${map.lut[k + 1]},${map.lut[k + 2]})`);
    }
    ctx.fillStyle = bar;
    ctx.fillRect(bx, y0, bw, h);
    ctx.strokeStyle = c.border;
    ctx.strokeRect(bx + 0.5, y0 + 0.5, bw - 1, h - 1);
    const lo = magnitude ? 0 : -max;
    const ct = niceTicks(lo, max, Math.max(2, Math.round(h / 50)));
    ctx.fillStyle = c.muted;
    ctx.strokeStyle = c.muted;
    ctx.font = FONT;
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    for (const t of ct.ticks) {
      const y = y0 + h - ((t - lo) / (max - lo)) * h;
      ctx.beginPath();
      ctx.moveTo(bx + bw, y);
      ctx.lineTo(bx + bw + 4, y);
      ctx.stroke();
      ctx.fillText(tickLabel(t, ct.step), bx + bw + 7, y);
    }
    ctx.fillStyle = c.text;
    ctx.font = `600 ${FONT}`;
    ctx.textAlign = "left";
    ctx.textBaseline = "alphabetic";
    ctx.fillText(
      `${quantityLabel(p.quantity)} (${unitOf(p.quantity)})`,
      Math.min(bx - 6, width - 100),
      y0 - 12,
    );

    this.frame = { x0, y0, w, h, u, v, ue, ve };
    this.setCaption(monitor, p, !toScale);
    this.canvas.setAttribute(
      "aria-label",
      `Heat map of ${quantityLabel(p.quantity)} on monitor ${monitor.name}, ${p.axes[0]} from ${formatUm(u[0] ?? 0)} to ${formatUm(u[u.length - 1] ?? 0)} µm, ${p.axes[1]} from ${formatUm(v[0] ?? 0)} to ${formatUm(v[v.length - 1] ?? 0)} µm; values ${magnitude ? "from 0" : `from ${formatValue(-max)}`} to ${formatValue(max)} ${unitOf(p.quantity)}.`,
    );
  }

  /** @param {Monitor} monitor @param {Field[]} fields */
  drawLine(monitor, fields) {
    const c = this.colors();
    const magnitudeField = fields.find((f) => isMagnitude(f.payload.quantity));
    const componentField = fields.find((f) => !isMagnitude(f.payload.quantity));
    const p = (componentField ?? magnitudeField)?.payload;
    if (!p) return;
    const t = p.coords_um[0] ?? [];
    /** @type {{ label: string, values: Float32Array, color: string, width: number }[]} */
    const series = [];
    if (magnitudeField?.abs)
      series.push({
        label: quantityLabel(magnitudeField.payload.quantity),
        values: magnitudeField.abs,
        color: c.line1,
        width: 2.25,
      });
    if (componentField?.re)
      series.push({
        label: quantityLabel(componentField.payload.quantity),
        values: componentField.re,
        color: c.line2,
        width: 1.75,
      });

    const width = Math.max(240, this.stage.clientWidth);
    const height = Math.round(Math.max(240, Math.min(420, width * 0.42)));
    const { ctx } = this.context(height);
    const margin = { left: 62, right: 18, top: 34, bottom: 48 };
    const x0 = margin.left;
    const y0 = margin.top;
    const w = width - margin.left - margin.right;
    const h = height - margin.top - margin.bottom;
    let lo = 0;
    let hi = 0;
    for (const s of series) {
      for (const value of s.values) {
        if (value < lo) lo = value;
        if (value > hi) hi = value;
      }
    }
    if (hi === lo) hi = lo + 1;
    const pad = (hi - lo) * 0.08;
    const yt = niceTicks(lo - (lo < 0 ? pad : 0), hi + pad, Math.max(3, Math.round(h / 55)));
    const ymin = Math.min(yt.ticks[0] ?? lo, lo);
    const ymax = Math.max(yt.ticks[yt.ticks.length - 1] ?? hi, hi);
    const te = [t[0] ?? 0, t[t.length - 1] ?? 1];
    const span = (te[1] ?? 1) - (te[0] ?? 0) || 1;
    const toX = (/** @type {number} */ v) => x0 + ((v - (te[0] ?? 0)) / span) * w;
    const toY = (/** @type {number} */ v) => y0 + h - ((v - ymin) / (ymax - ymin)) * h;

    // Structures the line passes through, as shaded bands.
    const along = AXES.indexOf(p.axes[0] ?? "z");
    const point = monitor.center_m.map((m) => m * 1e6);
    ctx.font = SMALL_FONT;
    for (const band of lineCrossings(this.summary?.structures ?? [], along, point)) {
      const bx0 = Math.max(x0, toX(band.t0));
      const bx1 = Math.min(x0 + w, toX(band.t1));
      if (bx1 <= bx0) continue;
      ctx.fillStyle = c.band;
      ctx.fillRect(bx0, y0, bx1 - bx0, h);
      ctx.fillStyle = c.muted;
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      if (bx1 - bx0 > 30) ctx.fillText(band.material, (bx0 + bx1) / 2, y0 + 4);
    }

    // Grid and axes.
    ctx.font = FONT;
    ctx.lineWidth = 1;
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const v of yt.ticks) {
      const y = Math.round(toY(v)) + 0.5;
      ctx.strokeStyle = v === 0 ? c.border : c.grid;
      ctx.beginPath();
      ctx.moveTo(x0, y);
      ctx.lineTo(x0 + w, y);
      ctx.stroke();
      ctx.fillStyle = c.muted;
      ctx.fillText(tickLabel(v, yt.step), x0 - 8, y);
    }
    const xt = niceTicks(te[0] ?? 0, te[1] ?? 1, Math.max(2, Math.round(w / 80)));
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.strokeStyle = c.muted;
    for (const v of xt.ticks) {
      const x = toX(v);
      ctx.beginPath();
      ctx.moveTo(x, y0 + h);
      ctx.lineTo(x, y0 + h + 5);
      ctx.stroke();
      ctx.fillText(tickLabel(v, xt.step), x, y0 + h + 8);
    }
    ctx.strokeStyle = c.border;
    ctx.strokeRect(x0 + 0.5, y0 + 0.5, w - 1, h - 1);
    ctx.fillStyle = c.text;
    ctx.font = `600 ${FONT}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    ctx.fillText(`${p.axes[0]} (µm)`, x0 + w / 2, y0 + h + 42);
    ctx.save();
    ctx.translate(14, y0 + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(unitOf(p.quantity), 0, 0);
    ctx.restore();

    // Curves.
    ctx.save();
    ctx.beginPath();
    ctx.rect(x0, y0, w, h);
    ctx.clip();
    ctx.lineJoin = "round";
    for (const s of series) {
      ctx.beginPath();
      for (let i = 0; i < t.length; i++) {
        const x = toX(t[i] ?? 0);
        const y = toY(s.values[i] ?? 0);
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.strokeStyle = s.color;
      ctx.lineWidth = s.width;
      ctx.stroke();
    }
    if (this.hoverX !== null) {
      const i = this.nearest(t, this.hoverX);
      const x = toX(t[i] ?? 0);
      ctx.strokeStyle = c.muted;
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(x, y0);
      ctx.lineTo(x, y0 + h);
      ctx.stroke();
      ctx.setLineDash([]);
      for (const s of series) {
        ctx.fillStyle = s.color;
        ctx.beginPath();
        ctx.arc(x, toY(s.values[i] ?? 0), 3.5, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    ctx.restore();

    // Legend.
    ctx.font = FONT;
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    let lx = x0 + w;
    for (const s of [...series].reverse()) {
      const textWidth = ctx.measureText(s.label).width;
      lx -= textWidth + 34;
      ctx.strokeStyle = s.color;
      ctx.lineWidth = s.width;
      ctx.beginPath();
      ctx.moveTo(lx, y0 - 14);
      ctx.lineTo(lx + 20, y0 - 14);
      ctx.stroke();
      ctx.fillStyle = c.text;
      ctx.fillText(s.label, lx + 26, y0 - 14);
    }

    this.frame = { x0, y0, w, h, u: t, v: [], ue: te, ve: [ymin, ymax] };
    this.lineSeries = series;
    this.setCaption(monitor, p, false);
    this.canvas.setAttribute(
      "aria-label",
      `Line plot of ${series.map((s) => s.label).join(" and ")} along ${p.axes[0]} on monitor ${monitor.name}, from ${formatUm(te[0] ?? 0)} to ${formatUm(te[1] ?? 0)} µm; values between ${formatValue(lo)} and ${formatValue(hi)} ${unitOf(p.quantity)}.`,
    );
  }

  /** @param {number[]} coords @param {number} value */
  nearest(coords, value) {
    if (coords.length < 2) return 0;
    const first = coords[0] ?? 0;
    const step = ((coords[coords.length - 1] ?? 0) - first) / (coords.length - 1);
    return Math.max(0, Math.min(coords.length - 1, Math.round((value - first) / step)));
  }

  /** @param {Monitor} monitor @param {Payload} p @param {boolean} notToScale */
  setCaption(monitor, p, notToScale) {
    const parts = [`Monitor “${monitor.name}”`];
    if (p.kind === "plane" || p.kind === "volume") {
      const ua = AXES.indexOf(p.axes[0] ?? "x");
      const va = AXES.indexOf(p.axes[1] ?? "y");
      const normal = [0, 1, 2].find((a) => a !== ua && a !== va) ?? 2;
      const cut = p.slice ? p.slice.coordinate_um : (monitor.center_m[normal] ?? 0) * 1e6;
      parts.push(`${p.slice ? "slice" : "plane"} ${AXES[normal]} = ${formatUm(cut)} µm`);
    } else if (p.kind === "line") {
      parts.push(`line along ${p.axes[0]}`);
    }
    parts.push(`λ = ${nm(p.wavelength_m)}`);
    const downsampled = p.full_shape.some((n, i) => n !== p.shape[i]);
    parts.push(
      `${p.shape.join(" × ")} samples${downsampled ? ` (of ${p.full_shape.join(" × ")})` : ""}`,
    );
    if (isMagnitude(p.quantity) && p.from_components.length < 3)
      parts.push(`|${p.quantity}| from ${p.from_components.join(", ")}`);
    if (notToScale) parts.push("axes not to scale");
    this.caption.textContent = parts.join(" · ");
  }

  /** @param {PointerEvent | null} event */
  onPointer(event) {
    const f = this.frame;
    const cur = this.current;
    if (!event || !f || !cur) {
      this.readout.textContent = "\u00a0";
      if (this.hoverX !== null) {
        this.hoverX = null;
        if (cur?.fields[0]?.payload.kind === "line") this.draw();
      }
      return;
    }
    const rect = this.canvas.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    const inside = px >= f.x0 && px <= f.x0 + f.w && py >= f.y0 && py <= f.y0 + f.h;
    const field = cur.fields[cur.fields.length - 1];
    if (!inside || !field) {
      this.onPointer(null);
      return;
    }
    const p = field.payload;
    const uu = (f.ue[0] ?? 0) + ((px - f.x0) / f.w) * ((f.ue[1] ?? 1) - (f.ue[0] ?? 0));
    const a = this.nearest(f.u, uu);
    if (p.kind === "line") {
      this.hoverX = uu;
      this.draw();
      const series = this.lineSeries ?? [];
      this.readout.textContent = `${p.axes[0]} = ${formatUm(f.u[a] ?? 0)} µm · ${series.map((s) => `${s.label} = ${formatValue(s.values[a] ?? 0)}`).join(" · ")} ${unitOf(p.quantity)}`;
      return;
    }
    const vv = (f.ve[0] ?? 0) + ((f.y0 + f.h - py) / f.h) * ((f.ve[1] ?? 1) - (f.ve[0] ?? 0));
    const b = this.nearest(f.v, vv);
    const nv = p.shape[1] ?? 1;
    const i = a * nv + b;
    const where = `${p.axes[0]} = ${formatUm(f.u[a] ?? 0)} µm, ${p.axes[1]} = ${formatUm(f.v[b] ?? 0)} µm`;
    if (field.abs) {
      this.readout.textContent = `${where} · ${quantityLabel(p.quantity)} = ${formatValue(field.abs[i] ?? 0)} ${unitOf(p.quantity)}`;
    } else {
      const re = field.re?.[i] ?? 0;
      const im = field.im?.[i] ?? 0;
      const phase = (Math.atan2(im, re) * 180) / Math.PI;
      this.readout.textContent = `${where} · ${p.quantity} = ${formatValue(re)} ${im < 0 ? MINUS : "+"} ${formatValue(Math.abs(im))}i ${unitOf(p.quantity)} (|${p.quantity}| = ${formatValue(Math.hypot(re, im))}, phase ${phase.toFixed(0).replace("-", MINUS)}°)`;
    }
  }

  addSaveButton() {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-small btn-quiet";
    button.textContent = "Save PNG";
    button.addEventListener("click", () => {
      this.canvas.toBlob((blob) => {
        if (!blob) return;
        const link = document.createElement("a");
        const m = this.monitor();
        link.download = `emsim-${this.summary?.job_id.slice(0, 8) ?? "plot"}-${m?.name ?? "field"}-${this.quantitySelect.value}.png`;
        link.href = URL.createObjectURL(blob);
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 1000);
      }, "image/png");
    });
    const wrap = document.createElement("div");
    wrap.className = "field";
    wrap.append(button);
    this.section.querySelector(".plot-controls")?.append(wrap);
  }
}

/** @param {HTMLElement} section the #plots section of a completed job's page */
export function initPlots(section) {
  new FieldPlots(section).start();
}
