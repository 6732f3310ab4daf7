"""Effects in the words and units a person reads: token units from the registry's decimals (exact), USD
from the configured price source (null when it has none, never a guess), addresses named after the
registry's contracts, and a whole plan's net change as the sentences a wallet shows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Final

from engine.planner.labels import about
from engine.registry import Registry
from engine.simulate.assets import Asset, LendingToken, asset_of, label_of
from engine.simulate.change_models import (
    ApprovalChange,
    BalanceChange,
    Fee,
    NftChange,
    PlanChanges,
    Sentence,
    StepChanges,
)
from engine.simulate.effects import Delta, Key, StepEffect, address_key, final_allowances, net
from engine.simulate.formatting import format_usd, plain_decimal
from engine.simulate.outcomes import AllowanceSeen, NftMoved

# An allowance at or above 2**255 is an approval of "everything" (wallets show type(uint256).max, and
# tokens that decrease it on use stay far above any supply).
UNLIMITED: Final = 2**255
CENT: Final = Decimal("0.01")
MICRO_USD: Final = Decimal("0.000001")
# What the NFTs of the registry's contracts are, for the words.
NFT_NAMES: Final = {
    "Uniswap v3 position manager": "Uniswap v3 position",
    "Lido withdrawal queue": "Lido withdrawal request",
}


def units(raw: int, decimals: int | None) -> str | None:
    """`raw` in token units, exact, without exponent or trailing zeros; None without decimals."""
    if decimals is None:
        return None
    value = Decimal(raw).scaleb(-decimals).normalize()
    return format(value, "f")


def usd_text(value: Decimal | None) -> str | None:
    """A signed USD figure: cents, half up; a non-zero figure under a cent keeps six decimals."""
    if value is None:
        return None
    rounded = value.quantize(CENT, rounding=ROUND_HALF_UP)
    if rounded == 0 and value != 0:
        rounded = value.quantize(MICRO_USD, rounding=ROUND_HALF_UP)
    return format(rounded, "f")


@dataclass
class Describer:
    """Turns effects into changes. `lending` holds, per chain, the lending pools' receipt and debt tokens
    by lower-case address; `prices` USD prices by registry symbol (None: no price); `senders` the
    addresses the steps run from; `minimums` raw amounts a sender receives at least, by key (a swap's
    minimum), for the words."""

    registry: Registry
    prices: Mapping[str, Decimal | None]
    senders: frozenset[str]
    lending: Mapping[str, Mapping[str, LendingToken]] = field(default_factory=dict)
    minimums: Mapping[Key, int] = field(default_factory=dict)

    def asset(self, chain: str, token: str | None) -> Asset:
        return asset_of(self.registry, chain, token, self.lending.get(chain))

    def usd(self, asset: Asset, raw: int) -> Decimal | None:
        price = self.prices.get(asset.priced_as) if asset.priced_as else None
        if price is None or asset.decimals is None:
            return None
        return Decimal(raw).scaleb(-asset.decimals) * price * asset.sign

    def _dollars(self, asset: Asset, raw: int) -> str:
        return _price_words(self.usd(asset, raw))

    def label(self, chain: str, address: str) -> str | None:
        found = label_of(self.registry, chain, address, self.senders)
        if found is None and address.lower() in self.lending.get(chain, {}):
            return f"{self.asset(chain, address).symbol} token contract"
        return found

    def balance(self, delta: Delta, *, whole: bool = False) -> BalanceChange:
        asset = self.asset(delta.chain, delta.token)
        return BalanceChange(
            chain=delta.chain if whole else None,
            address=delta.holder,
            label=self.label(delta.chain, delta.holder),
            asset=asset.symbol,
            token=delta.token,
            amount=units(delta.raw, asset.decimals),
            amount_raw=str(delta.raw),
            usd=usd_text(self.usd(asset, delta.raw)),
            account=delta.account,
            logged=None if delta.logged is None else str(delta.logged),
            modelled=True if delta.modelled else None,
        )

    def approval(
        self, chain: str, seen: AllowanceSeen, *, whole: bool = False, left_over: bool | None = None
    ) -> ApprovalChange:
        asset = self.asset(chain, seen.token)
        return ApprovalChange(
            chain=chain if whole else None,
            token=seen.token,
            asset=asset.symbol,
            owner=seen.owner,
            spender=seen.spender,
            spender_label=self.label(chain, seen.spender),
            before=units(seen.before, asset.decimals),
            after=units(seen.after, asset.decimals),
            before_raw=str(seen.before),
            after_raw=str(seen.after),
            unlimited=seen.after >= UNLIMITED,
            left_over=left_over,
        )

    def nfts(self, chain: str, moved: NftMoved, *, whole: bool = False) -> list[NftChange]:
        collection = self.registry_name(chain, moved.token)
        name = NFT_NAMES.get(collection or "", collection or moved.token)
        changes = []
        for address, change in ((moved.sender, "sent"), (moved.recipient, "received")):
            if address_key(address) == "0x" + "00" * 20:
                continue  # minted or burned: only the holder's side is a change
            changes.append(
                NftChange(
                    chain=chain if whole else None,
                    address=address,
                    label=self.label(chain, address),
                    collection=moved.token,
                    asset=name,
                    token_id=str(moved.token_id),
                    change=change,
                )
            )
        return changes

    def registry_name(self, chain: str, address: str) -> str | None:
        return label_of(self.registry, chain, address)

    def fee(self, chain: str, raw: int, *, whole: bool = False) -> Fee:
        native = self.asset(chain, None)
        return Fee(
            chain=chain if whole else None,
            asset=native.symbol,
            amount=units(raw, native.decimals) or "0",
            amount_raw=str(raw),
            usd=usd_text(self.usd(native, raw)),
        )

    def step(self, effect: StepEffect) -> StepChanges:
        """One step's changes, the sender's balances first, and its sentences (what it did on the fork:
        no minimum is applied to one step)."""
        sender = address_key(effect.sender)
        ordered = sorted(effect.deltas, key=lambda d: address_key(d.holder) != sender)
        nfts = [n for moved in effect.nfts for n in self.nfts(effect.chain, moved)]
        approvals = [self.approval(effect.chain, seen) for seen in effect.allowances]
        said = sorted(effect.deltas, key=self._said_order)
        return StepChanges(
            balances=[self.balance(d) for d in ordered],
            nfts=nfts,
            approvals=approvals,
            gas_fee=self.fee(effect.chain, effect.fee_raw),
            sentences=self.sentences(said, approvals, nfts, {effect.chain: effect.fee_raw}, several=False),
        )

    def _said_order(self, delta: Delta) -> tuple[bool, bool, bool, bool]:
        """The senders first, what they send before what they receive, then what they owe; fills modelled
        last of each."""
        return (
            address_key(delta.holder) not in {address_key(s) for s in self.senders},
            delta.raw > 0,
            self.asset(delta.chain, delta.token).kind == "debt",
            delta.modelled,
        )

    def plan(self, effects: Sequence[StepEffect]) -> PlanChanges:
        """The net change of `effects` (steps in running order, modelled fills among them)."""
        nets = sorted(net(effects), key=self._said_order)
        approvals = [
            self.approval(chain, seen, whole=True, left_over=seen.after > 0)
            for chain, seen in final_allowances(effects)
        ]
        nfts = [n for e in effects for moved in e.nfts for n in self.nfts(e.chain, moved, whole=True)]
        fees: dict[str, int] = {}
        for effect in effects:
            if not effect.modelled:
                fees[effect.chain] = fees.get(effect.chain, 0) + effect.fee_raw
        chains = list(dict.fromkeys(e.chain for e in effects))
        sentences = self.sentences(
            nets, approvals, nfts, fees, several=len(chains) > 1, minimums=self.minimums
        )
        return PlanChanges(
            balances=[self.balance(d, whole=True) for d in nets],
            nfts=nfts,
            approvals=approvals,
            gas_fees=[self.fee(chain, raw, whole=True) for chain, raw in fees.items()],
            wording=[s.text for s in sentences],
            sentences=sentences,
        )

    def sentences(
        self,
        deltas: Sequence[Delta],
        approvals: Sequence[ApprovalChange],
        nfts: Sequence[NftChange],
        fees: Mapping[str, int],
        *,
        several: bool,
        minimums: Mapping[Key, int] | None = None,
    ) -> list[Sentence]:
        """The change as a wallet says it: what you send and receive (at least a swap's minimum, from
        `minimums`), what you owe, what others (not contracts) receive, your NFTs, what each spender may
        still pull, the gas. Each sentence names its chain when `several` chains are involved."""
        senders = {address_key(s) for s in self.senders}
        lines: list[Sentence] = []
        for delta in deltas:
            chain = delta.chain if several else None
            where = f" on {delta.chain}" if several else ""
            asset = self.asset(delta.chain, delta.token)
            mine = address_key(delta.holder) in senders
            size = abs(delta.raw)
            if asset.kind == "debt":
                if mine:
                    owed = replace(asset, symbol=asset.priced_as or asset.symbol)
                    more = delta.raw > 0
                    lines.append(
                        Sentence(
                            kind="owe_more" if more else "owe_less",
                            text=f"you owe {_amount(size, owed)} {'more' if more else 'less'}{where}",
                            asset=owed.symbol,
                            chain=chain,
                            address=delta.holder,
                            **self._figures(owed, size, priced=False),
                        )
                    )
                continue
            fill = " when the bridge fills (modelled)" if delta.modelled else ""
            if mine and delta.raw < 0:
                lines.append(
                    Sentence(
                        kind="send",
                        text=f"you send {_amount(size, asset)}{self._dollars(asset, size)}{where}",
                        asset=asset.symbol,
                        chain=chain,
                        address=delta.holder,
                        **self._figures(asset, size),
                    )
                )
            elif mine:
                least = (minimums or {}).get(delta.key)
                shown = least if least is not None else delta.raw
                said = f"at least {_amount(shown, asset)}" if least is not None else _amount(shown, asset)
                lines.append(
                    Sentence(
                        kind="receive",
                        text=f"you receive {said}{self._dollars(asset, shown)}{where}{fill}",
                        asset=asset.symbol,
                        chain=chain,
                        address=delta.holder,
                        at_least=True if least is not None else None,
                        modelled=True if delta.modelled else None,
                        **self._figures(asset, shown),
                    )
                )
            elif delta.raw > 0 and not delta.contract:
                lines.append(
                    Sentence(
                        kind="gain",
                        text=f"{delta.holder} receives {_amount(size, asset)}{where}{fill}",
                        asset=asset.symbol,
                        chain=chain,
                        address=delta.holder,
                        modelled=True if delta.modelled else None,
                        **self._figures(asset, size, priced=False),
                    )
                )
        for nft in nfts:
            if address_key(nft.address) in senders:
                received = nft.change == "received"
                lines.append(
                    Sentence(
                        kind="receive" if received else "send",
                        text=f"you {'receive' if received else 'give up'} {nft.asset} #{nft.token_id}",
                        asset=nft.asset,
                        address=nft.address,
                        token_id=nft.token_id,
                    )
                )
        for approval in approvals:
            spender = approval.spender_label or approval.spender
            after = "an unlimited amount of" if approval.unlimited else (approval.after or approval.after_raw)
            lines.append(
                Sentence(
                    kind="allowed",
                    text=f"{spender} is allowed {after} {approval.asset} after this",
                    asset=approval.asset,
                    address=approval.owner,
                    amount=approval.after,
                    amount_raw=approval.after_raw,
                    spender=approval.spender,
                    spender_label=approval.spender_label,
                    unlimited=approval.unlimited,
                )
            )
        for chain, raw in fees.items():
            fee = self.fee(chain, raw)
            price = f" (${fee.usd})" if fee.usd is not None else " (no USD price)"
            where = f" on {chain}" if several else ""
            lines.append(
                Sentence(
                    kind="gas",
                    text=f"you pay about {about(Decimal(fee.amount))} {fee.asset}{price} in gas{where}",
                    asset=fee.asset,
                    chain=chain if several else None,
                    amount=fee.amount,
                    amount_raw=fee.amount_raw,
                    usd=fee.usd,
                )
            )
        return lines

    def _figures(self, asset: Asset, raw: int, *, priced: bool = True) -> dict[str, str | None]:
        """A sentence's unsigned amount in token units (null without decimals), raw, and in USD."""
        usd = self.usd(asset, raw) if priced else None
        return {
            "amount": units(raw, asset.decimals),
            "amount_raw": str(raw),
            "usd": usd_text(abs(usd)) if usd is not None else None,
        }


def _price_words(value: Decimal | None) -> str:
    """` ($99.94)` for a priced amount, nothing without a price."""
    if value is None:
        return ""
    return f" ({format_usd(abs(value))})"


def _amount(raw: int, asset: Asset) -> str:
    shown = units(raw, asset.decimals)
    if shown is None:
        return f"{raw} raw units of token {asset.symbol}"
    return f"{plain_decimal(Decimal(shown))} {asset.symbol}"
