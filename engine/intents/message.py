"""Structure first: find the request in a message before reading its words.

People paste what they are looking at: a forwarded e-mail with a signature, a chat with other people's
amounts, a wallet screen, an invoice in HTML, a JSON blob, a checklist with done items. Numbers and
addresses in pasted material are never values of the plan unless the request points at them ("pay this
invoice", "do the unchecked ones", "the usdc on base" of a wallet screen, "send it to that address").

The message is cut into blocks (blank lines) and lines; each line is the request's own or context:
headers and quoted lines of e-mails, signatures and sign-offs, chat lines with a speaker, checklists,
data (JSON, label: value, CSV rows), wallet screens (token and amount per line) and logs. The request is
what is left of the message's own prose (the last block that is not pasted, with any earlier prose of the
same writer). When it points at the context, the context it points at becomes part of what is read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Final, Protocol

from engine.intents.markup import Line, seen_lines
from engine.limits import MAX_TOKEN_AMOUNT


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


# E-mail headers of forwarded and quoted messages.
_HEADER: Final = re.compile(
    r"^(?:-{3,}\s*(?:forwarded message|original message)\s*-{3,}|(?:from|to|cc|bcc|date|sent|subject)\s*:"
    r"|on .{4,80} wrote:$)",
    re.IGNORECASE,
)
# A sign-off that starts a signature: what follows it is the writer's name and details.
_SIGN_OFF: Final = re.compile(
    r"^(?:best|best regards|regards|kind regards|warm regards|many thanks|thanks|thank you|cheers|"
    r"sincerely|br|yours|talk soon|later)[,!.]?$",
    re.IGNORECASE,
)
# A signature separator ("--", "—") alone or before a name ("— Pat (CPA)").
_SIGNATURE_MARK: Final = re.compile(r"^(?:--\s*|\u2014\s*|-\u2014\s*)(?:[A-Z][\w .()'&-]{0,40})?$")
_PHONE: Final = re.compile(r"(?:^|\b(?:tel|phone|mob|mobile|m|cell|fax)\b\s*[:.]?\s*)\+?\d[\d\s().-]{6,}\d")
_EMAIL: Final = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")
# A chat line: "[10:02] Ben: ...", "Ben: ...", "@maria: ...", "me: ...".
_SPEAKER: Final = re.compile(
    r"^(?:\[?\d{1,2}:\d{2}(?:\s?[ap]m)?\]?\s*)?(?P<name>@?[A-Za-z][\w.'-]{0,20}(?: [A-Za-z][\w.'-]{0,20})?)"
    r"\s*:\s+(?P<text>\S.*)$"
)
# A line that is all a quotation, maybe with who said it after ('"..." — @someone', '“...” - Pat').
_QUOTATION: Final = re.compile(
    r'^["\u201c\u201e\u00ab](?P<said>[^"\u201c\u201d\u00bb]{3,})["\u201d\u00bb]\s*(?:(?:[-\u2013\u2014~]|via|by)\s*\S.{0,60})?$'
)
# A machine-written key ("DTSTART;TZID=UTC", "SUMMARY", "PAY_TO"): data whatever its name.
_KEY: Final = re.compile(r"^[A-Z][A-Z0-9_-]{1,30}(?:;[^:]*)?$")
# Labels of data lines ("Amount due: 1,250 USDT", "Pay to: 0x...") that are not chat speakers.
_LABELS: Final = frozenset(
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
# A log or receipt line: stack frames, errors, transaction hashes.
_LOG: Final = re.compile(
    r"^(?:error\b|at \S+ \(|tx\s*[:#]?\s*0x|txn\b|hash\s*:|reverted\b|\u2705\s*\w+ed\b|status\s*:)",
    re.IGNORECASE,
)
# A wallet screen line: a token and its amount, maybe its value and chain ("USDC 2,310.00 $2,310.00").
_HOLDING: Final = re.compile(
    r"^(?P<symbol>[A-Za-z][A-Za-z0-9.]{1,9})\s+(?P<amount>\d[\d,]*(?:\.\d+)?)"
    r"(?:\s+\$[\d,]+(?:\.\d+)?)?(?:\s+\((?P<chain>[A-Za-z][\w ]{1,20})\))?$"
)
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
class _Block:
    lines: list[Line]
    kinds: list[str]  # per line: own, header, quoted, signature, chat, item, data, screen, log


def find_request(text: str, universe: Names) -> Message:
    """The request in `text` and the context around it (see the module docstring). A message with no
    pasted material is its own request, unchanged."""
    lines = seen_lines(text)
    if len(lines) <= 1 and not any(line.item or line.struck for line in lines):
        message = Message(text)
        _told(text, universe, message.stated)
        return message
    blocks = _blocks(lines)
    for block in blocks:
        block.kinds = _kinds(block.lines, universe)
    _mark_letters(blocks)
    own = [i for i, block in enumerate(blocks) if any(kind == "own" for kind in block.kinds)]
    if not own:
        return _pointed(
            Message("", context=[line.text for b in blocks for line in b.lines]), blocks, universe
        )
    last = own[-1]
    request_lines: list[str] = []
    context: list[str] = []
    kinds_aside: list[str] = []
    for index, block in enumerate(blocks):
        for line, kind in zip(block.lines, block.kinds, strict=True):
            # The writer's own prose before the last block is theirs too ("I have 2000 usdc on op."), unless
            # it is a letter or a chat someone else wrote (marked above).
            mine = kind == "own" and (index == last or _own_prose(block))
            if mine:
                request_lines.append(line.text)
            elif line.text:
                context.append(line.text)
                kinds_aside.append(kind)
    message = Message("\n".join(request_lines), context=context)
    message.set_aside = _describe(kinds_aside)
    message.stated = _screen(blocks, universe)
    _told(message.request, universe, message.stated)
    return _pointed(message, blocks, universe)


def _blocks(lines: Sequence[Line]) -> list[_Block]:
    blocks: list[_Block] = []
    current: list[Line] = []
    for line in lines:
        if not line.text and line.item is None:
            if current:
                blocks.append(_Block(current, []))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append(_Block(current, []))
    return blocks


def _kinds(lines: Sequence[Line], universe: Names) -> list[str]:
    kinds: list[str] = []
    signature = False
    speakers = [_speaker(line.text) for line in lines]
    chat = sum(1 for name in speakers if name is not None) >= 2 or any(
        name is not None and name.lower() in ("me", "you") for name in speakers
    )
    screen = sum(1 for line in lines if _holding(line.text, universe) is not None) >= 2
    data = _is_json(" ".join(line.text for line in lines)) or _is_csv(lines)
    for at, (line, name) in enumerate(zip(lines, speakers, strict=True)):
        stripped = line.text.strip()
        following = lines[at + 1] if at + 1 < len(lines) else None
        if stripped.endswith(":") and following is not None and (following.item or following.listed):
            kinds.append("item")  # the heading of a list ("plan for today:")
            continue
        if signature:
            kinds.append("signature")
        elif line.item is not None or line.listed:
            kinds.append("item")
        elif stripped.startswith(">") or (at < len(lines) - 1 and _QUOTATION.match(stripped)):
            kinds.append("quoted")  # '"GMX pools doing 20% APR" — @degen_yields', above the request
        elif _HEADER.match(stripped):
            kinds.append("header")
        elif _SIGNATURE_MARK.match(stripped) or _SIGN_OFF.match(stripped):
            signature = True
            kinds.append("signature")
        elif _PHONE.search(stripped) or (_EMAIL.search(stripped) and len(stripped.split()) <= 4):
            kinds.append("signature")
        elif data:
            kinds.append("data")
        elif chat and name is not None:
            kinds.append("chat")
        elif screen and (_holding(stripped, universe) is not None or _chain_heading(stripped, universe)):
            kinds.append("screen")
        elif _LOG.match(stripped):
            kinds.append("log")
        elif at < len(lines) - 1 and _attributed(stripped):
            kinds.append("data")  # "Dashboard says: Health factor 1.82 | Aave v3", above the request
        elif _label(stripped):
            kinds.append("data")
        else:
            kinds.append("own")
    return kinds


def _mark_letters(blocks: Sequence[_Block]) -> None:
    """A block that opens a letter (greeting, then a signature) or lies before the writer's last block
    with a header, a signature or chat in it is someone else's text: its prose is context."""
    for block in blocks[:-1] if len(blocks) > 1 else []:
        block.kinds = [
            "quoted" if kind == "own" and _QUOTATION.match(line.text.strip()) else kind
            for line, kind in zip(block.lines, block.kinds, strict=True)
        ]
        pasted = any(kind in ("header", "quoted", "signature", "chat", "data", "log") for kind in block.kinds)
        if pasted:
            block.kinds = ["letter" if kind == "own" else kind for kind in block.kinds]
    # Blocks after a header (a forwarded message) belong to it until a block without one.
    inside = False
    for block in blocks[:-1] if len(blocks) > 1 else []:
        if "header" in block.kinds:
            inside = True
        elif inside and ("signature" in block.kinds or all(k in ("own", "letter") for k in block.kinds)):
            block.kinds = ["letter" if kind == "own" else kind for kind in block.kinds]


