"""run_all raises a child's failure as itself, so request paths can answer it in the envelope."""

import pytest
import trio

from watchers.tasks import first_leaf, run_all


class Down(Exception):
    pass


async def test_run_all_raises_the_failure_itself_and_cancels_the_rest() -> None:
    finished: list[str] = []

    async def fails() -> None:
        raise Down("rpc")

    async def slow() -> None:
        await trio.sleep(60)
        finished.append("slow")

    with pytest.raises(Down, match="rpc"):
        await run_all(fails, slow)
    assert finished == []


async def test_run_all_with_two_failures_raises_the_first_one_not_a_group() -> None:
    async def one() -> None:
        raise Down("first")

    async def two() -> None:
        raise KeyError("second")

    with pytest.raises((Down, KeyError)):
        await run_all(one, two)


async def test_run_all_returns_when_every_job_succeeds() -> None:
    seen: list[int] = []

    async def add(n: int) -> None:
        seen.append(n)

    await run_all(lambda: add(1), lambda: add(2))
    assert sorted(seen) == [1, 2]


def test_first_leaf_prefers_a_real_error_over_cancellation_and_unnests() -> None:
    inner = BaseExceptionGroup("inner", [ValueError("x")])
    outer = BaseExceptionGroup("outer", [inner, KeyError("y")])
    assert isinstance(first_leaf(outer), ValueError)
