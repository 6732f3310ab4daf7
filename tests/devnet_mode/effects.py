"""What each action must have done, read back from the chains' state after its steps ran: token balances
(balanceOf), allowances, Aave's aToken and variable-debt balances (addresses from the pool's own
getReserveData), Uniswap v3 positions (the position manager's positions()), Lido's withdrawal requests and
native balances net of the gas the receipts paid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from eth_abi import decode

from devnet.rpc import calldata
from engine.registry import Registry
from watchers.upstreams.evm import EvmClient

DEAD = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
# Aave's balances are scaled by an index that moves every block: a few base units either way is interest,
# not a wrong amount.
INDEX_SLACK = 10
# Lido's stETH moves by shares: transfers and mints can land 1-2 wei off (registry note on stETH).
STETH_SLACK = 2


@dataclass
class Ledger:
    """Readings of one moment, by name, in base units (wei, token units)."""

    values: dict[str, int] = field(default_factory=dict)

    def delta(self, before: Ledger, name: str) -> int:
        return self.values[name] - before.values[name]


class Reader:
    """Reads the quantities the actions change, on the devnet's chains."""

    def __init__(self, registry: Registry, clients: dict[str, EvmClient], wallet: str) -> None:
        self.registry, self.clients, self.wallet = registry, clients, wallet
        self._reserve: dict[tuple[str, str], tuple[str, str]] = {}

    async def _uint(self, chain: str, to: str, signature: str, args: Sequence[Any] = ()) -> int:
        raw = await self.clients[chain].eth_call(to, calldata(signature, args))
        return int.from_bytes(raw[:32], "big")

    async def balance(self, chain: str, token: str, holder: str | None = None) -> int:
        address = self.registry.token(chain, token).address
        return await self._uint(chain, address, "balanceOf(address)", [holder or self.wallet])

    async def native(self, chain: str) -> int:
        return await self.clients[chain].get_balance(self.wallet)

    async def aave_tokens(self, chain: str, token: str) -> tuple[str, str]:
        """The reserve's aToken and variable debt token, as the pool says (ReserveData words 8 and 10)."""
        key = (chain, token)
        if key not in self._reserve:
            pool = self.registry.deployment(chain, "aave", "pool")
            asset = self.registry.token(chain, token).address
            raw = await self.clients[chain].eth_call(pool, calldata("getReserveData(address)", [asset]))
            words = [raw[i * 32 : (i + 1) * 32] for i in range(11)]
            self._reserve[key] = ("0x" + words[8][12:].hex(), "0x" + words[10][12:].hex())
        return self._reserve[key]

    async def positions(self, chain: str) -> list[tuple[int, int, int]]:
        """(liquidity, tokensOwed0, tokensOwed1) of each Uniswap v3 position the wallet holds."""
        manager = self.registry.deployment(chain, "uniswap", "position_manager")
        count = await self._uint(chain, manager, "balanceOf(address)", [self.wallet])
        found = []
        for index in range(count):
            token_id = await self._uint(
                chain, manager, "tokenOfOwnerByIndex(address,uint256)", [self.wallet, index]
            )
            raw = await self.clients[chain].eth_call(manager, calldata("positions(uint256)", [token_id]))
            fields = decode(
                ["uint96", "address", "address", "address", "uint24", "int24", "int24", "uint128"]
                + ["uint256", "uint256", "uint128", "uint128"],
                raw,
            )
            found.append((int(fields[7]), int(fields[10]), int(fields[11])))
        return found

    async def read(self) -> Ledger:
        base, eth = "base", "ethereum"
        a_usdc, debt_usdc = await self.aave_tokens(base, "USDC")
        aave_pool = self.registry.deployment(base, "aave", "pool")
        usdc_base = self.registry.token(base, "USDC").address
        queue = self.registry.deployment(eth, "lido", "withdrawal_queue")
        spoke = self.registry.deployment(eth, "across", "spoke_pool")
        positions = await self.positions(base)
        requests = await self.clients[eth].eth_call(
            queue, calldata("getWithdrawalRequests(address)", [self.wallet])
        )
        (request_ids,) = decode(["uint256[]"], requests)
        values = {
            "base.USDC": await self.balance(base, "USDC"),
            "base.aUSDC": await self._uint(base, a_usdc, "balanceOf(address)", [self.wallet]),
            "base.debtUSDC": await self._uint(base, debt_usdc, "balanceOf(address)", [self.wallet]),
            "base.allowance": await self._uint(
                base, usdc_base, "allowance(address,address)", [self.wallet, aave_pool]
            ),
            "base.ETH": await self.native(base),
            "base.dead.USDC": await self.balance(base, "USDC", DEAD),
            "base.positions": len(positions),
            "base.liquidity": sum(liquidity for liquidity, _, _ in positions),
            "base.owed": sum(owed0 + owed1 for _, owed0, owed1 in positions),
            "ethereum.ETH": await self.native(eth),
            "ethereum.USDC": await self.balance(eth, "USDC"),
            "ethereum.stETH": await self.balance(eth, "stETH"),
            "ethereum.requests": len(request_ids),
            "ethereum.spoke.USDC": await self.balance(eth, "USDC", spoke),
        }
        for symbol in ("USDC", "USDT", "DAI", "WETH", "WBTC"):
            if any(t.symbol == symbol for t in self.registry.tokens("optimism")):
                values[f"optimism.{symbol}"] = await self.balance("optimism", symbol)
        return Ledger(values)


