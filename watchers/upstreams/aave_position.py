"""One user's Aave v3 position as the remedy suggestion sizes it: IPool.getUserAccountData, and for every
reserve listed in the registry the aToken, variable-debt and wallet balances, in two Multicall3 rounds."""

from __future__ import annotations

from decimal import Decimal

from eth_abi import decode, encode
from eth_utils import to_checksum_address

from engine.agents.suggest import Position, Reserve
from engine.encoders import aave_get_user_account_data, decode_aave_user_account_data
from engine.registry import Registry, UnknownToken
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.multicall import Call3, aggregate3, erc20_balances
from watchers.upstreams.protocol_reads import (
    A_TOKEN_FIELD,
    GET_RESERVE_DATA,
    GET_RESERVES_LIST,
    RESERVE_DATA_TYPE,
    VARIABLE_DEBT_FIELD,
)


async def aave_position(registry: Registry, evm: EvmClient, chain: str, protocol: str, user: str) -> Position:
    """The position of `user` on `protocol`'s pool on `chain`. Reserves the registry does not list are
    left out (they cannot be planned); raises the client's errors when the chain cannot be read."""
    pool = registry.deployment(chain, protocol, "pool")
    multicall = registry.multicall3(chain)
    account = aave_get_user_account_data(pool, user)
    data = decode_aave_user_account_data(await evm.eth_call(pool, bytes.fromhex(account.data[2:])))
    (assets,) = decode(["address[]"], await evm.eth_call(pool, GET_RESERVES_LIST))
    calls = [Call3(pool, GET_RESERVE_DATA + encode(["address"], [a]), allow_failure=False) for a in assets]
    listed: list[tuple[str, int, str, str]] = []  # symbol, decimals, aToken, debt token
    for asset, result in zip(
        assets, await aggregate3(evm, calls, multicall=multicall) if calls else [], strict=True
    ):
        try:
            token = registry.token_by_address(chain, to_checksum_address(asset))
        except UnknownToken:
            continue
        (reserve,) = decode([RESERVE_DATA_TYPE], result.return_data)
        listed.append((token.symbol, token.decimals, reserve[A_TOKEN_FIELD], reserve[VARIABLE_DEBT_FIELD]))
    pairs: list[tuple[str, str]] = []
    for symbol, _, a_token, debt_token in listed:
        pairs += [(a_token, user), (debt_token, user), (registry.token(chain, symbol).address or "", user)]
    raw = await erc20_balances(evm, pairs, multicall=multicall) if pairs else []
    reserves = []
    for index, (symbol, decimals, _, _) in enumerate(listed):
        supplied, owed, held = (Decimal(raw[3 * index + k] or 0).scaleb(-decimals) for k in range(3))
        reserves.append(Reserve(symbol, decimals, supplied, owed, held))
    return Position(
        collateral_base=Decimal(data.total_collateral_base),
        debt_base=Decimal(data.total_debt_base),
        liquidation_threshold_bps=Decimal(data.current_liquidation_threshold),
        reserves=tuple(reserves),
    )
