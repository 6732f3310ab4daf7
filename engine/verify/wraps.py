"""The effect check of a wrap or unwrap (a coin and its W-token): one to one on the wrapped token."""

from __future__ import annotations

from engine.planner.models import Step
from engine.registry import Token
from engine.simulate.effects import address_key
from engine.verify.window import Window


def wrap(w: Window, position: int, step: Step, token_in: Token, token_out: Token) -> None:
    """A coin and its wrapped token count as one asset, so a wrap is checked on the wrapped token: the
    sender gains exactly the amount wrapped, or parts with exactly the amount unwrapped."""
    wrapped = token_out if token_in.is_native else token_in
    moved = w.change(step.chain, w.sender(step.chain), [address_key(wrapped.address or "")])
    said = w.stated(token_in)
    into = token_in.is_native
    if said is not None and moved != (said if into else -said):
        return w.fail(
            position,
            f"the sender's {wrapped.symbol} changes by {w.units(wrapped, moved)}, not the "
            f"{w.units(wrapped, said)} {w.said()} names",
        )
    if said is None and (moved <= 0 if into else moved >= 0):
        return w.fail(position, f"the sender's {wrapped.symbol} does not change as a wrap would")
    return w.ok(
        position, f"{token_in.symbol} becomes {token_out.symbol} one to one ({w.units(wrapped, abs(moved))})"
    )
