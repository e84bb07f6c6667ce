"""Reading a batch's result file (docs/result-format.md, "Batch result file").

A batch's file stacks its variants' results along the sweep's dimensions, named after the
parameters, first on every monitor variable: ``T(thickness, wavelength)``,
``Ey(thickness, wavelength, x, y, z)``, ``S(width, port_out, port_in, wavelength)``. Each group
holds its dimension scales, so every variable's dimensions are read from the file itself
(HDF5 dimension scales, as netCDF-4 and xarray's h5netcdf engine read them); only a few things
are then made to look as ``emsim.load`` gives them for one job: a leading ``wavelength`` of
length 1 for a monitor that records one (fixed) wavelength, a mode monitor's ``direction`` as
``"+"``/``"-"`` and its ``power``, the S-matrix as a DataArray with ``n_eff``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .results import Result, _attr

BATCH_FORMAT = "emsim-batch-result"


@dataclass
class SweptGroup:
    """A batch file's group as numpy arrays (when xarray is not used): ``variables[name]`` and
    ``coords[name]`` are ``(dims, array)`` pairs, the sweep's dimensions first."""

    name: str
    variables: Dict[str, Tuple[Tuple[str, ...], Any]]
    coords: Dict[str, Tuple[Tuple[str, ...], Any]]
    attrs: Dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        if name in self.variables:
            return self.variables[name][1]
        if name in self.coords:
            return self.coords[name][1]
        raise KeyError(
            f"{self.name!r} has no {name!r}; it has {', '.join([*self.variables, *self.coords])}"
        )

    def dims(self, name: str) -> Tuple[str, ...]:
        """The dimension names of a variable or coordinate."""
        return (self.variables.get(name) or self.coords[name])[0]


class BatchResult(Result):
    """A batch's result file: monitors by name, each with the sweep's dimensions first.

    ``dimensions`` are the sweep's dimension names in order, ``parameters`` each parameter's
    ``{"name", "path", "values"}``, ``jobs`` the variants' jobs over the sweep (``job_id``,
    ``status``, ``error_detail``, ``steps_run``, ``converged``, ``wall_seconds``), ``request``
    the first completed variant's simulation, ``dropped`` the groups that could not be stacked
    with the reason (``notes`` says the same in words). ``solver`` is empty: each variant's run
    report is in ``jobs`` and in its job's own file.
    """

    def __init__(
        self,
        path: str,
        monitors: Dict[str, Any],
        request: Dict[str, Any],
        attrs: Dict[str, Any],
        s_matrix: Any,
        jobs: Any,
        dropped: Dict[str, str],
    ) -> None:
        self.dropped = dropped
        super().__init__(path, monitors, request, {}, attrs, s_matrix)
        self.jobs = jobs
        self.dimensions: List[str] = [d for d in str(attrs.get("dimensions", "")).split(",") if d]
        self.parameters: List[Dict[str, Any]] = json.loads(attrs.get("parameters_json") or "[]")
        self.notes: List[str] = [n for n in str(attrs.get("notes", "")).split("\n") if n]

    @property
    def batch_id(self) -> Optional[str]:
        return self.attrs.get("batch_id")

    @property
    def s_matrix(self) -> Any:
        """The stacked S-matrix; a KeyError with the reason when the variants' did not stack."""
        if self._s_matrix is None and "s_matrix" in self.dropped:
            raise KeyError(f"the S-matrix is not stacked in {self.path}: {self.dropped['s_matrix']}")
        return self._s_matrix

    @s_matrix.setter
    def s_matrix(self, value: Any) -> None:
        self._s_matrix = value

    def __getitem__(self, name: str) -> Any:
        if name in self.dropped:
            raise KeyError(f"monitor {name!r} is not stacked in {self.path}: {self.dropped[name]}")
        return super().__getitem__(name)

    def __repr__(self) -> str:
        return (
            f"<emsim.BatchResult {self.path}: batch {self.batch_id}, dimensions "
            f"{self.dimensions}, monitors {list(self.monitors)}>"
        )


def _dimension_names(item: Any, h5py: Any) -> Tuple[str, ...]:
    """A dataset's dimensions: its own name for a scale, else the scales attached to its axes."""
    if h5py.h5ds.is_scale(item.id):
        return (_attr(item.attrs.get("NAME")) or item.name.rsplit("/", 1)[-1],)
    names = []
    for axis, dim in enumerate(item.dims):
        keys = list(dim.keys())
        names.append(keys[0] if keys and keys[0] else f"dim_{axis}")
    return tuple(names)


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _values(item: Any, np: Any) -> Any:
    """A dataset's values: complex for the {r, i} compound, str for strings, bool for what is
    stored as xarray stores booleans (int8 with attribute dtype="bool")."""
    values = np.asarray(item[()])
    if values.dtype.names:  # the {r, i} compound, should h5py not map it to complex
        values = values["r"] + 1j * values["i"]
    if values.dtype.kind in "OS":  # strings, variable-length or fixed
        values = np.array([_text(v) for v in values.ravel()], dtype=object).reshape(values.shape)
    if _attr(item.attrs.get("dtype")) == "bool":
        values = values.astype(bool)
    return values


# Attributes of the dimension-scale and CF machinery, which xarray keeps out of attrs too.
_MACHINERY = ("CLASS", "NAME", "DIMENSION_LIST", "REFERENCE_LIST", "coordinates", "dtype")


