"""Meep's mode amplitudes of a two-port waveguide problem, for the side-by-side in
docs/validation.md ("Ports against Meep", scripts/validation/ports-vs-meep.ts) and the
benchmark in docs/benchmarks.md (bench/sparams.ts).

Argument: a JSON object
  {dims: 2 | 3, step_m, courant, roi_m: [sx, sy, sz] (sz 0 in 2-D), pml_cells,
   eps_clad, prisms: [{vertices_m: [[x, y], ...], z_min_m, z_max_m, eps}],
   source_x_m, monitors: [{name, x_m}], plane_m: [sy, sz] (the source's and monitors' size),
   parity: "ez" (2-D, E out of plane, even in y) | "te" (3-D, E_y-dominant: odd y, even z),
   symmetry: bool (3-D only: mirrors y = 0 and z = 0 with the mode's parity),
   wavelengths_m, wavelength_m, tau_s, threshold, check_every, max_steps}
The guide runs along x; the source launches +x. Prints one JSON line
{amps: {name: {fwd: [[re, im], ...], bwd: [...]}}, n_eff, seconds, stepping_seconds, steps,
cells}.

The grid, time step and stopping rule are emsim's (docs/solver.md, "Convergence"): Courant
number c·dt/dx as emsim's, dt = S·dx/(c·√3); the pulse's Gaussian envelope
exp(−((t − t0)/τ)²) with emsim's τ, peak at t0 = 5τ and cut off where emsim calls it off
(4.29 τ after the peak, envelope 1e-8); every `check_every` steps from the peak on, the
relative L2 change of the mode monitors' DFT fields, each wavelength weighted by 1/|source
spectrum|² (emsim's normalised phasors), since the previous check, and the run stops at the
first check after the pulse where it is below `threshold`.

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
    pulse = mp.GaussianSource(
        frequency=f0, fwidth=1 / width, cutoff=cutoff, start_time=(5 - after_peak) * tau
    )
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

    plane = [s / A for s in args["plane_m"]]
    size = mp.Vector3(0, plane[0], plane[1] if dims == 3 else 0)
    if args["parity"] == "ez":
        parity = mp.ODD_Z + mp.EVEN_Y
    else:
        parity = mp.ODD_Y + mp.EVEN_Z
    symmetries = []
    if dims == 3 and args.get("symmetry"):
        # E_y even in y (normal to the plane y = 0: the E vector is odd under the mirror, an
        # emsim "pec" mirror), E_y even in z (tangential to z = 0: a "pmc" mirror).
        symmetries = [mp.Mirror(mp.Y, phase=-1), mp.Mirror(mp.Z, phase=+1)]
    sources = [
        mp.EigenModeSource(
            src=pulse,
            center=mp.Vector3(args["source_x_m"] / A),
            size=size,
            direction=mp.X,
            eig_band=1,
            eig_parity=parity,
            eig_match_freq=True,
        )
    ]

    started = time.time()
    sim = mp.Simulation(
        cell_size=cell,
        resolution=1 / h,
        boundary_layers=[mp.PML(pml)],
        geometry=geometry,
        default_material=mp.Medium(epsilon=args["eps_clad"]),
        sources=sources,
        symmetries=symmetries,
        Courant=args["courant"],
        dimensions=dims,
        eps_averaging=True,
    )
    monitors = {
        m["name"]: sim.add_mode_monitor(
            freqs, mp.ModeRegion(center=mp.Vector3(m["x_m"] / A), size=size)
        )
        for m in args["monitors"]
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

    stepping_started = time.time()
    sim.run(until=stop)
    stepping_seconds = time.time() - stepping_started

    amps = {}
    n_eff = []
    for name, mon in monitors.items():
        res = sim.get_eigenmode_coefficients(mon, [1], eig_parity=parity)
        alpha = res.alpha[0]
        amps[name] = {
            "fwd": [[float(a.real), float(a.imag)] for a in alpha[:, 0]],
            "bwd": [[float(a.real), float(a.imag)] for a in alpha[:, 1]],
        }
        if not n_eff:
            n_eff = [float(k.x) / f for k, f in zip(res.kdom, freqs)]
    seconds = time.time() - started
    steps = int(round(sim.meep_time() / dt))
    cells = int(round(cell.x / h)) * int(round(cell.y / h)) * (int(round(cell.z / h)) if dims == 3 else 1)
    print(
        json.dumps(
            {
                "amps": amps,
                "n_eff": n_eff,
                "seconds": seconds,
                "stepping_seconds": stepping_seconds,
                "steps": steps,
                "cells": cells,
                "last_change": state["change"],
            }
        )
    )


if __name__ == "__main__":
    main()
