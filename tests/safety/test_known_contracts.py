"""Well-known contracts the registry does not plan with (known_contracts.json: routers, Permit2, lending
pools, the rollups' L1 bridges) are refused as payees on every path, named for what they are; on a chain
where the address holds no such contract it is refused too, since nobody holds a key for it there."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.encoders import erc20_transfer
from engine.intents import IntentParser, IntentRequest, RegistryUniverse
from engine.planner import Facts, PlanError, ReencodeRequest, Step
from engine.planner.reencode import reencode_step
from engine.registry import KnownContract, load_registry
from engine.registry.recipients import recipient_problem
from gateway.config import Settings
from tests.safety.test_recipients import FRIEND, NOW, intents_paying, plan
from tests.support.server import Running, running_service

REG = load_registry()
KNOWN = REG.known_contracts()
SWAP_ROUTER_V1 = "0xE592427A0AEce92De3Edee1F18E0157C05861564"
PERMIT2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3"
# Every (contract, chain it is listed on), and one EVM chain it is not listed on where there is one.
LISTED = [(k, chain) for k in KNOWN for chain in k.chains]
UNLISTED = [
    (k, next(c.slug for c in REG.evm_chains() if c.slug not in k.chains))
    for k in KNOWN
    if len(k.chains) < len(REG.evm_chains())
]


def _id(case: tuple[KnownContract, str]) -> str:
    return f"{case[0].name} {case[0].address} on {case[1]}"


def test_the_list_covers_what_a_person_pastes_by_mistake() -> None:
    names = {k.name for k in KNOWN}
    for wanted in (
        "Uniswap's v3 SwapRouter",
        "Uniswap's UniversalRouter (v2.0)",
        "Permit2, Uniswap's token approval contract",
        "Uniswap's v2 Router02",
        "Uniswap's v2 Factory",
        "1inch's Aggregation Router v5",
        "1inch's Aggregation Router v6",
        "the 0x Exchange Proxy",
        "Aave v2's LendingPool",
        "Compound v3's USDC market (cUSDCv3 Comet)",
        "Arbitrum One's L1 gateway router",
        "Arbitrum One's delayed Inbox",
        "OP Mainnet's L1StandardBridge",
        "OP Mainnet's OptimismPortal",
        "Base's L1StandardBridge",
        "Base's OptimismPortal",
        "Polygon PoS bridge's RootChainManager",
        "Balancer v2's Vault (it holds every v2 pool's tokens)",
    ):
        assert wanted in names, wanted
    assert {c.slug for c in REG.evm_chains()} == {c for k in KNOWN for c in k.chains}


@pytest.mark.parametrize("case", LISTED, ids=_id)
def test_a_known_contract_is_refused_on_its_chain_named_for_what_it_is(
    case: tuple[KnownContract, str],
) -> None:
    known, chain = case
    for written in (known.address, known.address.lower()):
        problem = recipient_problem(REG, "evm", written, chain)
        assert problem is not None
        assert problem.startswith(f"{written} is {known.name} on {chain}: a contract keeps what is sent")


def test_the_reason_reads_as_the_policy_says() -> None:
    assert recipient_problem(REG, "evm", SWAP_ROUTER_V1, "ethereum") == (
        f"{SWAP_ROUTER_V1} is Uniswap's v3 SwapRouter on ethereum: a contract keeps what is sent to it "
        "directly, so the tokens would be lost"
    )


@pytest.mark.parametrize("case", UNLISTED, ids=_id)
def test_a_known_address_is_refused_on_a_chain_it_is_not_listed_for(case: tuple[KnownContract, str]) -> None:
    known, chain = case
    problem = recipient_problem(REG, "evm", known.address, chain)
    assert problem is not None and known.address in problem and known.name in problem
    assert f"nobody holds a key for that address on {chain}" in problem


@pytest.mark.parametrize("known", KNOWN, ids=lambda k: f"{k.name} {k.address}")
def test_without_a_chain_the_reason_names_every_chain_it_is_on(known: KnownContract) -> None:
    problem = recipient_problem(REG, "evm", known.address)
    assert problem is not None and known.name in problem
    assert all(chain in problem for chain in known.chains)


def test_an_ordinary_address_is_still_paid_on_every_chain() -> None:
    for chain in REG.evm_chains():
        assert recipient_problem(REG, "evm", FRIEND, chain.slug) is None
        assert recipient_problem(REG, "evm", FRIEND.lower(), chain.slug) is None


# ------------------------------------------------------------------------------- the paths that pay


@pytest.mark.parametrize("case", LISTED, ids=_id)
def test_no_plan_transfers_to_a_known_contract(case: tuple[KnownContract, str]) -> None:
    known, chain = case
    transfer = {
        "action": "transfer",
        "asset": "USDC",
        "chain": chain,
        "amount": 10,
        "recipient": known.address,
    }
    with pytest.raises(PlanError) as caught:
        plan([transfer])
    assert caught.value.field == "intents[0].recipient"
    assert f"{known.address} is {known.name} on {chain}" in caught.value.message


def test_a_bridge_to_a_known_contract_is_refused_for_the_receiving_chain() -> None:
    with pytest.raises(PlanError) as caught:
        plan(intents_paying(SWAP_ROUTER_V1)["across"])  # ethereum to base, where it is not deployed
    assert caught.value.field == "intents[0].recipient"
    assert "nobody holds a key for that address on base" in caught.value.message


def test_a_plan_pays_a_person_beside_the_known_list() -> None:
    transfer = {"action": "transfer", "asset": "USDC", "chain": "ethereum", "amount": 10, "recipient": FRIEND}
    steps = plan([transfer]).steps
    assert [s.type for s in steps] == ["transfer"]


def test_a_step_edited_to_pay_a_known_contract_is_not_reencoded() -> None:
    usdc = REG.token("base", "USDC").address or ""
    edited = Step(
        order=1,
        type="transfer",
        chain="base",
        protocol="token",
        action_type="Transfer",
        asset="USDC",
        amount=1,
        description="edited",
        to=usdc,
        data=erc20_transfer(usdc, PERMIT2, 1).data,
        value="0",
    )
    with pytest.raises(PlanError) as caught:
        reencode_step(REG, ReencodeRequest(step=edited, actual_amount=1), Facts(now=NOW))
    assert caught.value.field == "step.data" and "Permit2" in caught.value.message


def test_the_reader_refuses_a_known_contract_as_the_recipient() -> None:
    parser = IntentParser(RegistryUniverse(REG))
    request = IntentRequest.model_validate(
        {
            "prompt": f"send 300 usdc to {SWAP_ROUTER_V1} on ethereum",
            "wallets": [{"address": FRIEND, "chain": "ethereum"}],
        }
    )
    answer = parser.parse(request)
    assert not answer.intents
    assert SWAP_ROUTER_V1.lower() in answer.reasoning.lower() and "SwapRouter" in answer.reasoning


# ---------------------------------------------------------------------------------- through the app


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings) as running:
        yield running


async def test_plan_over_http_refuses_a_transfer_to_the_v3_swap_router(app: Running) -> None:
    body = {
        "intents": [
            {
                "action": "transfer",
                "asset": "USDC",
                "chain": "ethereum",
                "amount": 10,
                "recipient": SWAP_ROUTER_V1,
            }
        ],
        "wallets": [{"address": FRIEND, "chain": "ethereum"}],
    }
    status, answer = await app.post_json("/plan", body)
    assert status == 400, answer
    issues = {issue["field"]: issue["message"] for issue in answer["issues"]}
    assert issues["intents[0].recipient"].startswith(
        f"{SWAP_ROUTER_V1} is Uniswap's v3 SwapRouter on ethereum: a contract keeps what is sent"
    )


async def test_intent_over_http_answers_no_intent_paying_the_v3_swap_router(app: Running) -> None:
    body = {
        "prompt": f"send 300 usdc to {SWAP_ROUTER_V1} on ethereum",
        "wallets": [{"address": FRIEND, "chain": "ethereum"}],
    }
    status, answer = await app.post_json("/intent", body)
    assert status == 200, answer
    assert answer["intents"] == []
    assert SWAP_ROUTER_V1.lower() in answer["reasoning"].lower() and "SwapRouter" in answer["reasoning"]
