// @ts-check
/* global document, window, fetch, getComputedStyle, ResizeObserver, URLSearchParams, setTimeout, clearTimeout */
/**
 * Field plots of a completed job on a <canvas>: a heat map for plane monitors (and slices of
 * volume monitors) with axes in micrometres, a colour bar and the structures outlined; a line
 * plot of |E| and the real part of a component for line monitors. Data come from the
 * dashboard's JSON endpoints as 16-bit integers (see src/dashboard/plots.ts).
 *
 * This module is the controls, data and read-out; field-map.js and field-line.js draw, from the
 * plotting core the CLI's PNGs use (plot-core.js: colour maps, ticks, sample images, structure
 * cross-sections).
 */
import { nearestIndex } from "./plot-core.js";
import {
  AXES,
  MINUS,
  decode,
  formatUm,
  formatValue,
  isMagnitude,
  nm,
  planeOf,
  quantityLabel,
  unitOf,
} from "./field-format.js";
import { drawLine } from "./field-line.js";
import { drawMap } from "./field-map.js";

/**
 * @typedef {import("./field-format.js").Monitor} Monitor
 * @typedef {import("./field-format.js").Summary} Summary
 * @typedef {import("./field-format.js").Payload} Payload
 * @typedef {import("./field-format.js").Field} Field
 */

export class FieldPlots {
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
    if (field.payload.kind === "line") drawLine(this, monitor, fields);
    else if (field.payload.kind === "point") this.drawPoint(monitor, field);
    else drawMap(this, monitor, field);
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

  /** @param {Monitor} monitor @param {Payload} p @param {boolean} notToScale */
  setCaption(monitor, p, notToScale) {
    const parts = [`Monitor “${monitor.name}”`];
    if (p.kind === "plane" || p.kind === "volume") {
      const { normal, cutUm } = planeOf(monitor, p);
      parts.push(`${p.slice ? "slice" : "plane"} ${AXES[normal]} = ${formatUm(cutUm)} µm`);
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
    const a = nearestIndex(f.u, uu);
    if (p.kind === "line") {
      this.hoverX = uu;
      this.draw();
      const series = this.lineSeries ?? [];
      this.readout.textContent = `${p.axes[0]} = ${formatUm(f.u[a] ?? 0)} µm · ${series.map((s) => `${s.label} = ${formatValue(s.values[a] ?? 0)}`).join(" · ")} ${unitOf(p.quantity)}`;
      return;
    }
    const vv = (f.ve[0] ?? 0) + ((f.y0 + f.h - py) / f.h) * ((f.ve[1] ?? 1) - (f.ve[0] ?? 0));
    const b = nearestIndex(f.v, vv);
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
