"""Requests written as a form or a ticket: labelled lines instead of a sentence.

Support desks and partner backends paste tickets ("Ticket #4471 / Issue: ... / Requested action: repay 1,500
USDT of my Aave debt on Optimism / Priority: high") and forms ("Issue: Withdraw / Protocol: Spark / Asset:
DAI / Amount: all"). The order is in a field: a field that holds an order ("Request:", "Requested action:",
"Fix requested:", "Action:") is the request; "Steps:" with a numbered list under it is the request, step by
step; a ticket that asks to try again ("Please resend") repeats what it says was attempted; and a form
whose fields name an action, an asset and an amount is that request written out ("withdraw all dai on
spark"). The form's other fields (priority, ids, timestamps) are context, never values; a note field
("Notes: please split into 2 tx of 5") is kept with the request, so what it says is read, not dropped. An
amount the form leaves open ("Amount: TBD") is left out, so it is asked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Final

from engine.intents.meaning import MEANING_WORDS
from engine.intents.vocabulary import VERBS

# Labels whose value is the order itself.
_ORDER_LABELS: Final = frozenset(
    {
        "request",
        "requested",
        "requested action",
        "action requested",
        "action",
        "required action",
        "action required",
        "fix requested",
        "requested fix",
        "fix",
        "ask",
        "task",
        "todo",
        "to do",
        "instruction",
        "instructions",
        "order",
        "customer request",
        "cust request",
        "customer asks",
        "user request",
        "wants",
        "needs",
    }
)
# Words of a label that make it an order ("Please quote and execute: 5000 USDT -> DAI").
_ASKING: Final = frozenset({"please", "execute", "process", "run", "kindly", "pls"})
# Labels whose value says what was tried: the order, when the ticket asks to try it again.
_ATTEMPT_LABELS: Final = frozenset(
    {"attempted", "tried", "attempted action", "original request", "last attempt", "tx", "transaction"}
)
_AGAIN: Final = frozenset({"resend", "retry", "resubmit", "redo", "again", "reattempt"})
# Labels naming the kind of request in a field form ("Issue: Withdraw", "Request type: Staking").
_KIND_LABELS: Final = frozenset(
    {"issue", "type", "request type", "action type", "operation", "subject", "kind"}
    | {"action", "op", "method", "intent", "command", "cmd"}
)
_STEP_LABELS: Final = frozenset({"steps", "plan", "actions", "to do list"})
_NOTE_LABELS: Final = frozenset({"notes", "note", "comment", "comments", "remarks", "instructions note"})
# Field-form names of actions that are nouns ("Staking", "Withdrawal", "Transfer request").
_ACTION_NOUNS: Final = {
    "staking": "stake",
    "unstaking": "unstake",
    "withdrawal": "withdraw",
    "deposit": "deposit",
    "supply": "deposit",
    "borrowing": "borrow",
    "repayment": "repay",
    "payment": "send",
    "transfer": "send",
    "bridging": "bridge",
    "swap": "swap",
    "exchange": "swap",
    "conversion": "swap",
}
# The verb written for each action when the form is written out as a sentence.
_SAID: Final = {"transfer": "send", "deposit": "deposit", "withdraw": "withdraw"}
_FIELD: Final = re.compile(
    r"^\s*(?:[-*•]\s*)?(?:\d+[.)]\s*)?(?P<label>[A-Za-z][A-Za-z #_/'-]{0,30}?)\s*:\s*(?P<value>.*)$"
)
_LISTED: Final = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+(?P<text>\S.*)$")
_OPEN: Final = frozenset({"tbd", "tba", "?", "??", "-", "n/a", "na", "unknown", "pending", ""})


def form_request(text: str) -> str | None:
    """The request a form or ticket states (see the module docstring), or None when `text` is no form."""
    written = _pairs_request(text)
    if written is not None:
        return written
    lines = [line for line in text.splitlines() if line.strip()]
    fields: dict[str, str] = {}
    steps: list[str] = []
    in_steps = False
    loose: list[str] = []
    for line in lines:
        listed = _LISTED.match(line)
        if in_steps and listed is not None and _FIELD.match(listed.group("text")) is None:
            steps.append(listed.group("text").strip())
            continue
        match = _FIELD.match(line)
        label = _label(match.group("label")) if match is not None else None
        if match is None or label is None:
            in_steps = False
            loose.append(line.strip())
            continue
        in_steps = label in _STEP_LABELS and not match.group("value").strip()
        fields.setdefault(label, match.group("value").strip())
    if len(fields) < 2 and not steps:
        return None
    spoken = {word for line in loose for word in re.findall(r"[a-z]+", line.lower())}
    if spoken & VERBS.keys() and not spoken & _AGAIN:
        return None  # the writer says what to do in words of their own: that is the request
    note = next((fields[label] for label in _NOTE_LABELS if fields.get(label)), None)
    order = _order(fields, steps, loose)
    if order is None:
        return None
    return order if note is None else f"{order}. {note}"


def _label(raw: str) -> str | None:
    label = " ".join(raw.lower().replace("_", " ").split())
    label = re.sub(r"\s*#.*$", "", label)
    return label or None


def _order(fields: dict[str, str], steps: Sequence[str], loose: Sequence[str]) -> str | None:
    ordering = [label for label in fields if label in _ORDER_LABELS or set(label.split()) & _ASKING]
    said = next((fields[label] for label in ordering if _says_something(fields.get(label))), None)
    if said is not None:
        return said
    if steps:
        return ", then ".join(step.rstrip(".;") for step in steps)
    words = {word for line in loose for word in re.findall(r"[a-z]+", line.lower())}
    attempted = next((fields[label] for label in _ATTEMPT_LABELS if _says_something(fields.get(label))), None)
    if attempted is not None and words & _AGAIN:
        return attempted
    return _written_out(fields)


def _says_something(value: str | None) -> bool:
    return value is not None and value.strip().lower() not in _OPEN and len(value.split()) >= 2


def _field(fields: dict[str, str], labels: frozenset[str]) -> str | None:
    """The first field filled under one of `labels` (names a script, a JSON body or a form may use)."""
    return next((value for label, value in fields.items() if label in labels and value.strip()), None)


# Names scripts, JSON bodies and forms give each slot ("token_in", "amt", "dest", "network").
_ASSET: Final = frozenset(
    {"asset", "token", "currency", "coin", "symbol", "token in", "from token", "from asset", "sell token"}
    | {"src token", "source token", "input token", "asset in", "in", "sell"}
)
_TARGET: Final = frozenset(
    {"buy", "into", "token out", "to token", "to asset", "output token", "asset out", "out", "target"}
    | {"buy token", "dst token", "destination token"}
)
_AMOUNT: Final = frozenset({"amount", "amt", "qty", "quantity", "size", "amount in", "sum", "value"})
_CHAIN: Final = frozenset({"chain", "network", "net", "blockchain"})
_FROM_CHAIN: Final = frozenset({"from chain", "src chain", "source chain", "origin chain", "origin"})
_TO_CHAIN: Final = frozenset({"to chain", "dst chain", "dest chain", "destination chain", "target chain"})
_PAYEE: Final = frozenset(
    {"destination", "recipient", "dest", "receiver", "payee", "to address", "beneficiary", "address"}
)
_VENUE: Final = frozenset({"protocol", "provider", "venue", "via", "dex", "bridge", "platform"})


def _written_out(fields: dict[str, str]) -> str | None:
    """A field form as one sentence: "Issue: Withdraw / Protocol: Spark / Asset: DAI / Amount: all" is
    "withdraw all dai with spark"; "Issue: Deposit to Spark / Asset: wstETH / Amount: 3" is "deposit 3
    wsteth to spark"; a swap's "From: USDC / To: BTCB" are what it sells and buys, a bridge's or a
    transfer's "from" and "to" are where it leaves from and goes (a chain or an address)."""
    kind = next((fields[label] for label in _KIND_LABELS if fields.get(label)), None)
    if kind is None or not kind.split():
        return None
    first, *rest = kind.split()
    action = VERBS.get(first.lower()) or _ACTION_NOUNS.get(first.lower())
    if action is None or len(rest) > 4:
        return None
    if rest and rest[0].lower() == "request":
        rest = rest[1:]  # "Transfer request"
    verb = _SAID.get(action, first.lower() if first.lower() in VERBS else action)
    asset = _field(fields, _ASSET)
    target = None
    destination = _field(fields, _PAYEE)
    origin = _field(fields, _FROM_CHAIN)
    if action == "swap":
        asset = asset or fields.get("from")
        target = fields.get("to") or _field(fields, _TARGET)
    else:
        origin = origin or fields.get("from")
        destination = destination or _field(fields, _TO_CHAIN) or fields.get("to")
    amount = _field(fields, _AMOUNT) or ""
    parts = [verb]
    if amount.strip().lower() not in _OPEN:
        parts.append(amount)
    if asset:
        parts.append(asset)
    elif not rest and not any(char.isalpha() for char in amount):
        return None  # nothing says what is moved
    parts.extend(rest)
    if target:
        parts.append(f"to {target}")
    protocol = _field(fields, _VENUE)
    if protocol:
        parts.append(f"with {protocol}")
    chain = _field(fields, _CHAIN)
    if chain and chain.strip().lower() not in _OPEN:
        parts.append(f"on {chain}")
    if origin:
        parts.append(f"from {origin}")
    if destination:
        parts.append(f"to {destination}")
    return " ".join(parts)


