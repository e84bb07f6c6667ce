// @ts-check
/* global document, window, getComputedStyle, requestAnimationFrame, ResizeObserver */
/**
 * The simulation builder's headline picture (issue #31): an interactive 3-D view of a
 * set-up's scene (src/preview/scene.ts, the preview's `scene`), drawn with three.js
 * (served beside this script, dashboard/assets.ts). The builder mounts it once and updates
 * it after each preview:
 *
 *   const { mountSetupView } = await import("./setup-3d.js");
 *   const view = mountSetupView(container);
 *   view.update(answer.scene);
 *
 * It renders on demand — after an update, a resize, or a move of the camera (drag, pinch,
 * wheel, keys: setup-3d-orbit.js) — never in a loop, so an idle page costs nothing. The canvas
 * keeps its drawing buffer (preserveDrawingBuffer) so that a screenshot or toDataURL shows
 * the picture. Without WebGL the container says so in words instead.
 */
import {
  AmbientLight,
  Color,
  DirectionalLight,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
} from "./three.module.js";
import { orbitCamera } from "./setup-3d-orbit.js";
import { buildScene } from "./setup-3d-shapes.js";
import { describeScene, fillLabels, labelLayer, placeLabels } from "./setup-3d-labels.js";

/**
 * @typedef {import("../../preview/scene-types.js").SetupScene} SetupScene
 * @typedef {import("./three.module.js").Object3D} Object3D
 * @typedef {{ update(scene: SetupScene): void, dispose(): void,
 *   stats(): { objects: number, geometries: number, labels: number } }} SetupView
 */

/** Vertical field of view in degrees: a mild perspective, so depth reads without distortion. */
const FOV_DEG = 32;
/** Height over width where the page gives the container no height of its own. */
const ASPECT = "16 / 10";

/**
 * Mounts the view in `container` (emptied first).
 * @param {HTMLElement} container
 * @returns {SetupView}
 */
export function mountSetupView(container) {
  container.replaceChildren();
  const canvas = document.createElement("canvas");
  const renderer = webGlRenderer(canvas);
  if (!renderer) return unavailable(container);
  placeCanvas(container, canvas);
  const layer = labelLayer(container);
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.localClippingEnabled = true;
  const { scene, camera } = litScene();

  /** @type {{ group: Object3D, labels: import("./setup-3d-shapes.js").Label[], tags: HTMLElement[] } | null} */
  let shown = null;
  let size = { width: 0, height: 0 };
  let pending = false;
  /** The drawn grid's corners, which the camera's distance is fitted to. */
  let corners = boxCorners(new Vector3(1, 1, 1));

  const render = () => {
    if (size.width === 0 || size.height === 0) return;
    renderer.render(scene, camera);
    if (shown) placeLabels(shown.tags, shown.labels, camera, size.width, size.height);
  };
  const requestRender = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      render();
    });
  };
  const orbit = orbitCamera(camera, canvas, requestRender);
  const fit = () => orbit.fit(corners);
  const resize = () => {
    size = { width: container.clientWidth, height: container.clientHeight };
    if (size.width === 0 || size.height === 0) return;
    renderer.setSize(size.width, size.height, false);
    camera.aspect = size.width / size.height;
    fit();
    render();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);
  resize();

  return {
    update(data) {
      if (shown) disposeObject(scene, shown.group);
      const palette = paletteOf(container);
      scene.background = new Color(palette.background);
      const built = buildScene(data, palette);
      scene.add(built.group);
      shown = {
        group: built.group,
        labels: built.labels,
        tags: fillLabels(layer, built.labels, data, palette),
      };
      corners = boxCorners(built.frame.drawnSize);
      canvas.setAttribute("aria-label", describeScene(data));
      fit();
      render();
    },
    dispose() {
      observer.disconnect();
      orbit.dispose();
      if (shown) disposeObject(scene, shown.group);
      shown = null;
      renderer.dispose();
      renderer.forceContextLoss();
      canvas.remove();
      layer.remove();
    },
    stats: () => ({
      objects: countObjects(scene),
      geometries: renderer.info.memory.geometries,
      labels: layer.querySelectorAll(".setup-3d-label").length,
    }),
  };
}

