/**
 * Checks of `ports` and of `source_type: "ports"` (ports.ts): one without the other is refused;
 * the ports' names are unique and `run_ports` names some of them; each port is a mode's plane
 * (mode-source.ts: normal to its direction, pml along it, inside the domain, a size the mode
 * solver takes) with room for its run's source SOURCE_OFFSET_CELLS cells inside it and its
 * monitor clear of the absorber; the S-matrix's wavelengths lie in the pulse's band. Returns
 * the wavelengths recorded, for the resolution check.
 */
import { nodeIndexAt } from "../grid.js";
import { listOf } from "../monitors.js";
import { SOURCE_OFFSET_CELLS } from "../ports.js";
import type { PortSpec } from "../types.js";
import { AXES, type CheckContext } from "./common.js";
import { MAX_MODE_MONITOR_WAVELENGTHS } from "./mode-monitor.js";
import { checkModePlane } from "./mode-source.js";
import { checkWavelength } from "./monitors.js";

export function checkPorts(ctx: CheckContext): number[] {
  const { spec, add } = ctx;
  const ports = spec.ports ?? [];
  const source = spec.source;
  if (source.source_type !== "ports") {
    if (ports.length > 0) {
      add("ports", 'ports are run by source_type "ports" (no other source goes with them)');
    }
    return [];
  }
  if (ports.length === 0) {
    add("ports", 'source_type "ports" needs at least one port in `ports`');
    return [];
  }
  const names = new Map<string, number>();
  ports.forEach((p, i) => {
    const prev = names.get(p.name);
    if (prev !== undefined)
      add(`ports[${i}].name`, `duplicate port name "${p.name}" (also ports[${prev}])`);
    names.set(p.name, i);
    checkModePlane(ctx, p, `ports[${i}]`);
    checkRoom(ctx, p, `ports[${i}]`);
  });
  if (source.run_ports.length === 0) add("source.run_ports", "must name at least one port");
  source.run_ports.forEach((name, i) => {
    if (!names.has(name)) {
      add(
        `source.run_ports[${i}]`,
        `names no port ("${name}"; the ports: ${[...names.keys()].join(", ")})`,
      );
    }
  });
  const wavelengths = listOf(source.wavelengths);
  if (wavelengths.length > MAX_MODE_MONITOR_WAVELENGTHS) {
    add("source.wavelengths", `at most ${MAX_MODE_MONITOR_WAVELENGTHS} wavelengths`);
    return [];
  }
  return wavelengths.filter((w, i) =>
    checkWavelength(
      ctx,
      w,
      `source.wavelengths${Array.isArray(source.wavelengths) ? `[${i}]` : ""}`,
      null,
      null,
    ),
  );
}

/** The port's monitor clear of the absorber, its run's source inside the region of interest. */
function checkRoom(ctx: CheckContext, port: PortSpec, path: string): void {
  const plan = ctx.grid();
  if (!plan || !port.center.every(Number.isFinite)) return;
  const a = "xyz".indexOf(port.direction[1]!);
  const ax = plan.axes[a];
  const node = Math.round(nodeIndexAt(ax, port.center[a]));
  const source = node + (port.direction[0] === "-" ? -1 : 1) * SOURCE_OFFSET_CELLS;
  const inside = (k: number) => k > ax.pmlLo && k < ax.cells - ax.pmlHi;
  if (!inside(node) || !inside(source)) {
    ctx.add(
      `${path}.center`,
      `the port's plane and its source, ${SOURCE_OFFSET_CELLS} cells inside along ` +
        `${AXES[a]}, must lie in the region of interest, off the absorber`,
    );
  }
}