def _own_prose(block: _Block) -> bool:
    return all(kind in ("own", "screen", "item") for kind in block.kinds)


def _speaker(text: str) -> str | None:
    match = _SPEAKER.match(text.strip())
    if match is None:
        return None
    name = match.group("name").lstrip("@").lower()
    if name in _LABELS or name.startswith("http"):
        return None
    return match.group("name")


def _attributed(text: str) -> bool:
    """A line that says where figures come from before showing them ("Copied from aave: USDC Supply APY
    4.12%", "Price on my screen: ETH $3,412"): a short head without figures, a colon, figures after it."""
    head, sep, rest = text.partition(":")
    return (
        bool(sep)
        and 0 < len(head.split()) <= 5
        and bool(set(head.lower().split()) & _SOURCES)
        and not any(char.isdigit() for char in head)
        and any(char.isdigit() for char in rest)
    )


# Words that say where shown figures come from ("Dashboard says:", "Copied from aave:", "Wallet screen:").
_SOURCES: Final = frozenset(
    """
    says said shows showed show screen copied from tracker dashboard notes note app wallet portfolio price
    prices balance balances chart data site page explorer etherscan reads displays
    """.split()  # noqa: SIM905
)


def _label(text: str) -> bool:
    """A "label: value" line of pasted data ("Network: Arbitrum One", "Amount due: 1,250.00 USDT")."""
    head, sep, _ = text.partition(":")
    return bool(sep) and (head.strip().lower() in _LABELS or _KEY.match(head) is not None)


