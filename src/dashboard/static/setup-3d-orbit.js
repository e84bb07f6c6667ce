// @ts-check
/**
 * The set-up view's camera (setup-3d.js): it orbits the domain's centre with z up, as the
 * solver's axes read (three.js's own controls assume y up and an animation loop), and moves
 * only when asked — a drag, a pinch, the wheel or a key — so the page renders on demand.
 *
 * Keys on the focused canvas: the arrows rotate (15° a press about z, 10° in elevation), + and
 * − zoom by a fifth, 0 goes back to the first view.
 */
import { MathUtils, Vector3 } from "./three.module.js";

/** The first view: from the front right and a little above, as the preview's planes read. */
const HOME = { azimuth: MathUtils.degToRad(-55), elevation: MathUtils.degToRad(24), zoom: 1 };
/** Never quite over a pole, where "up" (z) would flip the picture. */
const MAX_ELEVATION = MathUtils.degToRad(88);
const ZOOM_RANGE = [0.15, 6];
/** Radians per CSS pixel of drag. */
const DRAG_SPEED = 0.008;
const KEY_AZIMUTH = MathUtils.degToRad(15);
const KEY_ELEVATION = MathUtils.degToRad(10);
const KEY_ZOOM = 1.2;

/**
 * @typedef {{ azimuth: number, elevation: number, zoom: number }} OrbitState
 * @typedef {{ fit(points: Vector3[]): void, dispose(): void }} Orbit `fit` sets the camera's
 *   distance at zoom 1 to the nearest that shows every point (the drawn grid's corners) from
 *   where it looks now; `dispose` removes the listeners
 */

/**
 * Orbit `camera` about the origin from the canvas's pointer, wheel and keys.
 * @param {import("./three.module.js").PerspectiveCamera} camera
 * @param {HTMLCanvasElement} canvas
 * @param {() => void} changed called after every move (the view then renders once)
 * @returns {Orbit}
 */
export function orbitCamera(camera, canvas, changed) {
  /** @type {OrbitState} */
  const at = { ...HOME };
  let distance = 1;
  camera.up.set(0, 0, 1);

  const apply = () => {
    const r = distance * at.zoom;
    const c = Math.cos(at.elevation);
    camera.position.set(
      r * c * Math.cos(at.azimuth),
      r * c * Math.sin(at.azimuth),
      r * Math.sin(at.elevation),
    );
    camera.near = r / 100;
    camera.far = r * 100;
    camera.updateProjectionMatrix();
    camera.lookAt(new Vector3(0, 0, 0));
  };
  /** @param {number} dAzimuth @param {number} dElevation @param {number} zoomBy */
  const move = (dAzimuth, dElevation, zoomBy) => {
    at.azimuth += dAzimuth;
    at.elevation = MathUtils.clamp(at.elevation + dElevation, -MAX_ELEVATION, MAX_ELEVATION);
    at.zoom = MathUtils.clamp(at.zoom * zoomBy, ZOOM_RANGE[0] ?? 0, ZOOM_RANGE[1] ?? 1);
    apply();
    changed();
  };
  const detach = [
    pointerInput(canvas, move),
    wheelInput(canvas, move),
    keyInput(canvas, move, () => {
      Object.assign(at, HOME);
      apply();
      changed();
    }),
  ];
  return {
    fit(points) {
      distance = fitDistance(camera, at, points);
      apply();
    },
    dispose() {
      for (const off of detach) off();
    },
  };
}

/** Room around the fitted points, for the axes, the scale bar and the labels beyond them. */
const FIT_MARGIN = 1.1;

/**
 * The nearest distance from the origin at which `camera`, looking at it from the direction
 * `at` gives, has every point in view. A point at (x, y) across the view and depth D − p·d
 * (d the unit vector towards the camera) is in view while |x| ≤ (D − p·d)·tan(half width) and
 * |y| ≤ (D − p·d)·tan(half height): each point asks a least D, and the largest is the answer.
 * A sphere around the points would do without the algebra, but a flat domain (a thin slab
 * seen from above its edge) would then sit small in an empty view.
 * @param {import("./three.module.js").PerspectiveCamera} camera
 * @param {OrbitState} at
 * @param {Vector3[]} points
 */
