"""What each simulated step did, raw: the balances it moved (from the executor's Observed), the allowances
and NFTs, the gas its sender pays, and the calldata that ran. A bridge fill modelled on its destination is
an effect too, marked modelled. Summing effects gives a plan's net change per chain, holder and asset."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.simulate.fills import Fill
from engine.simulate.outcomes import AllowanceSeen, EvmCall, NftMoved, Observed

# (chain, holder, token) with EVM hex in lower case and base58 as it is; token None is the native asset.
Key = tuple[str, str, str | None]


def address_key(address: str) -> str:
    """EVM hex compares case-insensitively; base58 does not."""
    return address.lower() if address.startswith("0x") else address


@dataclass(frozen=True, slots=True)
class Delta:
    """`holder`'s balance of `token` (None: native) on `chain` moved by `raw` units (signed). `logged` is
    what the logs said, `account` the Solana token account, `contract` whether the holder holds code;
    `modelled` marks a bridge fill credited on its destination, not a transaction that ran."""

    chain: str
    holder: str
    token: str | None
    raw: int
    logged: int | None = None
    account: str | None = None
    contract: bool = False
    modelled: bool = False

    @property
    def key(self) -> Key:
        return (self.chain, address_key(self.holder), None if self.token is None else address_key(self.token))


@dataclass(frozen=True, slots=True)
class StepEffect:
    """One step's effect on its chain, run from `sender`: the balances, allowances and NFTs it moved, the
    native fee its sender pays (raw), and the call that ran (EVM: calldata, value and target)."""

    chain: str
    sender: str
    deltas: tuple[Delta, ...]
    allowances: tuple[AllowanceSeen, ...] = ()
    nfts: tuple[NftMoved, ...] = ()
    fee_raw: int = 0
    call: EvmCall | None = None
    modelled: bool = False


def step_effect(
    chain: str, sender: str, observed: Observed | None, fee_raw: int, call: EvmCall | None = None
) -> StepEffect:
    """The effect of a step the executor ran and observed."""
    seen = observed or Observed()
    deltas = tuple(
        Delta(
            chain=chain,
            holder=h.holder,
            token=h.token,
            raw=h.after - h.before,
            logged=h.logged if h.logged is not None and h.logged != h.after - h.before else None,
            account=h.account,
            contract=h.holder.lower() in seen.contracts,
        )
        for h in seen.holdings
    )
    return StepEffect(chain, sender, deltas, seen.allowances, seen.nfts, fee_raw, call)


def fill_effect(fill: Fill) -> StepEffect:
    """A bridge fill landed on its destination: the recipient credited with the quoted output."""
    delta = Delta(fill.to_chain, fill.recipient, fill.token.address, fill.amount_raw, modelled=True)
    return StepEffect(fill.to_chain, fill.recipient, (delta,), modelled=True)


def net(effects: Iterable[StepEffect]) -> list[Delta]:
    """The effects summed per (chain, holder, asset), in first-seen order, those that net to zero left out.
    A sum with a modelled part is modelled; a holder with code in any part holds code."""
    found: dict[Key, Delta] = {}
    for effect in effects:
        for delta in effect.deltas:
            prior = found.get(delta.key)
            if prior is None:
                found[delta.key] = replace(delta, logged=None)
                continue
            found[delta.key] = replace(
                prior,
                raw=prior.raw + delta.raw,
                contract=prior.contract or delta.contract,
                modelled=prior.modelled or delta.modelled,
                account=prior.account if prior.account == delta.account else None,
            )
    return [delta for delta in found.values() if delta.raw != 0]


def final_allowances(effects: Iterable[StepEffect]) -> list[tuple[str, AllowanceSeen]]:
    """(chain, allowance) for every allowance the effects touched: before the first step that touched it
    and after the last."""
    found: dict[tuple[str, str, str, str], tuple[str, AllowanceSeen]] = {}
    for effect in effects:
        for seen in effect.allowances:
            key = (effect.chain, seen.token.lower(), seen.owner.lower(), seen.spender.lower())
            prior = found.get(key)
            first = prior[1].before if prior is not None else seen.before
            found[key] = (effect.chain, replace(seen, before=first))
    return list(found.values())