def _holding(text: str, universe: Names) -> tuple[str, Decimal, str | None] | None:
    match = _HOLDING.match(text.strip())
    if match is None:
        return None
    symbol = match.group("symbol")
    if symbol.lower() not in universe.asset_aliases():
        return None
    try:
        amount = Decimal(match.group("amount").replace(",", ""))
    except InvalidOperation:
        return None
    chain = match.group("chain")
    return (symbol, amount, chain) if _bounded(amount) else None


def _chain_heading(text: str, universe: Names) -> bool:
    return " ".join(text.lower().split()) in universe.chain_aliases()


def _is_json(text: str) -> bool:
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return False
    try:
        json.loads(stripped)
    except ValueError:
        return False
    return True


def _is_csv(lines: Sequence[Line]) -> bool:
    rows = [line.text.count(",") for line in lines if line.text]
    return len(rows) >= 2 and rows[0] >= 1 and all(count == rows[0] for count in rows)


def _describe(kinds: Sequence[str]) -> list[str]:
    names = {
        "header": "a forwarded message",
        "letter": "a pasted message",
        "quoted": "quoted lines",
        "signature": "a signature",
        "chat": "a chat",
        "item": "a checklist",
        "data": "pasted data",
        "screen": "a wallet screen",
        "log": "a log",
    }
    found: list[str] = []
    for kind in kinds:
        name = names.get(kind)
        if name is not None and name not in found:
            found.append(name)
    return found


def _screen(blocks: Sequence[_Block], universe: Names) -> dict[str, dict[str, Decimal]]:
    """Balances a pasted wallet screen states, by chain: under a chain heading ("Base", then "USDC 2,310")
    or with the chain beside the token ("USDC 1,900.00 (Ethereum)")."""
    stated: dict[str, dict[str, Decimal]] = {}
    aliases = universe.chain_aliases()
    for block in blocks:
        _table(block, universe, stated)
        heading: str | None = None
        for line, kind in zip(block.lines, block.kinds, strict=True):
            if kind != "screen":
                continue
            name = " ".join(line.text.lower().split())
            if name in aliases:
                heading = aliases[name]
                continue
            found = _holding(line.text, universe)
            if found is None:
                continue
            symbol, amount, beside = found
            chain = aliases.get(" ".join(beside.lower().split())) if beside else heading
            if chain is None:
                continue
            canonical = universe.asset_on(chain, symbol)
            if canonical is not None:
                stated.setdefault(chain, {})[canonical] = amount
    return stated


