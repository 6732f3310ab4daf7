"""Grounding: every value of a returned intent traces to the words, or to a documented default.

One check for every planner (the deterministic reader and the model backend): an amount, asset, chain,
protocol, recipient, wallet, pool or vault is kept only when it comes from a span of the prompt, of the
user's turns in conversation_context or of a clarification answer, from an earlier intent of the same
answer (a chained step), or from a default docs/decisions.md names and the reasoning states (the one
wallet chain that fits, the one protocol the registry has, the bridge routing defaults). An amount may be
computed from a written share, dollar amount or "all but N" only with a balance or price actually known.
Anything else is not planned: the answer becomes a clarification asking for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final

from engine.intents.amounts import Facts, address_key, quantum, share_of, tidy, usd_to_tokens
from engine.intents.clarify import clarification, option, split_answers
from engine.intents.context import read_request, recent_turns
from engine.intents.drafts import AmountSpec
from engine.intents.lexicon import Lexicon
from engine.intents.models import Clarification, Intent, IntentRequest, IntentResponse
from engine.intents.payees import refusal as payee_refusal
from engine.intents.payees import refused_payee
from engine.intents.questions import DOING
from engine.intents.sentences import read_message
from engine.intents.slippage import stated_slippage, without_shortened
from engine.intents.spelling import chat_text, respelled
from engine.intents.steps import CROSS_CHAIN_ACTIONS, PROTOCOL_ACTIONS
from engine.intents.universe import AssetUniverse
from engine.intents.vocabulary import SERVED_ASSETS

# Bridges route by default (docs/decisions.md): USDC to or from Solana over CCTP, everything else Across.
BRIDGE_DEFAULTS: Final = frozenset({"across", "cctp"})
# Actions whose amount is the whole position by definition.
WHOLE_ACTIONS: Final = frozenset({"sweep", "lp-remove"})
# Words that point at the user's own other wallet ("to my other wallet").
_OWN_WALLET: Final = frozenset({"other", "own", "self"})


@dataclass(slots=True)
class Words:
    """What the request's words name: assets (as typed), chains, protocols, addresses, amounts."""

    assets: set[str] = field(default_factory=set)
    chains: set[str] = field(default_factory=set)
    protocols: set[str] = field(default_factory=set)
    addresses: set[str] = field(default_factory=set)
    amounts: list[tuple[AmountSpec, str | None]] = field(default_factory=list)
    own_wallet: bool = False
    # "wrap"/"unwrap" said: the other side of a native coin's wrap is named by the verb ("wrap 10 bnb").
    wraps: set[str] = field(default_factory=set)


def words_of(request: IntentRequest, lexicon: Lexicon) -> Words:
    """Read the prompt, its clarification answers and the user's earlier turns with the request reader."""
    prompt, pairs = split_answers(request.prompt)
    # A misspelt token name the user said which token it meant is read as that token's name.
    prompt = chat_text(respelled(prompt, pairs))
    # Read as the parser read it: a stated slippage and shortened addresses are figures of no amount.
    prompt = without_shortened(stated_slippage(prompt)[0])[0]
    # Only the request's own words, and the pasted material it points at, ground a value.
    prompt = read_message(prompt, lexicon)[1].text
    texts = [(prompt, True), *((label, True) for _, label in pairs)]
    for who, turn in recent_turns(request.conversation_context):
        if who == "user":
            body, turn_pairs = split_answers(turn)
            # An earlier turn's amount may be reused for another asset ("same with dai").
            texts += [(body, False), *((label, False) for _, label in turn_pairs)]
    words = Words()
    multiples: list[tuple[int, int]] = []
    for text, current in texts:
        for lexeme in lexicon.read_text(text):
            if lexeme.asset is not None:
                words.assets.update((lexeme.asset, lexeme.text))
            if lexeme.chain is not None and lexeme.asset is None:
                words.chains.add(lexeme.chain)
            if lexeme.protocol is not None:
                words.protocols.add(lexeme.protocol)
            if lexeme.kind in ("evm", "sol", "ens"):
                words.addresses.add(address_key(lexeme.text))
            if lexeme.vault is not None:
                # A trusted vault named by its name grounds its address and the asset it takes.
                words.addresses.add(address_key(lexeme.vault.address))
                words.assets.add(lexeme.vault.underlying)
            words.own_wallet = words.own_wallet or lexeme.text in _OWN_WALLET
            if lexeme.text in ("wrap", "unwrap"):
                words.wraps.add(lexeme.text)
        for draft in read_request(text, lexicon):
            # A word naming a chain and an asset ("eth") grounds the chain only where it was read as one.
            named = [draft.on_chain, draft.from_chain, draft.to_chain, *draft.bare_chains]
            words.chains.update(chain for chain in named if chain is not None)
            for item in draft.items:
                if item.to_chain is not None:
                    words.chains.add(item.to_chain)
                if item.amount is not None:
                    words.amounts.append((item.amount, item.asset if current else None))
            if draft.loose_amount is not None:
                words.amounts.append((draft.loose_amount, None))
                kept = draft.loose_amount
                if current and draft.kept and kept.kind == "exact" and kept.value is not None:
                    # "leave 0.5" after "stake all my eth": all of it but what is kept (with a balance).
                    words.amounts.append((AmountSpec("all_but", kept.value, f"all but {kept.written}"), None))
            if current and draft.times is not None:
                multiples.append((draft.times, 1))
            share = draft.loose_amount
            if current and share is not None and share.kind == "fraction" and share.value is not None:
                multiples.append(share.ratio or share.value.as_integer_ratio())
    # "triple it", "do half then": a multiple or a share of an amount an earlier turn said.
    said = [spec.value for spec, _ in words.amounts if spec.kind == "exact" and spec.value is not None]
    for top, bottom in multiples:
        words.amounts += [
            (AmountSpec("exact", tidy((value * top / bottom).normalize()), None), None) for value in said
        ]
    return words


