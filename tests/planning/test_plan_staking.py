"""stake, unstake and claim over POST /plan against anvil: Lido submit, withdrawal requests split at the
queue's per-request limits, claims of finalized requests with checkpoint hints, and Aave rewards claims
over every reserve's aToken and debt token; each decoded with the official ABI and executed."""

from __future__ import annotations

import pytest

from devnet.aave_rewards import credit_rewards
from engine.planner.staking import MAX_STETH_WITHDRAWAL, MIN_STETH_WITHDRAWAL, withdrawal_chunks
from engine.registry import load_registry
from tests.planning.conftest import World, units
from tests.planning.test_plan_e2e import balance_of, decode, plan, reencode
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

REG = load_registry()
STETH = REG.deployment("ethereum", "lido", "steth")
QUEUE = REG.deployment("ethereum", "lido", "withdrawal_queue")
REWARDS_ETH = REG.deployment("ethereum", "aave", "rewards_controller")
WETH_ETH = REG.token("ethereum", "WETH").address
ETHER = 10**18


async def eth_balance(world: World, address: str) -> int:
    return await EvmClient(JsonRpcClient(world.chains["ethereum"].url, http=world.http)).get_balance(address)


def test_withdrawal_chunks_respect_the_queues_min_and_max_per_request() -> None:
    assert withdrawal_chunks(2500 * ETHER + 5 * 10**17) == [1000 * ETHER, 1000 * ETHER, units("500.5", 18)]
    assert withdrawal_chunks(1000 * ETHER) == [1000 * ETHER]
    assert withdrawal_chunks(MIN_STETH_WITHDRAWAL) == [MIN_STETH_WITHDRAWAL]
    # A rest below the minimum borrows what it lacks from the full chunk before it.
    assert withdrawal_chunks(MAX_STETH_WITHDRAWAL + 50) == [MAX_STETH_WITHDRAWAL - 50, 100]
    for total in (100, 999, 10**21 + 1, 3 * 10**21 + 99, 7 * 10**21):
        chunks = withdrawal_chunks(total)
        assert sum(chunks) == total
        assert all(MIN_STETH_WITHDRAWAL <= c <= MAX_STETH_WITHDRAWAL for c in chunks)
    with pytest.raises(ValueError, match="at least 100 wei"):
        withdrawal_chunks(99)


async def test_stake_unstake_and_claim_round_trip_through_lido(world: World) -> None:
    await world.anvil("ethereum").set_balance(world.wallet, 3000 * ETHER)
    steth_before = await balance_of(world, "ethereum", STETH, world.wallet)

    # stake: stETH.submit(referral 0) paying 2500 ETH
    status, body = await plan(
        world, [{"action": "stake", "asset": "ETH", "chain": "ethereum", "amount": 2500, "protocol": "lido"}]
    )
    assert status == 200, body
    (stake,) = body["steps"]
    assert (stake["type"], stake["action_type"], stake["protocol"]) == ("stake", "Stake", "lido")
    assert stake["to"] == STETH and stake["value"] == str(2500 * ETHER) and stake["amount"] == 2500
    assert decode("lido_steth", "submit", stake["data"]) == ("0x" + "00" * 20,)
    await world.execute(stake)
    assert await balance_of(world, "ethereum", STETH, world.wallet) - steth_before == 2500 * ETHER

    # unstake: approve the queue, then one request per 1000 stETH at most
    status, body = await plan(
        world,
        [
            {
                "action": "unstake",
                "asset": "stETH",
                "chain": "ethereum",
                "amount": "2500.5",
                "protocol": "lido",
            }
        ],
    )
    assert status == 200, body
    approve, request = body["steps"]
    assert decode("erc20", "approve", approve["data"]) == (QUEUE.lower(), units("2500.5", 18))
    assert (request["type"], request["action_type"], request["to"]) == ("unstake", "Unstake", QUEUE)
    amounts, owner = decode("lido_withdrawal_queue", "requestWithdrawals", request["data"])
    assert list(amounts) == [1000 * ETHER, 1000 * ETHER, units("500.5", 18)] and owner == world.wallet.lower()
    await world.execute(approve)
    await world.execute(request)
    assert await balance_of(world, "ethereum", STETH, world.wallet) == steth_before - units("0.5", 18)

    # claim: the owner's finalized requests, with the hints findCheckpointHints gives
    eth_before = await eth_balance(world, world.wallet)
    status, body = await plan(world, [{"action": "claim", "chain": "ethereum", "protocol": "lido"}])
    assert status == 200, body
    (claim,) = body["steps"]
    assert (claim["type"], claim["action_type"], claim["asset"]) == ("claim", "Claim", "ETH")
    assert claim["amount"] == 2500.5
    ids, hints = decode("lido_withdrawal_queue", "claimWithdrawals", claim["data"])
    assert len(ids) == 3 and list(ids) == sorted(ids) and list(hints) == [1, 1, 1]
    await world.execute(claim)
    gained = await eth_balance(world, world.wallet) - eth_before
    assert units("2500.49", 18) < gained <= units("2500.5", 18)  # less the claim's gas

    # nothing left to claim: a 400 naming the intent
    status, body = await plan(world, [{"action": "claim", "chain": "ethereum", "protocol": "lido"}])
    assert status == 400 and body["issues"][0]["field"] == "intents[0].protocol"
    assert "no finalized Lido withdrawal" in body["issues"][0]["message"]


