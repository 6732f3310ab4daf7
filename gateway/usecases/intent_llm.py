"""The second planner backend of POST /intent: an OpenAI-compatible chat model with tool calling.

The model is given the registry's chains and actions, the wallets and the balances the caller sent, and two
tools: `get_balances` (answered over JSON-RPC by the same BalanceSource the deterministic planner uses, so
a balance is read, never invented) and `submit_intents` (its answer). The answer is checked against the
Intent schema and the registry (gateway.usecases.intent_checks) before anything of it is emitted.

Events, as the deterministic planner emits them: `reasoning` (the model's own text as it streams, and
progress), `tool-start`/`tool-end` named after the real lookups (fetch_balances, resolve_assets,
lookup_protocols), `delta` (the checked answer's reasoning, sentence by sentence) and `final`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

import simplejson
import trio

from engine.actions import ACTIONS
from engine.intents import BalanceSource, Emit, IntentRequest, IntentResponse, RegistryUniverse
from engine.intents.amounts import Facts, address_key
from engine.intents.clarify import split_answers
from engine.intents.context import recent_turns
from engine.intents.grounding import ground
from engine.intents.lexicon import Lexicon
from engine.intents.models import REQUIRED_FIELDS
from engine.intents.parser import facts_from_request
from engine.numbers import json_float, json_int
from engine.registry import Registry
from gateway.usecases.intent_checks import InvalidAnswer, check_answer
from watchers.upstreams.llm import ChatCompletions

# Tool rounds one request may take: a balance round per wallet chain is plenty before the answer.
MAX_ROUNDS: Final = 4
BALANCES_TOOL: Final = "get_balances"
ANSWER_TOOL: Final = "submit_intents"
_SENTENCE: Final = re.compile(r"(?<=[.?!])\s+")
PROSE_RETRY: Final = (
    "Answer only by calling submit_intents, with the arguments its JSON schema describes; no prose."
)
_INTENT_FIELDS: Final = (
    "asset",
    "to_asset",
    "protocol",
    "chain",
    "from_chain",
    "to_chain",
    "amount",
    "recipient",
    "wallet",
    "pool_id",
    "vault_address",
)


def loads_exact(raw: str) -> Any:
    """JSON with every non-integer number as a Decimal (never a float); raises ValueError."""
    return simplejson.loads(raw, parse_float=json_float, parse_int=json_int)


def dumps_exact(value: Any) -> str:
    return simplejson.dumps(value, use_decimal=True, separators=(",", ":"), ensure_ascii=False)


class LlmAnswerInvalid(Exception):
    """The model did not produce a usable answer (no answer, broken arguments, or failed checks)."""


def _question_key(text: str) -> str:
    return " ".join(text.lower().replace("?", " ").split())


class LlmIntentPlanner:
    """Plans intents with a chat model; build once per process and share it."""

    def __init__(
        self,
        registry: Registry,
        chat: ChatCompletions,
        balances: BalanceSource | None,
        *,
        lookup_timeout: float = 10.0,
    ) -> None:
        self.registry = registry
        self.chat = chat
        self.balances = balances
        self.lookup_timeout = lookup_timeout
        self.tools = _tools(registry)
        self.system = _system_prompt(registry)
        # The model's answer passes the same grounding check as the deterministic reader's.
        self.lexicon = Lexicon(RegistryUniverse(registry))

    async def run(self, request: IntentRequest, emit: Emit) -> IntentResponse:
        """Plan the request; emits progress and the final answer. An answer in prose, or one that fails
        the schema or registry checks, or that asks again a clarification the user answered, is asked for
        once more with the reason.

        Raises LlmAnswerInvalid when the retry is no better (the caller answers with the deterministic
        reading), or the chat client's LlmUnavailable / LlmFailed.
        """
        await emit("reasoning", {"text": "Asking the planning model about the request."})
        messages = self._messages(request)
        facts = facts_from_request(request)

        async def on_text(text: str) -> None:
            await emit("reasoning", {"text": text})

        retried = False
        for _ in range(MAX_ROUNDS + 1):  # one more round for the single retry
            completion = await self.chat.complete(messages, tools=self.tools, on_text=on_text)
            answer = next((c for c in completion.tool_calls if c.name == ANSWER_TOOL), None)
            asked = [c for c in completion.tool_calls if c.name == BALANCES_TOOL]
            if answer is not None:
                try:
                    response = await self._checked(answer.arguments, request, emit, facts)
                except LlmAnswerInvalid as exc:
                    if retried:
                        raise
                    retried = True
                    messages.append(completion.assistant_message())
                    for call in completion.tool_calls:
                        why = f"{exc}; call submit_intents again with arguments that follow its schema"
                        content = dumps_exact({"error": why if call is answer else "not run"})
                        messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
                    await emit(
                        "reasoning", {"text": "The model's answer did not pass the checks; asking once more."}
                    )
                    continue
                for sentence in _SENTENCE.split(response.reasoning):
                    if sentence:
                        await emit("delta", {"text": sentence + " "})
                await emit("final", response.wire())
                return response
            if not asked:
                # Prose instead of the answer tool: asked once more, then the caller falls back.
                if retried:
                    raise LlmAnswerInvalid(
                        "the model answered in prose twice instead of calling submit_intents"
                    )
                retried = True
                messages.append(completion.assistant_message())
                messages.append({"role": "user", "content": PROSE_RETRY})
                await emit(
                    "reasoning", {"text": "The model answered in prose; asking it for the structured answer."}
                )
                continue
            messages.append(completion.assistant_message())
            await emit("tool-start", {"tool": "fetch_balances"})
            failed: list[str] = []
            for call in asked:
                result = await self._balances(call.arguments, failed, facts)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
            await emit("tool-end", {"tool": "fetch_balances", "ok": not failed, "failed_chains": failed})
        raise LlmAnswerInvalid(f"no answer after {MAX_ROUNDS} tool rounds")

    async def _checked(
        self, arguments: str, request: IntentRequest, emit: Emit, facts: Facts
    ) -> IntentResponse:
        await emit("tool-start", {"tool": "resolve_assets"})
        try:
            data = loads_exact(arguments)
        except ValueError:
            raise LlmAnswerInvalid("the answer's arguments are not JSON") from None
        try:
            response = check_answer(data, request, self.registry)
        except InvalidAnswer as exc:
            raise LlmAnswerInvalid(f"the answer failed validation: {exc}") from None
        response = ground(response, request, self.lexicon, facts)
        if request.clarify_follow_up and response.clarifications and not response.intents:
            _, answered = split_answers(request.prompt)
            done = {_question_key(question) for question, _ in answered}
            again = [c.question for c in response.clarifications if _question_key(c.question) in done]
            if again:
                raise LlmAnswerInvalid(f"the model asked again what the user answered: {again[0]!r}")
        assets = sorted({i.asset for i in response.intents if i.asset})
        chains = sorted({c for i in response.intents for c in (i.chain, i.from_chain, i.to_chain) if c})
        await emit("tool-end", {"tool": "resolve_assets", "assets": assets, "chains": chains})
        await emit("tool-start", {"tool": "lookup_protocols"})
        protocols = sorted({i.protocol for i in response.intents if i.protocol})
        await emit("tool-end", {"tool": "lookup_protocols", "protocols": protocols})
        return response

    async def _balances(self, arguments: str, failed: list[str], facts: Facts) -> str:
        """The tool result for one get_balances call: holdings read over JSON-RPC, or why not."""
        try:
            args = json.loads(arguments, parse_float=json_float, parse_int=json_int)
            address, chain = str(args["address"]), str(args["chain"])
        except (ValueError, KeyError, TypeError):
            return dumps_exact({"error": "arguments must be {address, chain}"})
        if self.balances is None:
            failed.append(chain)
            return dumps_exact({"error": "balances cannot be read here; ask the user how much"})
        try:
            with trio.fail_after(self.lookup_timeout):
                found: Mapping[str, Decimal] = await self.balances.balances(address, chain)
        except Exception:  # a lookup boundary: the model is told the balance is unknown, never a number
            failed.append(chain)
            return dumps_exact({"error": f"could not read balances on {chain}; ask the user how much"})
        facts.balances[(address_key(address), chain)] = {
            symbol: Decimal(amount) for symbol, amount in found.items()
        }
        holdings = {symbol: f"{Decimal(amount).normalize():f}" for symbol, amount in found.items()}
        return dumps_exact({"address": address, "chain": chain, "balances": holdings})

    def _messages(self, request: IntentRequest) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = [{"role": "system", "content": self.system}]
        for who, text in recent_turns(request.conversation_context):
            messages.append({"role": "user" if who == "user" else "assistant", "content": text})
        facts: dict[str, Any] = {"wallets": [w.model_dump() for w in request.wallets]}
        if request.balances:
            facts["balances"] = [
                {**b.model_dump(exclude_none=True), "amount": f"{b.amount.normalize():f}"}
                for b in request.balances
            ]
        if request.clarify_follow_up:
            facts["note"] = (
                "The prompt ends with the user's answer to your clarification; do not ask it again."
            )
        content = f"{request.prompt}\n\n{dumps_exact(facts)}"
        messages.append({"role": "user", "content": content})
        return messages


def _system_prompt(registry: Registry) -> str:
    chains = ", ".join(chain.slug for chain in registry.chains())
    actions = "; ".join(
        f"{action}: {', '.join('|'.join(e) if isinstance(e, tuple) else e for e in fields)}"
        for action, fields in REQUIRED_FIELDS.items()
    )
    protocols = ", ".join(p.name for p in registry.protocols() if p.actions)
    return (
        "You turn a user's request about crypto assets into structured intents. You never sign or send "
        "anything. Answer only by calling submit_intents. "
        f"Chains (use these slugs): {chains}. Protocols: {protocols}. "
        f"Actions and their required fields: {actions}. "
        "Amounts are decimal strings in token units, or 'max' for everything, or 'chained' when a step uses "
        "the previous step's output. Never invent a balance: for half, a percentage or a dollar amount, "
        "use the balances given or call get_balances; if they cannot be read, ask a clarification of kind "
        "'amount'. When something needed is ambiguous (which chain, which wallet), return clarifications "
        "with options instead of intents. Keep reasoning short and plain."
    )


def _tools(registry: Registry) -> list[dict[str, Any]]:
    slugs = [chain.slug for chain in registry.chains()]
    text = {"type": "string"}
    intent = {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": list(ACTIONS)},
            **{name: dict(text) for name in _INTENT_FIELDS},
        },
        "required": ["action"],
        "additionalProperties": False,
    }
    option = {
        "type": "object",
        "properties": {"id": text, "label": text},
        "required": ["id", "label"],
    }
    clarification = {
        "type": "object",
        "properties": {
            "id": text,
            "kind": text,
            "question": text,
            "options": {"type": "array", "items": option},
        },
        "required": ["id", "kind", "question", "options"],
    }
    return [
        {
            "type": "function",
            "function": {
                "name": BALANCES_TOOL,
                "description": "Read the token balances of one wallet address on one chain.",
                "parameters": {
                    "type": "object",
                    "properties": {"address": text, "chain": {"type": "string", "enum": slugs}},
                    "required": ["address", "chain"],
                    "additionalProperties": False,
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": ANSWER_TOOL,
                "description": "Submit the answer: intents, or clarifications when the request is ambiguous.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "reasoning": text,
                        "suggested_name": text,
                        "intents": {"type": "array", "items": intent},
                        "clarifications": {"type": "array", "items": clarification},
                    },
                    "required": ["reasoning", "suggested_name", "intents", "clarifications"],
                    "additionalProperties": False,
                },
            },
        },
    ]
