"""Structured logs: one JSON object per line in production, readable lines in a terminal.

Lines are written by a writer thread, not by the request that logs them. Records are queued and formatted
by the writer; the access line (one per request at the default level) is not a record at all: the request
writes its few fields into a line of the configured format (the same text the formatter would give) and
queues the text, so the hot path builds no LogRecord and the writer thread, which would compete with the
event loop for the interpreter lock, only joins and writes."""

from __future__ import annotations

import atexit
import json
import logging
import sys
import threading
import time
from collections import deque
from json.encoder import encode_basestring_ascii
from typing import TextIO

# Attributes every LogRecord has; anything else on a record was passed with `extra=` and is logged.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


class _Stamps:
    """UTC timestamps to the millisecond, the second's text made once: lines come in bursts within one
    second."""

    def __init__(self) -> None:
        self._second: tuple[int, str] = (-1, "")

    def text(self, created: float) -> str:
        second = int(created)
        if second != self._second[0]:
            self._second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
        return f"{self._second[1]}.{int((created - second) * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self._stamps = _Stamps()

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": self._stamps.text(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        entry.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD})
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        extras = " ".join(f"{k}={v}" for k, v in record.__dict__.items() if k not in _STANDARD)
        line = f"{record.levelname.lower():7} {record.name}: {record.getMessage()}" + (
            f"  {extras}" if extras else ""
        )
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


ACCESS_LOGGER = "intentgate.http"


def _json_text(value: str | None) -> str:
    return "null" if value is None else encode_basestring_ascii(value)


class AccessLine:
    """Writes one request's access line as JsonFormatter or TextFormatter would write the record
    log.info("request", extra={request_id, method, route, status, ms, tenant}) of ACCESS_LOGGER (tests
    hold the texts equal)."""

    def __init__(self, use_json: bool) -> None:
        self.use_json = use_json
        self._stamps = _Stamps()

    def text(
        self, request_id: str | None, method: str, route: str, status: int, ms: float, tenant: str | None
    ) -> str:
        if not self.use_json:
            return (
                f"info    {ACCESS_LOGGER}: request  request_id={request_id} method={method} route={route}"
                f" status={status} ms={ms} tenant={tenant}"
            )
        return (
            f'{{"ts": "{self._stamps.text(time.time())}", "level": "info", "logger": "{ACCESS_LOGGER}",'
            f' "msg": "request", "request_id": {_json_text(request_id)}, "method": {_json_text(method)},'
            f' "route": {_json_text(route)}, "status": {status}, "ms": {ms!r},'
            f' "tenant": {_json_text(tenant)}}}'
        )


class BufferedHandler(logging.Handler):
    """Queues records; a daemon thread formats and writes them in batches, flushing after each batch.

    The writer wakes every `interval` seconds, or at once for a warning or worse and when `batch` records
    wait: waking a thread per record would hand the interpreter lock back and forth on every request.
    Nothing is dropped: past `limit` queued records the logging call writes its batch itself (the caller
    then pays, as an unbuffered handler would). `flush` (also run at exit) writes everything queued."""

    def __init__(
        self, stream: TextIO, limit: int = 50_000, batch: int = 1_000, interval: float = 0.2
    ) -> None:
        super().__init__()
        self.stream = stream
        self.limit = limit
        self.batch = batch
        self.interval = interval
        self._queue: deque[logging.LogRecord | str] = deque()
        self._wake = threading.Event()
        self._write_lock = threading.Lock()
        self._writer = threading.Thread(target=self._run, name="intentgate-log-writer", daemon=True)
        self._writer.start()
        atexit.register(self.flush)

    def emit(self, record: logging.LogRecord) -> None:
        self._queue.append(record)
        self._queued(record.levelno)

    def emit_text(self, line: str) -> None:
        """Queue a line already in this handler's format (an access line, level info)."""
        self._queue.append(line)
        self._queued(logging.INFO)

    def _queued(self, level: int) -> None:
        waiting = len(self._queue)
        if waiting > self.limit:
            self._drain()
        elif waiting >= self.batch or level >= logging.WARNING:
            self._wake.set()

    def flush(self) -> None:
        self._drain()

    def _run(self) -> None:
        while True:
            self._wake.wait(self.interval)
            self._wake.clear()
            if self._queue:
                self._drain()

    def _drain(self) -> None:
        with self._write_lock:
            lines = []
            while self._queue:
                record = self._queue.popleft()
                if isinstance(record, str):
                    lines.append(record)
                    continue
                try:
                    lines.append(self.format(record))
                except Exception:  # a record that cannot be formatted is reported as logging does
                    self.handleError(record)
            if lines:
                try:
                    self.stream.write("\n".join(lines) + "\n")
                    self.stream.flush()
                except (OSError, ValueError):  # the stream is closed (shutdown) or broken: nothing to do
                    pass


def configure_logging(fmt: str, level: str) -> None:
    """Log through the buffered writer at `level`, access lines as queued text. For the process that owns
    the logging (the CLI): it also stops logging from working out, for every record, the calling frame,
    thread and process, which neither format writes (the logging HOWTO's own advice for hot paths)."""
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    handler = BufferedHandler(sys.stderr)
    use_json = fmt == "json" or (fmt == "auto" and not sys.stderr.isatty())
    handler.setFormatter(JsonFormatter() if use_json else TextFormatter())
    root = logging.getLogger("intentgate")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
    _access[:] = [(handler, AccessLine(use_json))]


# The handler and line writer configure_logging set up for access lines; empty when logging is someone
# else's (tests, a library user): access lines then go through logging as records.
_access: list[tuple[BufferedHandler, AccessLine]] = []
_access_log = logging.getLogger(ACCESS_LOGGER)
_root_log = logging.getLogger("intentgate")


def log_access(
    request_id: str | None, method: str, route: str, status: int, ms: float, tenant: str | None
) -> None:
    """One request's access line, at level info."""
    if not _access_log.isEnabledFor(logging.INFO):
        return
    if _access:
        handler, line = _access[0]
        # Still as configure_logging left it: the line goes to its handler alone.
        if not _access_log.handlers and _access_log.propagate and _root_log.handlers == [handler]:
            handler.emit_text(line.text(request_id, method, route, status, ms, tenant))
            return
    fields = {
        "request_id": request_id,
        "method": method,
        "route": route,
        "status": status,
        "ms": ms,
        "tenant": tenant,
    }
    _access_log.info("request", extra=fields)
