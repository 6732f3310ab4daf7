"""Simulation of a batch of unsigned steps, the pure part: request and response shapes, validation, the
bridge-not-landed rule, revert reasons and the formatting of gas, gas prices and costs."""

from engine.simulate.bridges import NOT_LANDED, bridge_funded
from engine.simulate.checks import SimulateInvalid, check_request, is_sender
from engine.simulate.formatting import (
    UNAVAILABLE,
    format_gas,
    format_gas_price,
    format_lamports,
    format_usd,
)
from engine.simulate.models import SimulateChain, SimulateRequest, SimulateResponse, StepResult
from engine.simulate.outcomes import EvmCall, EvmOutcome, NestedRevert, SolanaMessage, SvmOutcome
from engine.simulate.results import (
    cost_usd,
    evm_step_result,
    failed_result,
    not_run_result,
    revert_message,
    summarize,
    svm_step_result,
)

__all__ = [
    "NOT_LANDED",
    "UNAVAILABLE",
    "EvmCall",
    "EvmOutcome",
    "NestedRevert",
    "SimulateChain",
    "SimulateInvalid",
    "SimulateRequest",
    "SimulateResponse",
    "SolanaMessage",
    "StepResult",
    "SvmOutcome",
    "bridge_funded",
    "check_request",
    "cost_usd",
    "evm_step_result",
    "failed_result",
    "format_gas",
    "format_gas_price",
    "format_lamports",
    "format_usd",
    "is_sender",
    "not_run_result",
    "revert_message",
    "summarize",
    "svm_step_result",
]
