"""The streams' remedy gate, on both stores: an event whose remedy is being planned waits for its planned
copy (or for the hold to pass), its tenant's later events wait behind it in order, other tenants' and
plan-less events pass at once."""

from __future__ import annotations

from collections.abc import Sequence

import simplejson
import sqlalchemy as sa
import trio
import trio.testing

from engine.agents.remedy import Remedy
from storage import Database
from storage.events import Event, new_event_id, record_event
from storage.remedies import attach_remedy
from storage.schema import agents
from tests.watchers.support import create, tenant
from watchers.fanout.remedy_gate import RemedyGate
from watchers.fanout.replay import events_by_id

PRICE = {
    "kind": "price",
    "asset_symbol": "ETH",
    "coingecko_id": "ethereum",
    "condition": "above",
    "threshold": "4000",
}
REPAY = {"action": "repay", "asset": "USDC", "chain": "base", "amount": "500", "protocol": "aave"}
PLANNED = {"source": "typed", "status": "not_buildable", "plan": None, "reason": "balance gone"}


def price_agent(db: Database, owner: str, *, remedy: bool) -> str:
    agent = create(db, owner, dict(PRICE), 0)
    if remedy:
        text = simplejson.dumps(Remedy.from_json({"source": "typed", "intents": [REPAY]}).to_json())
        db.transaction(
            lambda c: c.execute(sa.update(agents).where(agents.c.id == agent.id).values(remedy=text))
        )
    return agent.id


def fire(db: Database, owner: str, agent_id: str, kind: str = "price", at: int = 1_000) -> Event:
    event = Event(new_event_id(), owner, agent_id, kind, "agent.triggered", {"kind": kind}, at)
    db.transaction(lambda conn: record_event(conn, event, deliver_at=at))
    return event


class Released:
    """What the gate hands the broker, in order."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.arrived = trio.Event()

    def __call__(self, events: Sequence[Event]) -> None:
        self.events += events
        self.arrived.set()

    async def next_batch(self) -> list[Event]:
        await self.arrived.wait()
        self.arrived = trio.Event()
        batch, self.events = self.events, []
        return batch


def planned_copy(db: Database, event: Event) -> Event:
    assert db.transaction(attach_remedy, event.id, PLANNED)
    (copy,) = db.transaction(events_by_id, [event.id])
    return copy


def test_an_event_waits_for_its_plan_and_its_tenants_later_events_wait_behind_it(database: Database) -> None:
    clock = trio.testing.MockClock()  # never moves by itself: the hold cannot run out here
    acme, other = tenant(database, "acme"), tenant(database, "other")
    armed, plain = price_agent(database, acme, remedy=True), price_agent(database, acme, remedy=False)
    theirs = price_agent(database, other, remedy=False)
    released, holding = Released(), trio.Event()
    gate = RemedyGate(database, released, hold_s=10, on_hold=holding.set)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            await nursery.start(gate.run)
            first = fire(database, acme, armed, at=1)
            behind = fire(database, acme, plain, at=2)
            gate.offer([first, behind])
            await holding.wait()  # the store said: first's agent carries a remedy
            elsewhere = fire(database, other, theirs, at=3)
            gate.offer([elsewhere])
            assert await released.next_batch() == [elsewhere]  # another tenant does not wait
            assert gate.waiting() == 2
            copy = planned_copy(database, first)
            gate.offer([copy])
            batch = await released.next_batch()
            assert [e.id for e in batch] == [first.id, behind.id]  # commit order kept
            assert batch[0].remedy == PLANNED and batch[1].remedy is None
            assert (gate.held, gate.with_plan, gate.timed_out, gate.waiting()) == (1, 1, 0, 0)
            nursery.cancel_scope.cancel()

    trio.run(main, clock=clock)


async def test_an_event_without_a_plan_coming_passes_at_once(database: Database) -> None:
    acme = tenant(database, "acme")
    released = Released()
    gate = RemedyGate(database, released, hold_s=10)
    tested = Event(new_event_id(), acme, "w_alert_x", "price", "agent.degraded", {}, 1)
    plain = fire(database, acme, price_agent(database, acme, remedy=False))
    gate.offer([tested])  # a type never planned: not even a store read
    assert await released.next_batch() == [tested]
    with trio.move_on_after(5):
        async with trio.open_nursery() as nursery:
            await nursery.start(gate.run)
            gate.offer([plain])  # planned type, but its agent carries no remedy
            assert await released.next_batch() == [plain]
            nursery.cancel_scope.cancel()
    assert gate.held == 0 and gate.waiting() == 0


def test_a_health_event_whose_plan_never_comes_goes_out_after_the_hold(database: Database) -> None:
    clock = trio.testing.MockClock()
    acme = tenant(database, "acme")
    released = Released()
    gate = RemedyGate(database, released, hold_s=10)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            await nursery.start(gate.run)
            event = Event(new_event_id(), acme, "w_alert_h", "aave-health", "agent.triggered", {}, 1)
            gate.offer([event])  # a health agent always gets a plan: held without a store read
            await trio.testing.wait_all_tasks_blocked()
            clock.jump(9.5)
            await trio.testing.wait_all_tasks_blocked()
            assert released.events == [] and gate.waiting() == 1
            clock.jump(1)
            assert await released.next_batch() == [event]
            assert (gate.held, gate.with_plan, gate.timed_out) == (1, 0, 1)
            nursery.cancel_scope.cancel()

    trio.run(main, clock=clock)
