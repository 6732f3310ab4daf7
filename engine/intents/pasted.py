"""What a request points at in the material pasted around it: open checklist items ("do the unchecked
ones"), a payment pasted as data ("pay this invoice", "execute this"), a single address ("to that
address"), or, for a request that only says go, the orders the paste lists. Nothing pasted becomes part
of the plan unless the request points at it."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from engine.intents.found import LABELS, Block, Message, Names
from engine.intents.selection import selected
from engine.intents.vocabulary import VERBS

# A line that can be an order: it states a number or an address (a note such as "nothing else" cannot).
_ORDER_LIKE: Final = re.compile(r"\d|0x[0-9a-fA-F]{40}")
_NUMBER: Final = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])")
_ADDRESS: Final = re.compile(
    r"(?<![0-9A-Za-z])(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})(?![0-9A-Za-z])"
)

# Words of a request that points at pasted material as a whole ("pay this", "do the unchecked ones").
_POINTERS: Final = frozenset(
    {"this", "that", "these", "those", "it", "above", "list", "invoice", "request", "bill", "one", "ones"}
)
_OPEN_ITEMS: Final = frozenset(
    {"unchecked", "open", "remaining", "rest", "left", "undone", "unticked", "outstanding", "pending", "todo"}
)
_FINISH: Final = frozenset({"finish", "complete", "do", "go", "execute", "run", "continue", "proceed"})
_PAY: Final = frozenset({"pay", "send", "settle", "execute", "do", "process", "handle", "transfer"})
_FRAMING: Final = frozenset(
    {
        "can",
        "could",
        "would",
        "you",
        "u",
        "please",
        "pls",
        "plz",
        "kindly",
        "the",
        "for",
        "me",
        "now",
        "ok",
        "okay",
    }
)
_CONFIRM: Final = frozenset({"go", "do", "execute", "run", "proceed", "yes", "ok", "okay", "yep", "sure"})


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def pointed(message: Message, blocks: Sequence[Block], universe: Names) -> Message:
    """The request with the pasted material it points at written in: open checklist items ("do the
    unchecked ones"), a payment ("pay this invoice", "execute this"), a single address ("to that
    address"), or, for a request that only says go, the orders the paste lists."""
    words = _words(message.request)
    items = [
        (line, kind)
        for block in blocks
        for line, kind in zip(block.lines, block.kinds, strict=True)
        if kind == "item"
    ]
    # An open box is an order; a plain bullet only when it states a number or an address ("- nothing
    # else" is a note).
    open_items: list[str] = []
    for line, _ in items:
        # An item that opens with an action verb is a step ("1) sell all my eth for usdc", "3. Supply the
        # USDC to Aave"), with or without a number of its own; dropping it would plan the list's other
        # steps without it.
        acts = _first_word(line.text) in VERBS
        if line.item == "open" or (line.item is None and (_ORDER_LIKE.search(line.text) or acts)):
            open_items.append(line.text)
    points = bool(set(words) & _POINTERS) or len(words) <= 3
    if items and all(_CHOICE.match(line.text) for line, _ in items):
        # "Option A ... Option B ...": choices, not steps. The one the request names is planned ("option
        # b", "the second"); otherwise none is, and the request alone is read (it asks, never both).
        named = {
            match.group(1).lower() for match in re.finditer(r"\boption\s+([a-z0-9])\b", message.request, re.I)
        }
        chosen = [
            line.text for line, _ in items if (m := _CHOICE.match(line.text)) and m.group(1).lower() in named
        ]
        picked = chosen or selected([line.text for line, _ in items], words) or None
        if picked:
            message.request = _joined([_CHOICE.sub("", text, count=1) for text in picked], message.request)
        return message
    picked = selected(open_items, words) if set(words) & (_FINISH | _PAY | _CONFIRM) else None
    if picked is not None:
        # "only do the first one for now": the items picked by place, and nothing else of the list. A
        # pick the list does not have ("the third one" of two) takes nothing from it: the request alone
        # is read, and plans nothing.
        if picked:
            message.request = _joined(picked, message.request)
        return message
    if items and (set(words) & _OPEN_ITEMS or (set(words) & _FINISH and points)):
        message.request = _joined(open_items, message.request)
        return message
    if set(words) & _PAY and points:
        payment = _payment(message.context, universe)
        if payment is not None:
            # "can you pay this invoice": the pointer adds nothing to the payment it points at.
            adds = set(words) - _PAY - _POINTERS - _FRAMING
            message.request = payment + ("\n" + message.request if adds else "")
            return message
    if words and set(words) <= (_CONFIRM | {"it", "this", "that", "please", "pls", "now", "the", "plan"}):
        orders = open_items or [
            line.text
            for block in blocks[:-1]
            for line, kind in zip(block.lines, block.kinds, strict=True)
            if kind in ("own", "letter")
        ]
        if orders:
            message.request = _joined(orders, "")
            return message
    if "address" in words or "addr" in words:
        found = list(dict.fromkeys(m.group(1) for t in message.context for m in _ADDRESS.finditer(t)))
        if len(found) == 1 and not _ADDRESS.search(message.request):
            message.request = re.sub(
                r"\b(?:this|that|the|his|her|their|my)\s+(?:address|addr)\b",
                found[0],
                message.request,
                flags=re.IGNORECASE,
            )
    return message


_CHOICE: Final = re.compile(r"^(?:option|choice|alternative)\s+([a-z0-9])\b\s*[-:\u2014\u2013.)]*\s*", re.I)


def _first_word(text: str) -> str:
    words = _words(text)
    return words[0] if words else ""


def _joined(orders: Sequence[str], request: str) -> str:
    body = ", then ".join(order.rstrip(".;") for order in orders if order.strip())
    return body


def _payment(context: Sequence[str], universe: Names) -> str | None:
    """ "send <amount> <token> to <address> on <chain>" from pasted data that states one payment: a JSON
    object or label lines with an amount, a token, an address and (maybe) a chain."""
    fields: dict[str, Any] = {}
    joined = "\n".join(context)
    start = joined.find("{")
    if start >= 0:
        try:
            parsed = json.loads(joined[start : joined.rfind("}") + 1])
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            fields.update({str(k).lower(): v for k, v in parsed.items() if not isinstance(v, dict | list)})
    for line in context:
        head, sep, value = line.partition(":")
        if sep and head.strip().lower() in LABELS:
            fields.setdefault(head.strip().lower(), value.strip())
    address = _first(fields, ("pay_to", "pay to", "to", "recipient", "address", "payee_address", "wallet"))
    amount_text = _first(fields, ("amount", "amount due", "total", "total due", "value"))
    if address is None or amount_text is None:
        return None
    found_address = _ADDRESS.search(str(address))
    numbers = _NUMBER.findall(str(amount_text))
    if found_address is None or len(numbers) != 1:
        return None
    try:
        amount = Decimal(numbers[0].replace(",", ""))
    except InvalidOperation:
        return None
    decimals = _first(fields, ("decimals",))
    if decimals is not None and str(decimals).isdigit() and "." not in numbers[0]:
        amount = amount.scaleb(-int(str(decimals)))  # raw units with their decimals beside them
    token = _first(fields, ("token", "asset", "currency", "symbol")) or _token_in(str(amount_text), universe)
    named = _first(fields, ("chain", "network"))
    chain = chain_in(str(named), universe) if named is not None else None
    chain_id = _first(fields, ("chainid", "chain_id"))
    if chain is None and chain_id is not None and str(chain_id).isdigit():
        chain = universe.chain_by_id(int(str(chain_id)))
    if token is None:
        return None
    parts = [f"send {amount.normalize():f} {token} to {found_address.group(1)}"]
    if chain is not None:
        parts.append(f"on {chain}")
    return " ".join(parts)


def _first(fields: dict[str, Any], names: Sequence[str]) -> Any:
    for name in names:
        if name in fields and fields[name] not in (None, ""):
            return fields[name]
    return None


def _token_in(text: str, universe: Names) -> str | None:
    aliases = universe.asset_aliases()
    for match in re.finditer(r"[A-Za-z][A-Za-z0-9.]*", text):
        if match.group().lower() in aliases:
            return match.group()
    return None


def chain_in(text: str, universe: Names) -> str | None:
    """The chain a value names ("Arbitrum One. Invoice valid 48h." is arbitrum), the longest name first;
    None when it names several ("I have USDC on both Base and Arbitrum"): which one is then asked."""
    aliases = universe.chain_aliases()
    words = re.findall(r"[a-z0-9]+", text.lower())
    named: set[str] = set()
    at = 0
    while at < len(words):
        for size in (3, 2, 1):
            found = aliases.get(" ".join(words[at : at + size]))
            if found is not None:
                named.add(found)
                at += size
                break
        else:
            at += 1
    return named.pop() if len(named) == 1 else None