function fitDistance(camera, at, points) {
  const c = Math.cos(at.elevation);
  const toCamera = new Vector3(
    c * Math.cos(at.azimuth),
    c * Math.sin(at.azimuth),
    Math.sin(at.elevation),
  );
  const right = new Vector3(0, 0, 1).cross(toCamera).normalize();
  const up = toCamera.clone().cross(right);
  const tanHeight = Math.tan(MathUtils.degToRad(camera.fov) / 2);
  const tanWidth = tanHeight * camera.aspect;
  let distance = 0;
  for (const p of points) {
    const across = Math.max(Math.abs(p.dot(right)) / tanWidth, Math.abs(p.dot(up)) / tanHeight);
    distance = Math.max(distance, p.dot(toCamera) + across * FIT_MARGIN);
  }
  return distance || 1;
}

/**
 * Drag with one pointer to rotate, pinch with two to zoom.
 * @param {HTMLCanvasElement} canvas
 * @param {(dAzimuth: number, dElevation: number, zoomBy: number) => void} move
 * @returns {() => void} removes the listeners
 */
function pointerInput(canvas, move) {
  /** @type {Map<number, {x: number, y: number}>} */
  const down = new Map();
  const spread = () => {
    const [a, b] = [...down.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  /** @param {PointerEvent} e */
  const onDown = (e) => {
    canvas.setPointerCapture(e.pointerId);
    down.set(e.pointerId, { x: e.clientX, y: e.clientY });
  };
  /** @param {PointerEvent} e */
  const onMove = (e) => {
    const last = down.get(e.pointerId);
    if (!last) return;
    const before = spread();
    const dx = e.clientX - last.x;
    const dy = e.clientY - last.y;
    down.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (down.size === 1) move(-dx * DRAG_SPEED, dy * DRAG_SPEED, 1);
    else if (before > 0 && spread() > 0) move(0, 0, before / spread());
  };
  /** @param {PointerEvent} e */
  const onUp = (e) => {
    down.delete(e.pointerId);
  };
  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", onUp);
  // The canvas takes the touch drags itself rather than scrolling the page under them.
  canvas.style.touchAction = "none";
  return () => {
    canvas.removeEventListener("pointerdown", onDown);
    canvas.removeEventListener("pointermove", onMove);
    canvas.removeEventListener("pointerup", onUp);
    canvas.removeEventListener("pointercancel", onUp);
  };
}

/**
 * The wheel zooms (a trackpad's pinch arrives as a wheel with ctrlKey, which the same handles).
 * @param {HTMLCanvasElement} canvas
 * @param {(dAzimuth: number, dElevation: number, zoomBy: number) => void} move
 */
function wheelInput(canvas, move) {
  /** @param {WheelEvent} e */
  const onWheel = (e) => {
    e.preventDefault();
    const pixels = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    move(0, 0, Math.exp(MathUtils.clamp(pixels, -100, 100) * 0.002));
  };
  canvas.addEventListener("wheel", onWheel, { passive: false });
  return () => canvas.removeEventListener("wheel", onWheel);
}

/**
 * Arrow keys rotate, + and − zoom, 0 resets; other keys (Tab above all) go on as usual.
 * @param {HTMLCanvasElement} canvas
 * @param {(dAzimuth: number, dElevation: number, zoomBy: number) => void} move
 * @param {() => void} reset
 */
function keyInput(canvas, move, reset) {
  /** @type {Record<string, () => void>} */
  const actions = {
    ArrowLeft: () => move(KEY_AZIMUTH, 0, 1),
    ArrowRight: () => move(-KEY_AZIMUTH, 0, 1),
    ArrowUp: () => move(0, KEY_ELEVATION, 1),
    ArrowDown: () => move(0, -KEY_ELEVATION, 1),
    "+": () => move(0, 0, 1 / KEY_ZOOM),
    "=": () => move(0, 0, 1 / KEY_ZOOM),
    "-": () => move(0, 0, KEY_ZOOM),
    _: () => move(0, 0, KEY_ZOOM),
    0: reset,
  };
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };
  canvas.addEventListener("keydown", onKey);
  return () => canvas.removeEventListener("keydown", onKey);
}
