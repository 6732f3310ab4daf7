"""How a watcher pass's rows are best sent to PostgreSQL: psycopg's pipelined executemany against one
multi-row VALUES statement per table, against one array parameter per column that the server unnests
(sent in text format, as psycopg does for `%s`, and in binary, `%b`), against one text parameter per
column, its values joined by a separator that the server splits, and against COPY (the inserts streamed
with COPY FROM STDIN; the updates copied into a temporary table and applied with one UPDATE ... FROM), on
one connection, in alternated rounds. The last way is what storage/passes.py does: COPY for the inserts,
one UPDATE over joined text for the edge states (before, over binary arrays: still measured). Each round
inserts 1,000 rows of 9 columns (a pass's deliveries) and updates 1,000 rows by key (a pass's edge states)
in one transaction, into temporary tables.

    python -m bench.pg_writes --database-url postgresql://127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import psycopg

ROWS = 1000
KEYED = 200_000


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (5 min {five:.2f})"


def _inserts(tag: str) -> list[tuple[Any, ...]]:
    return [(f"{tag}_{i}", "tenant", "event", "endpoint", "queued", 0, 1, 2, 3) for i in range(ROWS)]


def _updates(round_: int) -> list[tuple[Any, ...]]:
    """Edge states as a pass writes them (JSON text)."""
    state = f'{{"baseline_set":true,"last_value":"{3000 + round_}.25","last_met":true,"reference":null}}'
    return [(state, 1_700_000_000_000 + round_, f"a{i * 7 + 1}") for i in range(ROWS)]


def _per_row(
    cur: psycopg.Cursor[Any], inserts: list[tuple[Any, ...]], updates: list[tuple[Any, ...]]
) -> None:
    cur.executemany("INSERT INTO bench_d VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", inserts)
    cur.executemany("UPDATE bench_g SET e = %s, t = %s WHERE id = %s", updates)


def _values(cur: psycopg.Cursor[Any], inserts: list[tuple[Any, ...]], updates: list[tuple[Any, ...]]) -> None:
    marks = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s)"] * len(inserts))
    cur.execute(f"INSERT INTO bench_d VALUES {marks}", [v for row in inserts for v in row])
    marks = ", ".join(["(%s, %s, %s)"] * len(updates))
    cur.execute(
        f"UPDATE bench_g SET e = v.e, t = v.t::bigint FROM (VALUES {marks}) AS v(e, t, id) WHERE bench_g.id = v.id",
        [v for row in updates for v in row],
    )


def _arrays(cur: psycopg.Cursor[Any], inserts: list[tuple[Any, ...]], updates: list[tuple[Any, ...]]) -> None:
    """One array parameter per column, unnested by the server, in text format (psycopg's `%s`)."""
    columns = [list(column) for column in zip(*inserts, strict=True)]
    cur.execute(
        "INSERT INTO bench_d SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[],"
        " %s::int[], %s::bigint[], %s::bigint[], %s::bigint[])",
        columns,
    )
    e, t, ids = [list(column) for column in zip(*updates, strict=True)]
    cur.execute(
        "UPDATE bench_g SET e = v.e, t = v.t FROM unnest(%s::text[], %s::bigint[], %s::text[]) AS v(e, t, id)"
        " WHERE bench_g.id = v.id",
        [e, t, ids],
    )


def _binary_arrays(
    cur: psycopg.Cursor[Any], inserts: list[tuple[Any, ...]], updates: list[tuple[Any, ...]]
) -> None:
    """The arrays in binary: psycopg escapes every element of a text-format array in Python (an edge state
    is JSON, full of quotes), and writes a binary one as it is."""
    columns = [list(column) for column in zip(*inserts, strict=True)]
    cur.execute(
        "INSERT INTO bench_d SELECT * FROM unnest(%b::text[], %b::text[], %b::text[], %b::text[], %b::text[],"
        " %b::int[], %b::bigint[], %b::bigint[], %b::bigint[])",
        columns,
    )
    _binary_update(cur, updates)


def _binary_update(cur: psycopg.Cursor[Any], updates: list[tuple[Any, ...]]) -> None:
    e, t, ids = [list(column) for column in zip(*updates, strict=True)]
    cur.execute(
        "UPDATE bench_g SET e = v.e, t = v.t FROM unnest(%b::text[], %b::bigint[], %b::text[]) AS v(e, t, id)"
        " WHERE bench_g.id = v.id",
        [e, t, ids],
    )


def _copy_binary_update(
    cur: psycopg.Cursor[Any], inserts: list[tuple[Any, ...]], updates: list[tuple[Any, ...]]
) -> None:
    """COPY for the inserts, one UPDATE over binary arrays for the updates (storage/passes.py)."""
    with cur.copy("COPY bench_d FROM STDIN") as copy:
        for row in inserts:
            copy.write_row(row)
    _binary_update(cur, updates)


def _copy_joined_update(
    cur: psycopg.Cursor[Any], inserts: list[tuple[Any, ...]], updates: list[tuple[Any, ...]]
) -> None:
    """COPY for the inserts, one UPDATE over each column's values joined into one text parameter and split
    by the server (storage/passes.py): a join is one C call where a binary array is dumped element by
    element in Python. Edge states are JSON, which holds no raw control character: the unit separator."""
    with cur.copy("COPY bench_d FROM STDIN") as copy:
        for row in inserts:
            copy.write_row(row)
    e, t, ids = [list(column) for column in zip(*updates, strict=True)]
    cur.execute(
        "UPDATE bench_g SET e = v.e, t = v.t FROM unnest(string_to_array(%s, chr(31)),"
        " string_to_array(%s, ',')::bigint[], string_to_array(%s, ',')) AS v(e, t, id) WHERE bench_g.id = v.id",
        ["\x1f".join(e), ",".join(map(str, t)), ",".join(ids)],
    )


def _copy(cur: psycopg.Cursor[Any], inserts: list[tuple[Any, ...]], updates: list[tuple[Any, ...]]) -> None:
    """COPY FROM STDIN: the inserts straight into their table, the updates into a temporary table dropped
    at commit and applied from there in one statement."""
    with cur.copy("COPY bench_d FROM STDIN") as copy:
        for row in inserts:
            copy.write_row(row)
    cur.execute("CREATE TEMP TABLE bench_u (e text, t bigint, id text) ON COMMIT DROP")
    with cur.copy("COPY bench_u FROM STDIN") as copy:
        for row in updates:
            copy.write_row(row)
    cur.execute("UPDATE bench_g SET e = u.e, t = u.t FROM bench_u AS u WHERE bench_g.id = u.id")


def _copy_inserts(
    cur: psycopg.Cursor[Any], inserts: list[tuple[Any, ...]], updates: list[tuple[Any, ...]]
) -> None:
    """COPY for the inserts, executemany for the updates."""
    with cur.copy("COPY bench_d FROM STDIN") as copy:
        for row in inserts:
            copy.write_row(row)
    cur.executemany("UPDATE bench_g SET e = %s, t = %s WHERE id = %s", updates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--database-url", required=True, help="postgresql://...")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print(_load())
    with psycopg.connect(args.database_url) as conn, conn.cursor() as cur:
        cur.execute(
            "CREATE TEMP TABLE bench_d (id text PRIMARY KEY, a text, b text, c text, s text, n int,"
            " x bigint, y bigint, z bigint)"
        )
        cur.execute("CREATE TEMP TABLE bench_g (id text PRIMARY KEY, e text, t bigint)")
        cur.execute(f"INSERT INTO bench_g SELECT 'a' || i, NULL, 0 FROM generate_series(1, {KEYED}) i")
        conn.commit()
        ways = (
            ("executemany", _per_row),
            ("multi-row VALUES", _values),
            ("unnest arrays (text format)", _arrays),
            ("unnest arrays (binary)", _binary_arrays),
            ("COPY both", _copy),
            ("COPY inserts, executemany updates", _copy_inserts),
            ("COPY inserts, binary-array update", _copy_binary_update),
            ("COPY inserts, joined-text update", _copy_joined_update),
        )
        times: dict[str, list[float]] = {name: [] for name, _ in ways}
        for round_ in range(args.rounds):
            for name, write in ways:
                started = time.perf_counter()
                write(cur, _inserts(f"{round_}{name}"), _updates(round_))
                conn.commit()
                times[name].append((time.perf_counter() - started) * 1000)
    for name, ms in times.items():
        print(
            f"{name}: {ROWS:,} inserts + {ROWS:,} keyed updates, one transaction, median of {len(ms)}: "
            f"{statistics.median(ms):.1f} ms"
        )
    print(_load())


if __name__ == "__main__":
    main()