@dataclass(frozen=True, slots=True)
class Ungrounded:
    """A value of intent `index` that no word grounds."""

    index: int
    field: str
    value: str


class _Check:
    def __init__(
        self, request: IntentRequest, lexicon: Lexicon, facts: Facts, intents: Sequence[Intent]
    ) -> None:
        self.request = request
        self.universe: AssetUniverse = lexicon.universe
        self.words = words_of(request, lexicon)
        self.facts = facts
        self.intents = intents
        aliases = self.universe.chain_aliases()
        self.listed = list(
            dict.fromkeys(
                aliases[name]
                for name in (" ".join(w.chain.split()).casefold() for w in request.wallets)
                if name in aliases
            )
        )
        families = {self.universe.chain_family(chain) for chain in self.listed}
        self.reachable = [c for c in self.universe.chain_slugs() if self.universe.chain_family(c) in families]

    def run(self) -> list[Ungrounded]:
        found: list[Ungrounded] = []
        for index, intent in enumerate(self.intents):
            earlier = self.intents[:index]
            for name, grounded in self.fields(intent, earlier):
                if not grounded:
                    found.append(Ungrounded(index, name, str(getattr(intent, name))))
        return found

    def fields(self, intent: Intent, earlier: Sequence[Intent]) -> list[tuple[str, bool]]:
        checks: list[tuple[str, bool]] = []
        source = intent.from_chain if intent.action in CROSS_CHAIN_ACTIONS else intent.chain
        if intent.asset is not None:
            checks.append(("asset", self.asset(intent.asset, source, earlier, intent)))
        if intent.to_asset is not None:
            checks.append(
                ("to_asset", self.named_asset(intent.to_asset, intent.chain) or self.wrap_of(intent))
            )
        for name in ("chain", "from_chain", "to_chain"):
            value = getattr(intent, name)
            if value is not None:
                checks.append((name, self.chain(value, name, intent, earlier)))
        if intent.protocol is not None:
            checks.append(("protocol", self.protocol(intent, source, earlier)))
        if intent.recipient is not None:
            checks.append(("recipient", self.recipient(intent.recipient)))
        if intent.wallet is not None:
            known = {address_key(wallet.address) for wallet in self.request.wallets}
            checks.append(("wallet", address_key(intent.wallet) in known))
        if intent.vault_address is not None:
            checks.append(("vault_address", address_key(intent.vault_address) in self.words.addresses))
        if intent.pool_id is not None:
            checks.append(("pool_id", self.pool(intent.pool_id, intent.chain, earlier)))
        if intent.amount is not None:
            checks.append(("amount", self.amount(intent, source, earlier)))
        return checks

    # -- names -----------------------------------------------------------------------------------

    def named_asset(self, asset: str, chain: str | None) -> bool:
        for name in self.words.assets:
            if name.lower() == asset.lower():
                return True
            if chain is not None and self.universe.asset_on(chain, name) == asset:
                return True
        return False

    def wrap_of(self, intent: Intent) -> bool:
        """A swap's target named by "wrap" or "unwrap": the asset's W-prefixed token or the reverse."""
        asset, target = (intent.asset or "").upper(), (intent.to_asset or "").upper()
        return ("wrap" in self.words.wraps and target == f"W{asset}") or (
            "unwrap" in self.words.wraps and asset == f"W{target}"
        )

    def asset(self, asset: str, chain: str | None, earlier: Sequence[Intent], intent: Intent) -> bool:
        if self.named_asset(asset, chain):
            return True
        if any(asset in (before.asset, before.to_asset) for before in earlier):
            return True  # what an earlier step hands on ("bridge it, then deposit it")
        if SERVED_ASSETS.get((intent.protocol or "", intent.action)) == frozenset({asset}):
            return True  # "stake 2 with lido": the one token the protocol takes for it
        vault = intent.vault_address
        return (
            vault is not None and chain is not None and self.universe.vault_underlying(chain, vault) == asset
        )

    def chain(self, chain: str, name: str, intent: Intent, earlier: Sequence[Intent]) -> bool:
        if chain in self.words.chains:
            return True
        if any(chain in (before.chain, before.from_chain, before.to_chain) for before in earlier):
            return True  # a step continues where the one before it landed, or goes back where it began
        vault = intent.vault_address
        if vault is not None and self.universe.vault_underlying(chain, vault) is not None:
            return True  # a trusted vault lives on one chain
        recipient = intent.recipient
        if recipient is not None and address_key(recipient) in self.words.addresses:
            family = "evm" if recipient.startswith("0x") else "solana"
            same = [c for c in self.universe.chain_slugs() if self.universe.chain_family(c) == family]
            if same == [chain]:
                return True  # a Solana address can only be paid on Solana
        # The default: the one wallet chain where the step fits, else the one reachable chain.
        listed = [c for c in self.listed if self.fits(intent, c, name)]
        if listed:
            return listed == [chain]
        return [c for c in self.reachable if self.fits(intent, c, name)] == [chain]

    def fits(self, intent: Intent, chain: str, name: str) -> bool:
        other = intent.to_chain if name == "from_chain" else intent.from_chain if name == "to_chain" else None
        if other == chain:
            return False
        for asset in (intent.asset, intent.to_asset):
            if asset is not None and self.universe.asset_on(chain, asset) is None:
                return False
        if intent.action in CROSS_CHAIN_ACTIONS or intent.action not in PROTOCOL_ACTIONS:
            return True
        if intent.protocol is not None:
            return self.universe.supports(chain, intent.protocol, intent.action)
        return bool(self.universe.protocols_for(chain, intent.action))

    def protocol(self, intent: Intent, chain: str | None, earlier: Sequence[Intent]) -> bool:
        protocol = intent.protocol
        if protocol in self.words.protocols or any(before.protocol == protocol for before in earlier):
            return True
        if intent.action == "bridge":
            return protocol in BRIDGE_DEFAULTS
        if chain is None:
            return False
        if intent.action == "approve":
            serving = [
                name
                for name in self.universe.protocol_names()
                if any(self.universe.supports(chain, name, action) for action in PROTOCOL_ACTIONS)
            ]
            return serving == [protocol]
        return list(self.universe.protocols_for(chain, intent.action)) == [protocol]

    def recipient(self, recipient: str) -> bool:
        if address_key(recipient) in self.words.addresses:
            return True
        own = {address_key(wallet.address) for wallet in self.request.wallets}
        return self.words.own_wallet and address_key(recipient) in own

    def pool(self, pool_id: str, chain: str | None, earlier: Sequence[Intent]) -> bool:
        if address_key(pool_id) in self.words.addresses:
            return True
        parts = pool_id.split("-")
        return len(parts) == 2 and all(
            self.named_asset(part, chain) or any(part in (b.asset, b.to_asset) for b in earlier)
            for part in parts
        )

    # -- amounts ---------------------------------------------------------------------------------

    def amount(self, intent: Intent, chain: str | None, earlier: Sequence[Intent]) -> bool:
        amount = intent.amount
        specs = self.words.amounts
        if amount == "chained":
            return bool(earlier)
        if amount == "max":
            return intent.action in WHOLE_ACTIONS or any(spec.kind == "max" for spec, _ in specs)
        assert isinstance(amount, Decimal)
        for spec, asset in specs:
            if spec.kind != "exact" or spec.value is None or spec.value != amount:
                continue
            if asset is None or intent.asset is None or self.same_asset(asset, intent.asset, chain):
                return True
        return any(amount == value for value in self.computed(intent, chain))

    def same_asset(self, named: str, asset: str, chain: str | None) -> bool:
        return named.lower() == asset.lower() or (
            chain is not None and self.universe.asset_on(chain, named) == asset
        )

    def computed(self, intent: Intent, chain: str | None) -> list[Decimal]:
        """Amounts a written share, dollar amount or "all but N" comes to with the balances and prices known."""
        asset = intent.asset
        if chain is None or asset is None or self.universe.asset_on(chain, asset) != asset:
            return []
        decimals = self.universe.decimals(chain, asset)
        balances = [
            amount
            for wallet in self.request.wallets
            if (amount := self.facts.balance(wallet.address, chain, asset)) is not None
        ]
        price = self.facts.prices.get((chain, asset))
        values: list[Decimal] = []
        for spec, _ in self.words.amounts:
            if spec.value is None:
                continue
            if spec.kind == "fraction":
                values += [tidy(share_of(b, spec.value, decimals, spec.ratio).normalize()) for b in balances]
            elif spec.kind == "all_but":
                values += [tidy((b - spec.value).normalize()) for b in balances]
            elif spec.kind == "usd" and price is not None and price > 0:
                values.append(usd_to_tokens(spec.value, price, decimals))
        return [value for value in values if value >= quantum(decimals)]


