# %% [markdown]
# # A plane wave in vacuum, from Python
#
# Submit a simulation, follow it, download the verified result and look at the fields with
# xarray. Run it as a script or cell by cell in Jupyter (`# %%` marks the cells):
#
#     pip install --no-build-isolation ./clients/python     # in a venv, see docs/python.md
#     EMSIM_API_KEY=emsim_… python3 examples/python_round_trip.py
#
# It needs a running server (`npm start`) and an API key. Lengths are in metres.

# %%
import json
import pathlib

import numpy as np

import emsim

client = emsim.Client()  # EMSIM_BASE_URL and EMSIM_API_KEY, or the profile of `emsim login`
here = (
    pathlib.Path(__file__).resolve().parent if "__file__" in globals() else pathlib.Path("examples")
)
request = json.loads((here / "plane-wave-vacuum.json").read_text())
# Record three wavelengths from the same run.
request["monitors"][0]["wavelengths"] = [1.50e-6, 1.55e-6, 1.60e-6]
print(client.estimate(request)["grid"], "cells with PML")

# %%
path = client.run(request, "plane-wave.h5")  # submit, wait with progress, download, verify
print(f"{path}: sha256 verified")

# %%
result = emsim.load(path)
axis = result["axis"]  # an xarray.Dataset: Ey(wavelength, x, y, z) with coordinates in metres
print(axis)
print("converged:", bool(result.solver["converged"]), "after", result.solver["steps_run"], "steps")

# %%
# A plane wave in vacuum: |Ey| is the source amplitude, 1 V/m, and its phase advances by
# 2 pi / wavelength per metre along z. Check both at each recorded wavelength.
for wavelength in axis.wavelength.values:
    ey = axis.Ey.sel(wavelength=wavelength).squeeze(["x", "y"])
    inner = ey.where(abs(ey.z) < 1.5e-6, drop=True)
    k = np.polyfit(inner.z.values, np.unwrap(np.angle(inner.values)), 1)[0]
    print(
        f"{wavelength * 1e9:.0f} nm: |Ey| = {float(abs(inner).mean()):.4f} V/m, "
        f"k / (2 pi / wavelength) = {k / (2 * np.pi / wavelength):.4f}"
    )

# %%
try:  # a plot, when matplotlib is installed
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ey = axis.Ey.squeeze(["x", "y"])
    ey.real.plot.line(x="z", hue="wavelength")
    plt.title("Re Ey along the axis")
    plt.savefig("plane-wave.png", dpi=100)
    print("wrote plane-wave.png")
except ImportError:
    pass
