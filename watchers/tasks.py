"""Concurrency helpers shared by request paths.

Trio wraps whatever a nursery's children raise in an exception group. A request path catches specific
errors (an upstream that is down, a chain that is not configured) to answer them in the contract's
envelope; a group would slip past those handlers and surface as a 500. `run_all` runs jobs side by side
and raises the first failure as itself.
"""

from collections.abc import Awaitable, Callable

import trio


async def run_all(*jobs: Callable[[], Awaitable[object]]) -> None:
    """Run `jobs` concurrently; the first failure cancels the rest and is raised as itself (not a group)."""
    try:
        async with trio.open_nursery() as nursery:
            for job in jobs:
                nursery.start_soon(job)
    except BaseExceptionGroup as group:
        raise first_leaf(group) from None


def first_leaf(group: BaseExceptionGroup) -> BaseException:
    """The first exception in `group` that is not itself a group, cancellation aside when others exist."""
    leaves: list[BaseException] = []
    pending: list[BaseException] = [group]
    while pending:
        current = pending.pop(0)
        if isinstance(current, BaseExceptionGroup):
            pending[:0] = list(current.exceptions)
        else:
            leaves.append(current)
    for leaf in leaves:
        if not isinstance(leaf, trio.Cancelled):
            return leaf
    return leaves[0]
