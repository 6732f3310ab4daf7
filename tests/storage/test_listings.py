"""The operator's listings on both stores: searches ignore case and take LIKE's wildcards literally, pages
follow (created_at, id) without gaps or repeats, and nothing of another tenant is ever seen."""

from __future__ import annotations

from storage import Database
from storage import listings as store
from storage.agents import AgentFilter
from storage.events import Event, new_event_id, record_event
from tests.watchers.support import create, price_agent, tenant
from tests.watchers.test_events_api import add_endpoint


def _event(tenant_id: str, agent_id: str, headline: str, created_at: int) -> Event:
    return Event(
        new_event_id(), tenant_id, agent_id, "price", "agent.triggered", {"headline": headline}, created_at
    )


def test_searches_and_pages_stay_in_the_tenant_and_read_wildcards_literally(database: Database) -> None:
    acme, globex = tenant(database), tenant(database, "globex")
    database.transaction(add_endpoint, acme)
    mine = [create(database, acme, price_agent(condition="above", threshold=1000 + i), i) for i in range(3)]
    theirs = create(database, globex, price_agent(condition="above", threshold=1000), 5)
    recorded = []
    for i, agent in enumerate([*mine, mine[0]]):
        event = _event(acme, agent.id, f"ETH crossed 100% of {i}", 10 + i)
        database.transaction(lambda conn, event=event: record_event(conn, event, deliver_at=event.created_at))
        recorded.append(event.id)
    foreign = _event(globex, theirs.id, "ETH crossed 100% of 9", 20)
    database.transaction(lambda conn: record_event(conn, foreign, deliver_at=20))

    def events(**kw: object) -> list[str]:
        args = {"event_type": None, "agent_id": None, "q": None, "before": None, **kw}
        return [e.id for e in database.transaction(lambda conn: store.event_page(conn, acme, 10, **args))]

    newest_first = recorded[::-1]
    assert events() == newest_first
    assert events(q="100% OF 2") == [recorded[2]] and events(q="100_ of") == []
    assert events(agent_id=mine[0].id) == [recorded[3], recorded[0]]
    first = database.transaction(
        lambda conn: store.event_page(conn, acme, 2, event_type=None, agent_id=None, q=None, before=None)
    )
    rest = events(before=(first[-1].created_at, first[-1].id))
    assert [e.id for e in first] + rest == newest_first
    counts = database.transaction(store.delivery_counts, recorded)
    assert all(counts[event_id] == {"queued": 1} for event_id in recorded)
    assert database.transaction(store.tenant_event, globex, recorded[0]) is None

    def agents(q: str | None) -> list[str]:
        rows = database.transaction(store.agent_page, acme, 10, AgentFilter(), q, None)
        return [row.agent.id for row in rows]

    assert agents(None) == [a.id for a in mine[::-1]]
    assert agents(mine[1].id.upper()) == [mine[1].id] and agents(theirs.id) == []
    page = database.transaction(store.agent_page, acme, 10, AgentFilter(), None, None)
    assert page[-1].last_event is not None and page[-1].last_event.id == recorded[3]

    filters = store.DeliveryFilter(q="RECEIVER.EXAMPLE")
    deliveries = database.transaction(
        lambda conn: store.delivery_page(conn, acme, filters, limit=10, attempts_each=1)
    )
    assert sorted(d.event_id for d in deliveries) == sorted(recorded)
    none = store.DeliveryFilter(q="receiver%example")
    assert (
        database.transaction(lambda conn: store.delivery_page(conn, acme, none, limit=10, attempts_each=1))
        == []
    )