def units(registry: Registry, chain: str, symbol: str, amount: str) -> int:
    return registry.to_raw(registry.token(chain, symbol), Decimal(amount))


def check(action: str, before: Ledger, after: Ledger, gas: dict[str, int], registry: Registry) -> list[str]:
    """What is wrong with `after` for `action` (empty when it did what the prompt said); `gas` is the
    native paid per chain by the action's transactions."""
    usdc = lambda amount: units(registry, "base", "USDC", amount)  # noqa: E731
    eth = lambda amount: units(registry, "ethereum", "ETH", amount)  # noqa: E731
    d = lambda name: after.delta(before, name)  # noqa: E731
    wrong: list[str] = []

    def expect(name: str, value: int, want: int, slack: int = 0) -> None:
        if abs(value - want) > slack:
            wrong.append(f"{name}: changed by {value}, expected {want} (+-{slack})")

    def between(name: str, value: int, low: int, high: int) -> None:
        if not low <= value <= high:
            wrong.append(f"{name}: changed by {value}, expected within [{low}, {high}]")

    if action == "deposit":
        expect("base.USDC", d("base.USDC"), -usdc("1000"))
        expect("base.aUSDC", d("base.aUSDC"), usdc("1000"), INDEX_SLACK)
    elif action == "approve":
        expect("base.allowance", after.values["base.allowance"], usdc("100"))
    elif action == "borrow":
        expect("base.USDC", d("base.USDC"), usdc("100"))
        expect("base.debtUSDC", d("base.debtUSDC"), usdc("100"), INDEX_SLACK)
    elif action == "repay":
        expect("base.USDC", d("base.USDC"), -usdc("50"))
        expect("base.debtUSDC", d("base.debtUSDC"), -usdc("50"), INDEX_SLACK)
    elif action == "withdraw":
        expect("base.USDC", d("base.USDC"), usdc("200"))
        expect("base.aUSDC", d("base.aUSDC"), -usdc("200"), INDEX_SLACK)
    elif action == "swap":
        expect("base.ETH", d("base.ETH") + gas.get("base", 0), -eth("0.1"))
        # 0.1 ETH at the devnet's 3,000 USD, less the pool's fee and a little impact.
        between("base.USDC", d("base.USDC"), usdc("290"), usdc("300"))
    elif action == "transfer":
        expect("base.USDC", d("base.USDC"), -usdc("10"))
        expect("base.dead.USDC", d("base.dead.USDC"), usdc("10"))
    elif action == "lp-add":
        expect("base.positions", d("base.positions"), 1)
        if d("base.liquidity") <= 0:
            wrong.append("base.liquidity: the new position holds no liquidity")
        # At most the 1,000 USDC said, at least what the 1 % slippage floor lets the pool take.
        between("base.USDC", -d("base.USDC"), usdc("990"), usdc("1000"))
    elif action == "lp-collect":
        expect("base.owed", after.values["base.owed"], 0)
    elif action == "lp-remove":
        expect("base.liquidity", after.values["base.liquidity"], 0)
        between("base.USDC", d("base.USDC"), usdc("985"), usdc("1000"))
    elif action == "stake":
        expect("ethereum.ETH", d("ethereum.ETH") + gas.get("ethereum", 0), -eth("1"))
        expect("ethereum.stETH", d("ethereum.stETH"), eth("1"), STETH_SLACK)
    elif action == "unstake":
        expect("ethereum.stETH", d("ethereum.stETH"), -eth("0.5"), STETH_SLACK)
        expect("ethereum.requests", d("ethereum.requests"), 1)
    elif action == "claim":
        expect("ethereum.ETH", d("ethereum.ETH") + gas.get("ethereum", 0), eth("0.5"), STETH_SLACK)
    elif action == "bridge":
        expect("ethereum.USDC", d("ethereum.USDC"), -units(registry, "ethereum", "USDC", "100"))
        expect("ethereum.spoke.USDC", d("ethereum.spoke.USDC"), units(registry, "ethereum", "USDC", "100"))
    elif action == "sweep":
        # Across carries what base also lists; the rest stays (the plan's last bridge step says so).
        landing = {token.symbol for token in registry.tokens("base")}
        for name, value in after.values.items():
            if not name.startswith("optimism."):
                continue
            if name.removeprefix("optimism.") in landing:
                expect(name, value, 0)
            else:
                expect(name, d(name), 0)
    else:
        wrong.append(f"no expected effect written for {action}")
    return wrong
