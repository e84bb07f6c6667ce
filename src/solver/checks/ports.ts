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
import { SOURCE_OFFSET_CELLS, portModes } from "../ports.js";
import type { PortSpec } from "../types.js";
import { AXES, checkRangeSpan, type CheckContext } from "./common.js";
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
  checkSymmetries(ctx, ports, source.run_ports, source.port_symmetries ?? {});
  checkRangeSpan(ctx, source.wavelengths, "source.wavelengths");
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

/** Each "out,in" names two port@modes; keys' inputs are run, their targets' are not. */
function checkSymmetries(
  ctx: CheckContext,
  ports: readonly PortSpec[],
  runPorts: readonly string[],
  symmetries: Record<string, readonly string[]>,
): void {
  const names = new Set(portModes(ports));
  const run = new Set(portModes(ports.filter((p) => runPorts.includes(p.name))));
  const parse = (key: string) => key.split(",").map((x) => x.trim());
  const bad = (key: string) => {
    const parts = parse(key);
    return parts.length !== 2 || !parts.every((x) => names.has(x));
  };
  const filledFrom = new Map<string, string>();
  for (const [from, targets] of Object.entries(symmetries)) {
    const path = `source.port_symmetries["${from}"]`;
    if (bad(from)) {
      ctx.add(path, `"${from}" is not "out,in" of two port@modes (${[...names].join(", ")})`);
      continue;
    }
    if (!run.has(parse(from)[1]!)) {
      ctx.add(
        path,
        `its input ${parse(from)[1]} is not run (source.run_ports), so nothing computes it`,
      );
    }
    targets.forEach((t, i) => {
      const element = parse(t).join(",");
      const earlier = filledFrom.get(element);
      if (bad(t)) ctx.add(`${path}[${i}]`, `"${t}" is not "out,in" of two port@modes`);
      else if (run.has(parse(t)[1]!)) {
        ctx.add(`${path}[${i}]`, `its input ${parse(t)[1]} is run: the run computes "${t}" itself`);
      } else if (earlier !== undefined) {
        ctx.add(
          `${path}[${i}]`,
          `"${element}" is already filled from "${earlier}": each element is copied from one`,
        );
      } else filledFrom.set(element, from);
    });
  }
}
