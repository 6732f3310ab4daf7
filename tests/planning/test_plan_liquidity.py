"""lp-add, lp-remove and lp-collect over POST /plan against anvil: full-range mints sized at the quoted
price with both approvals, removal of a share of a position followed by its collect, and ownership checks;
each decoded with the official NonfungiblePositionManager ABI and executed on the stand-in."""

from __future__ import annotations

import time

from devnet.rpc import calldata
from engine.encoders import MAX_UINT128, UniswapPosition, decode_positions, full_range_ticks
from engine.registry import load_registry
from tests.planning.conftest import World, units
from tests.planning.test_plan_e2e import balance_of, decode, reencode
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

REG = load_registry()
NPM = REG.deployment("ethereum", "uniswap", "position_manager")
USDC = REG.token("ethereum", "USDC").address
WETH = REG.token("ethereum", "WETH").address
ETHER = 10**18


async def plan_as(world: World, wallet: str, intents: list[dict]) -> tuple[int, dict]:
    async with world.app.client() as client:
        response = await client.post(
            "/plan", json={"intents": intents, "wallets": [{"address": wallet, "chain": "ethereum"}]}
        )
    return response.status_code, response.json()


async def read_position(world: World, token_id: int) -> UniswapPosition:
    evm = EvmClient(JsonRpcClient(world.chains["ethereum"].url, http=world.http))
    return decode_positions(await evm.eth_call(NPM, calldata("positions(uint256)", [token_id])))


async def mint_position(world: World, usdc: int = 3000) -> int:
    """Plan and execute an lp-add of `usdc` USDC into USDC-WETH-500; returns the new position's token id."""
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-add",
                "asset": "USDC",
                "chain": "ethereum",
                "amount": usdc,
                "protocol": "uniswap",
                "pool_id": "USDC-WETH-500",
            }
        ],
    )
    assert status == 200, body
    for step in body["steps"]:
        await world.execute(step)
    evm = EvmClient(JsonRpcClient(world.chains["ethereum"].url, http=world.http))
    raw = await evm.eth_call(NPM, calldata("totalSupply()"))
    return int.from_bytes(raw, "big")


async def test_lp_add_deposits_both_tokens_at_the_quoted_price_over_the_full_range(world: World) -> None:
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-add",
                "asset": "USDC",
                "chain": "ethereum",
                "amount": 3000,
                "protocol": "uniswap",
                "pool_id": "USDC-WETH-500",
            }
        ],
    )
    assert status == 200, body
    approve_usdc, approve_weth, mint = body["steps"]
    assert approve_usdc["to"] == USDC and approve_weth["to"] == WETH
    assert decode("erc20", "approve", approve_usdc["data"]) == (NPM.lower(), units("3000", 6))
    spender, weth_amount = decode("erc20", "approve", approve_weth["data"])
    # 3000 USDC at 3000 USDC/WETH, as the real 0.05 % pool quotes it (its fee and small price impact).
    assert spender == NPM.lower() and abs(weth_amount - ETHER) < ETHER // 200
    assert (mint["type"], mint["action_type"], mint["protocol"], mint["to"]) == (
        "lp-add",
        "AddLiquidity",
        "uniswap",
        NPM,
    )
    assert mint["asset"] == "USDC" and mint["amount"] == 3000
    (params,) = decode("uniswap_position_manager", "mint", mint["data"])
    token0, token1, fee, lower, upper, a0, a1, min0, min1, recipient, deadline = params
    assert (token0, token1, fee) == (USDC.lower(), WETH.lower(), 500)  # USDC sorts below WETH
    assert (lower, upper) == full_range_ticks(500) == (-887270, 887270)
    assert a0 == units("3000", 6) and a1 == weth_amount
    assert min0 == a0 * 99 // 100 and min1 == a1 * 99 // 100
    assert recipient == world.wallet.lower() and abs(deadline - (time.time() + 1200)) < 120

    usdc_before = await balance_of(world, "ethereum", USDC, world.wallet)
    weth_before = await balance_of(world, "ethereum", WETH, world.wallet)
    for step in body["steps"]:
        await world.execute(step)
    # The real pool takes the pair in its current ratio: at most what was offered, at least the minimums.
    assert min0 <= usdc_before - await balance_of(world, "ethereum", USDC, world.wallet) <= a0
    assert min1 <= weth_before - await balance_of(world, "ethereum", WETH, world.wallet) <= a1
    evm = EvmClient(JsonRpcClient(world.chains["ethereum"].url, http=world.http))
    newest = int.from_bytes(await evm.eth_call(NPM, calldata("totalSupply()")), "big")
    position = await read_position(world, newest)  # the devnet's seeding positions come first
    assert position.liquidity > 0 and (position.token0, position.fee) == (USDC, 500)


