"""``Client``: the emsim API from Python (docs/python.md), standard library only.

Every method maps to one endpoint, except ``wait`` (polling with progress), ``download``
(302 → storage, resume, checksum) and ``run`` (all of it). Lengths in metres, times in
seconds; requests and answers are plain dicts shaped as in /openapi.json.
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
from typing import Any, Callable, Dict, Iterator, List, Optional, Union

from ._version import __version__
from ._http import RetryPolicy, Transport, error_response, parse_retry_after
from .errors import (
    ChecksumMismatchError,
    EmsimConnectionError,
    EmsimError,
    JobFailedError,
    WaitTimeout,
)
from .progress import ProgressOption, describe_download, describe_job, reporter

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
_ACTIVE = ("QUEUED", "RUNNING")
_CHUNK = 1 << 20

Request = Union[Dict[str, Any], str, "os.PathLike[str]"]


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
        callback = progress if callable(progress) else None
        shown = reporter(None if callback else progress, f"job {job_id[:8]}", total=100)
        started = time.monotonic()
        interval = min(0.25, poll_interval)
        try:
            while True:
                job = self.status(job_id)
                if callback:
                    callback(job)
                fraction, text, key = describe_job(job)
                if job["status"] not in _ACTIVE:
                    if job["status"] == "COMPLETED":
                        shown.close(text, 1.0)
                    else:
                        shown.close(f"{text}: {job.get('error_detail')}")
                    return job
                shown.show(fraction, text, key)
                if timeout is not None and time.monotonic() - started + interval > timeout:
                    shown.close(text)
                    raise WaitTimeout(job, timeout)
                time.sleep(interval)
                interval = min(poll_interval, interval * 1.5)
        except KeyboardInterrupt:
            shown.close("interrupted (the job goes on; cancel it with client.cancel)")
            raise

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
        part = target.with_name(target.name + ".part")
        expected = str(job["checksum"]).lower()
        total = job.get("result_bytes")
        for attempt in range(2):
            resumed = part.stat().st_size if part.exists() else 0
            actual = self._fetch_part(job_id, part, total, progress)
            if actual == expected:
                os.replace(part, target)
                return target
            part.unlink()
            # A .part left from another download (another server, an older job) spoils the
            # hash: start again from zero once before calling the stored file corrupt.
            if attempt == 0 and resumed > 0:
                continue
            raise ChecksumMismatchError(job_id, expected, actual, str(target))
        raise AssertionError("unreachable")

    def run(
        self,
        request: Request,
        path: Union[str, "os.PathLike[str]", None] = None,
        *,
        progress: ProgressOption = True,
        poll_interval: float = 1.0,
    ) -> pathlib.Path:
        """Submit, wait and download: returns the verified result file's path.

        Raises ``JobFailedError`` when the job FAILED or was cancelled.
        """
        ack = self.submit(request)
        job = self.wait(ack["job_id"], progress=progress, poll_interval=poll_interval)
        if job["status"] != "COMPLETED":
            raise JobFailedError(job)
        return self.download(job["job_id"], path, progress=progress, job=job)

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

    def _fetch_part(
        self, job_id: str, part: pathlib.Path, total: Optional[int], progress: ProgressOption
    ) -> str:
        """Appends the rest of the file to ``part`` and returns the SHA-256 of all of it."""
        digest = hashlib.sha256()
        offset = 0
        if part.exists():
            with open(part, "rb") as f:
                for chunk in iter(lambda: f.read(_CHUNK), b""):
                    digest.update(chunk)
                    offset += len(chunk)
        resumed_from = offset  # bytes reused from an earlier download; 0 once it restarts
        callback = progress if callable(progress) else None
        shown = reporter(
            None if callback else progress, f"download {job_id[:8]}", total=total, unit="B"
        )
        url: Optional[str] = None
        failures = 0
        policy = self._http.policy
        while total is None or offset < total:
            url = url or self.result_url(job_id)
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
                    with open(part, "ab" if offset > 0 else "wb") as out:
                        for chunk in iter(lambda: res.read(_CHUNK), b""):
                            out.write(chunk)
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
                time.sleep(
                    policy.delay(
                        failures, parse_retry_after(body.header("Retry-After")), self._http.rand
                    )
                )
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
                time.sleep(policy.delay(failures, None, self._http.rand))
                continue
        shown.close(describe_download(offset, total)[1], 1.0)
        return digest.hexdigest()
