"""POST /intent: plain English in, intents or clarifications out, as one JSON body or an SSE stream."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from quart import Response, request

from engine.intents import Balance, IntentRequest, IntentResponse, Wallet
from engine.limits import CONTEXT_MAX_CHARS, INTENT_BALANCES_MAX, PLAN_WALLETS_MAX, PROMPT_MAX_CHARS
from gateway.access import CreditHold
from gateway.errors import envelope_for
from gateway.policy import Call
from gateway.sse import EVENT_STREAM, Send, event_stream
from gateway.usecases.errors import NotRunning
from gateway.usecases.intent import IntentService

JSON = "application/json"
# Balances a request may hand in: every registry token of every wallet's chain fits well below this.


class IntentOptions(BaseModel):
    """Coarse run options (contract: `stream`; the rest is ours, see docs/decisions.md). No model ids."""

    model_config = ConfigDict(extra="forbid")

    stream: bool = False
    # Which planner answers: the deployment's default when absent.
    planner: Literal["deterministic", "llm"] | None = None


class IntentBody(BaseModel):
    """The body of POST /intent as the contract states it; unknown fields are refused by name."""

    model_config = ConfigDict(extra="forbid")

    prompt: str = Field(min_length=1, max_length=PROMPT_MAX_CHARS)
    wallets: list[Wallet] = Field(min_length=1, max_length=PLAN_WALLETS_MAX)
    balances: list[Balance] | None = Field(None, max_length=INTENT_BALANCES_MAX)
    conversation_context: str | None = None
    clarify_follow_up: bool = False
    options: IntentOptions = Field(default_factory=IntentOptions)

    @field_validator("prompt")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the prompt is blank")
        return value

    @field_validator("conversation_context")
    @classmethod
    def _truncate(cls, value: str | None) -> str | None:
        return truncate_context(value)

    def engine_request(self) -> IntentRequest:
        return IntentRequest(
            prompt=self.prompt,
            wallets=tuple(self.wallets),
            balances=tuple(self.balances) if self.balances is not None else None,
            conversation_context=self.conversation_context,
            clarify_follow_up=self.clarify_follow_up,
        )


def truncate_context(context: str | None) -> str | None:
    """The most recent CONTEXT_MAX_CHARS characters, starting at a whole turn (contract: the server
    truncates the block at 6000 characters; the oldest turns go first)."""
    if context is None or len(context) <= CONTEXT_MAX_CHARS:
        return context
    tail = context[-CONTEXT_MAX_CHARS:]
    if context[-CONTEXT_MAX_CHARS - 1] != "\n":
        _, newline, rest = tail.partition("\n")  # the first line was cut: drop what is left of it
        tail = rest if newline else ""
    return tail


def wants_stream(body: IntentBody) -> bool:
    """SSE when options.stream is true or the Accept header prefers text/event-stream over JSON."""
    if body.options.stream:
        return True
    return request.accept_mimetypes.best_match([JSON, EVENT_STREAM], default=JSON) == EVENT_STREAM


def _service(call: Call) -> IntentService:
    service = call.services.intent
    if service is None:
        raise NotRunning("Intent parsing is not running on this replica.")
    return service


async def _discard(event: str, data: dict[str, Any]) -> None:
    return None


async def post_intent(call: Call) -> IntentResponse | Response:
    body: IntentBody = call.body
    service = _service(call)
    service.check(body.engine_request())
    planner = body.options.planner
    if not wants_stream(body):
        return await service.run(body.engine_request(), _discard, backend=planner)
    hold = call.hold
    assert hold is not None  # the route is metered
    return _stream(service, body, hold)


def _stream(service: IntentService, body: IntentBody, hold: CreditHold) -> Response:
    """The SSE answer. Credits are kept only when `final` reached the client (contract: 5 credits per
    delivered call); a stream abandoned before it, or ended by an error event, is refunded."""
    hold.taken_over = True
    final_sent = False

    async def produce(send: Send) -> None:
        nonlocal final_sent

        async def emit(event: str, data: dict[str, Any]) -> None:
            nonlocal final_sent
            await send(event, data)
            final_sent = final_sent or event == "final"

        try:
            await service.run(body.engine_request(), emit, backend=body.options.planner)
        except Exception as exc:
            # The status line is already sent: the error travels as the stream's last event.
            envelope = envelope_for(exc)
            if envelope is None:
                raise
            await send("error", envelope.body())

    async def on_end(delivered: bool) -> None:
        await hold.settle(delivered=delivered and final_sent)

    return event_stream(produce, on_end)