async def test_lp_add_of_native_eth_wraps_it_first(world: World) -> None:
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-add",
                "asset": "ETH",
                "chain": "ethereum",
                "amount": "0.5",
                "protocol": "uniswap",
                "pool_id": "ETH-USDC-3000",
            }
        ],
    )
    assert status == 200, body
    assert [s["type"] for s in body["steps"]] == ["wrap", "approve", "approve", "lp-add"]
    (params,) = decode("uniswap_position_manager", "mint", body["steps"][-1]["data"])
    assert params[:3] == (USDC.lower(), WETH.lower(), 3000)
    # The USDC side at the 0.3 % pool's price (a probe's quote, so the thin pool's impact is not priced in).
    assert params[6] == ETHER // 2 and abs(params[5] - units("1500", 6)) <= units("0.1", 6)
    for step in body["steps"]:
        await world.execute(step)


async def test_lp_remove_takes_a_percentage_then_collects_to_the_owner(world: World) -> None:
    token_id = await mint_position(world)
    liquidity = (await read_position(world, token_id)).liquidity
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-remove",
                "chain": "ethereum",
                "amount": 50,
                "protocol": "uniswap",
                "pool_id": f"position:{token_id}",
            }
        ],
    )
    assert status == 200, body
    decrease, collect = body["steps"]
    assert (decrease["type"], decrease["action_type"]) == ("lp-remove", "RemoveLiquidity")
    assert (collect["type"], collect["action_type"]) == ("lp-collect", "CollectFees")
    assert decrease["asset"] == "USDC/WETH"
    (params,) = decode("uniswap_position_manager", "decreaseLiquidity", decrease["data"])
    assert params[:2] == (token_id, liquidity // 2)
    # Minimums: what half the position is worth at the pool's quoted price (1,500 USDC and the WETH beside
    # it), less the 1% LP slippage; never 0, which would sign away whatever a moved price leaves.
    minimum_usdc, minimum_weth = params[2], params[3]
    # (The real pool took slightly less than offered, so half the position is a little under 1,500 USDC.)
    assert units("1470", 6) <= minimum_usdc <= units("1485", 6)
    assert ETHER * 490 // 1000 <= minimum_weth <= ETHER * 495 // 1000
    assert "at least 148" in decrease["description"] and "WETH" in decrease["description"]
    (collected,) = decode("uniswap_position_manager", "collect", collect["data"])
    assert collected == (token_id, world.wallet.lower(), MAX_UINT128, MAX_UINT128)
    before = await balance_of(world, "ethereum", USDC, world.wallet)
    await world.execute(decrease)
    await world.execute(collect)
    assert (
        minimum_usdc <= await balance_of(world, "ethereum", USDC, world.wallet) - before <= units("1500", 6)
    )

    # max removes the rest; a bare token id names the position too
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-remove",
                "chain": "ethereum",
                "amount": "max",
                "protocol": "uniswap",
                "pool_id": str(token_id),
            }
        ],
    )
    assert status == 200, body
    (params,) = decode("uniswap_position_manager", "decreaseLiquidity", body["steps"][0]["data"])
    assert params[1] == liquidity - liquidity // 2
    for step in body["steps"]:
        await world.execute(step)
    assert (await read_position(world, token_id)).liquidity == 0
    code, answer = await reencode(world, body["steps"][0], "1")
    assert code == 200 and answer["ok"] is False

    # an emptied position: removing is refused, collecting is still planned
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-remove",
                "chain": "ethereum",
                "amount": "max",
                "protocol": "uniswap",
                "pool_id": str(token_id),
            }
        ],
    )
    assert status == 400 and "holds no liquidity" in body["issues"][0]["message"]
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-collect",
                "chain": "ethereum",
                "protocol": "uniswap",
                "pool_id": f"position:{token_id}",
            }
        ],
    )
    assert status == 200, body
    (collect,) = body["steps"]
    assert decode("uniswap_position_manager", "collect", collect["data"])[0][:2] == (
        token_id,
        world.wallet.lower(),
    )
    await world.execute(collect)


