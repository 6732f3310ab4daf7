"""Sizing a remedy's shares when its plan is built: "half my eth" becomes half of what the wallet holds
at that moment, read from the chain by the planner's own readers (the balance through route prefetch, a
debt or deposit through the Aave position reader the health agents' suggestions use), and sized exactly
by engine.agents.shares. A lending `max` (repay all, withdraw all) is checked the same way first, so a
debt or deposit that is not there is said, not planned into a revert."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from engine.agents.remedy import Remedy
from engine.agents.shares import Holding, Unsized, size_share
from engine.intents import Intent
from engine.intents.amounts import Share
from engine.planner import BalanceKey
from engine.planner import Facts as PlanFacts
from engine.planner.context import GAS_RESERVE
from engine.planner.draft import owner_key
from engine.planner.lending import LENDERS
from engine.planner.models import PlanWallet
from engine.registry import Registry, RegistryError, Token
from gateway.usecases.planning import Planning
from watchers.upstreams.aave_position import aave_position
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.errors import UpstreamError, UpstreamNotConfigured

# What a lending `max` is the whole of: a repay's whole debt, a withdrawal's whole deposit.
_WHOLE: dict[str, Share] = {
    "repay": Share(Fraction(1), "debt"),
    "withdraw": Share(Fraction(1), "deposit"),
}


@dataclass
class ShareSizer:
    """Reads the holdings a remedy's shares are of and sizes them, for the wallets its plan runs for."""

    planning: Planning
    chains: ChainClients

    async def sized(self, remedy: Remedy, wallets: tuple[PlanWallet, ...]) -> tuple[Intent, ...] | Unsized:
        """The remedy's intents with every share sized from the chain now; Unsized with the reason when
        one cannot be (nothing held, less than one unit, the gas reserve, a read that failed). Raises
        UpstreamNotConfigured when the chain has no client in this deployment (as planning does)."""
        sized: list[Intent] = []
        for index, intent in enumerate(remedy.intents):
            share = remedy.share(index) or _whole_position(intent)
            if share is None:
                sized.append(intent)
                continue
            amount = await self._size(intent, share, wallets)
            if isinstance(amount, Unsized):
                return amount
            values = intent.model_dump(mode="python", exclude_none=True)
            sized.append(Intent.model_validate({**values, "amount": amount}))
        return tuple(sized)

    async def _size(
        self, intent: Intent, share: Share, wallets: tuple[PlanWallet, ...]
    ) -> Decimal | str | Unsized:
        registry = self.planning.registry
        chain = intent.chain or intent.from_chain
        if chain is None or intent.asset is None:
            return Unsized("the remedy names no chain or asset to take a share of")
        try:
            token = registry.token(chain, registry.resolve_token(chain, intent.asset))
        except RegistryError as exc:
            return Unsized(str(exc))
        owner = _owner(registry, intent, chain, wallets)
        if isinstance(owner, Unsized):
            return owner
        try:
            if share.of == "balance":
                holding = await self._balance(chain, owner, token)
            else:
                holding = await self._position(chain, owner, token, (intent.protocol or "").lower(), share)
        except UpstreamNotConfigured:
            raise
        except UpstreamError as exc:
            return Unsized(f"the {intent.asset} holding on {chain} could not be read: {exc}")
        if isinstance(holding, Unsized):
            return holding
        return size_share(registry, share, holding, intent.asset)

    async def _balance(self, chain: str, owner: str, token: Token) -> Holding | Unsized:
        """The wallet's balance of `token`, read as the planner reads it (route prefetch)."""
        registry = self.planning.registry
        facts = PlanFacts(now=int(self.planning.clock()))
        key = BalanceKey(chain, owner_key(owner), token.symbol)
        await self.planning.prefetcher.fetch(facts, {key})
        raw = facts.values.get(key)
        if raw is None:
            why = facts.failure(key) or "no answer"
            return Unsized(f"the wallet's {token.symbol} balance on {chain} could not be read: {why}")
        kept = registry.to_raw(token, GAS_RESERVE.get(token.symbol, Decimal(0))) if token.is_native else 0
        return Holding(int(raw), token, f"on {chain}", kept_raw=kept)

    async def _position(
        self, chain: str, owner: str, token: Token, protocol: str, share: Share
    ) -> Holding | Unsized:
        """The wallet's debt or deposit of `token` on the lending market (the wrapped token for a native
        asset, as the market lends it), and for a debt what the wallet holds to repay it."""
        registry = self.planning.registry
        if token.is_native:
            token = registry.wrapped_native(chain)
        position = await aave_position(registry, self.chains.evm(chain), chain, protocol, owner.lower())
        reserve = next((r for r in position.reserves if r.symbol == token.symbol), None)
        place = f"on {protocol} on {chain}"
        if reserve is None:
            return Unsized(f"{token.symbol} is not a market of {protocol} on {chain}")
        if share.of == "debt":
            pays = registry.to_raw(token, reserve.in_wallet)
            return Holding(registry.to_raw(token, reserve.owed), token, place, pays_raw=pays)
        return Holding(registry.to_raw(token, reserve.supplied), token, place)


def _whole_position(intent: Intent) -> Share | None:
    """A lending `max` as the whole debt or deposit, so its holding is read before it is planned."""
    if intent.amount != "max" or intent.vault_address is not None:
        return None
    if (intent.protocol or "").casefold() not in LENDERS:
        return None
    return _WHOLE.get(intent.action)


def _owner(registry: Registry, intent: Intent, chain: str, wallets: tuple[PlanWallet, ...]) -> str | Unsized:
    """The wallet whose holding the share is of: the intent's `wallet`, else the one wallet of the plan
    that can act on `chain` (the planner's own rule)."""
    family = registry.chain(chain).family
    same = {owner_key(w.address): w.address for w in wallets if registry.chain(w.chain).family == family}
    if intent.wallet is not None:
        named = same.get(owner_key(intent.wallet))
        return named if named is not None else Unsized(f"{intent.wallet} is not a wallet of the agent")
    if len(same) != 1:
        return Unsized(
            f"several of the agent's wallets could act on {chain}; name one in the remedy's wallet"
        )
    return next(iter(same.values()))
