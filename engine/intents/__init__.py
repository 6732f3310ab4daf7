"""Plain English -> intents or clarifications, deterministically (no model): the engine behind POST /intent."""

from engine.intents.amounts import Facts
from engine.intents.models import (
    REQUIRED_FIELDS,
    Balance,
    Clarification,
    ClarificationOption,
    Intent,
    IntentRequest,
    IntentResponse,
    Wallet,
)
from engine.intents.orchestrate import BalanceSource, Emit, PriceSource, run_intent
from engine.intents.parser import IntentParser, facts_from_request
from engine.intents.universe import AssetUniverse, RegistryUniverse

__all__ = [
    "REQUIRED_FIELDS",
    "AssetUniverse",
    "Balance",
    "BalanceSource",
    "Clarification",
    "ClarificationOption",
    "Emit",
    "Facts",
    "Intent",
    "IntentParser",
    "IntentRequest",
    "IntentResponse",
    "PriceSource",
    "RegistryUniverse",
    "Wallet",
    "facts_from_request",
    "run_intent",
]