# "amount=100", "token_in=ETH", 'to="0xabc"': one field of a script's call or a log line.
_PAIR: Final = re.compile(
    r"""(?<![\w/])(?P<key>[A-Za-z][\w.-]{0,30})\s*=\s*(?P<value>"[^"\n]{0,100}"|'[^'\n]{0,100}'|[^\s,;()"']{1,100})"""
)
_JSON_KEY_MOST: Final = 20
# Words around a script's fields that change what the fields ask for: left for the reader.
_SAYS_MORE: Final = MEANING_WORDS - frozenset({"then", "first", "per"})


def _pairs_request(text: str) -> str | None:
    """The request a script writes as fields: a JSON object ({"action": "swap", "amount": 1, ...}) or
    key=value pairs on a line ("action=bridge asset=USDC amount=100 from=ethereum to=base", a log line's
    "swap requested amount=1.5 token_in=ETH token_out=USDC"). A verb among the words around the pairs names
    the action when no field does. None when the text is not written that way."""
    fields: dict[str, str] = {}
    stripped = text.strip()
    loose = text
    if stripped.startswith("{") and stripped.endswith("}"):
        try:
            body = json.loads(stripped)
        except ValueError:
            return None
        if not isinstance(body, dict) or len(body) > _JSON_KEY_MOST:
            return None
        for key, value in body.items():
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                fields.setdefault(_label(str(key)) or "", str(value))
        loose = ""
    else:
        found = list(_PAIR.finditer(text))
        if len(found) < 2:
            return None
        for match in found:
            fields.setdefault(_label(match.group("key")) or "", match.group("value").strip("\"'"))
        loose = _PAIR.sub(" ", text)
    fields.pop("", None)
    if any("slip" in label for label in fields):
        return None  # a slippage nobody could read as a bound ("slippage": 0.5) is asked, never dropped
    words = re.findall(r"[a-z']+", loose.lower())
    if any(word in _SAYS_MORE for word in words):
        return None  # "don't run action=swap ...", "wait, amount=2": the words around the fields matter
    if not any(label in _KIND_LABELS for label in fields):
        verb = next((word for word in words if word in VERBS), None)
        if verb is None:
            return None
        fields["action"] = verb
    written = _written_out(fields)
    note = next((fields[label] for label in _NOTE_LABELS if fields.get(label)), None)
    return written if written is None or note is None else f"{written}. {note}"
