"""Structured logs: one JSON object per line in production, readable lines in a terminal.

Lines are formatted and written by a writer thread, not by the request that logs them: a request only
appends its record to a queue, so the access line (one per request at the default level) costs the hot
path a record, not a JSON encoding and a write system call."""

from __future__ import annotations

import atexit
import json
import logging
import sys
import threading
import time
from collections import deque
from typing import TextIO

# Attributes every LogRecord has; anything else on a record was passed with `extra=` and is logged.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        # The second a record was made, as text: lines come in bursts within the same second.
        self._second: tuple[int, str] = (-1, "")

    def _timestamp(self, record: logging.LogRecord) -> str:
        second = int(record.created)
        if second != self._second[0]:
            self._second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
        return f"{self._second[1]}.{int(record.msecs):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": self._timestamp(record),
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
        self._queue: deque[logging.LogRecord] = deque()
        self._wake = threading.Event()
        self._write_lock = threading.Lock()
        self._writer = threading.Thread(target=self._run, name="intentgate-log-writer", daemon=True)
        self._writer.start()
        atexit.register(self.flush)

    def emit(self, record: logging.LogRecord) -> None:
        self._queue.append(record)
        waiting = len(self._queue)
        if waiting > self.limit:
            self._drain()
        elif waiting >= self.batch or record.levelno >= logging.WARNING:
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
    """Log through the buffered writer at `level`. For the process that owns the logging (the CLI): it
    also stops logging from working out, for every record, the calling frame, thread and process, which
    neither format writes (the logging HOWTO's own advice for hot paths; the access line is one record per
    request)."""
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
