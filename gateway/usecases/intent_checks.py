"""Checks a model-written answer must pass before it is returned: the IntentResponse schema, each action's
fields, and the registry (chains, assets, protocol support, trusted vaults, token decimals, wallets).

Symbols and slugs the registry knows under another spelling ("usdc", "Aave") are rewritten to the
registry's own; anything it does not know is refused, never passed on.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Final

from pydantic import ValidationError

from engine.intents import Intent, IntentRequest, IntentResponse
from engine.intents.amounts import MAX_AMOUNT, address_key, fits_decimals
from engine.intents.models import fields_of
from engine.registry import Registry, RegistryError

# EVM addresses are 0x + 40 hex digits (EIP-55 mixed case allowed); Solana public keys are 32 bytes in
# base58, 32 to 44 characters (contract: POST /agents wallet strings use the same two shapes).
EVM_ADDRESS: Final = re.compile(r"^0x[0-9a-fA-F]{40}$")
SOLANA_ADDRESS: Final = re.compile(r"^[1-9A-HJ-NP-Za-km-z]{32,44}$")
# ENS names are accepted as recipients on EVM chains, as the deterministic parser does (it resolves
# nothing; the planner does).
ENS_NAME: Final = re.compile(r"^[a-z0-9-]+(\.[a-z0-9-]+)*\.eth$", re.IGNORECASE)
CHAIN_FIELDS: Final = ("chain", "from_chain", "to_chain")


class InvalidAnswer(Exception):
    """The answer failed a check; `problems` says which field of which intent and why."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def check_answer(data: Any, request: IntentRequest, registry: Registry) -> IntentResponse:
    """The answer as a validated IntentResponse in the registry's spelling; raises InvalidAnswer."""
    if not isinstance(data, dict):
        raise InvalidAnswer(["the answer is not an object"])
    try:
        response = IntentResponse.model_validate(data)
    except ValidationError as exc:
        raise InvalidAnswer(
            [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)]
        ) from None
    if response.intents and response.clarifications:
        raise InvalidAnswer(["an answer carries intents or clarifications, not both"])
    if not response.reasoning.strip() or not response.suggested_name.strip():
        raise InvalidAnswer(["reasoning and suggested_name must not be empty"])
    problems: list[str] = []
    intents = []
    for index, intent in enumerate(response.intents):
        checked = _IntentCheck(registry, request, index, problems).run(intent)
        intents.append(checked)
    if problems:
        raise InvalidAnswer(problems)
    return response.model_copy(update={"intents": tuple(intents)})


class _IntentCheck:
    def __init__(self, registry: Registry, request: IntentRequest, index: int, problems: list[str]) -> None:
        self.registry = registry
        self.request = request
        self.where = f"intents[{index}]"
        self.problems = problems

    def fail(self, field: str, message: str) -> None:
        self.problems.append(f"{self.where}.{field}: {message}")

    def run(self, intent: Intent) -> Intent:
        values = intent.model_dump()
        allowed = {"action", "wallet", *fields_of(intent.action)}
        for name in sorted(set(values) - allowed):
            self.fail(name, f"not a field of {intent.action}")
        for missing in intent.missing_fields():
            self.fail(missing, f"required for {intent.action}")
        for name in CHAIN_FIELDS:
            if name in values:
                values[name] = self.chain(name, values[name])
        if "protocol" in values:
            values["protocol"] = self.protocol(intent.action, values)
        source = values.get("from_chain") or values.get("chain")
        if "asset" in values and source:
            values["asset"] = self.asset("asset", source, values["asset"])
            if intent.action == "bridge" and values.get("to_chain"):
                self.asset("asset", values["to_chain"], values["asset"])
        if "to_asset" in values and values.get("chain"):
            values["to_asset"] = self.asset("to_asset", values["chain"], values["to_asset"])
        if "vault_address" in values and values.get("chain"):
            self.vault(values["chain"], values["vault_address"], values.get("asset"))
        if isinstance(values.get("amount"), Decimal) and source and "asset" in values:
            self.amount(source, values["asset"], values["amount"])
        if "recipient" in values and source:
            self.recipient(source, values["recipient"])
        if "wallet" in values:
            self.wallet(values["wallet"])
        if self.problems:
            return intent
        return Intent.model_validate(values)

    def chain(self, field: str, slug: str) -> str:
        try:
            return self.registry.chain(slug.strip().lower()).slug
        except RegistryError:
            self.fail(field, f"{slug!r} is not a chain this service knows")
            return slug

    def protocol(self, action: str, values: dict[str, Any]) -> str:
        name = str(values["protocol"]).strip().lower()
        chain = values.get("from_chain") or values.get("chain")
        try:
            protocol = self.registry.protocol(name)
            if chain and not self.registry.supports(chain, protocol.name, action):
                self.fail("protocol", f"{protocol.label} does not serve {action} on {chain}")
            return protocol.name
        except RegistryError:
            self.fail("protocol", f"{name!r} is not a protocol this service knows")
            return name

    def asset(self, field: str, chain: str, name: str) -> str:
        try:
            return self.registry.resolve_token(chain, name)
        except RegistryError:
            self.fail(field, f"{name!r} is not listed on {chain}")
            return name

    def vault(self, chain: str, address: str, asset: str | None) -> None:
        try:
            vault = self.registry.vault(chain, address)
        except RegistryError:
            vault = None
        if vault is None:
            self.fail("vault_address", f"{address} is not a trusted vault on {chain}")
        elif asset is not None and vault.underlying.lower() != asset.lower():
            self.fail("vault_address", f"the vault holds {vault.underlying}, not {asset}")

    def amount(self, chain: str, asset: str, amount: Decimal) -> None:
        try:
            decimals = self.registry.token(chain, asset).decimals
        except RegistryError:
            return  # the asset check has said why
        if amount >= MAX_AMOUNT:
            self.fail("amount", f"{amount} is more {asset} than exists")
        elif not fits_decimals(amount, decimals):
            self.fail("amount", f"{asset} has {decimals} decimals")

    def recipient(self, chain: str, recipient: str) -> None:
        try:
            family = self.registry.chain(chain).family
        except RegistryError:
            return
        if family == "solana":
            ok = bool(SOLANA_ADDRESS.match(recipient))
        else:
            ok = bool(EVM_ADDRESS.match(recipient) or ENS_NAME.match(recipient))
        if not ok:
            self.fail("recipient", f"{recipient!r} is not an address on {chain}")

    def wallet(self, wallet: str) -> None:
        known = {address_key(w.address) for w in self.request.wallets}
        if address_key(wallet) not in known:
            self.fail("wallet", "not one of the request's wallets")
