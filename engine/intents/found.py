"""What reading a message finds, shared by the modules that read one (message.py finds the request,
pasted.py what it points at, stated.py the balances it states): the names it is read against, the
message with its request found, and its blocks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final, Protocol

from engine.intents.markup import Line


class Names(Protocol):
    """The names a message is read against: what find_request needs of an asset universe
    (engine.intents.universe.RegistryUniverse is one; the agent compiler has its own)."""

    def asset_aliases(self) -> Mapping[str, str]:
        """Lower-case symbol, name or alias -> asset symbol."""
        ...

    def chain_aliases(self) -> Mapping[str, str]:
        """Lower-case name or alias -> chain slug."""
        ...

    def asset_on(self, chain: str, name: str) -> str | None:
        """The chain's symbol for a name, or None when it is not listed there."""
        ...

    def chain_by_id(self, chain_id: int) -> str | None:
        """The slug of the EVM chain with this chain id, or None."""
        ...


# Labels of data lines ("Amount due: 1,250 USDT", "Pay to: 0x...") that are not chat speakers.
LABELS: Final = frozenset(
    {
        *"""amount total due payee to from address wallet network chain token asset currency memo note notes
        invoice date status balance fee fees price rate apy apr contract holders decimals name symbol tx hash
        error reference ref id recipient sender subject value""".split(),  # noqa: SIM905
        "amount due",
        "total due",
        "pay to",
        "due date",
        "request id",
        "late fee",
        "send to",
    }
)


@dataclass(slots=True)
class Message:
    """A message with its request found: `request` is the text to read (pointed-at context written in),
    `context` the pasted lines set aside, `stated` balances a wallet screen shows (chain -> symbol ->
    amount), `set_aside` what was set aside, in words, for the reasoning."""

    request: str
    context: list[str] = field(default_factory=list)
    stated: dict[str, dict[str, Decimal]] = field(default_factory=dict)
    set_aside: list[str] = field(default_factory=list)
    # Sentences of the request itself that ask for nothing (engine.intents.sentences).
    set_aside_sentences: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Block:
    lines: list[Line]
    kinds: list[str]  # per line: own, header, quoted, signature, chat, item, data, screen, log