def check(
    response: IntentResponse, request: IntentRequest, lexicon: Lexicon, facts: Facts
) -> list[Ungrounded]:
    """The values of the response's intents that no word and no documented default grounds."""
    if not response.intents:
        return []
    return _Check(request, lexicon, facts, response.intents).run()


def ground(
    response: IntentResponse, request: IntentRequest, lexicon: Lexicon, facts: Facts
) -> IntentResponse:
    """The response itself when every value is grounded; otherwise a clarification asking for what is not.
    An answer that would pay an address the recipient policy refuses is refused, naming the address."""
    refused = refused_payee(response, request, lexicon.universe)
    if refused is not None:
        return payee_refusal(refused)
    found = check(response, request, lexicon, facts)
    if not found:
        return response
    questions: list[Clarification] = []
    for item in found:
        asked = _question(item, response.intents[item.index], request)
        if all(existing.question != asked.question for existing in questions):
            questions.append(asked)
    first = found[0]
    reasoning = (
        f"I won't plan with a value you didn't give me: the {first.field.replace('_', ' ')} "
        f"{first.value} of step {first.index + 1} isn't in your request. "
        + " ".join(question.question for question in questions)
    )
    return IntentResponse(
        reasoning=reasoning, suggested_name="Needs details", clarifications=tuple(questions)
    )


def _question(item: Ungrounded, intent: Intent, request: IntentRequest) -> Clarification:
    verb = DOING.get(intent.action, intent.action)
    asset = intent.asset or "tokens"
    if item.field == "amount":
        verb = {"lp-add": "add to the pool", "lp-remove": "remove"}.get(intent.action, intent.action)
        return clarification(
            "amount",
            item.index,
            "amount",
            f"How much {asset} do you want to {verb}?",
            [option("amount", "max", "All of it")],
        )
    if item.field in ("chain", "from_chain", "to_chain"):
        where = {"from_chain": "from", "to_chain": "to"}.get(item.field, "on")
        options = [option("chain", w.chain, w.chain.title()) for w in request.wallets]
        unique = list({o.id: o for o in options}.values())
        return clarification(
            item.field, item.index, "chain", f"Which chain do you want to {verb} {where}?", unique
        )
    if item.field == "recipient":
        return clarification(
            "recipient", item.index, "recipient", f"Which address should receive the {asset}?", []
        )
    kind = {"to_asset": "asset", "pool_id": "asset", "vault_address": "vault"}.get(item.field, item.field)
    name = item.field.replace("_", " ")
    return clarification(item.field, item.index, kind, f"Which {name} do you mean for the {verb}?", [])
