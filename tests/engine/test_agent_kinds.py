"""Public kinds, storage types, the kind filter and public agent ids."""

from __future__ import annotations

import pytest
from ulid import ULID

import engine.agents
from engine.agents import (
    Kind,
    StorageType,
    health_kind,
    kinds_for_filter,
    new_agent_id,
    parse_agent_id,
    storage_type,
)


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (Kind.PRICE, StorageType.ALERT),
        (Kind.YIELD, StorageType.ALERT),
        (Kind.AAVE_HEALTH, StorageType.ALERT),
        (Kind.SPARK_HEALTH, StorageType.ALERT),
        (Kind.PORTFOLIO, StorageType.ALERT),
        (Kind.NEWS, StorageType.ALERT),
        (Kind.CONDITION, StorageType.CONDITION),
        (Kind.SCHEDULE, StorageType.REMINDER),
    ],
)
def test_every_public_kind_has_its_storage_type(kind: Kind, expected: StorageType) -> None:
    assert storage_type(kind) is expected


def test_health_filter_matches_both_protocol_specific_kinds() -> None:
    assert kinds_for_filter("health") == {Kind.AAVE_HEALTH, Kind.SPARK_HEALTH}
    assert kinds_for_filter("aave-health") == {Kind.AAVE_HEALTH}
    assert kinds_for_filter("price") == {Kind.PRICE}
    assert kinds_for_filter("alert") is None


def test_health_kind_is_named_after_the_lending_protocol() -> None:
    assert health_kind("aave") is Kind.AAVE_HEALTH
    assert health_kind("spark") is Kind.SPARK_HEALTH
    with pytest.raises(ValueError, match="lending protocol"):
        health_kind("compound")


@pytest.mark.parametrize("type_", list(StorageType))
def test_new_agent_id_round_trips_through_parse(type_: StorageType) -> None:
    agent_id = new_agent_id(type_)
    assert agent_id.startswith(f"w_{type_.value}_")
    parsed = parse_agent_id(agent_id)
    assert parsed is not None
    assert parsed[0] is type_
    assert str(parsed[1]) == agent_id.rsplit("_", 1)[1]


def test_a_price_agent_id_uses_the_storage_type_not_the_kind() -> None:
    agent_id = new_agent_id(storage_type(Kind.PRICE))
    assert agent_id.startswith("w_alert_")


@pytest.mark.parametrize(
    "text",
    [
        str(ULID()),  # bare ulid without prefix
        f"w_price_{ULID()}",  # public kind instead of storage type
        f"w_alert_{str(ULID()).lower()}",  # lower case is not what new_agent_id writes
        f"w_alert_{ULID()}x",
        "w_alert_",
        f"W_ALERT_{ULID()}",
        "w_alert_8ZZZZZZZZZZZZZZZZZZZZZZZZZ",  # beyond 128 bits
        f"w_alert_{str(ULID())[:-1]}U",  # U is not Crockford base32
        "",
    ],
    # Fixed names: the ULIDs differ in every collection (parallel workers must collect the same tests).
    ids=[
        "bare-ulid",
        "public-kind",
        "lower-case",
        "trailing-char",
        "no-ulid",
        "upper-prefix",
        "beyond-128-bits",
        "not-base32",
        "empty",
    ],
)
def test_structurally_invalid_ids_parse_to_none(text: str) -> None:
    assert parse_agent_id(text) is None


def test_package_exports_what_it_declares() -> None:
    for name in engine.agents.__all__:
        assert hasattr(engine.agents, name), name
