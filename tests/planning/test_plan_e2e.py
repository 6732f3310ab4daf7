"""POST /plan and POST /steps/reencode over HTTP against anvil: every calldata decodes with the official
ABI to exactly the intended arguments and executes on the stand-ins with the intended effect."""

from __future__ import annotations

from decimal import Decimal

import pytest
from eth_abi import encode

from devnet.rpc import TransactionFailed, calldata
from engine.encoders import MAX_UINT256, load_abi, unwrap_router_multicall
from engine.limits import SIGNING_WINDOW_S
from engine.registry import load_registry
from tests.devnet.helpers import pool_address
from tests.planning.conftest import ACROSS_FEE_PPM, World, units
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

REG = load_registry()
USDC_ETH = REG.token("ethereum", "USDC").address
USDC_BASE = REG.token("base", "USDC").address
USDT_ETH = REG.token("ethereum", "USDT").address
WETH_BASE = REG.token("base", "WETH").address
SPOKE_ETH = REG.deployment("ethereum", "across", "spoke_pool")
POOL_BASE = REG.deployment("base", "aave", "pool")
POOL_ETH = REG.deployment("ethereum", "aave", "pool")


def swap_params(data: str) -> tuple:
    """exactInputSingle's params inside the router's deadline multicall, and the deadline."""
    deadline, inner = unwrap_router_multicall(data)
    return decode("uniswap_swap_router02", "exactInputSingle", inner)[0], deadline


def decode(abi: str, function: str, data: str) -> tuple:
    fn = load_abi(abi).function(function)
    assert data[:10] == "0x" + fn.selector.hex(), f"{function} selector"
    return fn.decode_input(bytes.fromhex(data[2:]))


async def balance_of(world: World, chain: str, token: str, owner: str) -> int:
    evm = EvmClient(JsonRpcClient(world.chains[chain].url, http=world.http))
    raw = await evm.eth_call(token, calldata("balanceOf(address)", [owner]))
    return int.from_bytes(raw[:32], "big")


async def plan(world: World, intents: list[dict], **extra) -> tuple[int, dict]:
    async with world.app.client() as client:
        response = await client.post(
            "/plan",
            json={"intents": intents, "wallets": [{"address": world.wallet, "chain": "ethereum"}], **extra},
        )
    return response.status_code, response.json()


async def reencode(world: World, step: dict, amount: str) -> tuple[int, dict]:
    async with world.app.client() as client:
        response = await client.post("/steps/reencode", json={"step": step, "actual_amount": amount})
    return response.status_code, response.json()


