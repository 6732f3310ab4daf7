"""Shared helpers of the intent tests (no tests here): the real registry, one parser, sample wallets."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

from engine.intents import IntentParser, IntentRequest, IntentResponse, RegistryUniverse, Wallet
from engine.registry import load_registry

# Sample addresses (any well-formed address works; nothing is signed or sent).
EVM_A = "0x1111111111111111111111111111111111111111"
EVM_B = "0x2222222222222222222222222222222222222222"
EVM_C = "0x3333333333333333333333333333333333333333"
SOL_A = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"

# The sDAI ERC-4626 vault on ethereum, as listed in the registry's trusted vaults.
SDAI_VAULT = "0x83F20F44975D03b1b09e64809B757c47f942BEeA"


@cache
def parser() -> IntentParser:
    return IntentParser(RegistryUniverse(load_registry()))


def wallets(*pairs: tuple[str, str]) -> tuple[Wallet, ...]:
    return tuple(Wallet(address=address, chain=chain) for address, chain in pairs)


def request(prompt: str, *pairs: tuple[str, str], **extra: Any) -> IntentRequest:
    return IntentRequest(prompt=prompt, wallets=wallets(*(pairs or ((EVM_A, "base"),))), **extra)


def parse(prompt: str, *pairs: tuple[str, str], **extra: Any) -> IntentResponse:
    return parser().parse(request(prompt, *pairs, **extra))


def intents(response: IntentResponse) -> list[dict[str, Any]]:
    return [intent.model_dump() for intent in response.intents]


def kinds(response: IntentResponse) -> list[str]:
    return [item.kind for item in response.clarifications]


def dec(value: str) -> Decimal:
    return Decimal(value)
