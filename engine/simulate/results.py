"""Turning executor outcomes into the contract's per-step results and batch totals."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from engine.encoders.reverts import decode_revert
from engine.planner.models import Step
from engine.simulate.formatting import format_gas, format_usd
from engine.simulate.models import SimulateResponse, StepResult
from engine.simulate.outcomes import EvmOutcome, SvmOutcome

# Status marks (decision: docs/decisions.md). A nested revert below a successful call keeps the step a
# success (the transaction lands with status 1) but is flagged; a step not run waits on its bridge.
MARK_OK: Final = "✓"
MARK_NESTED: Final = "⚠"
MARK_FAILED: Final = "✗"
MARK_WAITING: Final = "⏳"
# Not run because a step it depends on did not succeed (or its bridge's fill did not land).
MARK_SKIPPED: Final = "⊘"
# status_code: the receipt status an executed step would get (1 success, 0 failure); -1 when not run.
CODE_OK: Final = 1
CODE_FAILED: Final = 0
CODE_NOT_RUN: Final = -1


def revert_message(data: bytes) -> str:
    """The human-readable reason of revert data: Error(string) text, the Panic meaning, or a shipped ABI's
    custom error with its arguments."""
    return decode_revert(data).message


def _result(step: Step, *, success: bool, status: str, code: int, gas: int, error: str | None) -> StepResult:
    return StepResult(
        success=success,
        status=status,
        status_code=code,
        action=step.type,
        action_type=step.action_type,
        asset=step.asset,
        gas=format_gas(gas),
        error=error,
    )


def evm_step_result(step: Step, outcome: EvmOutcome) -> StepResult:
    """One executed EVM step: success, a revert with its decoded reason, a halt, or a refused transaction."""
    if outcome.success:
        if outcome.nested is None:
            return _result(step, success=True, status=MARK_OK, code=CODE_OK, gas=outcome.gas_used, error=None)
        reason = revert_message(outcome.nested.data)
        error = f"a nested call to {outcome.nested.to} reverted (the transaction itself succeeds): {reason}"
        return _result(
            step, success=True, status=MARK_NESTED, code=CODE_OK, gas=outcome.gas_used, error=error
        )
    if outcome.revert_data is not None:
        decoded = decode_revert(outcome.revert_data)
        # "reverted without a reason" and "reverted with unknown error 0x.." already say it reverted.
        error = decoded.message if decoded.kind in ("empty", "unknown") else f"reverted: {decoded.message}"
    else:
        error = outcome.failure or "failed without a reason"
    return _result(
        step, success=False, status=MARK_FAILED, code=CODE_FAILED, gas=outcome.gas_used, error=error
    )


def svm_step_result(step: Step, outcome: SvmOutcome) -> StepResult:
    """One executed Solana step: compute units as gas, the failing instruction's log as error."""
    if outcome.success:
        return _result(
            step, success=True, status=MARK_OK, code=CODE_OK, gas=outcome.compute_units, error=None
        )
    return _result(
        step,
        success=False,
        status=MARK_FAILED,
        code=CODE_FAILED,
        gas=outcome.compute_units,
        error=outcome.error or "failed without a reason",
    )


def not_run_result(step: Step, reason: str) -> StepResult:
    """A step that was not run (funded by a bridge that has not landed): a failure, never a success."""
    return _result(step, success=False, status=MARK_WAITING, code=CODE_NOT_RUN, gas=0, error=reason)


def skipped_result(step: Step, reason: str) -> StepResult:
    """A step not run because a step it depends on did not succeed: a failure, saying which and why."""
    return _result(step, success=False, status=MARK_SKIPPED, code=CODE_NOT_RUN, gas=0, error=reason)


def deposit_failed_result(step: Step, gas: int, reason: str) -> StepResult:
    """A bridge deposit whose transaction succeeds (receipt status 1) but does not do what its calldata
    promises: a failure, for nothing it should fund can be trusted to land."""
    error = f"the transaction succeeds but the deposit is wrong: {reason}"
    return _result(step, success=False, status=MARK_FAILED, code=CODE_OK, gas=gas, error=error)


def failed_result(step: Step, reason: str) -> StepResult:
    """A step that could not be prepared for running (e.g. its re-encode was refused): a failure."""
    return _result(step, success=False, status=MARK_FAILED, code=CODE_FAILED, gas=0, error=reason)


def cost_usd(fee_native: Decimal, native_usd: Decimal | None) -> Decimal | None:
    """The fee in USD, or None when the native asset has no price."""
    return None if native_usd is None else fee_native * native_usd


def summarize(
    steps: Sequence[Step],
    results: Sequence[StepResult],
    *,
    gas_used: int,
    gas_price: str,
    gas_price_source: str,
    total_cost_usd: Decimal | None,
) -> SimulateResponse:
    """The batch: success only when every step succeeded; `error` names the first failing step."""
    error = next(
        (
            f"step {step.order} ({step.type}): {result.error}"
            for step, result in zip(steps, results, strict=True)
            if not result.success
        ),
        None,
    )
    return SimulateResponse(
        success=error is None,
        gas_used=format_gas(gas_used),
        gas_price=gas_price,
        gas_price_source=gas_price_source,
        total_cost=format_usd(total_cost_usd),
        error=error,
        steps=list(results),
    )