# Column names of a pasted balance table ("token,chain,balance").
_TOKEN_COLUMNS: Final = ("token", "asset", "symbol", "coin", "currency")
_CHAIN_COLUMNS: Final = ("chain", "network")
_AMOUNT_COLUMNS: Final = ("balance", "amount", "holding", "holdings", "qty", "quantity")


def _table(block: _Block, universe: Names, stated: dict[str, dict[str, Decimal]]) -> None:
    """Balances a pasted CSV table states, one row per token and chain ("token,chain,balance" then
    "DAI,base,3000")."""
    rows = [line.text for line, kind in zip(block.lines, block.kinds, strict=True) if kind == "data"]
    if len(rows) < 2 or "," not in rows[0]:
        return
    header = [cell.strip().lower() for cell in rows[0].split(",")]
    columns = [
        next((header.index(n) for n in names if n in header), None)
        for names in (_TOKEN_COLUMNS, _CHAIN_COLUMNS, _AMOUNT_COLUMNS)
    ]
    token_at, chain_at, amount_at = columns
    if token_at is None or chain_at is None or amount_at is None:
        return
    aliases = universe.chain_aliases()
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.split(",")]
        if len(cells) != len(header):
            continue
        chain = aliases.get(" ".join(cells[chain_at].lower().split()))
        symbol = universe.asset_on(chain, cells[token_at]) if chain is not None else None
        try:
            amount = Decimal(cells[amount_at])
        except InvalidOperation:
            continue
        if chain is not None and symbol is not None and _bounded(amount):
            stated.setdefault(chain, {})[symbol] = amount


# -- pointing -----------------------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _pointed(message: Message, blocks: Sequence[_Block], universe: Names) -> Message:
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
    open_items = [
        line.text
        for line, _ in items
        if line.item == "open" or (line.item is None and _ORDER_LIKE.search(line.text))
    ]
    points = bool(set(words) & _POINTERS) or len(words) <= 3
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
        if sep and head.strip().lower() in _LABELS:
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
    chain = _chain_in(str(named), universe) if named is not None else None
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


def _chain_in(text: str, universe: Names) -> str | None:
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


# "I have 2000 usdc on optimism", "i've got 1.3 ETH there", "holding 5k dai on base": a balance told.
_TOLD: Final = re.compile(
    r"\b(?:i\s+have|i've\s+got|i\s+got|ive\s+got|i\s+hold|i'm\s+holding|im\s+holding|holding|i\s+own|"
    r"i\s+am\s+having|i'm\s+having|there(?:'s|\s+is)|i\s+still\s+have)\s+(?:about\s+|around\s+|like\s+)?"
    r"(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<scale>k|m)?\s+(?P<asset>[a-z][a-z0-9.]*)"
    r"(?:\s+(?:sitting\s+|left\s+)?(?:on|in)\s+(?P<chain>[a-z][a-z ]{1,20}?))?(?=[\s.,;!?)]|$)",
    re.IGNORECASE,
)


def _told(text: str, universe: Names, stated: dict[str, dict[str, Decimal]]) -> None:
    """Balances the request tells ("I have 2000 usdc on optimism"), as a wallet screen states them: a
    share of that token on that chain ("half to eth and the other half to wbtc") is a share of it."""
    aliases = universe.chain_aliases()
    for match in _TOLD.finditer(text):
        chain_words = (match.group("chain") or "").lower().split()
        chain = next(
            (
                aliases[" ".join(chain_words[:size])]
                for size in (3, 2, 1)
                if " ".join(chain_words[:size]) in aliases
            ),
            None,
        )
        if chain is None:
            continue
        asset = universe.asset_on(chain, match.group("asset"))
        if asset is None:
            continue
        try:
            amount = Decimal(match.group("amount").replace(",", ""))
        except InvalidOperation:
            continue
        scale = (match.group("scale") or "").lower()
        amount *= {"k": 1000, "m": 1_000_000}.get(scale, 1)
        if _bounded(amount):
            stated.setdefault(chain, {}).setdefault(asset, amount)


def _bounded(amount: Decimal) -> bool:
    """A stated balance any token could have: finite, not negative, within the parser's amount bound."""
    return amount.is_finite() and 0 <= amount <= MAX_TOKEN_AMOUNT
