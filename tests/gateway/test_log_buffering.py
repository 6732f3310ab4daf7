"""The log handler: a request only queues its record; a writer thread formats and writes, in order,
nothing dropped, everything written by flush (and at exit)."""

from __future__ import annotations

import io
import json
import logging
import threading

from gateway.logs import BufferedHandler, JsonFormatter


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
