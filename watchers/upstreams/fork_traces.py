"""What the node's own tracers say about a batch of EVM steps: reverts nested below a successful call
(geth's callTracer), and which accounts and slots the steps read (prestateTracer), each step traced on
the state the earlier steps left (their prestate diffs applied as state overrides)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any, Final

from engine.simulate import Credit, EvmCall, EvmOutcome, NestedRevert
from watchers.upstreams.evm import from_data
from watchers.upstreams.fork_reads import ForkBlock, Touched
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcError

log = logging.getLogger("intentgate.simulation")

# Geth's debug_traceCall tracers (geth docs, "Built-in tracers": callTracer, prestateTracer in its default
# mode and in diffMode).
CALL_TRACER: Final = {"tracer": "callTracer"}
# Only the touched accounts and slots are wanted from it, not their code (geth's disableCode; a node that
# does not know the option sends the code too).
PRESTATE_TRACER: Final = {"tracer": "prestateTracer", "tracerConfig": {"disableCode": True}}
DIFF_TRACER: Final = {"tracer": "prestateTracer", "tracerConfig": {"diffMode": True}}


async def traced(
    rpc: JsonRpcClient,
    fork: ForkBlock,
    sender: str,
    calls: Sequence[EvmCall],
    outcomes: list[EvmOutcome],
    *,
    touched: Touched | None = None,
) -> list[EvmOutcome]:
    """`outcomes` with the reverts found below successful calls, each step traced on the state the earlier
    successful ones left (a fill as its outcome says it landed); with `touched`, what each step reads is
    added to it. A node without the debug namespace leaves the outcomes as they are (and `touched` as it
    was)."""
    overrides: dict[str, dict[str, Any]] = {}
    found = list(outcomes)
    for index, (call, outcome) in enumerate(zip(calls, outcomes, strict=True)):
        if not outcome.success:
            continue  # a failed transaction changes no state
        if call.credit is not None:
            _apply_credit(overrides, call.credit, outcome)
            continue
        tx = {"from": sender, "to": call.to, "data": "0x" + call.data.hex(), "value": hex(call.value)}
        # The same block environment as the fork's (geth's debug_traceCall blockOverrides).
        options: dict[str, Any] = {
            "blockOverrides": {"number": hex(fork.number + 1), "time": hex(fork.timestamp)}
        }
        if overrides:
            options["stateOverrides"] = overrides
        tracers: list[dict[str, Any]] = [DIFF_TRACER, CALL_TRACER]
        if touched is not None:
            tracers.append(PRESTATE_TRACER)
        try:
            answers = await rpc.batch(
                [("debug_traceCall", [tx, hex(fork.number), {**tracer, **options}]) for tracer in tracers]
            )
        except RpcError as exc:
            # No debug namespace on this node (or it refuses the tracer): nested reverts stay unknown, and
            # the top-level outcomes, which pyrevm decided, stand as they are.
            log.warning(
                "debug_traceCall unavailable at %s (%s): nested reverts not inspected", rpc.label, exc
            )
            return found
        diff, trace = answers[0], answers[1]
        if isinstance(trace, dict) and "error" not in trace:
            revert = _first_nested_revert(trace)
            if revert is not None:
                found[index] = dataclasses.replace(outcome, nested=revert)
        if touched is not None:
            touched.add_prestate(answers[2])
        if isinstance(diff, dict):
            _apply_diff(overrides, diff)
    return found


def _apply_credit(overrides: dict[str, dict[str, Any]], credit: Credit, outcome: EvmOutcome) -> None:
    # The fill the fork landed, as the node's state overrides, so later steps trace on the landed amount.
    landed = outcome.credited
    if landed is None:
        return
    if credit.token is None:
        overrides.setdefault(credit.holder.lower(), {})["balance"] = hex(landed.balance)
    elif landed.storage_key is not None:
        entry = overrides.setdefault(credit.token.lower(), {})
        entry.setdefault("stateDiff", {})["0x" + landed.storage_key.hex()] = (
            "0x" + landed.balance.to_bytes(32, "big").hex()
        )


def _first_nested_revert(frame: dict[str, Any]) -> NestedRevert | None:
    for child in frame.get("calls") or ():
        if not isinstance(child, dict):
            continue
        if "error" in child:
            output = child.get("output") or "0x"
            return NestedRevert(to=str(child.get("to", "")), data=from_data(output))
        deeper = _first_nested_revert(child)
        if deeper is not None:
            return deeper
    return None


def _apply_diff(overrides: dict[str, dict[str, Any]], diff: dict[str, Any]) -> None:
    # diffMode: `post` holds what changed; a slot in `pre` but absent from `post` became zero.
    pre, post = diff.get("pre") or {}, diff.get("post") or {}
    for address in set(pre) | set(post):
        after, before = post.get(address) or {}, pre.get(address) or {}
        entry = overrides.setdefault(address, {})
        for field in ("balance", "nonce", "code"):
            if field in after:
                entry[field] = hex(after[field]) if isinstance(after[field], int) else after[field]
        slots = entry.setdefault("stateDiff", {})
        for slot in before.get("storage") or {}:
            slots[slot] = "0x" + "00" * 32
        slots.update(after.get("storage") or {})