async def test_bridge_then_chained_deposit_plus_swap_decode_and_execute(world: World) -> None:
    status, body = await plan(
        world,
        [
            {
                "action": "bridge",
                "asset": "USDC",
                "from_chain": "ethereum",
                "to_chain": "base",
                "amount": 100,
                "protocol": "across",
            },
            {"action": "deposit", "asset": "USDC", "chain": "base", "amount": "chained", "protocol": "aave"},
            {
                "action": "swap",
                "asset": "ETH",
                "to_asset": "USDC",
                "chain": "base",
                "amount": "0.1",
                "protocol": "uniswap",
            },
        ],
    )
    assert status == 200, body
    steps = body["steps"]
    assert [(s["order"], s["type"], s["chain"]) for s in steps] == [
        (1, "approve", "ethereum"),
        (2, "bridge", "ethereum"),
        (3, "approve", "base"),
        (4, "deposit", "base"),
        (5, "swap", "base"),
    ]
    fee = units("100", 6) * ACROSS_FEE_PPM // 1_000_000
    # 1. approve exactly 100 USDC to the Ethereum SpokePool
    assert steps[0]["to"] == USDC_ETH
    assert decode("erc20", "approve", steps[0]["data"]) == (SPOKE_ETH.lower(), units("100", 6))
    # 2. depositV3 with the quoted output, Base's chain id and the quote's deadlines
    bridge = steps[1]
    assert bridge["to"] == SPOKE_ETH and bridge["wait_for_bridge"] is True and bridge["amount"] == 100
    args = decode("across_spoke_pool", "depositV3", bridge["data"])
    wallet = world.wallet.lower()
    assert args[:8] == (
        wallet,
        wallet,
        USDC_ETH.lower(),
        USDC_BASE.lower(),
        units("100", 6),
        units("100", 6) - fee,
        8453,
        "0x0000000000000000000000000000000000000000",
    )
    # quoteTimestamp and fillDeadline are the suggested-fees answer's (the hub chain's latest block and two
    # hours on), never the host clock's: a SpokePool refuses a quoteTimestamp ahead of its block time.
    hub = await world.anvil("ethereum").rpc.call("eth_getBlockByNumber", ["latest", False])
    assert args[8] == int(hub["timestamp"], 16) and args[9] == args[8] + 7200 and args[11] == b""
    # 3-4. the Base side is chained to the bridge's output
    for step in steps[2:4]:
        assert step["amount"] == 0
        assert step["chained"] == {"from_key": "s2", "estimate_amount": 99.9, "min_output": 99.9}
    assert decode("aave_v3_pool", "supply", steps[3]["data"])[0] == USDC_BASE.lower()
    # 5. the swap pays ETH as value, with the 1% floor under the quote (0.1 ETH at 3000 less the 0.05% tier)
    swap = steps[4]
    params, deadline = swap_params(swap["data"])
    assert deadline == swap["route"]["quoted_at"] + SIGNING_WINDOW_S
    assert params[0] == WETH_BASE.lower() and params[1] == USDC_BASE.lower() and params[3] == wallet
    assert params[4] == 10**17 and swap["value"] == str(10**17)
    assert swap["route"]["kind"] == "uniswap-v3" and swap["route"]["slippage_bps"] == 100
    assert body["summary"]["bridge_count"] == 1 and body["summary"]["est_fee_usd"] == "unavailable"

    # Execute: the bridge leg on Ethereum moves 100 USDC into the SpokePool.
    before = await balance_of(world, "ethereum", USDC_ETH, world.wallet)
    await world.execute(steps[0])
    await world.execute(steps[1])
    assert before - await balance_of(world, "ethereum", USDC_ETH, world.wallet) == units("100", 6)
    # The relay lands 99.9 USDC on Base (the faucet funded the wallet there); re-encode the chained steps.
    a_token = world.chains["base"].world.a_token("USDC")
    for step in steps[2:4]:
        code, fresh = await reencode(world, step, "99.9")
        assert code == 200 and fresh["ok"] is True and fresh["amount_raw"] == str(units("99.9", 6))
        await world.execute({**step, "data": fresh["data"], "value": fresh["value"]})
    assert await balance_of(world, "base", a_token, world.wallet) == units("99.9", 6)
    usdc_before = await balance_of(world, "base", USDC_BASE, world.wallet)
    await world.execute(swap)
    assert await balance_of(world, "base", USDC_BASE, world.wallet) - usdc_before >= params[5] > 0


async def test_enough_allowance_skips_the_approve(world: World) -> None:
    await world.anvil("base").call_as(
        world.wallet, USDC_BASE, "approve(address,uint256)", [POOL_BASE, units("500", 6)]
    )
    status, body = await plan(
        world, [{"action": "deposit", "asset": "USDC", "chain": "base", "amount": 100, "protocol": "aave"}]
    )
    assert status == 200
    assert [s["type"] for s in body["steps"]] == ["deposit"]
    await world.execute(body["steps"][0])


async def test_usdt_allowance_is_reset_to_zero_before_a_new_approve(world: World) -> None:
    await world.anvil("ethereum").call_as(world.wallet, USDT_ETH, "approve(address,uint256)", [POOL_ETH, 5])
    status, body = await plan(
        world, [{"action": "deposit", "asset": "USDT", "chain": "ethereum", "amount": 50, "protocol": "aave"}]
    )
    assert status == 200, body
    steps = body["steps"]
    assert [s["type"] for s in steps] == ["approve", "approve", "deposit"]
    assert decode("erc20", "approve", steps[0]["data"]) == (POOL_ETH.lower(), 0)
    assert decode("erc20", "approve", steps[1]["data"]) == (POOL_ETH.lower(), units("50", 6))
    for step in steps:
        await world.execute(step)


async def test_short_balance_is_a_400_naming_the_intent(world: World) -> None:
    status, body = await plan(
        world,
        [
            {
                "action": "transfer",
                "asset": "USDC",
                "chain": "base",
                "amount": 1,
                "recipient": "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8",
            },
            {"action": "deposit", "asset": "USDC", "chain": "base", "amount": 1_000_000, "protocol": "aave"},
        ],
    )
    assert status == 400 and body["error"] == "invalid_request"
    assert body["issues"][0]["field"] == "intents[1].amount"
    assert "needs 1000000 USDC" in body["issues"][0]["message"]


async def test_max_reads_the_balance_over_json_rpc(world: World) -> None:
    held = await balance_of(world, "base", USDC_BASE, world.wallet)
    status, body = await plan(
        world, [{"action": "deposit", "asset": "USDC", "chain": "base", "amount": "max", "protocol": "aave"}]
    )
    assert status == 200, body
    supply = decode("aave_v3_pool", "supply", body["steps"][-1]["data"])
    assert supply[1] == held and Decimal(str(body["steps"][-1]["amount"])) == Decimal(held) / 10**6