/** An empty scene and its camera, lit from an ambient light and a key light on the camera. */
function litScene() {
  const scene = new Scene();
  const camera = new PerspectiveCamera(FOV_DEG, 1, 0.01, 100);
  // The key light comes from the camera, so the faces turned to the viewer are the lit ones.
  const key = new DirectionalLight(0xffffff, 1.6);
  key.position.set(0.3, 0.5, 1);
  camera.add(key);
  scene.add(new AmbientLight(0xffffff, 1.4), camera);
  return { scene, camera };
}

/**
 * The canvas over the whole container, focusable and named for a screen reader; a container
 * the page gives no height of its own gets one from its width.
 * @param {HTMLElement} container @param {HTMLCanvasElement} canvas
 */
function placeCanvas(container, canvas) {
  if (getComputedStyle(container).position === "static") container.style.position = "relative";
  canvas.tabIndex = 0;
  canvas.className = "setup-3d-canvas";
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "3-D view of the set-up (waiting for a preview)");
  Object.assign(canvas.style, {
    position: "absolute",
    inset: "0",
    width: "100%",
    height: "100%",
    display: "block",
  });
  container.append(canvas);
  if (container.clientHeight < 60) container.style.aspectRatio = ASPECT;
}

/**
 * A renderer on `canvas`, or null where the browser has no WebGL 2 (three.js needs it). A
 * throwaway canvas asks first: three's own failure logs an error before it throws, and a
 * context asked of `canvas` itself would keep its first attributes (the drawing buffer).
 * @param {HTMLCanvasElement} canvas
 */
function webGlRenderer(canvas) {
  try {
    const probe = document.createElement("canvas").getContext("webgl2");
    if (!probe) return null;
    probe.getExtension("WEBGL_lose_context")?.loseContext();
    return new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  } catch {
    return null;
  }
}

/**
 * The view without WebGL: a sentence in the container, and the scene in words once it comes.
 * @param {HTMLElement} container
 * @returns {SetupView}
 */
function unavailable(container) {
  const note = document.createElement("p");
  note.className = "setup-3d-unavailable";
  const why = "This browser cannot draw the 3-D view of the set-up (WebGL is unavailable).";
  note.textContent = why;
  container.append(note);
  return {
    update(scene) {
      note.textContent = `${why} ${describeScene(scene).replace(/ Drag.*$/, "")}`;
    },
    dispose() {
      note.remove();
    },
    stats: () => ({ objects: 0, geometries: 0, labels: 0 }),
  };
}

/** The corners of a box of `size` centred on the origin. @param {Vector3} size */
function boxCorners(size) {
  return [0, 1, 2, 3, 4, 5, 6, 7].map(
    (k) =>
      new Vector3(
        (k & 1 ? 0.5 : -0.5) * size.x,
        (k & 2 ? 0.5 : -0.5) * size.y,
        (k & 4 ? 0.5 : -0.5) * size.z,
      ),
  );
}

/**
 * Takes `group` out of `scene` and frees what it holds on the GPU: each geometry and
 * material once (shared ones included).
 * @param {Scene} scene @param {Object3D} group
 */
function disposeObject(scene, group) {
  scene.remove(group);
  const freed = new Set();
  group.traverse((o) => {
    const item = /** @type {{ geometry?: { dispose(): void }, material?: unknown }} */ (o);
    const materials = Array.isArray(item.material) ? item.material : [item.material];
    for (const thing of [item.geometry, ...materials]) {
      const disposable = /** @type {{ dispose?: () => void } | undefined} */ (thing);
      if (!disposable?.dispose || freed.has(disposable)) continue;
      freed.add(disposable);
      disposable.dispose();
    }
  });
}

/** @param {Object3D} root */
function countObjects(root) {
  let n = -1;
  root.traverse(() => n++);
  return n;
}

/**
 * The page's colours (dashboard.css's custom properties, dark mode included).
 * @param {HTMLElement} container
 */
function paletteOf(container) {
  const style = getComputedStyle(container);
  const v = (/** @type {string} */ name, /** @type {string} */ fallback) =>
    style.getPropertyValue(name).trim() || fallback;
  return {
    background: v("--surface", "#ffffff"),
    text: v("--text", "#142033"),
    line: v("--muted", "#5a687e"),
  };
}
