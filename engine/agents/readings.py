"""Numbers written in a form that reads two ways, settled by asking: "2.800" is 2,800 to many writers and 2.8
to others (a thousandfold apart), and "50 000" is 50,000 grouped by a space or 50 and 0. The intent reader
asks the same forms (engine/intents/numerals.py). An answer that picks a reading replaces the form."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

from engine.agents.context import Request
from engine.agents.results import NeedsClarification
from engine.agents.scan import Scanner, display

# "2.800", "4.000", "75.000": a dot before three digits after a whole part that is not 0.
_DOT_THOUSANDS: Final = re.compile(r"(?<![\w.,$])(?P<whole>[1-9]\d{0,2})\.(?P<part>\d{3})(?![\w.,])")
# "50 000", "1 250 000": digits grouped by spaces.
_SPACE_GROUPS: Final = re.compile(r"(?<![\w.,$])\d{1,3}(?: \d{3})+(?![\w.,])")


def _readings(match: re.Match[str]) -> list[Decimal]:
    if match.re is _DOT_THOUSANDS:
        return [Decimal(match.group("whole") + match.group("part")), Decimal(match.group(0))]
    return [Decimal(match.group(0).replace(" ", ""))]


def settle_readings(request: Request, separator: str) -> NeedsClarification | None:
    """Consume each two-way number of the request that an answer (after `separator`) settles; ask about the
    first one none does, offering its readings."""
    original, _, answered = request.text.partition(separator)
    values = {number.value for number in Scanner(answered).take_numbers()}
    for pattern in (_DOT_THOUSANDS, _SPACE_GROUPS):
        for match in pattern.finditer(original):
            readings = _readings(match)
            if any(reading in values for reading in readings):
                request.scanner.mask(match.start(), match.end())
                continue
            shown = [display(reading) for reading in readings]
            question = f'Does "{match.group(0)}" mean {" or ".join(shown)}?'
            return NeedsClarification.ask(question, shown)
    return None
