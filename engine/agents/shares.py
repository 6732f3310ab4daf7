"""A remedy's amount as a share of a holding: `{"share": "0.5", "of": "balance"}` in place of a number.

"swap half my eth" on an alert means half of what the wallet holds when the alert fires, not when it was
created, so the share is stored as said and sized only when the remedy's plan is built: the holding is read
from the chain then (the wallet's balance of the asset, or its debt or deposit of it in the lending
market), and the share of it taken exactly, rounded down to the token's smallest unit. A share of 1 is the
planner's own `max` (the whole balance less the gas reserve, the whole debt, the whole deposit), once the
holding is read to be there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any, Final, Literal

from engine.agents.errors import Issue
from engine.intents.amounts import SHARE_OF, Share, describe_share, plain, tidy
from engine.numbers import NumberOutOfRange, parse_decimal
from engine.planner.lending import LENDERS
from engine.registry import Registry, Token

# Digits after the point a decimal share may carry: a share of a 10^30-unit balance stays exact in integer
# arithmetic far below any bound, and no one means a share finer than this.
MAX_SHARE_PLACES: Final = 18
# A share written as an exact fraction ("1/3", which has no decimal form): each term up to 18 digits.
_FRACTION: Final = re.compile(r"^\s*(\d{1,18})\s*/\s*(\d{1,18})\s*$")
# Actions that spend the wallet's own balance of the asset, so a share of that balance is an amount.
BALANCE_ACTIONS: Final = frozenset({"transfer", "bridge", "deposit", "stake", "swap", "repay", "lp-add"})
# The one action each position share sizes.
POSITION_ACTIONS: Final[dict[str, str]] = {"debt": "repay", "deposit": "withdraw"}
_KEYS: Final = frozenset({"share", "of"})


class ShareError(ValueError):
    """A share form that does not read; `issues` name its fields under the given prefix."""

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        super().__init__("; ".join(f"{issue.field}: {issue.message}" for issue in issues))


def is_share_form(value: object) -> bool:
    """True for an amount given as a share form (a JSON object) rather than a number or a literal."""
    return isinstance(value, Mapping)


def read_share(raw: object, where: str) -> Share:
    """The Share a form `{share, of}` states; raises ShareError naming `<where>.share` or `<where>.of`.

    `share` is a number or decimal string with 0 < share <= 1 and at most MAX_SHARE_PLACES decimals, or
    an exact fraction "n/d"; `of` is `balance`, `debt` or `deposit`."""
    if not isinstance(raw, Mapping):
        raise ShareError([Issue(where, "a share is an object {share, of}")])
    issues = [Issue(f"{where}.{key}", "is not a field of a share") for key in raw if key not in _KEYS]
    fraction: Fraction | None = None
    if "share" not in raw:
        issues.append(Issue(f"{where}.share", "is required"))
    else:
        try:
            fraction = _fraction(raw["share"])
        except ValueError as exc:
            issues.append(Issue(f"{where}.share", str(exc)))
    of = raw.get("of")
    if of not in SHARE_OF:
        issues.append(Issue(f"{where}.of", f"must be one of {', '.join(SHARE_OF)}"))
    if issues:
        raise ShareError(issues)
    assert fraction is not None and of in SHARE_OF
    return Share(fraction, of)


def _fraction(value: object) -> Fraction:
    """The exact share a JSON value states; raises ValueError saying why it is not one."""
    if isinstance(value, bool | float) or not isinstance(value, str | int | Decimal):
        raise ValueError("must be a decimal number or string (not a float), or a fraction such as '1/3'")
    found = _FRACTION.match(value) if isinstance(value, str) else None
    if found is not None:
        top, bottom = int(found.group(1)), int(found.group(2))
        if bottom == 0:
            raise ValueError("a fraction's denominator must not be 0")
        fraction = Fraction(top, bottom)
    else:
        try:
            number = parse_decimal(value) if isinstance(value, str) else Decimal(value)
        except NumberOutOfRange as exc:
            raise ValueError(str(exc)) from None
        if not number.is_finite() or number.adjusted() > 1:
            raise ValueError("must be more than 0 and at most 1")
        if _places(number) > MAX_SHARE_PLACES:
            raise ValueError(f"takes at most {MAX_SHARE_PLACES} decimals (or say it as a fraction, '1/3')")
        fraction = Fraction(number)
    if not 0 < fraction <= 1:
        raise ValueError("must be more than 0 and at most 1")
    return fraction


def _places(number: Decimal) -> int:
    """Digits after the point, trailing zeros left out (read off the digits: no context rounds them)."""
    _, digits, exponent = number.as_tuple()
    assert isinstance(exponent, int)  # finite
    kept = len(digits)
    while kept > 1 and digits[kept - 1] == 0 and exponent < 0:
        kept, exponent = kept - 1, exponent + 1
    return max(-exponent, 0)


def share_value(share: Share) -> Decimal | str:
    """The share as a Decimal when it has an exact decimal form, else as the fraction "n/d"."""
    fraction = share.fraction
    rest = fraction.denominator
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    if rest != 1:  # a third, two thirds: no finite decimal form
        return f"{fraction.numerator}/{fraction.denominator}"
    with localcontext(prec=80):  # exact: a denominator of 2s and 5s divides in finitely many digits
        return tidy((Decimal(fraction.numerator) / fraction.denominator).normalize())


def share_wire(share: Share, *, stored: bool = False) -> dict[str, Any]:
    """The share form of an amount: the share a JSON number on the wire (a string when `stored`, so no
    float touches it), or "n/d" when it has no decimal form."""
    value = share_value(share)
    if stored and isinstance(value, Decimal):
        return {"share": f"{value:f}", "of": share.of}
    return {"share": value, "of": share.of}


def share_issues(
    action: str, protocol: str | None, vault: str | None, share: Share, where: str
) -> list[Issue]:
    """Issues of a share on an intent: a share of the balance sizes an action that spends it; a share of
    a debt sizes a repay, of a deposit a withdrawal, each on a lending market (aave or spark)."""
    if share.of == "balance":
        if action in BALANCE_ACTIONS:
            return []
        return [Issue(f"{where}.of", f"a {action} is not sized from the wallet's balance")]
    wanted = POSITION_ACTIONS[share.of]
    if action != wanted:
        return [Issue(f"{where}.of", f"a share of the {share.of} sizes a {wanted}, not a {action}")]
    if vault is not None or (protocol or "").casefold() not in LENDERS:
        markets = " or ".join(LENDERS)
        return [Issue(f"{where}.of", f"a share of the {share.of} is read on {markets}, not a vault")]
    return []


@dataclass(frozen=True, slots=True)
class Holding:
    """What a share is taken of, read when the plan is built.

    `raw` is the holding in the token's smallest units; `place` says where ("on base", "on aave on base");
    `kept_raw` the native balance kept for gas (a balance share must leave it); `pays_raw`, for a debt,
    what the wallet holds to repay it with."""

    raw: int
    token: Token
    place: str
    kept_raw: int = 0
    pays_raw: int | None = None


@dataclass(frozen=True, slots=True)
class Unsized:
    """The share cannot be sized now; `reason` says why, in words a person reads."""

    reason: str


def size_share(
    registry: Registry, share: Share, holding: Holding, asset: str
) -> Decimal | Literal["max"] | Unsized:
    """The amount `share` of `holding` comes to: exact, rounded down to the token's smallest unit, or
    "max" for the whole of it. Unsized when there is nothing to take a share of, when the share comes to
    less than one unit, or when it would spend the gas reserve."""
    token, held = holding.token, holding.raw
    said = describe_share(share, asset)
    shown = f"{plain(registry.from_raw(token, max(held, 0)))} {token.symbol}"
    if held <= 0:
        nothing = {
            "balance": f"the wallet holds no {token.symbol} {holding.place}",
            "debt": f"the wallet owes no {token.symbol} {holding.place}",
            "deposit": f"the wallet has no {token.symbol} deposited {holding.place}",
        }
        return Unsized(f"{nothing[share.of]}, so {said} is nothing")
    if share.fraction == 1:
        if holding.pays_raw is not None and holding.pays_raw < held:
            pays = plain(registry.from_raw(token, max(holding.pays_raw, 0)))
            return Unsized(
                f"repaying all of the {shown} owed {holding.place} needs {shown}; the wallet holds {pays}"
            )
        return "max"
    raw = held * share.fraction.numerator // share.fraction.denominator
    if raw <= 0:
        return Unsized(f"{said} ({shown} {holding.place}) is less than one unit of {token.symbol}")
    amount = registry.from_raw(token, raw)
    if holding.kept_raw and held - raw < holding.kept_raw:
        kept = plain(registry.from_raw(token, holding.kept_raw))
        return Unsized(
            f"{said} is {plain(amount)} {token.symbol} of {shown} {holding.place}, which would leave less "
            f"than the {kept} {token.symbol} kept for gas"
        )
    return tidy(amount.normalize())
