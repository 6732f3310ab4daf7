"""Numbers in an alert request that name rather than count: a ticket, case or reference number ("Ticket
7712", "TKT-4410", "#6230", "(ticket 3302)") and a date or timestamp ("2024-06-03 08:15", "03/06/2024").
Support desks paste them around the request; read as figures they would be levels ("several numbers") or
unplaced numbers, so they are taken out before reading and named among what was set aside."""

from __future__ import annotations

import re
from typing import Final

# A label's number: the label stays (an ordinary word, set aside), its number goes.
_LABELLED: Final = re.compile(
    r"\b(?P<label>ticket|tkt|case|ref|reference|invoice|inv|incident|inc|req|job|id)\b"
    r"(?:\s*(?:no\.?|number|nr\.?))?\s*[#:.-]?\s*#?\d[\d-]*\b",
    re.IGNORECASE,
)
# "#6230", "#7001": a number behind a hash, too long to be an item's place in a list ("#2").
_HASHED: Final = re.compile(r"(?<![\w&$#])#\d{3,}\b")
_DATE: Final = re.compile(
    r"\b(?:19|20)\d{2}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b"
    r"|\b\d{1,2}/\d{1,2}/(?:19|20)\d{2}\b"
)


def without_identifiers(text: str) -> tuple[str, bool]:
    """`text` with reference numbers and dates taken out, and whether any was."""
    out = _LABELLED.sub(lambda m: m.group("label"), text)
    out = _DATE.sub(" ", _HASHED.sub(" ", out))
    return out, out != text
