"""A pasted list of payees: one address per line, each with its amount or one amount for all ("Weekly
stipends, 250 USDC each on Base:" then the addresses; a CSV or markdown table of name, wallet, amount).
When the message asks for it to be paid (a pay word anywhere outside the list), the list becomes the
request it stands for, one transfer per line, in order; the token and chain come from the header or the
request, never from a guess. A list that cannot be read line by line (a line with two addresses or two
numbers, a payee with no amount and none for all, two tokens) is left to the ordinary reading, which
asks."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Final

from engine.intents.found import Names
from engine.intents.pasted import chain_in
from engine.limits import MAX_TOKEN_AMOUNT

_ADDRESS: Final = re.compile(
    r"(?<![0-9A-Za-z])(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})(?![0-9A-Za-z])"
)
_NUMBER: Final = re.compile(
    r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.,])\d+(?:\.\d+)?(?![\w])"
)
_WORD: Final = re.compile(r"[A-Za-z][A-Za-z0-9.]*")
# Words that ask for a list to be paid, anywhere outside its lines.
_PAYING: Final = frozenset(
    {"pay", "send", "transfer", "payroll", "payout", "payouts", "stipend", "stipends", "salary", "salaries"}
    | {"disburse", "distribute", "wages", "bonuses", "process", "execute", "remit"}
)
_EACH: Final = re.compile(
    r"(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<token>[A-Za-z][A-Za-z0-9.]*)?\s+each\b", re.I
)
# A line that only totals the others ("| **Total** | | 2,050 |"): never a payee.
_TOTAL: Final = re.compile(r"\b(?:total|sum|subtotal)\b", re.I)
# A list's own numbering or bullet ("1. 0x...", "- 0x..."): never an amount.
_LIST_MARK: Final = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*\u2022])\s+")
# Words that say the request is not one transfer per line as listed (a selection, a split of one sum).
_NOT_EVERY_LINE: Final = frozenset(
    {
        "only",
        "just",
        "first",
        "second",
        "third",
        "last",
        "split",
        "evenly",
        "equally",
        "except",
        "but",
        "skip",
    }
)
_MIN_PAYEES: Final = 2
_MAX_PAYEES: Final = 20


def payroll(text: str, universe: Names) -> str | None:
    """The transfers a pasted list of payees asks for, as a request text, or None when `text` holds none."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    payees: list[tuple[str, Decimal | None, str | None]] = []
    rest: list[str] = []
    for line in (_LIST_MARK.sub("", line) for line in lines):
        found = _ADDRESS.findall(line)
        if not found:
            rest.append(line)
            continue
        if len(found) > 1 or _TOTAL.search(line):
            return None
        outside = line.replace(found[0], " ")
        numbers = _numbers(outside)
        if len(numbers) > 1:
            return None
        amount = _amount(numbers[0]) if numbers else None
        if numbers and amount is None:
            return None
        payees.append((found[0], amount, _token(outside, universe)))
    if not _MIN_PAYEES <= len(payees) <= _MAX_PAYEES:
        return None
    around = " ".join(rest)
    words = set(re.findall(r"[a-z]+", around.lower()))
    # "pay the rent row" picks one; "pay each row", "ignore the total line" do not.
    one_row = any(
        named.group(1) not in ("each", "every", "all", "total", "these", "those")
        for named in re.finditer(r"(\w+)\s+(?:row|line)\b", around.lower())
    )
    if not words & _PAYING or words & _NOT_EVERY_LINE or one_row:
        return None  # "pay only the rent row", "split 600 usdt evenly across this list": read as written
    each = _EACH.search(around)
    each_amount = _amount(each.group("amount")) if each else None
    if each_amount is None and re.search(r"\beach\b", around, re.I) and len(_numbers(around)) == 1:
        each_amount = _amount(_numbers(around)[0])  # "Send 400 USDC on Solana to each of these two:"
    header_token = _token(around, universe)
    tokens = {token for _, _, token in payees if token} | ({header_token} if header_token else set())
    if len(tokens) != 1:
        return None
    (token,) = tokens
    orders: list[str] = []
    for address, amount, _ in payees:
        paid = amount if amount is not None else each_amount
        if paid is None:
            return None
        orders.append(f"send {paid.normalize():f} {token} to {address}")
    chain = chain_in(around, universe)
    return ", then ".join(orders) + (f" on {chain}" if chain else "")


def _numbers(text: str) -> list[str]:
    """The numbers of a line: its cells' when it is a table or CSV row ("rui,0x..,540,USDC", "| Ade | 0x.. |
    1,100 |"), else the numbers written in it."""
    if "|" in text or "\t" in text or text.count(",") >= 2:
        cells = [
            cell.strip().strip("*").strip()
            for cell in re.split(r"[|\t]" if ("|" in text or "\t" in text) else ",", text)
        ]
        return [cell for cell in cells if _NUMBER.fullmatch(cell)]
    return _NUMBER.findall(text)


def _amount(written: str) -> Decimal | None:
    try:
        value = Decimal(written.replace(",", ""))
    except InvalidOperation:
        return None
    return value if value.is_finite() and 0 < value <= MAX_TOKEN_AMOUNT else None


def _token(text: str, universe: Names) -> str | None:
    """The one token `text` names; a chain's name that is also a token's ("on Solana") counts only when
    nothing else is named."""
    aliases, chains = universe.asset_aliases(), universe.chain_aliases()
    words = [word.lower() for word in _WORD.findall(text) if word.lower() in aliases]
    named = {aliases[word] for word in words if word not in chains} or {aliases[word] for word in words}
    return named.pop() if len(named) == 1 else None