def _read_group(group: Any, h5py: Any, np: Any) -> SweptGroup:
    """Every dataset of a group with its dimension names, split into coordinates (dimension
    scales and what the variables' CF ``coordinates`` attributes name) and variables."""
    auxiliary = set()
    for item in group.values():
        named = _attr(item.attrs.get("coordinates"))
        if isinstance(named, str):
            auxiliary.update(named.split())
    variables, coords = {}, {}
    for name, item in group.items():
        dims = _dimension_names(item, h5py)
        attrs = {k: _attr(v) for k, v in item.attrs.items() if k not in _MACHINERY}
        entry = (dims, _values(item, np), attrs)
        if h5py.h5ds.is_scale(item.id) or name in auxiliary:
            coords[name] = entry
        else:
            variables[name] = entry
    attrs = {k: _attr(v) for k, v in group.attrs.items()}
    return SweptGroup(str(group.name).lstrip("/"), variables, coords, attrs)


def _as_numpy(g: SweptGroup) -> SweptGroup:
    """The group with (dims, values) pairs, the variables' attributes left out."""

    def strip(entries: Dict[str, Any]) -> Dict[str, Any]:
        return {k: (dims, values) for k, (dims, values, _) in entries.items()}

    return SweptGroup(g.name, strip(g.variables), strip(g.coords), g.attrs)


def _to_dataset(g: SweptGroup, sweep: List[str], xr: Any) -> Any:
    """A group as an ``xarray.Dataset``, a monitor's made to look as for one job."""
    monitor = {"monitor": g.name.split("/", 1)[1]} if g.name.startswith("monitors/") else {}
    ds = xr.Dataset(
        {k: (dims, values, attrs) for k, (dims, values, attrs) in g.variables.items()},
        coords={k: (dims, values, attrs) for k, (dims, values, attrs) in g.coords.items()},
        attrs={**monitor, **g.attrs},
    )
    kind = g.attrs.get("type")
    if kind in ("field", "flux") and "wavelength" in ds.coords and ds["wavelength"].ndim == 0:
        # One wavelength, the same in every variant: a leading wavelength axis of length 1 after
        # the sweep's, as emsim.load gives one job's monitor.
        frequency = ds["frequency"] if "frequency" in ds.coords else None
        ds = ds.expand_dims("wavelength", axis=len(sweep))
        if frequency is not None and frequency.ndim == 0:
            ds = ds.assign_coords(frequency=("wavelength", [frequency.item()], frequency.attrs))
    if kind == "mode" and "direction" in ds.dims:
        ds = ds.assign_coords(
            direction=("direction", ["+", "-"], {"long_name": "along or against the normal"}),
            mode_index=ds["mode_index"].astype(int),
        )
        ds["power"] = (abs(ds["amps"]) ** 2).assign_attrs(units="W", long_name="|amps|^2")
    return ds


def _s_matrix(g: SweptGroup, sweep: List[str], xr: Any) -> Any:
    """``S(sweep…, port_out, port_in, wavelength)`` with ``n_eff`` a coordinate, as for one job."""
    ds = _to_dataset(g, sweep, xr)
    inputs = str(g.attrs.get("inputs", ""))
    S = ds["S"].assign_coords(n_eff=ds["n_eff"])
    S.name = "S"
    S.attrs = {**S.attrs, "inputs": [p for p in inputs.split(",") if p]}
    return S


def load_batch(f: Any, path: str, monitor: Optional[str], h5py: Any, np: Any, xr: Any) -> Any:
    """The open batch file ``f`` as a :class:`BatchResult` (or only ``monitor``)."""
    attrs = {k: _attr(v) for k, v in f.attrs.items()}
    sweep = [d for d in str(attrs.get("dimensions", "")).split(",") if d]
    dropped_names = [g for g in str(attrs.get("dropped_groups", "")).split(",") if g]
    notes = [n for n in str(attrs.get("notes", "")).split("\n") if n]
    dropped = {}
    for group in dropped_names:
        reason = next((n for n in notes if n.startswith(f"{group} ")), "it does not stack")
        dropped[group.split("/", 1)[-1]] = reason
    names: List[str] = list(f["monitors"].keys()) if "monitors" in f else []
    if monitor is not None and monitor not in names:
        why = f": {dropped[monitor]}" if monitor in dropped else ""
        raise KeyError(
            f"no monitor {monitor!r} in {path}{why}; it has {', '.join(names) or 'none'}"
        )

    def convert(group: Any) -> Any:
        g = _read_group(group, h5py, np)
        return _to_dataset(g, sweep, xr) if xr is not None else _as_numpy(g)

    wanted = [monitor] if monitor is not None else names
    monitors = {name: convert(f["monitors"][name]) for name in wanted}
    if monitor is not None:
        return monitors[monitor]
    s_matrix = None
    if "s_matrix" in f:
        g = _read_group(f["s_matrix"], h5py, np)
        s_matrix = _s_matrix(g, sweep, xr) if xr is not None else _as_numpy(g)
    jobs = convert(f["jobs"])
    request = json.loads(_attr(f["simulation"].attrs["request_json"]))
    return BatchResult(path, monitors, request, attrs, s_matrix, jobs, dropped)
