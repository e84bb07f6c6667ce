"""Reads a result file the way users do, with h5py and with xarray (engine h5netcdf), and
prints what each reader sees as JSON for test/results/readers.test.ts to judge.

Usage: /usr/bin/python3 test/results/readers.py RESULT.h5
"""

import json
import sys

import h5py
import numpy as np
import xarray as xr

path = sys.argv[1]
out = {"h5py": {}, "xarray": {}}

with h5py.File(path, "r") as f:
    for name, group in f["monitors"].items():
        seen = {"scales": {}, "attached": {}, "units": {}, "long_name": {}, "dtype": {}}
        for key, item in group.items():
            if h5py.h5ds.is_scale(item.id):
                seen["scales"][key] = item.attrs.get("NAME", b"").decode()
            units = item.attrs.get("units")
            if units is not None:
                seen["units"][key] = units.decode() if isinstance(units, bytes) else str(units)
            if key in ("Ex", "Ey", "Ez", "Hx", "Hy", "Hz"):
                seen["dtype"][key] = str(item.dtype)
                seen["attached"][key] = [[s.name for s in dim.values()] for dim in item.dims]
        out["h5py"][name] = seen

for name in out["h5py"]:
    ds = xr.open_dataset(path, engine="h5netcdf", group=f"monitors/{name}")
    with h5py.File(path, "r") as f:
        raw = {c: f[f"monitors/{name}/{c}"][...] for c in ds.data_vars}
        xyz = {a: f[f"monitors/{name}/{a}"][...] for a in ("x", "y", "z")}
    info = {
        "dims": dict(ds.sizes),
        "coords": {c: list(ds[c].dims) for c in ds.coords},
        "coord_units": {c: ds[c].attrs.get("units") for c in ds.coords},
        "data_units": {v: ds[v].attrs.get("units") for v in ds.data_vars},
        "data_dims": {v: list(ds[v].dims) for v in ds.data_vars},
        # The same numbers as h5py reads, and the coordinates are the x, y, z datasets.
        "same_values": all(np.array_equal(ds[v].values, raw[v]) for v in ds.data_vars),
        "same_xyz": all(np.array_equal(ds[a].values, xyz[a]) for a in xyz),
        "wavelength": np.atleast_1d(ds["wavelength"].values).tolist(),
    }
    if "wavelength" in ds.dims and "Ey" in ds:
        # Physics through the coordinates: along the propagation axis z, |Ey| is the source
        # amplitude and the phase grows as k z = 2 pi z / wavelength, at every wavelength.
        per_wavelength = []
        for w in ds.wavelength.values:
            ey = ds.Ey.sel(wavelength=w).isel(x=0, y=0)
            inner = ey.where(abs(ey.z) < 1.0e-6, drop=True)
            z = inner.z.values
            slope = np.polyfit(z, np.unwrap(np.angle(inner.values)), 1)[0]
            hx = ds.Hx.sel(wavelength=w).isel(x=0, y=0).where(abs(ey.z) < 1.0e-6, drop=True)
            per_wavelength.append(
                {
                    "wavelength": float(w),
                    "amplitude_min": float(abs(inner).min()),
                    "amplitude_max": float(abs(inner).max()),
                    "k_ratio": float(slope / (2 * np.pi / w)),
                    # |H| = |E| / eta0 for a plane wave in vacuum.
                    "eta_ratio": float((abs(inner) / abs(hx)).mean() / 376.730313),
                }
            )
        info["physics"] = per_wavelength
    out["xarray"][name] = info

print(json.dumps(out))
