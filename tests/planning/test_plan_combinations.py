"""Generated plans on the devnet: every action on every chain with every amount form (a number, `max`,
`chained`), one to four intents long. Whatever the combination, /plan answers a plan or a 4xx naming what
it refuses, never a 5xx; a bridge or swap fed by `max` or `chained` is sized before it is quoted."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.actions import ACTIONS
from engine.registry import load_registry
from gateway.config import Settings
from storage import accounts
from tests.support.server import Running, running_service

pytestmark = pytest.mark.anvil

REG = load_registry()
WALLET = "0x9a3de1a3b52f6e2f1f7c47e1d9c4f3b1e2a5c7d8"
RECIPIENT = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
PLANS = 160
SEED = 20261124


def pick_asset(rng: random.Random, chain: str) -> str:
    return rng.choice([token.symbol for token in REG.tokens(chain)])


def pick_protocol(rng: random.Random, chain: str, action: str) -> str | None:
    protocols = REG.protocols_for(chain, action)
    return rng.choice(protocols) if protocols else None


def amount_form(rng: random.Random, first: bool) -> Any:
    forms = ["number", "max"] + ([] if first else ["chained", "chained"])
    form = rng.choice(forms)
    if form == "number":
        return rng.choice(["0.01", "1", "25", "100.5", "2500"])
    return form


def intent_for(
    rng: random.Random, action: str, first: bool, previous: dict[str, Any] | None
) -> dict[str, Any]:
    """A well-formed intent of `action` (fields per docs/decisions.md, Intents), on a random chain, with a
    random amount form; a chained intent follows the previous output's chain and asset when there is one."""
    chains = [chain.slug for chain in REG.evm_chains()]
    chain = rng.choice(chains)
    amount = amount_form(rng, first)
    if amount == "chained" and previous is not None:
        chain = previous.get("to_chain") or previous.get("chain") or chain
    intent: dict[str, Any] = {"action": action, "amount": amount}
    asset = previous.get("to_asset") or previous.get("asset") if amount == "chained" and previous else None
    asset = asset or pick_asset(rng, chain)
    if action in ("bridge", "sweep"):
        destination = rng.choice([c for c in chains if c != chain])
        intent.update(from_chain=chain, to_chain=destination)
        if action == "bridge":
            intent.update(asset=asset, protocol="across")
        else:
            intent["amount"] = "max"
        return intent
    intent.update(chain=chain)
    if action == "transfer":
        intent.update(asset=asset, recipient=RECIPIENT)
        return intent
    if action == "swap":
        target = rng.choice([t.symbol for t in REG.tokens(chain) if t.symbol != asset] or [asset])
        intent.update(asset=asset, to_asset=target, protocol="uniswap")
        return intent
    protocol = pick_protocol(rng, chain, action) or "aave"
    intent["protocol"] = protocol
    if action == "claim":
        intent.pop("amount")
        return intent
    if action.startswith("lp-"):
        tokens = [t.symbol for t in REG.tokens(chain)]
        pair = rng.sample(tokens, 2) if len(tokens) > 1 else tokens * 2
        intent["pool_id"] = f"{pair[0]}-{pair[1]}-{rng.choice([500, 3000])}"
        if action == "lp-collect":
            intent.pop("amount")
        elif action == "lp-add":
            intent["asset"] = pair[0]
        return intent
    intent["asset"] = asset
    return intent


def plans(rng: random.Random) -> list[list[dict[str, Any]]]:
    out = []
    for _ in range(PLANS):
        steps: list[dict[str, Any]] = []
        for position in range(rng.randint(1, 4)):
            previous = steps[-1] if steps else None
            steps.append(intent_for(rng, rng.choice(sorted(ACTIONS)), position == 0, previous))
        out.append(steps)
    return out


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings.model_copy(update={"devnet": True})) as running:
        yield running


async def test_no_combination_of_actions_chains_and_amount_forms_answers_5xx(service: Running) -> None:
    db = service.services.db
    tenant = await db.run(accounts.ensure_tenant, "combinations", "high")
    key, _ = await db.run(accounts.create_key, tenant, ("plan",))
    await db.run(accounts.grant_credits, tenant.id, 10 * PLANS, "generated plans")
    statuses: dict[int, int] = {}
    async with service.client(key) as client:
        for intents in plans(random.Random(SEED)):
            body = {"intents": intents, "wallets": [{"address": WALLET, "chain": "ethereum"}]}
            response = await client.post("/plan", json=body)
            assert response.status_code < 500, (intents, response.text)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if response.status_code >= 400:
                assert response.json()["issues"] or response.status_code in (402, 409, 503), response.text
    # The generator is not all refusals: a good share plans.
    assert statuses.get(200, 0) >= PLANS // 5, statuses
