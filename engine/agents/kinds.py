"""Public agent kinds, their storage types, and the public agent id `w_<type>_<ulid>`."""

from __future__ import annotations

import re
from enum import StrEnum

from ulid import ULID


class Kind(StrEnum):
    """Public kind vocabulary (contract: Agent.kind and the GET /agents `kind` filter)."""

    PRICE = "price"
    YIELD = "yield"
    AAVE_HEALTH = "aave-health"
    SPARK_HEALTH = "spark-health"
    PORTFOLIO = "portfolio"
    NEWS = "news"
    CONDITION = "condition"
    SCHEDULE = "schedule"


class StorageType(StrEnum):
    """Storage type, the `<type>` of a public id (contract: Agent.id and Agent.type)."""

    ALERT = "alert"
    CONDITION = "condition"
    REMINDER = "reminder"


# The two lending protocols of the health kinds. SparkLend is an Aave v3 fork exposing the same
# Pool.getUserAccountData, so one reader serves both.
HEALTH_PROTOCOLS: tuple[str, ...] = ("aave", "spark")

# Decision (docs/decisions.md): market and position watchers are alerts, the compiled plain-English
# check is a condition, a schedule is a reminder.
STORAGE_TYPE_OF_KIND: dict[Kind, StorageType] = {
    Kind.PRICE: StorageType.ALERT,
    Kind.YIELD: StorageType.ALERT,
    Kind.AAVE_HEALTH: StorageType.ALERT,
    Kind.SPARK_HEALTH: StorageType.ALERT,
    Kind.PORTFOLIO: StorageType.ALERT,
    Kind.NEWS: StorageType.ALERT,
    Kind.CONDITION: StorageType.CONDITION,
    Kind.SCHEDULE: StorageType.REMINDER,
}

# Kinds a client may name in the `kind` filter of GET /agents; `health` matches both health kinds
# (contract: GET /agents query).
KIND_FILTERS: dict[str, frozenset[Kind]] = {
    **{kind.value: frozenset({kind}) for kind in Kind},
    "health": frozenset({Kind.AAVE_HEALTH, Kind.SPARK_HEALTH}),
}

_ID_RE = re.compile(r"w_(alert|condition|reminder)_([0-9A-HJKMNP-TV-Z]{26})")


def health_kind(protocol: str) -> Kind:
    """The public kind of a health agent on `protocol` (`aave` or `spark`); raises ValueError otherwise."""
    if protocol not in HEALTH_PROTOCOLS:
        raise ValueError(f"unknown lending protocol {protocol!r}; expected one of {HEALTH_PROTOCOLS}")
    return Kind(f"{protocol}-health")


def storage_type(kind: Kind) -> StorageType:
    """The storage type stored for a public kind."""
    return STORAGE_TYPE_OF_KIND[kind]


def kinds_for_filter(value: str) -> frozenset[Kind] | None:
    """The kinds a GET /agents `kind` filter value selects, or None when the value is not in the vocabulary."""
    return KIND_FILTERS.get(value)


def new_agent_id(type_: StorageType) -> str:
    """A fresh public id `w_<type>_<ulid>`; ULIDs sort by creation time."""
    return f"w_{StorageType(type_).value}_{ULID()}"


def parse_agent_id(text: str) -> tuple[StorageType, ULID] | None:
    """Split a public id into (storage type, ulid); None when the id is structurally invalid.

    A bare ulid without the `w_<type>_` prefix is invalid (contract: GET /agents/{id} answers 404). The ulid
    part is Crockford base32 in upper case, as `new_agent_id` writes it; the first character is at most 7
    because a ULID is 128 bits.
    """
    match = _ID_RE.fullmatch(text)
    if match is None or match.group(2)[0] > "7":
        return None
    return StorageType(match.group(1)), ULID.from_str(match.group(2))
