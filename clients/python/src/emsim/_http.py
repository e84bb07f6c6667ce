"""HTTP for the client: one request with retries, and the failures turned into emsim errors.

When a request is tried again (the same rules as the TypeScript SDK, src/client/retry.ts):
connection failures, 429 and 5xx, with exponential backoff and jitter, waiting at least what
the server's ``Retry-After`` asks. Never retried: any other 4xx, which would get the same
answer. A submission is not idempotent, so it is retried only where the server cannot have
queued it: the connection failed before the request was sent (refused, unknown host, TLS),
or the answer was 429 (refused before admission) or 503 (nothing stored). After an
ambiguous failure (a broken connection or timeout after sending, 500/502/504) the job may
exist, so the error is raised rather than risk running it twice.
"""

from __future__ import annotations

import email.utils
import errno
import http.client
import json
import random
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from .errors import ApiError, EmsimConnectionError, EmsimError, api_error

#: Errors of the connect phase: the request never left, so any request may be repeated.
_NOT_SENT_ERRNOS = {
    errno.ECONNREFUSED,
    errno.EHOSTUNREACH,
    errno.ENETUNREACH,
    errno.EADDRNOTAVAIL,
}


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry. Delays in seconds."""

    retries: int = 4
    min_delay: float = 0.25
    max_delay: float = 8.0
    #: A ``Retry-After`` longer than this is not waited for: the error is raised instead.
    max_retry_after: float = 60.0

    def delay(self, retry: int, retry_after: Optional[float], rand: Callable[[], float]) -> float:
        """Seconds before retry number ``retry`` (1 for the first).

        "Equal jitter": half of the exponential step fixed, half random, so that clients that
        failed together spread out but none retries at once. A longer Retry-After wins.
        """
        step = min(self.max_delay, self.min_delay * 2 ** max(0, retry - 1))
        backoff = step / 2 + rand() * (step / 2)
        return retry_after if retry_after is not None and retry_after > backoff else backoff


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3)."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass
class Response:
    status: int
    headers: Mapping[str, str]
    body: bytes

    def header(self, name: str) -> Optional[str]:
        for key, value in self.headers.items():
            if key.lower() == name.lower():
                return value
        return None

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


def error_response(err: urllib.error.HTTPError) -> Response:
    """The answer an HTTPError carries (its body, or none if the connection broke)."""
    try:
        body = err.read()
    except (OSError, http.client.HTTPException):
        body = b""
    return Response(err.code, dict(err.headers.items()) if err.headers else {}, body)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are returned, not followed: the API key must never go to the storage address."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _network_reason(err: BaseException, timeout: float) -> Tuple[str, bool]:
    """A short reason for a failed connection, and whether the request may have been sent."""
    reason: Any = err.reason if isinstance(err, urllib.error.URLError) else err
    if isinstance(reason, ssl.SSLCertVerificationError):
        return f"TLS certificate not trusted ({reason.verify_message})", False
    if isinstance(reason, ssl.SSLError):
        return f"TLS handshake failed ({reason.reason or reason})", False
    if isinstance(reason, socket.gaierror):
        return "unknown host", False
    if isinstance(reason, (socket.timeout, TimeoutError)):
        return f"no answer within {timeout:g} s", True
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused", False
    if isinstance(reason, OSError) and reason.errno in _NOT_SENT_ERRNOS:
        return reason.strerror or str(reason), False
    if isinstance(reason, (http.client.RemoteDisconnected, ConnectionResetError)):
        return "the connection was closed", True
    if isinstance(reason, http.client.BadStatusLine):
        return "the answer was not HTTP", True
    return str(reason) or type(reason).__name__, True


class Transport:
    """Sends API requests with the API key, applying the retry policy."""

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str],
        *,
        timeout: float,
        policy: RetryPolicy,
        ssl_context: Optional[ssl.SSLContext],
        on_retry: Optional[Callable[[Dict[str, Any]], None]],
        sleep: Callable[[float], None] = time.sleep,
        rand: Callable[[], float] = random.random,
        user_agent: str,
    ) -> None:
        self.base_url = base_url
        self.api_key = api_key
        self.timeout = timeout
        self.policy = policy
        self.on_retry = on_retry
        self.sleep = sleep
        self.rand = rand
        self.user_agent = user_agent
        handlers: list = [_NoRedirect()]
        if ssl_context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=ssl_context))
        self.opener = urllib.request.build_opener(*handlers)

    def connection_error(
        self, url: str, err: BaseException, timeout: Optional[float] = None
    ) -> EmsimConnectionError:
        reason, sent = _network_reason(err, timeout or self.timeout)
        parts = urllib.parse.urlsplit(url)
        hint = ""
        if "TLS" in reason:
            hint = (
                "; check that base_url's scheme (http:// or https://) is the server's, or pass "
                "ssl_context= to trust its certificate"
            )
        elif reason in ("connection refused", "unknown host"):
            hint = "; is the server running and base_url right?"
        return EmsimConnectionError(
            f"cannot reach the emsim API at {parts.scheme}://{parts.netloc}: {reason}{hint}",
            url=url,
            sent=sent,
            reason=reason,
        )

    def open(
        self,
        url: str,
        *,
        method: str = "GET",
        headers: Optional[Dict[str, str]] = None,
        data: Optional[bytes] = None,
        timeout: Optional[float] = None,
    ) -> Any:
        """One attempt: the open response, or the urllib error (HTTPError for 3xx-5xx)."""
        req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
        return self.opener.open(req, timeout=timeout or self.timeout)

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        raw: Optional[bytes] = None,
        query: Optional[Dict[str, Any]] = None,
        idempotent: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> Response:
        """An API request with a JSON ``body`` or ``raw`` bytes (application/octet-stream);
        returns any 2xx/3xx answer, raises ApiError or EmsimConnectionError. ``timeout``
        replaces the client's for this request (seconds)."""
        url = self.base_url + path
        if query:
            pairs = {k: str(v) for k, v in query.items() if v is not None}
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        if idempotent is None:
            idempotent = method in ("GET", "HEAD")
        headers = {"Accept": "application/json", "User-Agent": self.user_agent}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data = None
        if body is not None:
            try:
                data = json.dumps(body, allow_nan=False).encode("utf-8")
            except ValueError as err:  # NaN or infinity, which JSON cannot carry
                raise ValueError(f"the request cannot be sent as JSON: {err}") from None
            headers["Content-Type"] = "application/json"
        elif raw is not None:
            data = bytes(raw)
            headers["Content-Type"] = "application/octet-stream"
        retry = 0
        while True:
            failure: EmsimError
            retry_after: Optional[float] = None
            try:
                with self.open(
                    url, method=method, headers=headers, data=data, timeout=timeout
                ) as res:
                    return Response(res.status, dict(res.headers.items()), res.read())
            except urllib.error.HTTPError as err:
                res = error_response(err)
                if 300 <= err.code < 400:
                    return res
                failure = self.api_error(res, method, path)
                retry_after = parse_retry_after(res.header("Retry-After"))
                retryable = err.code in (429, 503) or (err.code >= 500 and idempotent)
                reason = f"HTTP {err.code}"
            except (urllib.error.URLError, OSError, http.client.HTTPException) as err:
                unreachable = self.connection_error(url, err, timeout)
                failure = unreachable
                retryable = idempotent or not unreachable.sent
                reason = str(unreachable)
            if (
                not retryable
                or retry >= self.policy.retries
                or (retry_after is not None and retry_after > self.policy.max_retry_after)
            ):
                raise failure from None
            retry += 1
            delay = self.policy.delay(retry, retry_after, self.rand)
            if self.on_retry:
                self.on_retry(
                    {"method": method, "url": url, "retry": retry, "delay": delay, "reason": reason}
                )
            self.sleep(delay)

    def api_error(self, res: Response, method: str, path: str) -> ApiError:
        """The ApiError of an error answer; an answer that is not the API's says so."""
        correlation_id = res.header("X-Correlation-ID")
        try:
            body = res.json()
        except (ValueError, UnicodeDecodeError):
            body = None
        if isinstance(body, dict) and isinstance(body.get("detail"), str):
            return api_error(res.status, body, correlation_id)
        kind = (res.header("Content-Type") or "no content type").split(";")[0]
        snippet = " ".join(res.body[:200].decode("utf-8", "replace").split())
        detail = (
            f"{method} {self.base_url}{path} answered HTTP {res.status} with {kind}, not an emsim "
            f"API error; is base_url the server's address (without /v1)?"
            + (f" The body began: {snippet}" if snippet else "")
        )
        return api_error(
            res.status, {"detail": detail, "error_code": f"http_{res.status}"}, correlation_id
        )