async def test_repay_max_encodes_uint256_max_and_approves_only_the_balance(world: World) -> None:
    status, body = await plan(
        world, [{"action": "repay", "asset": "USDC", "chain": "base", "amount": "max", "protocol": "aave"}]
    )
    assert status == 200, body
    held = await balance_of(world, "base", USDC_BASE, world.wallet)
    assert decode("erc20", "approve", body["steps"][0]["data"]) == (POOL_BASE.lower(), held)
    assert decode("aave_v3_pool", "repay", body["steps"][1]["data"])[1] == MAX_UINT256


async def test_a_signed_swap_expires_with_its_signing_window(world: World) -> None:
    swap_intent = {"action": "swap", "asset": "USDC", "to_asset": "WETH", "chain": "base", "amount": 100}
    status, body = await plan(world, [swap_intent])
    assert status == 200, body
    approve, swap = body["steps"]
    _, deadline = swap_params(swap["data"])
    await world.execute(approve)
    base = world.anvil("base")
    before = await base.rpc.call("evm_snapshot", [])
    # Mined one second after the deadline, the router refuses it: a signature found later cannot be replayed.
    await base.rpc.call("evm_setNextBlockTimestamp", [deadline + 1])
    with pytest.raises(TransactionFailed, match="Transaction too old"):
        await world.execute(swap)
    # Within the window the same signed swap goes through.
    assert await base.rpc.call("evm_revert", [before])
    await world.execute(swap)


async def test_reencode_swap_requotes_and_answers_409_when_no_pool_can_fill(world: World) -> None:
    status, body = await plan(
        world,
        [
            {
                "action": "swap",
                "asset": "USDC",
                "to_asset": "WETH",
                "chain": "base",
                "amount": 3000,
                "protocol": "uniswap",
            }
        ],
    )
    assert status == 200, body
    swap = body["steps"][-1]
    code, fresh = await reencode(world, swap, "1500")
    assert code == 200 and fresh["ok"] and fresh["amount_raw"] == str(units("1500", 6))
    params, deadline = swap_params(fresh["data"])
    assert deadline == fresh["quoted_at"] // 1000 + SIGNING_WINDOW_S
    assert params[4] == units("1500", 6) and 0 < params[5] < 6 * 10**17  # about half the planned output
    # The pair's pools vanish (as if the route no longer existed): nothing is left to quote.
    factory = REG.deployment("base", "uniswap", "factory")
    for fee in (100, 500, 3000, 10000):
        await world.anvil("base").set_code(pool_address(factory, USDC_BASE, WETH_BASE, fee), b"")
    code, gone = await reencode(world, swap, "1500")
    assert code == 409 and gone["error"] == "route_expired"


async def test_reencode_refuses_targets_it_did_not_plan_and_solana_steps(world: World) -> None:
    status, body = await plan(
        world, [{"action": "deposit", "asset": "USDC", "chain": "base", "amount": 10, "protocol": "aave"}]
    )
    step = body["steps"][-1]
    code, answer = await reencode(world, {**step, "to": "0x000000000000000000000000000000000000dEaD"}, "5")
    assert (
        code == 200
        and answer["ok"] is False
        and "not a contract this service plans" in answer["unsupported_reason"]
    )
    code, answer = await reencode(
        world, {**step, "chain": "solana", "solana_tx": "AAAA", "solana_format": "legacy_message_base64"}, "5"
    )
    assert code == 200 and answer["ok"] is False and isinstance(answer["quoted_at"], int)


async def test_unconfigured_chain_is_503_and_credits_are_kept(world: World) -> None:
    async with world.app.client() as client:
        before = (await client.get("/usage")).json()["balance"]
        status, body = await plan(
            world,
            [{"action": "deposit", "asset": "USDC", "chain": "arbitrum", "amount": 10, "protocol": "aave"}],
        )
        after = (await client.get("/usage")).json()["balance"]
    assert (
        status == 503 and body["error"] == "service_not_configured" and "arbitrum" in body["friendly_message"]
    )
    assert after == before
    status, _ = await plan(
        world, [{"action": "deposit", "asset": "USDC", "chain": "base", "amount": 10, "protocol": "aave"}]
    )
    async with world.app.client() as client:
        assert (await client.get("/usage")).json()["balance"] == before - 5
    assert status == 200


