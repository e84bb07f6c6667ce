"""Meep on the grid and step count of an emsim job, for `npm run bench:jobs` (bench/jobs.ts).

Argument: a JSON object {spec: the job's simulation with defaults filled in, eps: {material:
relative permittivity at the source wavelength}, steps: time steps to run}. Builds the same
cell (region of interest plus pml_layers cells of PML on pml faces, periodic elsewhere), the
same structures (boxes and spheres with the materials' permittivity at the source wavelength),
a plane-wave source as a current sheet across the cell, and each field monitor as DFT fields
at the source frequency; runs the given number of steps. Prints one JSON line {seconds,
steps, cells}: the stepping time, like emsim's stepping seconds (set-up excluded).
Length unit a = 1 µm.
"""
import json
import sys
import time

import meep as mp

A = 1e-6


def main():
    args = json.loads(sys.argv[1])
    spec = args["spec"]
    eps = args["eps"]
    dom = spec["domain"]
    h = dom["resolution"] / A
    resolution = 1 / h
    bcs = dom["boundary_conditions"]
    pml_cells = dom["pml_layers"]
    size = [s / A for s in dom["size"]]
    cell = [size[a] + (2 * pml_cells * h if bcs[a] == "pml" else 0) for a in range(3)]
    layers = [
        mp.PML(pml_cells * h, direction=[mp.X, mp.Y, mp.Z][a]) for a in range(3) if bcs[a] == "pml"
    ]
    geometry = []
    for s in spec["structures"]:
        medium = mp.Medium(epsilon=eps[s["material"]])
        centre = mp.Vector3(*[c / A for c in s["center"]])
        if s["type"] == "box":
            geometry.append(
                mp.Block(
                    size=mp.Vector3(*[min(v / A, 1e3) for v in s["size"]]),
                    center=centre,
                    material=medium,
                )
            )
        elif s["type"] == "sphere":
            geometry.append(mp.Sphere(radius=s["radius"] / A, center=centre, material=medium))
    src = spec["source"]
    fcen = A / src["wavelength"]
    d = src["direction"]
    axis = max(range(3), key=lambda a: abs(d[a]))
    sign = 1 if d[axis] > 0 else -1
    pos = [0.0, 0.0, 0.0]
    pos[axis] = -sign * (size[axis] / 2 - 2 * h)
    sheet = [cell[a] if a != axis else 0 for a in range(3)]
    component = mp.Ey if axis != 1 else mp.Ex
    sources = [
        mp.Source(
            mp.GaussianSource(fcen, fwidth=0.5 * fcen),
            component=component,
            center=mp.Vector3(*pos),
            size=mp.Vector3(*sheet),
        )
    ]
    periodic = any(b == "periodic" for b in bcs)
    sim = mp.Simulation(
        cell_size=mp.Vector3(*cell),
        resolution=resolution,
        boundary_layers=layers,
        geometry=geometry,
        sources=sources,
        k_point=mp.Vector3() if periodic else False,
        eps_averaging=True,
    )
    for m in spec["monitors"]:
        if m["monitor_type"] != "field":
            continue
        comps = [getattr(mp, c) for c in m.get("components", ["Ex", "Ey", "Ez"])]
        sim.add_dft_fields(
            comps,
            [fcen],
            center=mp.Vector3(*[c / A for c in m["center"]]),
            size=mp.Vector3(*[s / A for s in m["size"]]),
        )
    sim.init_sim()
    steps = int(args["steps"])
    started = time.time()
    for _ in range(steps):
        sim.fields.step()
    seconds = time.time() - started
    cells = 1
    for a in range(3):
        cells *= max(1, round(cell[a] * resolution))
    print(json.dumps({"seconds": seconds, "steps": steps, "cells": cells}))


if __name__ == "__main__":
    main()
