"""One intent being planned: its resolved wallet, tokens and amount, and the helpers every action uses
(pulling tokens with approve insertion, feasibility, chained amounts)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from engine.encoders import MAX_UINT256, erc20_approve
from engine.intents.models import Intent
from engine.planner.draft import Draft, Output, StepDraft, owner_key
from engine.planner.errors import PlanError
from engine.planner.labels import checksummed, is_evm_address, plain
from engine.planner.models import Chained, PlanWallet
from engine.registry import Registry, RegistryError, Token
from engine.registry.addresses import is_valid_address
from engine.registry.recipients import spender_problem

# Native balance kept back by `max` and sweeps of a native asset, so the wallet can still pay gas
# (our default; 0.005 ETH-equivalent covers a few L1 transactions at 30 gwei).
GAS_RESERVE: dict[str, Decimal] = {"ETH": Decimal("0.005"), "POL": Decimal("1"), "BNB": Decimal("0.005")}


@dataclass
class Amount:
    """A resolved amount: raw units, and the chained reference when it is sized by an earlier step."""

    raw: int
    chained: Chained | None = None
    is_max: bool = False


class IntentContext:
    def __init__(self, index: int, intent: Intent, wallets: tuple[PlanWallet, ...], draft: Draft) -> None:
        self.index = index
        self.intent = intent
        self.wallets = wallets
        self.draft = draft
        self.registry: Registry = draft.registry

    # --- naming -------------------------------------------------------------------------------
    def field(self, name: str) -> str:
        return f"intents[{self.index}].{name}"

    def fail(self, name: str, message: str) -> PlanError:
        return PlanError(self.field(name), message)

    def require(self, name: str) -> str:
        value = getattr(self.intent, name)
        if value is None:
            raise self.fail(name, f"is required for {self.intent.action}")
        return str(value)

    # --- chains, wallets, tokens --------------------------------------------------------------
    def chain(self, name: str = "chain") -> str:
        slug = self.require(name)
        try:
            return self.registry.chain(slug).slug
        except RegistryError:
            raise self.fail(name, f"unknown chain {slug!r}") from None

    def wallet_on(self, chain: str, name: str = "chain") -> str:
        """The sender on `chain`: the intent's `wallet`, else the one request wallet of that chain's family
        (an EVM address acts on every EVM chain). EVM addresses come back checksummed. Raises PlanError when
        none or several could act."""
        family = self.registry.chain(chain).family
        same_family = [w for w in self.wallets if self.registry.chain(w.chain).family == family]
        if self.intent.wallet is not None:
            named = [w for w in same_family if owner_key(w.address) == owner_key(self.intent.wallet)]
            if not named:
                raise self.fail("wallet", f"is not one of the request's wallets that can act on {chain}")
            return self._canonical(family, named[0].address)
        pool = [w for w in same_family if w.chain == chain] or same_family
        addresses = {owner_key(w.address): w.address for w in pool}
        if not addresses:
            raise self.fail(name, f"no wallet in the request can act on {chain}")
        if len(addresses) > 1:
            raise self.fail("wallet", f"several wallets could act on {chain}; name one in `wallet`")
        return self._canonical(family, next(iter(addresses.values())))

    def recipient_on(self, chain: str) -> str:
        """Who receives on `chain`: the intent's `recipient` (validated for the chain's family), else the
        sender's own wallet there."""
        if self.intent.recipient is None:
            return self.wallet_on(chain, "to_chain")
        family = self.registry.chain(chain).family
        raw = self.intent.recipient
        valid = is_evm_address(raw) if family == "evm" else is_valid_address(family, raw)
        if not valid:
            raise self.fail("recipient", f"is not a valid {family} address for {chain}")
        return self._canonical(family, raw)

    @staticmethod
    def _canonical(family: str, address: str) -> str:
        return checksummed(address) if family == "evm" else address

    def token(self, chain: str, name: str = "asset", symbol: str | None = None) -> Token:
        wanted = symbol if symbol is not None else self.require(name)
        try:
            return self.registry.token(chain, self.registry.resolve_token(chain, wanted))
        except RegistryError:
            raise self.fail(name, f"{wanted} is not a known token on {chain}") from None

    # --- amounts ------------------------------------------------------------------------------
    def amount(self, chain: str, owner: str, token: Token) -> Amount:
        """The intent's amount in raw units; `max` reads the balance, `chained` the previous output."""
        amount = self.intent.amount
        if amount is None:
            raise self.fail("amount", f"is required for {self.intent.action}")
        if amount == "chained":
            return self.chained(chain, token)
        if amount == "max":
            return Amount(self.spendable(chain, owner, token), is_max=True)
        try:
            raw = self.registry.to_raw(token, Decimal(amount))
        except RegistryError as exc:
            raise self.fail("amount", str(exc)) from None
        return Amount(raw)

    def sized(self, raw: int) -> bool:
        """Whether an amount of `raw` units is known yet. A `max` whose balance, or a `chained` whose
        earlier output, is still being fetched is 0 for this round: nothing is quoted for it until the next.
        Raises PlanError on `amount` when it is 0 with nothing left to fetch (a plan never quotes, moves or
        bridges nothing)."""
        if raw > 0:
            return True
        if self.draft.facts.missing:
            return False
        raise self.fail(
            "amount", "comes to 0 here (the balance or the earlier step's output it is sized from)"
        )

    def spendable(self, chain: str, owner: str, token: Token) -> int:
        balance = self.draft.balance(chain, owner, token)
        if balance is None:
            return 0  # unknown yet: the balance is fetched and the plan runs again
        if token.is_native:
            balance -= self.registry.to_raw(token, GAS_RESERVE.get(token.symbol, Decimal(0)))
        if balance <= 0:
            raise self.fail("amount", f"{owner} holds no spendable {token.symbol} on {chain}")
        return balance

    def chained(self, chain: str, token: Token) -> Amount:
        previous = self.draft.outputs.get(self.index - 1)
        if previous is None:
            raise self.fail("amount", "`chained` needs an earlier intent whose output it uses")
        if previous.token.chain != chain or previous.token.symbol != token.symbol:
            raise self.fail(
                "amount",
                f"`chained` uses the previous output ({previous.token.symbol} on {previous.token.chain}), "
                f"not {token.symbol} on {chain}",
            )
        estimate = plain(self.registry.from_raw(token, previous.estimate_raw))
        minimum = plain(self.registry.from_raw(token, previous.min_raw))
        return Amount(
            previous.estimate_raw,
            Chained(from_key=previous.step_key, estimate_amount=estimate, min_output=minimum),
        )

    def check_funds(self, chain: str, owner: str, token: Token, amount: Amount) -> None:
        """Feasibility: a non-chained spend must fit the balance the plan leaves at that point."""
        if amount.chained is None:
            balance = self.draft.balance(chain, owner, token)
            if balance is not None and balance < amount.raw:
                have = plain(self.registry.from_raw(token, max(balance, 0)))
                need = plain(self.registry.from_raw(token, amount.raw))
                raise self.fail("amount", f"needs {need} {token.symbol} on {chain}; {owner} has {have}")
            self.draft.spend(chain, owner, token, amount.raw)

    def decimal(self, token: Token, amount: Amount) -> Decimal:
        return Decimal(0) if amount.chained else plain(self.registry.from_raw(token, amount.raw))

    # --- steps --------------------------------------------------------------------------------
    def pull(self, chain: str, owner: str, token: Token, spender: str, amount: Amount, protocol: str) -> None:
        """Make sure `spender` may pull `amount` of `token` from `owner`: insert approve steps when the
        allowance read over JSON-RPC (or left by earlier steps) is short; reset to zero first for tokens
        whose approve refuses a non-zero to non-zero change (USDT on Ethereum)."""
        if token.is_native or token.address is None:
            return
        current = self.draft.allowance(chain, owner, token.address, spender)
        if current is None:
            current = 0  # unknown yet: fetched and planned again
        needed = MAX_UINT256 if amount.raw == MAX_UINT256 else amount.raw
        if amount.chained is None and current >= needed:
            self.draft.set_allowance(chain, owner, token.address, spender, current - needed)
            return
        if token.approve_reset_required and current > 0:
            self.emit_approve(chain, owner, token, spender, Amount(0), protocol, reset=True)
        self.emit_approve(chain, owner, token, spender, amount, protocol)
        self.draft.set_allowance(chain, owner, token.address, spender, 0)

    def emit_approve(
        self,
        chain: str,
        owner: str,
        token: Token,
        spender: str,
        amount: Amount,
        protocol: str,
        reset: bool = False,
    ) -> None:
        assert token.address is not None
        refused = spender_problem(self.registry, chain, protocol, spender)
        if refused is not None:
            raise self.fail("protocol", refused)
        call = erc20_approve(token.address, spender, amount.raw)
        what = "Reset allowance of" if reset else "Approve"
        self.draft.add(
            StepDraft(
                type="approve",
                chain=chain,
                protocol=protocol,
                action_type="Approve",
                asset=token.symbol,
                amount=self.decimal(token, amount),
                description=f"{what} {token.symbol} for {protocol} ({spender})",
                wallet=owner,
                to=call.to,
                data=call.data,
                value=0,
                chained=amount.chained,
                gas_kind="approve",
            )
        )

    def produce(
        self, step: StepDraft, token: Token, owner: str, estimate_raw: int, min_raw: int, bridged: bool
    ) -> None:
        """Record what this intent leaves for the next one, and count it as arriving for feasibility."""
        self.draft.outputs[self.index] = Output(step.key, token, owner, estimate_raw, min_raw, bridged)
        self.draft.arrive(token.chain, owner, token, min_raw)