async def test_unplannable_requests_are_400_naming_the_field(world: World) -> None:
    cases = [
        (
            {"action": "deposit", "asset": "USDC", "chain": "base", "amount": 10, "protocol": "compound"},
            "intents[0].protocol",
        ),
        (
            {
                "action": "deposit",
                "asset": "USDC",
                "chain": "base",
                "amount": 10,
                "vault_address": "0x000000000000000000000000000000000000dEaD",
            },
            "intents[0].vault_address",
        ),
        (
            {"action": "deposit", "asset": "NOPE", "chain": "base", "amount": 10, "protocol": "aave"},
            "intents[0].asset",
        ),
        (
            {
                "action": "deposit",
                "asset": "USDC",
                "chain": "base",
                "amount": "1.0000001",
                "protocol": "aave",
            },
            "intents[0].amount",
        ),
        (
            {
                "action": "bridge",
                "asset": "USDC",
                "from_chain": "solana",
                "to_chain": "base",
                "amount": 1,
                "protocol": "cctp",
            },
            "intents[0].from_chain",
        ),
    ]
    for intent, field in cases:
        status, body = await plan(world, [intent])
        assert status == 400, (intent, body)
        assert body["issues"][0]["field"] == field, (intent, body)


async def test_cctp_to_solana_burns_to_the_recipients_usdc_account(world: World) -> None:
    sol_wallet = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
    async with world.app.client() as client:
        response = await client.post(
            "/plan",
            json={
                "intents": [
                    {
                        "action": "bridge",
                        "asset": "USDC",
                        "from_chain": "ethereum",
                        "to_chain": "solana",
                        "amount": 25,
                    }
                ],
                "wallets": [
                    {"address": world.wallet, "chain": "ethereum"},
                    {"address": sol_wallet, "chain": "solana"},
                ],
            },
        )
    assert response.status_code == 200, response.text
    steps = response.json()["steps"]
    burn = steps[-1]
    assert burn["protocol"] == "cctp" and burn["to"] == REG.deployment("ethereum", "cctp", "token_messenger")
    args = decode("cctp_token_messenger_v2", "depositForBurn", burn["data"])
    from engine.encoders import cctp_solana_usdc_mint_recipient

    assert args[0] == units("25", 6) and args[1] == 5 and args[3] == USDC_ETH.lower()
    assert args[2] == cctp_solana_usdc_mint_recipient(sol_wallet, REG.token("solana", "USDC").address)
    assert args[4] == bytes(32) and args[5] == 0 and args[6] == 2000
    for step in steps:
        await world.execute(step)


def test_encode_helper_matches_eth_abi() -> None:
    assert calldata("approve(address,uint256)", [POOL_BASE, 1])[4:] == encode(
        ["address", "uint256"], [POOL_BASE, 1]
    )


async def test_bad_recipient_and_foreign_wallet_are_400_not_engine_failures(world: World) -> None:
    wrong_checksum = "0x5AAEB6053F3E94C9b9A09f33669435E7Ef1BeAed"  # EIP-55 example with its case broken
    cases = [
        (
            {
                "action": "bridge",
                "asset": "USDC",
                "from_chain": "ethereum",
                "to_chain": "base",
                "amount": 1,
                "protocol": "across",
                "recipient": wrong_checksum,
            },
            "intents[0].recipient",
        ),
        (
            {
                "action": "deposit",
                "asset": "USDC",
                "chain": "base",
                "amount": 1,
                "protocol": "aave",
                "wallet": "0x000000000000000000000000000000000000dEaD",
            },
            "intents[0].wallet",
        ),
    ]
    for intent, field in cases:
        status, body = await plan(world, [intent])
        assert status == 400 and body["issues"][0]["field"] == field, body


async def test_a_swap_keeps_the_slippage_the_user_stated(world: World) -> None:
    """A stated tolerance sets the minimum received (and the pinned route a re-quote keeps); without one the
    default 1% holds; one beyond the planner's most, or on a step that is not a swap, is a 400 naming it."""
    swap_intent = {"action": "swap", "asset": "USDC", "to_asset": "WETH", "chain": "base", "amount": 100}
    status, default = await plan(world, [swap_intent])
    assert status == 200, default
    status, bounded = await plan(world, [{**swap_intent, "slippage_bps": 30}])
    assert status == 200, bounded
    plain, tight = default["steps"][-1], bounded["steps"][-1]
    assert (plain["route"]["slippage_bps"], tight["route"]["slippage_bps"]) == (100, 30)
    plain_min = swap_params(plain["data"])[0][5]
    tight_min = swap_params(tight["data"])[0][5]
    # Same pool, same block: the quote is the same, so the minima differ only by the tolerance.
    assert tight_min * 9_900 == pytest.approx(plain_min * 9_970, rel=1e-6)
    for wrong in (
        {**swap_intent, "slippage_bps": 5_000},
        {
            "action": "bridge",
            "asset": "USDC",
            "from_chain": "ethereum",
            "to_chain": "base",
            "amount": 10,
            "protocol": "across",
            "slippage_bps": 30,
        },
    ):
        status, body = await plan(world, [wrong])
        assert status == 400, body
        assert any("slippage_bps" in issue["field"] for issue in body["issues"]), body
