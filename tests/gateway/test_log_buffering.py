"""The log handler: a request only queues its record; a writer thread formats and writes, in order,
nothing dropped, everything written by flush (and at exit)."""

from __future__ import annotations

import calendar
import io
import json
import logging
import threading
import time

import pytest

from gateway import logs
from gateway.logs import (
    ACCESS_LOGGER,
    AccessLine,
    BufferedHandler,
    JsonFormatter,
    TextFormatter,
    configure_logging,
    log_access,
)


def logger_with(handler: logging.Handler, name: str) -> logging.Logger:
    log = logging.getLogger(name)
    log.handlers[:] = [handler]
    log.setLevel(logging.INFO)
    log.propagate = False
    return log


def test_records_are_written_in_order_by_the_writer_and_all_by_flush() -> None:
    stream = io.StringIO()
    handler = BufferedHandler(stream)
    handler.setFormatter(JsonFormatter())
    log = logger_with(handler, "test.buffered.order")
    for n in range(2000):
        log.info("request", extra={"n": n})
    handler.flush()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["n"] for line in lines] == list(range(2000))


def test_many_threads_lose_nothing_and_a_full_queue_writes_in_the_caller() -> None:
    stream = io.StringIO()
    handler = BufferedHandler(stream, limit=10)
    handler.setFormatter(JsonFormatter())
    log = logger_with(handler, "test.buffered.threads")

    def burst(who: int) -> None:
        for n in range(500):
            log.info("request", extra={"who": who, "n": n})

    threads = [threading.Thread(target=burst, args=(who,)) for who in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    handler.flush()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 8 * 500
    for who in range(8):
        assert [line["n"] for line in lines if line["who"] == who] == list(range(500))


def test_an_exception_is_written_with_its_traceback() -> None:
    stream = io.StringIO()
    handler = BufferedHandler(stream)
    handler.setFormatter(JsonFormatter())
    log = logger_with(handler, "test.buffered.exc")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("failed")
    handler.flush()
    (line,) = [json.loads(text) for text in stream.getvalue().splitlines()]
    assert line["msg"] == "failed" and "ValueError: boom" in line["exc"]


def test_json_lines_carry_each_records_own_time_to_the_millisecond() -> None:
    formatter = JsonFormatter()
    made = []
    for created in (1_800_000_000.25, 1_800_000_000.999, 1_800_000_001.0, 1_799_999_999.5):
        record = logging.LogRecord("intentgate.http", logging.INFO, "", 0, "request", None, None)
        record.created, record.msecs = created, (created - int(created)) * 1000
        made.append(json.loads(formatter.format(record))["ts"])
    assert made == [
        "2027-01-15T08:00:00.250Z",
        "2027-01-15T08:00:00.999Z",
        "2027-01-15T08:00:01.000Z",
        "2027-01-15T07:59:59.500Z",
    ]


@pytest.mark.parametrize(
    "fields",
    [
        ("req_01JD5ZR0000000000000000000", "GET", "/v1beta/meta", 200, 1.7, "ten_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0"),
        (None, "POST", "unmatched", 404, 0.05, None),
        ("req_x", "GET", '/v1beta/odd "quoted" \\ path é', 500, 12345.68, "t\n1"),
    ],
)
@pytest.mark.parametrize("use_json", [True, False])
def test_an_access_line_is_the_text_its_formatter_writes_for_the_record(
    fields: tuple, use_json: bool
) -> None:
    request_id, method, route, status, ms, tenant = fields
    extra = {"request_id": request_id, "method": method, "route": route, "status": status, "ms": ms}
    record = logging.LogRecord(ACCESS_LOGGER, logging.INFO, "", 0, "request", None, None)
    record.__dict__.update(extra, tenant=tenant)
    before = time.time()
    line = AccessLine(use_json).text(request_id, method, route, status, ms, tenant)
    formatter = JsonFormatter() if use_json else TextFormatter()
    if use_json:
        # The same text but for the time: the record's is its creation, the line's is when it was written.
        written, expected = json.loads(line), json.loads(formatter.format(record))
        assert line == formatter.format(record).replace(expected["ts"], written["ts"])
        stamp = written["ts"]
        seconds = calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")) + int(stamp[20:23]) / 1000
        assert before - 0.001 <= seconds <= time.time()
    else:
        assert line == formatter.format(record)


def test_access_lines_queue_as_text_behind_the_records_before_them() -> None:
    stream = io.StringIO()
    handler = BufferedHandler(stream, interval=3600)
    handler.setFormatter(JsonFormatter())
    log = logger_with(handler, "intentgate.test-access")
    log.info("first")
    handler.emit_text(AccessLine(True).text("req_1", "GET", "/v1beta/meta", 200, 0.5, None))
    log.warning("third")
    handler.flush()
    written = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(w["msg"], w.get("request_id")) for w in written] == [
        ("first", None),
        ("request", "req_1"),
        ("third", None),
    ]


def test_after_configure_logging_access_lines_skip_records_and_otherwise_are_records(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = logging.getLogger("intentgate")
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "propagate", root.propagate)
    monkeypatch.setattr(root, "level", root.level)
    for flag in ("_srcfile", "logThreads", "logProcesses", "logMultiprocessing"):
        monkeypatch.setattr(logging, flag, getattr(logging, flag))
    monkeypatch.setattr(logs, "_access", [])
    made: list[logging.LogRecord] = []
    monkeypatch.setattr(logging.Logger, "makeRecord", _recording(logging.Logger.makeRecord, made))

    configure_logging("json", "info")
    log_access("req_1", "GET", "/v1beta/meta", 200, 0.5, None)
    root.handlers[0].flush()
    assert made == []  # no record was built for it
    assert json.loads(capsys.readouterr().err)["request_id"] == "req_1"

    seen = BufferedHandler(io.StringIO())
    root.handlers[:] = [seen]  # someone else's handler now: the line goes through logging
    log_access("req_2", "GET", "/v1beta/meta", 200, 0.5, None)
    assert [r.__dict__["request_id"] for r in made] == ["req_2"]


def _recording(make, made):  # noqa: ANN001, ANN202 - wraps Logger.makeRecord
    def record(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        made.append(make(self, *args, **kwargs))
        return made[-1]

    return record