async def test_stake_max_keeps_the_gas_reserve_and_chains_into_unstake(world: World) -> None:
    held = await eth_balance(world, world.wallet)
    status, body = await plan(
        world,
        [
            {"action": "stake", "asset": "ETH", "chain": "ethereum", "amount": "max", "protocol": "lido"},
            {
                "action": "unstake",
                "asset": "stETH",
                "chain": "ethereum",
                "amount": "chained",
                "protocol": "lido",
            },
        ],
    )
    assert status == 200, body
    stake, approve, request = body["steps"]
    assert int(stake["value"]) == held - units("0.005", 18)
    assert approve["chained"]["from_key"] == "s1" and request["chained"]["from_key"] == "s1"
    # At sign time the request is re-encoded for the stETH that actually arrived, split again.
    code, fresh = await reencode(world, request, "1500")
    assert code == 200 and fresh["ok"] is True and fresh["amount_raw"] == str(1500 * ETHER)
    amounts, owner = decode("lido_withdrawal_queue", "requestWithdrawals", fresh["data"])
    assert list(amounts) == [1000 * ETHER, 500 * ETHER] and owner == world.wallet.lower()


async def test_unstakeable_requests_are_400_naming_the_field(world: World) -> None:
    cases = [
        ({"action": "stake", "asset": "ETH", "chain": "base", "amount": 1, "protocol": "lido"}, "chain"),
        ({"action": "stake", "asset": "USDC", "chain": "ethereum", "amount": 1, "protocol": "lido"}, "asset"),
        (
            {"action": "stake", "asset": "ETH", "chain": "ethereum", "amount": 1, "protocol": "rocketpool"},
            "protocol",
        ),
        (
            {"action": "stake", "asset": "ETH", "chain": "ethereum", "amount": 10**9, "protocol": "lido"},
            "amount",
        ),
        (
            {"action": "unstake", "asset": "stETH", "chain": "ethereum", "amount": 6, "protocol": "lido"},
            "amount",
        ),
        (
            {
                "action": "unstake",
                "asset": "stETH",
                "chain": "ethereum",
                "amount": "0.00000000000000005",
                "protocol": "lido",
            },
            "amount",
        ),
        (
            {"action": "unstake", "asset": "wstETH", "chain": "ethereum", "amount": 1, "protocol": "lido"},
            "asset",
        ),
        ({"action": "claim", "chain": "ethereum", "protocol": "uniswap"}, "protocol"),
    ]
    for intent, field in cases:
        status, body = await plan(world, [intent])
        assert status == 400, (intent, body)
        assert body["issues"][0]["field"] == f"intents[0].{field}", (intent, body)


async def test_aave_claim_takes_every_reserve_token_and_pays_the_rewards(world: World) -> None:
    net = world.chains["ethereum"]
    a_usdc = net.world.a_token("USDC")
    # The devnet's RewardsController is Aave's real one; the devnet credits the accrued amount.
    await credit_rewards(
        world.anvil("ethereum"), REWARDS_ETH, world.wallet, a_usdc, WETH_ETH, units("1.5", 18)
    )
    status, body = await plan(world, [{"action": "claim", "chain": "ethereum", "protocol": "aave"}])
    assert status == 200, body
    (claim,) = body["steps"]
    assert (claim["type"], claim["action_type"], claim["protocol"]) == ("claim", "Claim", "aave")
    assert claim["to"] == REWARDS_ETH and claim["asset"] == "WETH" and claim["amount"] == 1.5
    assets, to = decode("aave_v3_rewards_controller", "claimAllRewards", claim["data"])
    prefix = "aave_atoken:"
    reserves = [role[len(prefix) :] for role in net.world.addresses if role.startswith(prefix)]
    expected = {net.world.a_token(s).lower() for s in reserves} | {
        net.world.debt_token(s).lower() for s in reserves
    }
    assert set(assets) == expected and len(assets) == len(expected) and to == world.wallet.lower()
    before = await balance_of(world, "ethereum", WETH_ETH, world.wallet)
    await world.execute(claim)
    assert await balance_of(world, "ethereum", WETH_ETH, world.wallet) - before == units("1.5", 18)

    status, body = await plan(world, [{"action": "claim", "chain": "ethereum", "protocol": "aave"}])
    assert status == 400 and body["issues"][0]["field"] == "intents[0].protocol"
    assert "no Aave v3 rewards to claim" in body["issues"][0]["message"]


async def test_claim_steps_are_signed_as_planned(world: World) -> None:
    a_usdc = world.chains["ethereum"].world.a_token("USDC")
    await credit_rewards(world.anvil("ethereum"), REWARDS_ETH, world.wallet, a_usdc, WETH_ETH, 10**18)
    status, body = await plan(world, [{"action": "claim", "chain": "ethereum", "protocol": "aave"}])
    assert status == 200, body
    code, answer = await reencode(world, body["steps"][0], "1")
    assert (
        code == 200 and answer["ok"] is False and "sign the planned calldata" in answer["unsupported_reason"]
    )