async def test_positions_of_another_wallet_or_unknown_ids_are_400_on_pool_id(world: World) -> None:
    token_id = await mint_position(world, usdc=100)
    stranger = world.chains["ethereum"].accounts[4]
    status, body = await plan_as(
        world,
        stranger,
        [
            {
                "action": "lp-collect",
                "chain": "ethereum",
                "protocol": "uniswap",
                "pool_id": f"position:{token_id}",
            }
        ],
    )
    assert status == 400 and body["issues"][0]["field"] == "intents[0].pool_id"
    assert f"belongs to {world.wallet}".lower() in body["issues"][0]["message"].lower()
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-remove",
                "chain": "ethereum",
                "amount": 10,
                "protocol": "uniswap",
                "pool_id": "position:999",
            }
        ],
    )
    assert status == 400 and body["issues"][0]["field"] == "intents[0].pool_id"
    assert "no Uniswap v3 position has token id 999" in body["issues"][0]["message"]


async def test_malformed_liquidity_intents_are_400_naming_the_field(world: World) -> None:
    add = {"action": "lp-add", "asset": "USDC", "chain": "ethereum", "amount": 10, "protocol": "uniswap"}
    cases = [
        ({**add, "pool_id": "USDC-WETH-500-3"}, "pool_id"),
        ({**add, "pool_id": "USDC-WETH-0.07%"}, "pool_id"),
        ({**add, "pool_id": "USDC-WETH-42"}, "pool_id"),
        ({**add, "pool_id": "USDC-USDC-500"}, "pool_id"),
        ({**add, "pool_id": "USDC-NOPE-500"}, "pool_id"),
        ({**add, "pool_id": "DAI-WETH-500"}, "asset"),
        ({**add, "pool_id": "USDC-WETH-500", "protocol": "sushiswap"}, "protocol"),
        ({**add, "pool_id": "USDC-WETH-500", "amount": "chained"}, "amount"),
        ({**add, "pool_id": "USDC-WETH-500", "amount": 10**9}, "amount"),
        (
            {
                "action": "lp-remove",
                "chain": "ethereum",
                "amount": 150,
                "protocol": "uniswap",
                "pool_id": "1",
            },
            "pool_id",
        ),
        (
            {"action": "lp-collect", "chain": "ethereum", "protocol": "uniswap", "pool_id": "position:abc"},
            "pool_id",
        ),
    ]
    for intent, field in cases:
        status, body = await plan_as(world, world.wallet, [intent])
        assert status == 400, (intent, body)
        assert body["issues"][0]["field"] == f"intents[0].{field}", (intent, body)


async def test_percentages_above_100_are_refused_on_an_existing_position(world: World) -> None:
    token_id = await mint_position(world, usdc=100)
    status, body = await plan_as(
        world,
        world.wallet,
        [
            {
                "action": "lp-remove",
                "chain": "ethereum",
                "amount": 150,
                "protocol": "uniswap",
                "pool_id": str(token_id),
            }
        ],
    )
    assert status == 400 and body["issues"][0]["field"] == "intents[0].amount"
    assert "at most 100" in body["issues"][0]["message"]


async def test_pools_named_by_their_pair_choose_the_tier_and_find_the_position(world: World) -> None:
    add = {"action": "lp-add", "asset": "USDC", "chain": "ethereum", "amount": 1000, "protocol": "uniswap"}
    status, body = await plan_as(world, world.wallet, [{**add, "pool_id": "USDC-WETH"}])
    assert status == 200, body
    mint = body["steps"][-1]
    (params,) = decode("uniswap_position_manager", "mint", mint["data"])
    # No tier named: the full-range tier that quotes the amount best (all devnet tiers price alike, so the
    # cheapest fee), and the step says how it was chosen.
    assert params[2] == 500 and "no tier was named" in mint["description"]
    for step in body["steps"]:
        await world.execute(step)
    first = await latest_position(world)

    # One position in the pair: lp-remove by pool finds it.
    remove = {"action": "lp-remove", "chain": "ethereum", "amount": "max", "protocol": "uniswap"}
    status, body = await plan_as(world, world.wallet, [{**remove, "pool_id": "WETH-USDC-0.05%"}])
    assert status == 200, body
    (params,) = decode("uniswap_position_manager", "decreaseLiquidity", body["steps"][0]["data"])
    assert params[0] == first

    # Two positions in the pair: the answer names both to choose from.
    second = await mint_position(world, usdc=500)
    collect = {"action": "lp-collect", "chain": "ethereum", "protocol": "uniswap", "pool_id": "USDC-WETH-500"}
    status, body = await plan_as(world, world.wallet, [collect])
    assert status == 400 and body["issues"][0]["field"] == "intents[0].pool_id", body
    assert f"position:{first}" in body["issues"][0]["message"]
    assert f"position:{second}" in body["issues"][0]["message"]


async def latest_position(world: World) -> int:
    evm = EvmClient(JsonRpcClient(world.chains["ethereum"].url, http=world.http))
    return int.from_bytes(await evm.eth_call(NPM, calldata("totalSupply()")), "big")
