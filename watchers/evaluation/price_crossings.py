"""What a price pass writes for a crossed level agent, built directly: its new edge state, and the trigger
and event of one that became met. The pass makes a thousand of them; the engine's models (EdgeState, Fired)
would cost more than the rest of the pass's stepping, so these write the same values straight from what the
watcher holds (tests hold them equal to the engine's)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from json.encoder import encode_basestring_ascii
from typing import Any

from engine.agents.scan import display
from storage.evaluation import Outcome
from storage.events import Event, new_event_ids
from watchers.evaluation.held import HeldPrices
from watchers.evaluation.spec import TRIGGERED

PRICE_KIND = "price"


def level_state_json(price: Decimal, met: bool) -> str:
    """EdgeState(baseline_set=True, last_value=price, last_met=met).to_json() of a level rule, written
    directly: a pass writes one per crossed agent."""
    return f'{{"baseline_set":true,"last_value":"{price}","last_met":{"true" if met else "false"},"reference":null}}'


def level_trigger(
    symbol: str,
    direction: str,
    threshold: Decimal,
    wallet: str,
    price: Decimal,
    shown_price: str | None = None,
) -> dict[str, Any]:
    """spec.price_trigger of a level agent that `price` crossed into its met side, built without the Fired
    model a pass would construct for each of its thousand events (tests hold the two equal); `shown_price`
    is display(price), written once for every agent one move crossed."""
    return {
        "headline": f"{symbol} is {direction} ${display(threshold)}: ${shown_price or display(price)}",
        "kind": PRICE_KIND,
        "condition": direction,
        "threshold": threshold,
        "wallet": wallet,
        "price_at_trigger": price,
    }


def level_trigger_json(trigger: dict[str, Any]) -> str:
    """storage.events.trigger_text of a level_trigger, written for its known keys and types (tests hold the
    two equal): the generic writer checks every value's type, about 2 us an event of a pass's thousand."""
    return (
        f'{{"headline": {encode_basestring_ascii(trigger["headline"])}, "kind": "{PRICE_KIND}",'
        f' "condition": "{trigger["condition"]}", "threshold": {trigger["threshold"]!s},'
        f' "wallet": {encode_basestring_ascii(trigger["wallet"])},'
        f' "price_at_trigger": {trigger["price_at_trigger"]!s}}}'
    )


class LevelEvents:
    """The events of the level agents a pass's moves fired, attached to their outcomes by the write
    (storage.passes.LaterEvents): built in the write's thread while PostgreSQL writes the states, rather
    than on the event loop before the write starts. Building reads only what the watcher holds, which
    nothing changes while its pass waits for the write."""

    def __init__(self, held: HeldPrices, now: int) -> None:
        self.held, self.now = held, now
        self.tenants: set[str] = set()
        # (the outcome's index in the pass's outcomes, the agent's slot, the price, display(price))
        self.fired: list[tuple[int, int, Decimal, str]] = []
        self.attached: list[Outcome] | None = None

    def add(self, index: int, slot: int, price: Decimal, shown_price: str) -> None:
        self.fired.append((index, slot, price, shown_price))
        self.tenants.add(self.held.names.names[self.held.tenant[slot]])

    def attach(self, outcomes: Sequence[Outcome]) -> list[Outcome]:
        attached = list(outcomes)
        held, now = self.held, self.now
        names, ids, symbol, above, threshold, wallet, tenant = (
            held.names.names,
            held.ids,
            held.symbol,
            held.above,
            held.threshold,
            held.wallet,
            held.tenant,
        )
        for (index, slot, price, shown_price), event_id in zip(
            self.fired, new_event_ids(len(self.fired)), strict=True
        ):
            trigger = level_trigger(
                names[symbol[slot]],
                "above" if above[slot] else "below",
                threshold[slot],
                names[wallet[slot]],
                price,
                shown_price,
            )
            event = Event(
                event_id,
                names[tenant[slot]],
                ids[slot],
                PRICE_KIND,
                TRIGGERED,
                trigger,
                now,
                trigger_json=level_trigger_json(trigger),
            )
            attached[index] = attached[index]._replace(events=(event,))
        self.attached = attached
        return attached
