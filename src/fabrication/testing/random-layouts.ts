/**
 * Seeded random layouts for comparing our geometry and design-rule checks with KLayout's:
 * rectangles, L and U shapes, circles, overlaps, abutments, kissing corners and diagonal
 * neighbours, on a coarse grid (so distances often equal a rule exactly) or on 1 nm.
 */

import { circleRing } from "../geometry/circle.js";
import { rectangleRing, type Ring } from "../geometry/polygon.js";

/** Mulberry32: a small, fast, seedable generator (not for cryptography). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomLayout {
  polygons: Ring[];
  /** Width rule (nm) to check with. */
  widthNm: number;
  /** Space rule (nm) to check with. */
  spaceNm: number;
}

/**
 * One random layout of `count` shapes in a field about 3 µm across; with `manhattan`, no
 * circles (every edge horizontal or vertical).
 */
export function randomLayout(seed: number, count = 8, manhattan = false): RandomLayout {
  const rnd = seededRandom(seed);
  const shapes = new RandomShapes(rnd, rnd() < 0.5 ? 10 : 1);
  const widthNm = shapes.between(100, 200);
  const spaceNm = shapes.between(100, 200);
  for (let k = 0; k < count; k += 1) shapes.add(manhattan);
  return { polygons: shapes.polygons, widthNm, spaceNm };
}

type Box = [number, number, number, number];

/** The field about 3 µm across that shapes are placed in, nm. */
const FIELD_NM = 3000;

/**
 * Shapes drawn one after another from one random stream, on a grid of `grid` nm. The boxes
 * drawn so far are kept, for shapes placed against them. Every shape draws its numbers in a
 * fixed order: a seed always gives the same layout.
 */
class RandomShapes {
  readonly polygons: Ring[] = [];
  private readonly boxes: Box[] = [];

  constructor(
    private readonly rnd: () => number,
    private readonly grid: number,
  ) {}

  /** A random number in [lo, hi], on the grid. */
  between(lo: number, hi: number): number {
    const v = lo + this.rnd() * (hi - lo);
    return Math.round(v / this.grid) * this.grid;
  }

  /** Adds one shape, of a random kind, at a random place. */
  add(manhattan: boolean): void {
    const kind = this.rnd();
    const x = this.between(0, FIELD_NM);
    const y = this.between(0, FIELD_NM);
    const w = this.between(40, 600);
    const h = this.between(40, 600);
    if (kind < 0.3) this.addBox([x, y, x + w, y + h]);
    else if (kind < 0.42) this.addLShape(x, y, w, h);
    else if (kind < 0.54) this.addUShape(x, y);
    else if (kind < 0.66 && !manhattan) this.addCircle(x, y);
    else if (kind < 0.78 && this.boxes.length > 0) this.addAbuttingBox(w);
    else if (kind < 0.88 && this.boxes.length > 0) this.addCornerNeighbour(w, h);
    else this.addThinLine(x, y, w, h);
  }

  private addBox(box: Box): void {
    this.polygons.push(rectangleRing(...box));
    this.boxes.push(box);
  }

  /** L shape: a w × h box minus its upper-right part. */
  private addLShape(x: number, y: number, w: number, h: number): void {
    const t1 = this.between(30, Math.max(31, w - 10));
    const t2 = this.between(30, Math.max(31, h - 10));
    this.polygons.push(
      Int32Array.of(x, y, x + w, y, x + w, y + t2, x + t1, y + t2, x + t1, y + h, x, y + h),
    );
  }

  /** U shape: two arms and a base; the notch is often narrower than the space rule. */
  private addUShape(x: number, y: number): void {
    const arm = this.between(40, 200);
    const gap = this.between(40, 300);
    const base = this.between(40, 200);
    const height = this.between(base + 40, base + 600);
    const right = x + 2 * arm + gap;
    // prettier-ignore
    this.polygons.push(
      Int32Array.of(
        x, y,
        right, y,
        right, y + height,
        right - arm, y + height,
        right - arm, y + base,
        x + arm, y + base,
        x + arm, y + height,
        x, y + height,
      ),
    );
  }

  private addCircle(x: number, y: number): void {
    const r = this.between(40, 400);
    this.polygons.push(circleRing(x, y, r, 1 + this.rnd() * 4, 1));
  }

  /** A box sharing the right edge of an earlier box (partly or fully). */
  private addAbuttingBox(w: number): void {
    const [, b0y, b1x, b1y] = this.pickBox();
    const y0 = this.between(b0y - 100, b1y - 20);
    this.addBox([b1x, y0, b1x + w, y0 + this.between(20, 400)]);
  }

  /** Kissing corner, or a diagonal neighbour just inside or outside the space rule. */
  private addCornerNeighbour(w: number, h: number): void {
    const [, , b1x, b1y] = this.pickBox();
    const off = this.rnd() < 0.4 ? 0 : this.between(0, 150);
    const off2 = this.rnd() < 0.4 ? off : this.between(0, 150);
    this.addBox([b1x + off, b1y + off2, b1x + off + w, b1y + off2 + h]);
  }

  /** A thin line (often below the width rule), horizontal or vertical. */
  private addThinLine(x: number, y: number, w: number, h: number): void {
    const t = this.between(30, 260);
    this.addBox(this.rnd() < 0.5 ? [x, y, x + w * 2, y + t] : [x, y, x + t, y + h * 2]);
  }

  private pickBox(): Box {
    return this.boxes[Math.floor(this.rnd() * this.boxes.length)]!;
  }
}

/**
 * A dense layout of `shapes` shapes (about one per 4 µm²) for benchmarks and large
 * comparisons: rectangles 50–2000 nm, L shapes, circles of 100–800 nm radius (1 nm sagitta)
 * and thin lines, alternating between two layers. Overlapping circles merge into polygons of
 * hundreds of edges, where KLayout's box scanner switches from brute force to sorting.
 */
export function denseLayout(shapes: number, seed: number): Ring[][] {
  const rnd = seededRandom(seed);
  const side = Math.round(Math.sqrt(shapes * 4e6));
  const layers: Ring[][] = [[], []];
  const int = (lo: number, hi: number) => Math.floor(lo + rnd() * (hi - lo));
  for (let i = 0; i < shapes; i += 1) {
    const x = int(0, side);
    const y = int(0, side);
    const w = int(50, 2000);
    const h = int(50, 2000);
    const kind = rnd();
    let ring: Ring;
    if (kind < 0.6) ring = rectangleRing(x, y, x + w, y + h);
    else if (kind < 0.75) {
      const t = Math.max(40, Math.floor(w / 3));
      ring = Int32Array.of(x, y, x + w, y, x + w, y + t, x + t, y + t, x + t, y + h, x, y + h);
    } else if (kind < 0.85) ring = circleRing(x, y, int(100, 800), 1);
    else {
      ring =
        rnd() < 0.5
          ? rectangleRing(x, y, x + 2 * w, y + int(60, 200))
          : rectangleRing(x, y, x + int(60, 200), y + 2 * h);
    }
    layers[i % 2]!.push(ring);
  }
  return layers;
}
