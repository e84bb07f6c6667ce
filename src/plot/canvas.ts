/** An RGB raster with the few drawing operations plots need: rectangles, lines and text. */
import type { Rgb } from "./colormap.js";
import { ADVANCE, glyph, GLYPH_HEIGHT, GLYPH_WIDTH, textWidth } from "./font.js";

export type Align = "left" | "center" | "right";

export class Canvas {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
  ) {
    this.data = new Uint8Array(width * height * 3);
    this.fillRect(0, 0, width, height, background);
  }

  setPixel(x: number, y: number, [r, g, b]: Rgb): void {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 3;
    this.data[i] = r;
    this.data[i + 1] = g;
    this.data[i + 2] = b;
  }

  getPixel(x: number, y: number): Rgb {
    const i = (y * this.width + x) * 3;
    return [this.data[i]!, this.data[i + 1]!, this.data[i + 2]!];
  }

  fillRect(x: number, y: number, w: number, h: number, color: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let yy = y0; yy < y1; yy++) {
      for (let xx = x0; xx < x1; xx++) {
        const i = (yy * this.width + xx) * 3;
        this.data[i] = color[0];
        this.data[i + 1] = color[1];
        this.data[i + 2] = color[2];
      }
    }
  }

  /** A one-pixel rectangle outline just outside the area (x, y, w, h). */
  strokeRect(x: number, y: number, w: number, h: number, color: Rgb): void {
    this.fillRect(x - 1, y - 1, w + 2, 1, color);
    this.fillRect(x - 1, y + h, w + 2, 1, color);
    this.fillRect(x - 1, y - 1, 1, h + 2, color);
    this.fillRect(x + w, y - 1, 1, h + 2, color);
  }

  /** A straight line (Bresenham), `thickness` pixels wide. */
  line(x0: number, y0: number, x1: number, y1: number, color: Rgb, thickness = 1): void {
    x0 = Math.round(x0);
    y0 = Math.round(y0);
    x1 = Math.round(x1);
    y1 = Math.round(y1);
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    const half = Math.floor((thickness - 1) / 2);
    for (;;) {
      if (thickness <= 1) this.setPixel(x0, y0, color);
      else this.fillRect(x0 - half, y0 - half, thickness, thickness, color);
      if (x0 === x1 && y0 === y1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }

  /**
   * Text with its top edge at `y`, aligned on `x`. With `vertical`, it runs bottom to top
   * (a y-axis label) with its left edge at `x` and centred or aligned on `y`.
   */
  text(
    x: number,
    y: number,
    text: string,
    color: Rgb,
    options: { scale?: number; align?: Align; vertical?: boolean } = {},
  ): void {
    const scale = options.scale ?? 1;
    const width = textWidth(text, scale);
    const align = options.align ?? "left";
    const shift = align === "center" ? width / 2 : align === "right" ? width : 0;
    let pen = 0;
    for (const ch of text) {
      const g = glyph(ch);
      for (let row = 0; row < GLYPH_HEIGHT; row++) {
        for (let col = 0; col < GLYPH_WIDTH; col++) {
          if (!g[row]![col]) continue;
          if (options.vertical) {
            // Rotated 90° anticlockwise: columns run up the image, rows run right.
            this.fillRect(
              x + row * scale,
              y + shift - (pen + col + 1) * scale,
              scale,
              scale,
              color,
            );
          } else {
            this.fillRect(x - shift + (pen + col) * scale, y + row * scale, scale, scale, color);
          }
        }
      }
      pen += ADVANCE;
    }
  }
}
