"""An agent's remedy: the intents a person may sign when the agent fires. The agent never signs them.

A remedy is typed on creation (`remedy: [Intent, ...]`) or read from the follow-on action of a
plain-English request ("..., repay 500 usdc") by the same intent reader as POST /intent. Either way it is
checked here against the registry and the agent's wallets; an action the reader cannot turn into intents
stays a dropped action, with the reader's reason. An intent's amount may be a share of a holding ("swap
half my eth"), kept as said and sized when the plan is built (engine.agents.shares).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import ValidationError

from engine.agents.errors import AgentValidationError, Issue, issues_from_validation_error
from engine.agents.shares import ShareError, is_share_form, read_share, share_issues, share_wire
from engine.agents.wallets import is_evm_address, is_solana_address
from engine.intents import REQUIRED_FIELDS, Intent, IntentParser, IntentRequest, IntentResponse, Wallet
from engine.intents.amounts import Share, describe_share
from engine.intents.prose import describe
from engine.registry import Registry

# A remedy is one short plan (decision: a repay, a top-up, a take-profit swap, a swap then a bridge); more
# than this is a portfolio programme, not a response to one alert.
MAX_REMEDY_INTENTS: Final = 4
# The chain an EVM wallet is read on when neither the agent nor the action names one (the reader's own
# default for a bare EVM address).
_DEFAULT_EVM_CHAIN: Final = "ethereum"
_TOKEN_FIELDS: Final = ("asset", "to_asset")
_CHAIN_FIELDS: Final = ("chain", "from_chain", "to_chain")

Source = Literal["typed", "request", "suggested"]


@dataclass(frozen=True, slots=True)
class Remedy:
    """The checked intents of an agent's remedy, where they came from, and one sentence saying what they do.

    `shares` says, per intent, the share of a holding its amount is (the intent then carries no amount),
    or None; empty when no intent has one."""

    intents: tuple[Intent, ...]
    source: Source
    summary: str
    shares: tuple[Share | None, ...] = ()

    def share(self, index: int) -> Share | None:
        """The share intent `index` is sized by when the plan is built, or None for a stated amount."""
        return self.shares[index] if index < len(self.shares) else None

    def wire(self) -> dict[str, Any]:
        """The `remedy` object of an agent (and of its events): intents keep exact Decimal amounts; a
        share is the amount `{share, of}`."""
        return {
            "source": self.source,
            "summary": self.summary,
            "intents": [self._dumped(index, "python") for index in range(len(self.intents))],
        }

    def to_json(self) -> dict[str, Any]:
        """The stored form: amounts and shares as strings, so no float ever touches them."""
        return {
            "source": self.source,
            "intents": [self._dumped(index, "json") for index in range(len(self.intents))],
        }

    def _dumped(self, index: int, mode: Literal["python", "json"]) -> dict[str, Any]:
        dumped = self.intents[index].model_dump(mode=mode, exclude_none=True)
        share = self.share(index)
        if share is not None:
            dumped["amount"] = share_wire(share, stored=mode == "json")
        return dumped

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Remedy:
        """Read the stored form back (validated again, as any stored engine JSON is); raises ValueError."""
        intents, shares = split_shares(raw["intents"])
        source: Source = raw["source"] if raw.get("source") in ("typed", "suggested") else "request"
        return cls(intents, source, summarize(intents, shares), shares if any(shares) else ())


def split_shares(items: Sequence[Any]) -> tuple[tuple[Intent, ...], tuple[Share | None, ...]]:
    """Stored or wire intents as Intents without their share amounts, and the shares beside them.

    Raises ValueError (a ShareError or pydantic's ValidationError) when an item does not read."""
    intents: list[Intent] = []
    shares: list[Share | None] = []
    for index, item in enumerate(items):
        share = None
        if isinstance(item, dict) and is_share_form(item.get("amount")):
            share = read_share(item["amount"], f"remedy.{index}.amount")
            item = {key: value for key, value in item.items() if key != "amount"}
        intents.append(Intent.model_validate(item))
        shares.append(share)
    return tuple(intents), tuple(shares)


@dataclass(frozen=True, slots=True)
class NotPlannable:
    """The follow-on action could not be turned into intents; `reason` says why, in the reader's words."""

    reason: str


def summarize(intents: Sequence[Intent], shares: Sequence[Share | None] = ()) -> str:
    """One sentence: what signing the remedy would do (a share said as one: "half of your ETH")."""
    said = [*shares, *[None] * (len(intents) - len(shares))]
    clauses = [
        describe(intent, describe_share(share, intent.asset) if share is not None else None)
        for intent, share in zip(intents, said, strict=True)
    ]
    return "When it fires, this agent prepares an unsigned plan to " + "; then ".join(clauses) + "."


def reader_wallets(wallets: Sequence[str], chain: str | None) -> tuple[Wallet, ...]:
    """The agent's wallets as the intent reader takes them: EVM ones on the agent's chain (or the reader's
    default), Solana ones on solana."""
    out: list[Wallet] = []
    for address in wallets:
        if is_evm_address(address):
            out.append(Wallet(address=address, chain=chain or _DEFAULT_EVM_CHAIN))
        elif is_solana_address(address):
            out.append(Wallet(address=address, chain="solana"))
    return tuple(out)


def read_remedy(
    parser: IntentParser,
    registry: Registry,
    action: str,
    wallets: Sequence[str],
    chain: str | None,
    protocol: str | None = None,
) -> Remedy | NotPlannable:
    """Read a follow-on action ("repay 500 usdc") into a checked remedy, or say why it cannot be planned.

    `chain` is the chain the agent watches (a health agent's market), used when the action names none;
    `protocol` the lending market a health agent watches, used for a lending action that names none.
    """
    readable = reader_wallets(wallets, chain)
    if not readable:
        return NotPlannable("none of the agent's wallets is an address the planner can use")
    answer, shares = parser.parse_shares_later(IntentRequest(prompt=action, wallets=readable))
    if (answer.clarifications or not answer.intents) and protocol is not None:
        answer, shares = _in_market(parser, action, readable, protocol) or (answer, shares)
    if answer.clarifications:
        questions = " ".join(c.question for c in answer.clarifications)
        return NotPlannable(f"the action needs more before it can be planned: {questions}")
    if not answer.intents:
        return NotPlannable(answer.reasoning or "the action names nothing the planner can do")
    if len(answer.intents) > MAX_REMEDY_INTENTS:
        return NotPlannable(f"a remedy holds at most {MAX_REMEDY_INTENTS} steps")
    problems = check_intents(registry, answer.intents, wallets, shares)
    if problems:
        return NotPlannable("; ".join(issue.message for issue in problems))
    kept = shares if any(shares) else ()
    return Remedy(tuple(answer.intents), "request", summarize(answer.intents, shares), kept)


# Lending actions a health alert's follow-on may take in the market it watches.
_LENDING_ACTIONS: Final = frozenset({"repay", "deposit", "withdraw", "borrow"})
# "add 0.5 eth as collateral", "put 500 usdc in as collateral": supplying to the lending market, where a
# supplied asset is collateral.
_AS_COLLATERAL: Final = re.compile(
    r"^\s*(?:add|put|post|top up(?: with)?)\s+(?P<what>.+?)\s+(?:in\s+)?(?:as|to|for)\s+(?:more\s+|my\s+)?collateral\b",
    re.IGNORECASE,
)


def _in_market(
    parser: IntentParser, action: str, readable: tuple[Wallet, ...], protocol: str
) -> tuple[IntentResponse, tuple[Share | None, ...]] | None:
    """The action read in the market a health agent watches ("repay 200 dai" on its aave position), when
    it names no protocol: kept only if every intent is a lending action in that market, never guessed for
    a swap or a bridge."""
    if re.search(r"\b(?:aave|spark|compound|morpho)\b", action, re.IGNORECASE):
        return None
    collateral = _AS_COLLATERAL.match(action)
    text = f"deposit {collateral.group('what')}" if collateral is not None else action
    answer, shares = parser.parse_shares_later(
        IntentRequest(prompt=f"{text} on {protocol}", wallets=readable)
    )
    if answer.clarifications or not answer.intents:
        return None
    if all(
        i.action in _LENDING_ACTIONS and (i.protocol or "").casefold() == protocol for i in answer.intents
    ):
        return answer, shares
    return None


def parse_typed_remedy(raw: object, registry: Registry, wallets: Sequence[str]) -> Remedy:
    """Validate a typed `remedy` (a list of Intent objects) for an agent watching `wallets`.

    Raises AgentValidationError naming each failing field (`remedy.0.chain`).
    """
    if not isinstance(raw, list) or not raw:
        raise AgentValidationError([Issue("remedy", "remedy must be a non-empty list of intents")])
    if len(raw) > MAX_REMEDY_INTENTS:
        message = f"remedy holds at most {MAX_REMEDY_INTENTS} intents"
        raise AgentValidationError([Issue("remedy", message)])
    intents: list[Intent] = []
    shares: list[Share | None] = []
    issues: list[Issue] = []
    for index, item in enumerate(raw):
        share: Share | None = None
        if isinstance(item, dict) and is_share_form(item.get("amount")):
            try:
                share = read_share(item["amount"], f"remedy.{index}.amount")
            except ShareError as exc:
                issues.extend(exc.issues)
            item = {key: value for key, value in item.items() if key != "amount"}
        try:
            intents.append(Intent.model_validate(item))
        except ValidationError as exc:
            issues.extend(issues_from_validation_error(exc, f"remedy.{index}"))
        shares.append(share)
    if issues:
        raise AgentValidationError(_prefixed(issues))
    problems = check_intents(registry, intents, wallets, shares)
    if problems:
        raise AgentValidationError(problems)
    return Remedy(tuple(intents), "typed", summarize(intents, shares), tuple(shares) if any(shares) else ())


def _prefixed(issues: list[Issue]) -> list[Issue]:
    """issues_from_validation_error puts the prefix only on model-level errors; field errors get it here."""
    return [
        issue if issue.field.startswith("remedy") else Issue(f"remedy.{issue.field}", issue.message)
        for issue in issues
    ]


def check_intents(
    registry: Registry,
    intents: Sequence[Intent],
    wallets: Sequence[str],
    shares: Sequence[Share | None] = (),
) -> list[Issue]:
    """Issues of intents against the registry (action, chains, tokens, protocol) and the agent's wallets;
    `shares` (per intent, or empty) are the shares that stand for their amounts."""
    issues: list[Issue] = []
    for index, intent in enumerate(intents):
        where = f"remedy.{index}"
        required = REQUIRED_FIELDS.get(intent.action)
        if required is None:
            issues.append(Issue(f"{where}.action", f"unknown action {intent.action!r}"))
            continue
        share = shares[index] if index < len(shares) else None
        if share is not None:
            issues.extend(
                share_issues(intent.action, intent.protocol, intent.vault_address, share, f"{where}.amount")
            )
            required = tuple(field for field in required if field != "amount")
        issues.extend(_missing(intent, required, where))
        issues.extend(_registry_issues(registry, intent, where))
        if intent.wallet is not None and intent.wallet.lower() not in {w.lower() for w in wallets}:
            issues.append(Issue(f"{where}.wallet", "the wallet is not one of the agent's wallets"))
        issues.extend(_family_issues(registry, intent, wallets, where))
    return issues


def _missing(intent: Intent, required: tuple[str | tuple[str, ...], ...], where: str) -> list[Issue]:
    issues: list[Issue] = []
    for field in required:
        names = field if isinstance(field, tuple) else (field,)
        if all(getattr(intent, name) is None for name in names):
            issues.append(Issue(f"{where}.{names[0]}", f"{intent.action} needs {' or '.join(names)}"))
    return issues


def _registry_issues(registry: Registry, intent: Intent, where: str) -> list[Issue]:
    issues: list[Issue] = []
    known = {chain.slug for chain in registry.chains()}
    for name in _CHAIN_FIELDS:
        slug = getattr(intent, name)
        if slug is not None and slug not in known:
            issues.append(Issue(f"{where}.{name}", f"unknown chain {slug!r}"))
    chain = intent.chain or intent.from_chain
    if chain is None or chain not in known:
        return issues
    for name in _TOKEN_FIELDS:
        symbol = getattr(intent, name)
        if symbol is not None and symbol.casefold() not in {
            t.symbol.casefold() for t in registry.tokens(chain)
        }:
            issues.append(Issue(f"{where}.{name}", f"{symbol!r} is not a listed token on {chain}"))
    protocol = intent.protocol
    if (
        protocol is None or intent.action == "bridge"
    ):  # a bridge's protocol serves two chains; the planner checks it
        return issues
    if protocol.casefold() not in {p.name.casefold() for p in registry.protocols()}:
        issues.append(Issue(f"{where}.protocol", f"unknown protocol {protocol!r}"))
    elif not registry.supports(chain, protocol, intent.action):
        issues.append(Issue(f"{where}.protocol", f"{protocol} does not {intent.action} on {chain}"))
    return issues


def _family_issues(registry: Registry, intent: Intent, wallets: Sequence[str], where: str) -> list[Issue]:
    """The chain the intent starts on needs a wallet of the agent in that chain's address family."""
    chain = intent.chain or intent.from_chain
    if chain is None or chain not in {c.slug for c in registry.chains()}:
        return []
    solana = registry.chain(chain).family == "solana"
    if any(is_solana_address(w) if solana else is_evm_address(w) for w in wallets):
        return []
    return [Issue(f"{where}.chain", f"none of the agent's wallets can sign on {chain}")]
