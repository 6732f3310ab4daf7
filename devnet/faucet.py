"""The devnet faucet: any wallet a request names is funded with documented test balances on first sight.

Test balances (FAUCET_NATIVE and FAUCET_TOKENS, whole units): 100 of the native coin, 10,000 of each
stablecoin, 5 WETH, 5 stETH, 0.25 WBTC and 100 AAVE. Funding tops a wallet up to these amounts, never
beyond, so calling it again is harmless; and a wallet is funded only the first time this faucet sees it,
so balances a demo has spent are not silently restored mid-session.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

import trio

from devnet.rpc import AnvilRpc
from devnet.world import DevnetToken
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.multicall import BALANCE_OF_SELECTOR

# Native coin given to each new wallet, in whole units (ETH, POL, BNB: 18 decimals on every EVM chain).
FAUCET_NATIVE = Decimal(100)
NATIVE_DECIMALS = 18
# Token amounts given to each new wallet, in whole units; symbols not listed get DEFAULT_TOKEN_AMOUNT.
FAUCET_TOKENS: Mapping[str, Decimal] = {
    "USDC": Decimal(10_000),
    "USDT": Decimal(10_000),
    "DAI": Decimal(10_000),
    "WETH": Decimal(5),
    "stETH": Decimal(5),
    "WBTC": Decimal("0.25"),
    "AAVE": Decimal(100),
}
DEFAULT_TOKEN_AMOUNT = Decimal(1_000)
# Native wei the admin keeps for gas beyond what it wraps (1 ETH: far above any devnet gas bill).
ADMIN_GAS_RESERVE = 10**18


class Faucet:
    """Funds wallets on one anvil node from its admin account."""

    def __init__(self, anvil: AnvilRpc, admin: str, tokens: Mapping[str, DevnetToken]) -> None:
        self._anvil = anvil
        self._evm = EvmClient(anvil.rpc)
        self._admin = admin
        self._tokens = dict(tokens)
        self._seen: set[str] = set()
        self._lock = trio.Lock()  # one funding at a time: admin transactions must not interleave nonces

    def target(self, symbol: str) -> Decimal:
        """The whole-unit balance a new wallet gets of `symbol`."""
        return FAUCET_TOKENS.get(symbol, DEFAULT_TOKEN_AMOUNT)

    async def ensure_funded(self, wallet: str) -> bool:
        """Fund `wallet` if this faucet has not seen it yet; True when it did fund it.

        Raises RpcError/RpcUnavailable when the node fails, TransactionFailed when a funding call reverts.
        """
        key = wallet.lower()
        async with self._lock:
            if key in self._seen:
                return False
            await self.top_up(wallet)
            self._seen.add(key)
            return True

    async def top_up(self, wallet: str) -> None:
        """Raise the wallet's native and token balances to the test amounts (never lowers them)."""
        native_target = int(FAUCET_NATIVE * 10**NATIVE_DECIMALS)
        if await self._evm.get_balance(wallet) < native_target:
            await self._anvil.set_balance(wallet, native_target)
        for token in self._tokens.values():
            target = token.raw(self.target(token.symbol))
            have = int.from_bytes(
                await self._evm.eth_call(
                    token.address, BALANCE_OF_SELECTOR + bytes(12) + bytes.fromhex(wallet[2:])
                ),
                "big",
            )
            if have < target:
                await self._give(token, wallet, target - have)

    async def _give(self, token: DevnetToken, wallet: str, amount: int) -> None:
        if token.kind in ("wrapped_native", "steth"):
            # Wrapping spends the admin's native coin; on a devnet the admin is simply given more.
            admin_balance = await self._evm.get_balance(self._admin)
            if admin_balance < amount + ADMIN_GAS_RESERVE:
                await self._anvil.set_balance(self._admin, admin_balance + amount + ADMIN_GAS_RESERVE)
        if token.kind == "wrapped_native":
            await self._anvil.call_as(self._admin, token.address, "deposit()", (), amount)
        elif token.kind == "steth":
            await self._anvil.call_as(
                self._admin, token.address, "submit(address)", ("0x" + "00" * 20,), amount
            )
        else:
            await self._anvil.call_as(self._admin, token.address, "mint(address,uint256)", (wallet, amount))
            return
        await self._anvil.call_as(self._admin, token.address, "transfer(address,uint256)", (wallet, amount))
