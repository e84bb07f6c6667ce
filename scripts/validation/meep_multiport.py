"""Meep's mode amplitudes of a multi-port waveguide problem, one run per input port, for the
side-by-side in docs/validation.md ("Directional coupler and MMI against Meep",
scripts/validation/coupler-vs-meep.ts, the problem built by scripts/validation/multiport.ts).

Argument: a JSON object
  {dims: 2 | 3, step_m, courant, roi_m: [sx, sy, sz] (sz 0 in 2-D), pml_cells,
   eps_clad, prisms: [{vertices_m: [[x, y], ...], z_min_m, z_max_m, eps}],
   ports: [{name, x_m, y_m, size_y_m, size_z_m, sign (+1: the port faces +x, into the
            device), source_x_m}],
   inputs: [port names], parity: "ez" (2-D, E out of the plane) | "te" (3-D, even in z),
   wavelengths_m, wavelength_m, tau_s, threshold, check_every, max_steps}
The guides run along x. For each input, an EigenModeSource (band 1) at the port's source_x_m
launches into the device (along sign·x), and a mode monitor on every port's plane records the
band-1 amplitudes. Prints one JSON line
{runs: [{input, amps: {name: {fwd: [[re, im], ...], bwd: [...]}}, steps, last_change}],
 n_eff: {name: [...]}, seconds, cells}
(fwd: along +x, bwd: along −x).

No mirror parity across the guides: a port's plane covers its own guide only, which need not
sit in the middle of it; band 1 with E_z (2-D) or even in z (3-D) is the guide's fundamental.

The grid, time step, pulse and stopping rule are meep_ports.py's (emsim's, docs/solver.md
"Convergence"): Courant number c·dt/dx as emsim's; emsim's Gaussian envelope exp(−((t−t0)/τ)²),
peak at 5τ, cut off where emsim calls it off; every `check_every` steps from the peak on the
relative L2 change of the mode monitors' DFT fields (each wavelength weighted by 1/|source
spectrum|²), the run stopping at the first check after the pulse below `threshold`.

Units: Meep's length unit a = 1 µm; a frequency f in Meep units is c/λ in units of c/a.
"""
import json
import math
import sys
import time

import meep as mp
import numpy as np

A = 1e-6
C = 299792458.0
OFF_ENVELOPE = 1e-8


def main():
    args = json.loads(sys.argv[1])
    dims = args["dims"]
    h = args["step_m"] / A
    pml = args["pml_cells"] * h
    roi = [s / A for s in args["roi_m"]]
    cell = mp.Vector3(roi[0] + 2 * pml, roi[1] + 2 * pml, roi[2] + 2 * pml if dims == 3 else 0)
    freqs = [A / w for w in args["wavelengths_m"]]
    f0 = A / args["wavelength_m"]

    # emsim's envelope exp(−((t−t0)/τ)²) is Meep's exp(−(t−t0)²/(2w²)) with w = τ/√2.
    tau = args["tau_s"] * C / A
    width = tau / math.sqrt(2)
    after_peak = math.sqrt(math.log(1 / OFF_ENVELOPE))  # 4.29 τ
    cutoff = after_peak * tau / width
    peak_t = 5 * tau
    off_t = (5 + after_peak) * tau

    geometry = []
    for p in args["prisms"]:
        if dims == 2:
            z0, height = -50.0, 100.0
        else:
            z0, height = p["z_min_m"] / A, (p["z_max_m"] - p["z_min_m"]) / A
        geometry.append(
            mp.Prism(
                vertices=[mp.Vector3(x / A, y / A, z0) for x, y in p["vertices_m"]],
                height=height,
                axis=mp.Vector3(0, 0, 1),
                material=mp.Medium(epsilon=p["eps"]),
            )
        )
    parity = mp.ODD_Z if args["parity"] == "ez" else mp.EVEN_Z
    ports = {p["name"]: p for p in args["ports"]}

    def region(p, x_m):
        return dict(
            center=mp.Vector3(x_m / A, p["y_m"] / A),
            size=mp.Vector3(0, p["size_y_m"] / A, p["size_z_m"] / A if dims == 3 else 0),
        )

    started = time.time()
    runs = []
    n_eff = {}
    cells = 0
    for name in args["inputs"]:
        port = ports[name]
        pulse = mp.GaussianSource(
            frequency=f0, fwidth=1 / width, cutoff=cutoff, start_time=(5 - after_peak) * tau
        )
        source = mp.EigenModeSource(
            src=pulse,
            **region(port, port["source_x_m"]),
            direction=mp.NO_DIRECTION,
            eig_kpoint=mp.Vector3(port["sign"], 0, 0),
            eig_band=1,
            eig_parity=parity,
            eig_match_freq=True,
        )
        sim = mp.Simulation(
            cell_size=cell,
            resolution=1 / h,
            boundary_layers=[mp.PML(pml)],
            geometry=geometry,
            default_material=mp.Medium(epsilon=args["eps_clad"]),
            sources=[source],
            Courant=args["courant"],
            dimensions=dims,
            eps_averaging=True,
        )
        monitors = {
            q["name"]: sim.add_mode_monitor(freqs, mp.ModeRegion(**region(q, q["x_m"])))
            for q in args["ports"]
        }
        sim.init_sim()
        dt = sim.fields.dt
        components = [mp.Ez, mp.Hy] if dims == 2 else [mp.Ey, mp.Ez, mp.Hy, mp.Hz]
        spectrum2 = [math.exp(-((2 * math.pi * (f - f0) * width) ** 2)) for f in freqs]
        state = {"previous": None, "change": None}

        def sums():
            out = []
            for mon in monitors.values():
                for fi, s2 in enumerate(spectrum2):
                    for c in components:
                        a = np.asarray(sim.get_dft_array(mon, c, fi)).ravel()
                        out.append(a / math.sqrt(s2))
            return out

        def stop(sim_):
            n = int(round(sim_.meep_time() / dt))
            if n >= args["max_steps"]:
                return True
            if n % args["check_every"] != 0 or sim_.meep_time() < peak_t:
                return False
            now = sums()
            prev = state["previous"]
            state["previous"] = now
            if prev is None:
                return False
            d2 = sum(float(np.sum(np.abs(x - y) ** 2)) for x, y in zip(now, prev))
            t2 = sum(float(np.sum(np.abs(x) ** 2)) for x in now)
            state["change"] = math.sqrt(d2 / t2) if t2 > 0 else 0.0
            return sim_.meep_time() >= off_t and state["change"] < args["threshold"]

        sim.run(until=stop)

        amps = {}
        for q, mon in monitors.items():
            res = sim.get_eigenmode_coefficients(mon, [1], eig_parity=parity)
            alpha = res.alpha[0]
            amps[q] = {
                "fwd": [[float(a.real), float(a.imag)] for a in alpha[:, 0]],
                "bwd": [[float(a.real), float(a.imag)] for a in alpha[:, 1]],
            }
            if q not in n_eff:
                n_eff[q] = [abs(float(k.x)) / f for k, f in zip(res.kdom, freqs)]
        runs.append(
            {
                "input": name,
                "amps": amps,
                "steps": int(round(sim.meep_time() / dt)),
                "last_change": state["change"],
            }
        )
        cells = (
            int(round(cell.x / h))
            * int(round(cell.y / h))
            * (int(round(cell.z / h)) if dims == 3 else 1)
        )
        sim.reset_meep()
    print(
        json.dumps(
            {
                "runs": runs,
                "n_eff": n_eff,
                "seconds": time.time() - started,
                "cells": cells,
            }
        )
    )


if __name__ == "__main__":
    main()
