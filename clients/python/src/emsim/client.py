"""``Client``: the emsim API from Python (docs/python.md), standard library only.

Every method maps to one endpoint, except ``wait`` and ``wait_batch`` (polling with
progress), ``download`` and ``download_batch`` (302 → storage, resume, checksum), ``run`` and
``sweep`` (all of it). Lengths in metres, times in seconds; requests and answers are plain
dicts shaped as in /openapi.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import ssl
import sys
import time
import urllib.error
import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ._version import __version__
from ._http import RetryPolicy, Transport, error_response, parse_retry_after
from .local_files import LocalFileError, check_writable, local
from .errors import (
    ApiError,
    BatchFailedError,
    ChecksumMismatchError,
    EmsimConnectionError,
    EmsimError,
    JobFailedError,
    WaitTimeout,
)
from .progress import (
    ProgressOption,
    batch_verdict,
    describe_batch,
    describe_download,
    describe_job,
    reporter,
)

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
_ACTIVE = ("QUEUED", "RUNNING")
#: Seconds polls may keep failing (the server unreachable, 5xx, 429) before a wait gives up.
MAX_OUTAGE_SECONDS = 300.0
_CHUNK = 1 << 20


def _outage(err: EmsimError) -> bool:
    """A failed poll that may pass: no answer, or 5xx or 429 for now."""
    if isinstance(err, EmsimConnectionError):
        return True
    return isinstance(err, ApiError) and (err.status >= 500 or err.status == 429)


Request = Union[Dict[str, Any], str, "os.PathLike[str]"]

#: A sweep's parameters: ``{pointer: values or {"start", "stop", "points"}}``, or a list of
#: the API's ``{"name", "path", "values" | "range"}``.
Parameters = Union[Dict[str, Any], Sequence[Dict[str, Any]]]

#: Names a parameter may not take: what the batch file's groups already hold, as
#: src/results/sweep-names.ts ``RESERVED_SWEEP_NAMES`` lists them (and any ending ``_index``).
_RESERVED_SWEEP_NAMES = frozenset(
    "x y z wavelength frequency theta phi direction mode_index port_out port_in Ex Ey Ez Hx Hy "
    "Hz flux power incident_intensity scattering_cross_section absorption_cross_section "
    "extinction_cross_section radiant_intensity E_theta E_phi amps n_eff k_eff S job_id status "
    "error_detail solver_version steps_run converged wall_seconds".split()
)
#: Within the API's 64 characters, room for a ``p_`` prefix, a ``_value`` suffix and ``_99``.
_SWEEP_NAME_ROOM = 64 - len("p__value_99")


def _profile(env: Dict[str, str]) -> Dict[str, Any]:
    """The profile ``emsim login`` stored (the CLI's), or {} when there is none."""
    if env.get("EMSIM_CONFIG_DIR"):
        folder = pathlib.Path(env["EMSIM_CONFIG_DIR"])
    else:
        base = env.get("XDG_CONFIG_HOME") or str(pathlib.Path.home() / ".config")
        folder = pathlib.Path(base) / "emsim"
    try:
        data = json.loads((folder / "profile.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _read_request(request: Request) -> Dict[str, Any]:
    """A request given as a dict, a JSON file path, or JSON text."""
    if isinstance(request, dict):
        return request
    text = os.fspath(request)
    if not text.lstrip().startswith("{"):
        with open(text, encoding="utf-8") as f:
            return json.load(f)
    return json.loads(text)


def sweep_name(pointer: str, taken: Sequence[str] = ()) -> str:
    """A dimension name for a parameter given by its JSON Pointer, as the CLI and the
    TypeScript SDK make it (src/results/sweep-names.ts): its tokens joined by ``_``
    (``/structures/1/size/0`` → ``structures_1_size_0``), the last tokens of a long pointer,
    ``p_`` before a leading digit, ``_value`` after a name the result file reserves, ``_2``,
    ``_3``, … after one already ``taken``."""
    tokens = []
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        token = re.sub(r"[^A-Za-z0-9_]+", "_", token).strip("_")
        if token:
            tokens.append(token)
    name = ""
    for token in reversed(tokens):
        longer = token if not name else f"{token}_{name}"
        if len(longer) > _SWEEP_NAME_ROOM:
            break
        name = longer
    if not name and tokens:
        name = tokens[-1][-_SWEEP_NAME_ROOM:]
    name = name or "parameter"
    if name[0].isdigit():
        name = f"p_{name}"
    if name in _RESERVED_SWEEP_NAMES or name.endswith("_index"):
        name = f"{name}_value"
    if name not in taken:
        return name
    n = 2
    while f"{name}_{n}" in taken:
        n += 1
    return f"{name}_{n}"


def _plain(values: Any) -> Any:
    """numpy arrays and scalars as the lists and numbers JSON carries."""
    if hasattr(values, "tolist"):
        return values.tolist()
    if isinstance(values, (tuple, range)):
        return list(values)
    return values


def batch_parameters(parameters: Parameters) -> List[Dict[str, Any]]:
    """A sweep's parameters as the API takes them: ``{pointer: [values]}`` or
    ``{pointer: {"start", "stop", "points"}}`` named by :func:`sweep_name`, or a list of the
    API's parameter dicts as they are."""
    if not isinstance(parameters, dict):
        return [{**p, "values": _plain(p["values"])} if "values" in p else p for p in parameters]
    out: List[Dict[str, Any]] = []
    for path, given in parameters.items():
        name = sweep_name(path, [p["name"] for p in out])
        if isinstance(given, dict):
            out.append({"name": name, "path": path, "range": given})
        else:
            out.append({"name": name, "path": path, "values": _plain(given)})
    return out


def _modes_body(given: Dict[str, Any], **extra: Any) -> Dict[str, Any]:
    """A mode request from a mode request (it has a ``plane``: sent whole, so the server names
    any unknown key) or a simulation's (its geometry only), and the keywords given."""
    if "plane" in given:
        body = dict(given)
    else:
        body = {k: given[k] for k in ("domain", "structures", "materials") if k in given}
    body.update({k: v for k, v in extra.items() if v is not None})
    if "wavelengths" not in body:
        source = given.get("source")
        wavelength = source.get("wavelength") if isinstance(source, dict) else None
        if not isinstance(wavelength, (int, float)):
            raise ValueError("modes: give wavelengths= (the request has no source wavelength)")
        body["wavelengths"] = [wavelength]
    if "plane" not in body:
        raise ValueError('modes: give plane={"center": [x, y, z], "size": [sx, sy, sz]}')
    return body


def _numpy_for_preview() -> Any:
    """numpy, or the ImportError that says how to install it (before anything is sent)."""
    try:
        import numpy  # type: ignore[import-not-found]
    except ImportError as err:
        raise ImportError(
            "Client.preview needs numpy: apt install python3-numpy (Debian/Ubuntu), or "
            "pip install 'emsim[results]'"
        ) from err
    return numpy


def _preview_arrays(answer: Dict[str, Any], np: Any) -> Dict[str, Any]:
    """A preview's answer with each plane's grids as numpy arrays: ``eps_real`` and
    ``eps_imag`` float64 and ``material`` and ``pec`` integer, shaped (first axis, second
    axis), and ``coords`` one float64 array per axis. The rest stays as the JSON has it."""
    planes = []
    for plane in answer["planes"]:
        plane = dict(plane)
        for name in ("eps_real", "eps_imag"):
            plane[name] = np.array(plane[name], dtype=np.float64)
        for name in ("material", "pec"):
            plane[name] = np.array(plane[name], dtype=np.int32)
        plane["coords"] = {
            axis: np.array(values, dtype=np.float64) for axis, values in plane["coords"].items()
        }
        planes.append(plane)
    return {**answer, "planes": planes}


class Client:
    """A connection to an emsim server.

    ``base_url`` is the server's address without ``/v1`` (default ``$EMSIM_BASE_URL``, then the
    profile of ``emsim login``, then http://127.0.0.1:8080); ``api_key`` an ``emsim_…`` key
    (default ``$EMSIM_API_KEY``, then the profile). ``timeout`` limits each request (seconds),
    ``retries`` the retries after a failed attempt (see ``emsim._http``), and ``ssl_context``
    replaces the default certificate checks (to trust a private CA).
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        timeout: float = 30.0,
        retries: Union[int, RetryPolicy] = 4,
        ssl_context: Optional[ssl.SSLContext] = None,
        on_retry: Optional[Callable[[Dict[str, Any]], None]] = None,
    ) -> None:
        env = dict(os.environ)
        profile = _profile(env) if not (base_url and api_key) else {}
        base_url = (
            base_url or env.get("EMSIM_BASE_URL") or profile.get("base_url") or DEFAULT_BASE_URL
        )
        api_key = api_key or env.get("EMSIM_API_KEY") or profile.get("api_key")
        parts = urllib.parse.urlsplit(str(base_url).strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(
                "base_url must be an http:// or https:// address such as "
                f"{DEFAULT_BASE_URL}, got {base_url!r}"
            )
        self.base_url = urllib.parse.urlunsplit(
            (parts.scheme, parts.netloc, parts.path.rstrip("/"), "", "")
        )
        if re.search(r"/v1$", self.base_url):
            # The API's paths start with /v1; a base_url ending with it would double it.
            self.base_url = self.base_url[: -len("/v1")]
        policy = retries if isinstance(retries, RetryPolicy) else RetryPolicy(retries=int(retries))
        self._http = Transport(
            self.base_url,
            api_key,
            timeout=timeout,
            policy=policy,
            ssl_context=ssl_context,
            on_retry=on_retry,
            user_agent=f"emsim-python/{__version__} Python/{sys.version.split()[0]}",
        )

    def __repr__(self) -> str:
        return f"emsim.Client({self.base_url!r})"

    # ------------------------------------------------------------------ endpoints

    def submit(self, request: Request) -> Dict[str, Any]:
        """Queues a simulation (``POST /v1/simulations``): a dict, a JSON file or JSON text.

        Returns ``{job_id, status: "QUEUED", created_at, message}``. Raises
        ``ValidationError`` (422, ``.errors`` names each field) and
        ``SimulationAlreadyRunningError`` (409, ``.active_job_id``, ``.retry_after``).
        """
        return self._json("POST", "/v1/simulations", body=_read_request(request), idempotent=False)

    def estimate(self, request: Request) -> Dict[str, Any]:
        """Grid, memory and time of a run, not queued (``POST /v1/simulations/estimate``)."""
        return self._json(
            "POST", "/v1/simulations/estimate", body=_read_request(request), idempotent=True
        )

    def preview(
        self,
        simulation: Request,
        *,
        planes: Optional[Sequence[Dict[str, Any]]] = None,
        max_samples: Optional[int] = None,
    ) -> Dict[str, Any]:
        """The set-up as the solver will step it, before anything runs
        (``POST /v1/simulations/preview``, docs/api.md "Preview"); nothing is queued.

        ``simulation`` is a dict, a JSON file or JSON text; ``planes`` a list of
        ``{"normal": "x" | "y" | "z", "position": metres}`` (default the three planes through
        the origin, at most 6); ``max_samples`` the most samples along each axis of a plane
        (default 400). Returns ``{planes, materials, warnings, estimate}``; each plane's
        ``eps_real`` and ``eps_imag`` (Re and Im ε at the source wavelength after the run's
        averaging), ``material`` (an index into ``materials``) and ``pec`` are numpy arrays
        shaped (first axis, second axis) of ``axes``, at ``coords[axes[0]]`` and
        ``coords[axes[1]]`` (numpy, metres); ``objects`` lists the outlines of what it cuts.
        Needs numpy. Raises ``ValidationError`` (422) naming ``simulation.…``, or
        ``planes[0].position`` for a plane outside the grid.
        """
        body: Dict[str, Any] = {"simulation": _read_request(simulation)}
        if planes is not None:
            body["planes"] = [dict(p) for p in planes]
        if max_samples is not None:
            body["max_samples"] = int(max_samples)
        np = _numpy_for_preview()
        answer = self._json("POST", "/v1/simulations/preview", body=body, idempotent=True)
        return _preview_arrays(answer, np)

    def modes(
        self,
        request: Request,
        *,
        plane: Optional[Dict[str, Any]] = None,
        wavelengths: Union[List[float], Dict[str, Any], None] = None,
        mode_spec: Optional[Dict[str, Any]] = None,
        group_index: Optional[bool] = None,
        include_fields: Optional[bool] = None,
        timeout: float = 120.0,
    ) -> Dict[str, Any]:
        """The waveguide modes of a plane (``POST /v1/modes``, docs/api.md "Modes").

        ``request`` is a mode request (a dict, a JSON file or JSON text), or a simulation
        request whose ``domain``, ``structures`` and ``materials`` are taken, with ``plane``
        (``{"center": [x, y, z], "size": [...]}``, zero along the normal), ``wavelengths``
        (default the simulation's source wavelength) and the other keywords added or
        replacing the request's. Returns the answer: ``plane``, ``wavelengths_m``, ``modes``
        (``n_eff``, ``k_eff``, ``te_fraction``, ``group_index`` and ``fields`` when asked) and,
        with fields, ``grid``; ``modes_dataset`` turns it into an xarray Dataset.

        Retried on 429 and 503 ``modes_busy`` (``ModesBusyError`` after the retries), not
        after a timeout: a solve that outlasted ``timeout`` seconds would most likely again.
        """
        body = _modes_body(
            _read_request(request),
            plane=plane,
            wavelengths=wavelengths,
            mode_spec=mode_spec,
            group_index=group_index,
            include_fields=include_fields,
        )
        return self._json("POST", "/v1/modes", body=body, idempotent=False, timeout=timeout)

    def status(self, job_id: str) -> Dict[str, Any]:
        """A job's record (``GET /v1/simulations/{job_id}``): status, progress, checksum, …"""
        return self._json("GET", f"/v1/simulations/{urllib.parse.quote(job_id, safe='')}")

    def list(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        status: Optional[str] = None,
    ) -> Dict[str, Any]:
        """One page of your jobs, newest first: ``{jobs, next_cursor}`` (GET /v1/simulations)."""
        return self._json(
            "GET", "/v1/simulations", query={"limit": limit, "cursor": cursor, "status": status}
        )

    def jobs(
        self, *, status: Optional[str] = None, page_size: int = 50
    ) -> Iterator[Dict[str, Any]]:
        """Every job (matching ``status``), newest first, following ``next_cursor``."""
        cursor: Optional[str] = None
        while True:
            page = self.list(limit=page_size, cursor=cursor, status=status)
            yield from page["jobs"]
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def cancel(self, job_id: str) -> Dict[str, Any]:
        """Cancels a QUEUED or RUNNING job; returns its record. ``JobFinishedError`` if it ended."""
        return self._json(
            "POST", f"/v1/simulations/{urllib.parse.quote(job_id, safe='')}/cancel", idempotent=True
        )

    def sparameters(self, job_id: str, *, format: str = "json") -> Any:
        """A COMPLETED ports job's S-matrix (``GET /v1/simulations/{job_id}/sparameters``):
        ``{ports, inputs, wavelengths_m, s, n_eff}`` with ``s[out][in][k] = [re, im]`` (``s[1][0]``
        is S21; None where the input was not run). ``format="touchstone"``: the server's
        Touchstone 1.1 text instead. ``ResultsNotReadyError`` until the job has COMPLETED,
        ``SParametersNotFoundError`` for a job without ports. For the result file's matrix as
        xarray, see ``emsim.load(path).s_matrix``."""
        if format not in ("json", "touchstone"):
            raise ValueError(f"format must be 'json' or 'touchstone', not {format!r}")
        path = f"/v1/simulations/{urllib.parse.quote(job_id, safe='')}/sparameters"
        if format == "json":
            return self._json("GET", path)
        return self._http.request("GET", path, query={"format": format}).body.decode("utf-8")

    def materials(self) -> List[Dict[str, Any]]:
        """The material library (``GET /v1/materials``): names, models, valid ranges (m)."""
        return self._json("GET", "/v1/materials")["materials"]

    def result_url(self, job_id: str) -> str:
        """The pre-signed address of a COMPLETED job's result file (valid about 15 minutes)."""
        path = f"/v1/simulations/{urllib.parse.quote(job_id, safe='')}/results"
        res = self._http.request("GET", path)
        location = res.header("Location")
        if not (300 <= res.status < 400) or not location:
            raise EmsimError(
                f"expected a redirect to the result file from {path}, got HTTP {res.status}"
            )
        return urllib.parse.urljoin(self.base_url + path, location)

    # ------------------------------------------------------------------ batches

    def submit_batch(self, request: Request) -> Dict[str, Any]:
        """Queues a sweep (``POST /v1/batches``, docs/api.md "Batches"): ``{simulation,
        parameters, combine, metadata}`` as a dict, a JSON file or JSON text; one job per
        variant. Returns ``{batch_id, status: "QUEUED", job_count, created_at, message}``.

        Every variant is validated first: ``ValidationError`` names ``variants[i]``, the field
        and the parameter and value that caused it. A batch is one active unit:
        ``SimulationAlreadyRunningError`` while a job or batch of yours is active, and while it
        runs your submissions get it too (``.active_batch_id``).
        """
        return self._json("POST", "/v1/batches", body=_read_request(request), idempotent=False)

    def estimate_batch(self, request: Request) -> Dict[str, Any]:
        """What a sweep would cost, not queued (``POST /v1/batches/estimate``): the request as
        for :meth:`submit_batch`, checked as a submission is (the same ``ValidationError``);
        returns ``{job_count, expected_seconds, max_batch_seconds, parallelism, time_steps,
        result_bytes, largest_job}``. It answers while a batch of yours runs."""
        return self._json(
            "POST", "/v1/batches/estimate", body=_read_request(request), idempotent=True
        )

    def get_batch(self, batch_id: str) -> Dict[str, Any]:
        """A batch's record (``GET /v1/batches/{batch_id}``): ``status``, ``counts`` by job
        state, ``progress`` over all jobs, ``parameters`` (the sweep's dimensions), ``jobs``
        (each with ``index``, ``status``, ``parameters``, ``error_detail``), ``checksum``."""
        return self._json("GET", f"/v1/batches/{urllib.parse.quote(batch_id, safe='')}")

    def list_batches(
        self, *, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> Dict[str, Any]:
        """One page of your batches, newest first, without their jobs: ``{batches,
        next_cursor}`` (``GET /v1/batches``)."""
        return self._json("GET", "/v1/batches", query={"limit": limit, "cursor": cursor})

    def batches(self, *, page_size: int = 50) -> Iterator[Dict[str, Any]]:
        """Every batch of yours, newest first, following ``next_cursor``."""
        cursor: Optional[str] = None
        while True:
            page = self.list_batches(limit=page_size, cursor=cursor)
            yield from page["batches"]
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def cancel_batch(self, batch_id: str) -> Dict[str, Any]:
        """Cancels a batch (``POST /v1/batches/{batch_id}/cancel``): its QUEUED jobs become
        FAILED at once, its RUNNING ones stop within about a second; finished jobs keep their
        results. Returns its record. ``BatchFinishedError`` (409) when every job of it has
        already ended."""
        return self._json(
            "POST", f"/v1/batches/{urllib.parse.quote(batch_id, safe='')}/cancel", idempotent=True
        )

    def batch_result_url(self, batch_id: str, *, timeout: float = 960.0) -> str:
        """The pre-signed address of a COMPLETED batch's one result file. The first request
        has the server write the file (up to 900 s for a large batch: ``timeout`` seconds),
        after which the record has its ``checksum``. ``ResultsNotReadyError`` before the batch
        is COMPLETED, ``BatchResultsUnavailableError`` when its jobs' files cannot be stacked
        into one, ``BatchResultsBusyError`` (after the retries) while the writers are busy."""
        path = f"/v1/batches/{urllib.parse.quote(batch_id, safe='')}/results"
        res = self._http.request("GET", path, timeout=max(timeout, self._http.timeout))
        location = res.header("Location")
        if not (300 <= res.status < 400) or not location:
            raise EmsimError(
                f"expected a redirect to the result file from {path}, got HTTP {res.status}"
            )
        return urllib.parse.urljoin(self.base_url + path, location)

    # ------------------------------------------------------------------ workflows

    def wait(
        self,
        job_id: str,
        *,
        timeout: Optional[float] = None,
        poll_interval: float = 1.0,
        progress: ProgressOption = True,
    ) -> Dict[str, Any]:
        """Polls a job until it is COMPLETED or FAILED and returns its final record.

        A FAILED job is returned, not raised (see ``run``). ``progress``: ``True`` shows it (a
        tqdm bar in Jupyter when tqdm is installed, a line redrawn on a terminal, plain lines
        in a log), ``False`` hides it, a callable receives every record. Raises
        ``WaitTimeout`` after ``timeout`` seconds.
        """

        def verdict(job: Dict[str, Any]) -> Tuple[str, Optional[float]]:
            text = describe_job(job)[1]
            if job["status"] == "COMPLETED":
                return text, 1.0
            return f"{text}: {job.get('error_detail')}", None

        return self._follow(
            lambda: self.status(job_id),
            f"job {job_id[:8]}",
            describe_job,
            verdict,
            "interrupted (the job goes on; cancel it with client.cancel)",
            timeout=timeout,
            poll_interval=poll_interval,
            progress=progress,
        )

    def wait_batch(
        self,
        batch_id: str,
        *,
        timeout: Optional[float] = None,
        poll_interval: float = 1.0,
        progress: ProgressOption = True,
    ) -> Dict[str, Any]:
        """Polls a batch until every job has ended (COMPLETED: at least one job completed;
        FAILED: none did) and returns its final record, which is not raised when FAILED.

        ``progress`` as for ``wait``: the bar is the fraction over all the batch's jobs (a
        running job by its own progress); a callable receives every record. Raises
        ``WaitTimeout`` after ``timeout`` seconds.
        """
        return self._follow(
            lambda: self.get_batch(batch_id),
            f"batch {batch_id[:8]}",
            describe_batch,
            lambda b: (batch_verdict(b), 1.0 if b["status"] == "COMPLETED" else None),
            "interrupted (the batch goes on; cancel it with client.cancel_batch)",
            timeout=timeout,
            poll_interval=poll_interval,
            progress=progress,
        )

    def download(
        self,
        job_id: str,
        path: Union[str, "os.PathLike[str]", None] = None,
        *,
        progress: ProgressOption = True,
        job: Optional[Dict[str, Any]] = None,
    ) -> pathlib.Path:
        """Downloads a COMPLETED job's result file and returns its path.

        Follows the API's redirect to the storage address (never sending the API key there),
        writes ``<path>.part`` and resumes an interrupted download with a Range request (in
        this call, or a later one that finds the ``.part`` file), checks the SHA-256 against
        the job's checksum and only then renames it to ``path`` (default
        ``emsim-<job_id>.h5``). A file that does not match is deleted and
        ``ChecksumMismatchError`` raised.
        """
        job = job or self.status(job_id)
        if job.get("status") != "COMPLETED" or not job.get("checksum"):
            self.result_url(job_id)  # the API says why: ResultsNotReadyError with the status
            raise EmsimError(f"job {job_id} is {job.get('status')} and has no result file")
        target = pathlib.Path(path if path is not None else f"emsim-{job_id}.h5")
        return self._download_verified(
            ("job", job_id),
            target,
            str(job["checksum"]),
            job.get("result_bytes"),
            lambda: self.result_url(job_id),
            progress,
        )

    def download_batch(
        self,
        batch_id: str,
        path: Union[str, "os.PathLike[str]", None] = None,
        *,
        progress: ProgressOption = True,
        batch: Optional[Dict[str, Any]] = None,
    ) -> pathlib.Path:
        """Downloads a COMPLETED batch's one result file (every monitor with the sweep's
        dimensions first; ``emsim.load`` reads it) and returns its path (default
        ``emsim-batch-<batch_id>.h5``).

        As ``download`` does a job's: resumable, never sending the API key to the storage
        address, checked against the batch's SHA-256 ``checksum`` before ``<path>.part`` is
        renamed. The first download has the server write the file (once), after which the
        record carries the checksum. ``ResultsNotReadyError`` before the batch is COMPLETED.
        """
        batch = batch or self.get_batch(batch_id)
        if batch.get("status") != "COMPLETED":
            self.batch_result_url(batch_id)  # the API says why: ResultsNotReadyError
            raise EmsimError(f"batch {batch_id} is {batch.get('status')} and has no result file")
        # The first request for the file has it written; the record has its checksum after.
        built = [self.batch_result_url(batch_id)]
        if not batch.get("checksum"):
            batch = self.get_batch(batch_id)
        if not batch.get("checksum"):
            raise EmsimError(f"batch {batch_id}'s record has no checksum for its result file")
        target = pathlib.Path(path if path is not None else f"emsim-batch-{batch_id}.h5")
        return self._download_verified(
            ("batch", batch_id),
            target,
            str(batch["checksum"]),
            None,
            lambda: built.pop() if built else self.batch_result_url(batch_id),
            progress,
        )

    def run(
        self,
        request: Request,
        path: Union[str, "os.PathLike[str]", None] = None,
        *,
        progress: ProgressOption = True,
        poll_interval: float = 1.0,
    ) -> pathlib.Path:
        """Submit, wait and download: returns the verified result file's path.

        Raises ``JobFailedError`` when the job FAILED or was cancelled, and before submitting
        anything the ``OSError`` writing ``path`` would raise (no such folder, a folder).
        """
        if path is not None:
            check_writable(pathlib.Path(path))
        ack = self.submit(request)
        job = self.wait(ack["job_id"], progress=progress, poll_interval=poll_interval)
        if job["status"] != "COMPLETED":
            raise JobFailedError(job)
        return self.download(job["job_id"], path, progress=progress, job=job)

    def sweep(
        self,
        simulation: Request,
        parameters: Parameters,
        *,
        combine: str = "product",
        metadata: Optional[Dict[str, Any]] = None,
        wait: bool = True,
        path: Union[str, "os.PathLike[str]", None] = None,
        progress: ProgressOption = True,
        poll_interval: float = 1.0,
    ) -> Any:
        """One simulation over parameters, one job per variant; returns the batch's result
        file loaded (``emsim.load``: an :class:`emsim.BatchResult`, every monitor with the
        sweep's dimensions first), or with ``wait=False`` the submission's answer.

        ``simulation`` is a dict, a JSON file or JSON text. ``parameters``:
        ``{"/structures/0/size/2": [3e-7, 5e-7], "/source/wavelength": {"start": 1.5e-6,
        "stop": 1.6e-6, "points": 5}}`` (each named after its pointer, e.g.
        ``structures_0_size_2``; numpy arrays are fine), or a list of the API's
        ``{"name", "path", "values" | "range"}``. ``combine``: ``"product"`` (every
        combination, the first parameter outermost) or ``"zip"``. The file goes to ``path``
        (default ``emsim-batch-<batch_id>.h5``). Raises ``BatchFailedError`` if no job
        completed; variants that FAILED are NaN in the result (``result.jobs.status``).
        """
        from .results import load

        if wait and path is not None:
            check_writable(pathlib.Path(path))
        body: Dict[str, Any] = {
            "simulation": _read_request(simulation),
            "parameters": batch_parameters(parameters),
            "combine": combine,
        }
        if metadata is not None:
            body["metadata"] = metadata
        ack = self.submit_batch(body)
        if not wait:
            return ack
        batch = self.wait_batch(ack["batch_id"], progress=progress, poll_interval=poll_interval)
        if batch["status"] != "COMPLETED":
            raise BatchFailedError(batch)
        return load(self.download_batch(batch["batch_id"], path, progress=progress, batch=batch))

    # ------------------------------------------------------------------ fabrication

    def export_gds(
        self,
        job_id: str,
        layer_mapping: Dict[str, Dict[str, int]],
        grid_resolution_nm: float = 1,
        z_um: Optional[float] = None,
    ) -> Dict[str, Any]:
        """Exports a job's structures, cut by a horizontal plane (``z_um``, default each
        structure's centre), as GDS II (``POST /v1/fabrication/export-gds``);
        ``layer_mapping`` is ``{"Si": {"layer": 1, "datatype": 0}, ...}``. The answer's
        ``gds_url`` is a signed address for ``download_gds``, ``drc`` and ``recipe``."""
        body: Dict[str, Any] = {
            "job_id": job_id,
            "layer_mapping": layer_mapping,
            "grid_resolution_nm": grid_resolution_nm,
        }
        if z_um is not None:
            body["z_um"] = z_um
        return self._json("POST", "/v1/fabrication/export-gds", body=body, idempotent=True)

    def upload_gds(self, gds: Union[bytes, str, os.PathLike]) -> Dict[str, Any]:
        """Uploads a GDS II file made elsewhere (bytes or a path) as application/octet-stream
        (``POST /v1/fabrication/gds``); an unreadable file is an ``ApiError`` 422
        ``gds_invalid`` whose ``detail`` says what and where."""
        data = gds if isinstance(gds, (bytes, bytearray)) else pathlib.Path(gds).read_bytes()
        return self._json("POST", "/v1/fabrication/gds", raw=bytes(data), idempotent=True)

    def drc(
        self, gds_url: str, pdk: str, rules: Optional[Dict[str, float]] = None
    ) -> Dict[str, Any]:
        """A design-rule check of a stored file against a kit's rules
        (``POST /v1/fabrication/drc``); ``rules`` (``min_feature_nm``, ``min_spacing_nm``,
        ``min_radius_nm``) override the kit's. ``passed`` is false when an error-severity rule
        is violated; ``violations`` says where."""
        body: Dict[str, Any] = {"gds_url": gds_url, "pdk": pdk}
        if rules:
            body["rules"] = rules
        return self._json("POST", "/v1/fabrication/drc", body=body, idempotent=True)

    def recipe(
        self,
        pdk: str,
        *,
        gds_url: Optional[str] = None,
        job_id: Optional[str] = None,
        layer_mapping: Optional[Dict[str, Dict[str, int]]] = None,
        options: Optional[Dict[str, bool]] = None,
    ) -> Dict[str, Any]:
        """An ordered process flow for a stored file or a job (``POST /v1/fabrication/recipe``),
        with ``warnings`` for layers the kit cannot make."""
        body: Dict[str, Any] = {"pdk": pdk}
        for name, value in (
            ("gds_url", gds_url),
            ("job_id", job_id),
            ("layer_mapping", layer_mapping),
            ("options", options),
        ):
            if value is not None:
                body[name] = value
        return self._json("POST", "/v1/fabrication/recipe", body=body, idempotent=True)

    def pdks(self) -> List[Dict[str, Any]]:
        """The process design kits (``GET /v1/fabrication/pdks``): layers, stacks and rules."""
        return self._json("GET", "/v1/fabrication/pdks")["pdks"]

    def download_gds(self, gds_url: str, path: Union[str, os.PathLike]) -> pathlib.Path:
        """Saves the file behind a ``gds_url`` to ``path`` (the signed address needs no key,
        and the key is not sent to it); returns the path."""
        target = pathlib.Path(path)
        check_writable(target)
        part = target.with_name(target.name + ".part")
        try:
            with self._http.open(gds_url, headers={"User-Agent": self._http.user_agent}) as res:
                with open(part, "wb") as out:
                    for chunk in iter(lambda: res.read(_CHUNK), b""):
                        out.write(chunk)
        except urllib.error.HTTPError as err:
            raise self._http.api_error(error_response(err), "GET", gds_url) from None
        except (urllib.error.URLError, OSError) as err:
            raise self._http.connection_error(gds_url, err) from None
        os.replace(part, target)
        return target

    # ------------------------------------------------------------------ plumbing

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        res = self._http.request(method, path, **kwargs)
        try:
            return res.json()
        except (ValueError, UnicodeDecodeError):
            kind = (res.header("Content-Type") or "no content type").split(";")[0]
            raise EmsimConnectionError(
                f"{self.base_url} answered {method} {path} with HTTP {res.status} and {kind}, not "
                f"JSON: it is not the emsim API (base_url is the server's address, without /v1)",
                url=self.base_url + path,
                sent=True,
                reason="not the emsim API",
            ) from None

    def _follow(
        self,
        fetch: Callable[[], Dict[str, Any]],
        label: str,
        describe: Callable[[Dict[str, Any]], tuple],
        verdict: Callable[[Dict[str, Any]], Tuple[str, Optional[float]]],
        interrupted: str,
        *,
        timeout: Optional[float],
        poll_interval: float,
        progress: ProgressOption,
    ) -> Dict[str, Any]:
        """Polls ``fetch`` until its record is no longer QUEUED or RUNNING, quickly at first,
        showing ``describe``'s progress and at the end ``verdict``'s words. Polls that fail
        (the server unreachable, 5xx, 429) are retried every 2 s or more for up to
        ``MAX_OUTAGE_SECONDS``; then the last error is raised."""
        callback = progress if callable(progress) else None
        shown = reporter(None if callback else progress, label, total=100)
        started = time.monotonic()
        interval = min(0.25, poll_interval)
        failing_since: Optional[float] = None
        try:
            while True:
                try:
                    record = fetch()
                    failing_since = None
                except EmsimError as err:
                    # A server restarting or a network drop does not end a long wait at once.
                    if not _outage(err):
                        raise
                    now = time.monotonic()
                    if failing_since is None:
                        failing_since = now
                        print(
                            f"emsim: {err}; still polling for up to "
                            f"{MAX_OUTAGE_SECONDS:.0f} s ({label} continues on the server)",
                            file=sys.stderr,
                        )
                    # The wait's own timeout holds through an outage too.
                    timed_out = timeout is not None and now - started >= timeout
                    if now - failing_since >= MAX_OUTAGE_SECONDS or timed_out:
                        raise
                    time.sleep(max(poll_interval, 2.0))
                    continue
                if callback:
                    callback(record)
                fraction, text, key = describe(record)
                if record["status"] not in _ACTIVE:
                    shown.close(*verdict(record))
                    return record
                shown.show(fraction, text, key)
                if timeout is not None and time.monotonic() - started + interval > timeout:
                    shown.close(text)
                    raise WaitTimeout(record, timeout)
                time.sleep(interval)
                interval = min(poll_interval, interval * 1.5)
        except KeyboardInterrupt:
            shown.close(interrupted)
            raise

    def _download_verified(
        self,
        owner: Tuple[str, str],
        target: pathlib.Path,
        checksum: str,
        total: Optional[int],
        signed_url: Callable[[], str],
        progress: ProgressOption,
    ) -> pathlib.Path:
        """Downloads into ``<target>.part`` and renames it once its SHA-256 is ``checksum``.
        ``owner`` is ``("job" or "batch", id)``."""
        kind, owner_id = owner
        check_writable(target)
        part = target.with_name(target.name + ".part")
        expected = checksum.lower()
        for attempt in range(2):
            resumed = part.stat().st_size if part.exists() else 0
            actual = self._fetch_part(f"download {owner_id[:8]}", signed_url, part, total, progress)
            if actual == expected:
                os.replace(part, target)
                return target
            part.unlink()
            # A .part left from another download (another server, an older job) spoils the
            # hash: start again from zero once before calling the stored file corrupt.
            if attempt == 0 and resumed > 0:
                continue
            raise ChecksumMismatchError(owner_id, expected, actual, str(target), kind)
        raise AssertionError("unreachable")

    def _download_retry(self, retry: int, delay: float, reason: str) -> None:
        """Tells ``on_retry`` of a download's retry, as the API's are told (the storage
        address stands for its URL, as in the TypeScript SDK), then waits ``delay``."""
        if self._http.on_retry:
            self._http.on_retry(
                {
                    "method": "GET",
                    "url": "(storage address)",
                    "retry": retry,
                    "delay": delay,
                    "reason": reason,
                }
            )
        time.sleep(delay)

    def _fetch_part(
        self,
        label: str,
        signed_url: Callable[[], str],
        part: pathlib.Path,
        total: Optional[int],
        progress: ProgressOption,
    ) -> str:
        """Appends the rest of the file to ``part`` and returns the SHA-256 of all of it;
        ``signed_url`` asks the API for a (fresh) storage address."""
        digest = hashlib.sha256()
        offset = 0
        if part.exists():
            with open(part, "rb") as f:
                for chunk in iter(lambda: f.read(_CHUNK), b""):
                    digest.update(chunk)
                    offset += len(chunk)
        resumed_from = offset  # bytes reused from an earlier download; 0 once it restarts
        callback = progress if callable(progress) else None
        shown = reporter(None if callback else progress, label, total=total, unit="B")
        url: Optional[str] = None
        failures = 0
        policy = self._http.policy
        while total is None or offset < total:
            url = url or signed_url()
            headers = {"User-Agent": self._http.user_agent}
            if offset > 0:
                headers["Range"] = f"bytes={offset}-"
            before = offset
            try:
                with self._http.open(url, headers=headers) as res:
                    if res.status == 200 and offset > 0:  # the Range was ignored: start over
                        digest, offset, resumed_from = hashlib.sha256(), 0, 0
                        part.write_bytes(b"")
                    length = res.headers.get("Content-Length")
                    content_range = res.headers.get("Content-Range") or ""
                    if "/" in content_range and content_range.rsplit("/", 1)[1].isdigit():
                        total = int(content_range.rsplit("/", 1)[1])
                    elif length is not None and length.isdigit():
                        total = offset + int(length)
                    with local(lambda: open(part, "ab" if offset > 0 else "wb")) as out:
                        for chunk in iter(lambda: res.read(_CHUNK), b""):
                            local(lambda: out.write(chunk))
                            digest.update(chunk)
                            offset += len(chunk)
                            if callback:
                                callback(
                                    {
                                        "received_bytes": offset,
                                        "total_bytes": total,
                                        "resumed_from_bytes": resumed_from,
                                    }
                                )
                            shown.show(*describe_download(offset, total))
                    if total is not None and offset < total:
                        raise ConnectionResetError("the connection closed early")
                    if total is None:
                        total = offset
            except LocalFileError as err:
                shown.close("failed")
                raise err.error from None
            except urllib.error.HTTPError as err:
                body = error_response(err)
                if err.code == 416 and offset > 0:
                    size = (body.header("Content-Range") or "").rsplit("/", 1)[-1]
                    if size.isdigit() and int(size) == offset:
                        total = offset  # the .part file is already whole
                        continue
                    digest, offset, resumed_from = hashlib.sha256(), 0, 0  # longer than the file
                    part.write_bytes(b"")
                    continue
                error = self._http.api_error(body, "GET", "(storage address)")
                if err.code == 403:
                    url = None  # most likely the address expired: ask the API for a new one
                elif err.code != 429 and err.code < 500:
                    shown.close("failed")
                    raise error from None
                failures += 1
                if failures > policy.retries:
                    shown.close("failed")
                    raise error from None
                retry_after = parse_retry_after(body.header("Retry-After"))
                delay = policy.delay(failures, retry_after, self._http.rand)
                self._download_retry(failures, delay, f"HTTP {err.code}")
                continue
            except (urllib.error.URLError, OSError) as err:
                if offset > before:
                    failures = 0  # progress was made: the budget is for consecutive failures
                failures += 1
                if failures > policy.retries:
                    shown.close("interrupted")
                    message = self._http.connection_error(url or self.base_url, err)
                    raise EmsimConnectionError(
                        f"{message} — the download stopped at {offset} bytes; download again "
                        "to resume",
                        url=message.url,
                        sent=True,
                        reason=message.reason,
                    ) from None
                delay = policy.delay(failures, None, self._http.rand)
                self._download_retry(failures, delay, str(err))
                continue
        shown.close(describe_download(offset, total)[1], 1.0)
        return digest.hexdigest()
