"""The optional model path of plain-English POST /agents and PATCH /agents/{id}: an OpenAI-compatible chat
model restates the request, the deterministic compiler compiles the restatement.

The model answers with one `submit_agent` tool call whose arguments follow a JSON schema (the kind of
check, asset, direction, threshold, percent, chain, protocol, cadence, day, label, a follow-on action). The
arguments are validated, every value is grounded in the words (the request and its clarification
answers: a threshold must be a number written there, an asset, chain, protocol, day or wallet must be
named there), and the values are rendered into the plain English the compiler reads. The compiler then
does what it does for any request: validates, asks its own questions (whose options compile when picked)
or refuses. So the model can only restate; it cannot invent a value or arm something the compiler would
not. A value that is not in the words becomes a clarification naming it. Prose instead of the tool call,
arguments that break the schema, or a question the user already answered are asked for once more; a
second miss is answered by the deterministic compiler on the original words, which says so.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import Any, Final, Literal

from engine.agents import Compiled, NeedsClarification, PriceLookup, compile_request
from engine.agents.compiler import split_clarifications
from engine.agents.phrases import WINDOW_DAY, WINDOW_WEEK
from engine.agents.results import CompileResult
from engine.agents.scan import Scanner, normalize
from engine.agents.stated import Stated, stated
from engine.agents.vocabulary import vocabulary
from engine.numbers import json_float, json_int
from gateway.usecases.errors import NotRunning
from watchers.upstreams.llm import ChatCompletions

ANSWER_TOOL: Final = "submit_agent"
PROSE_RETRY: Final = (
    "Answer only by calling submit_agent, with the arguments its JSON schema describes; no prose."
)
FALLBACK_NOTE: Final = (
    "The agent model gave no usable answer; this is the deterministic reading of the request"
)
_KINDS: Final = (
    "price_level",
    "price_move",
    "ratio",
    "gas",
    "health",
    "yield",
    "portfolio_value",
    "portfolio_move",
    "schedule",
)
_DAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind"],
    "properties": {
        "kind": {"enum": list(_KINDS)},
        "asset": {"type": ["string", "null"], "description": "symbol of the watched asset, e.g. ETH"},
        "quote_asset": {"type": ["string", "null"], "description": "second asset of a ratio, e.g. BTC"},
        "direction": {"enum": ["above", "below", None]},
        "threshold": {"type": ["string", "null"], "description": "the level as written, in digits"},
        "percent": {"type": ["string", "null"], "description": "a percent move, in digits"},
        "chain": {"type": ["string", "null"]},
        "protocol": {"type": ["string", "null"]},
        "wallet": {
            "type": ["string", "null"],
            "description": "a watched wallet address named in the request",
        },
        "cadence": {"enum": ["daily", "weekly", "monthly", None]},
        "day_of_week": {"enum": [*_DAYS, None]},
        "day_of_month": {"type": ["integer", "null"], "minimum": 1, "maximum": 31},
        "label": {"type": ["string", "null"], "description": "what a reminder is about, in the user's words"},
        "follow_on_action": {"type": ["string", "null"], "description": "an action after the condition"},
        "window": {"enum": ["24h", "7d", None], "description": "the time window of a portfolio move"},
    },
}
_TOOLS: Final = [
    {
        "type": "function",
        "function": {
            "name": ANSWER_TOOL,
            "description": "The agent the request asks for; leave out (null) whatever the request does not say.",
            "parameters": _SCHEMA,
        },
    }
]
_SYSTEM: Final = (
    "You turn a plain-English request for a crypto alert or reminder into one call to submit_agent. Kinds: "
    "price_level (an asset above/below a USD price), price_move (an asset up/down a percent), ratio (asset/"
    "quote_asset above/below), gas (gas price in gwei on a chain), health (a lending health factor), yield "
    "(a pool's APY in percent), portfolio_value (the wallets' USD value), portfolio_move (the wallets' value "
    "moving a percent within 24h or 7d), schedule (a reminder). Copy every "
    "value from the request; write null for anything it does not say. Never invent an address, a number, a "
    "chain or a day."
)
_WORD: Final = re.compile(r"[a-z0-9']+")
# Contract: an answer is re-sent as "Clarification — <question>: <picked label>" on a line of its own.
_ANSWER_LINE: Final = re.compile(
    r"^[ \t]*clarification[ \t]*[\u2014\u2013:-]+[ \t]*(?P<question>.+?\?)?:[ \t]*(?P<label>[^\n]+)$",
    re.IGNORECASE | re.MULTILINE,
)


def _question_key(text: str | None) -> str:
    return " ".join((text or "").lower().replace("?", " ").split())


class LlmAgentAnswerInvalid(Exception):
    """The model gave no usable answer (prose, broken arguments, or a question the user answered)."""


def _loads(raw: str) -> Any:
    return json.loads(raw, parse_float=json_float, parse_int=json_int)


def _checked_fields(raw: str) -> dict[str, Any]:
    """The tool arguments as a dict that follows the schema; raises LlmAgentAnswerInvalid."""
    try:
        data = _loads(raw)
    except ValueError:
        raise LlmAgentAnswerInvalid("the answer's arguments are not JSON") from None
    if not isinstance(data, dict):
        raise LlmAgentAnswerInvalid("the answer's arguments are not an object")
    unknown = sorted(set(data) - set(_SCHEMA["properties"]))
    if unknown:
        raise LlmAgentAnswerInvalid(f"unknown fields {unknown}")
    if data.get("kind") not in _KINDS:
        raise LlmAgentAnswerInvalid("kind must be one of " + ", ".join(_KINDS))
    for name, spec in _SCHEMA["properties"].items():
        value = data.get(name)
        if value is None or name == "kind":
            continue
        allowed = spec.get("enum")
        if allowed is not None and value not in allowed:
            raise LlmAgentAnswerInvalid(f"{name} must be one of {[a for a in allowed if a]}")
        wanted = int if spec.get("type") == ["integer", "null"] else str
        if allowed is None and (not isinstance(value, wanted) or isinstance(value, bool)):
            raise LlmAgentAnswerInvalid(f"{name} must be a {wanted.__name__} or null")
    for name in ("threshold", "percent"):
        if data.get(name) is not None:
            try:
                Decimal(str(data[name]).replace(",", ""))
            except InvalidOperation:
                raise LlmAgentAnswerInvalid(f"{name} must be a number written in digits") from None
    return {name: value for name, value in data.items() if value is not None}


@dataclasses.dataclass(frozen=True)
class _Words:
    """What the request's own words name, read by the compiler's scanner."""

    text: str
    numbers: frozenset[Decimal]
    assets: frozenset[str]
    chains: frozenset[str]
    words: frozenset[str]
    windows: frozenset[str]
    # The chain the deterministic compiler reads in the same words ("eth gas" is Ethereum's gas).
    read_chains: frozenset[str] = frozenset()

    @classmethod
    def of(cls, text: str, read_chain: str | None = None) -> _Words:
        normalized = normalize(text)
        scanner = Scanner(normalized)
        assets = frozenset(mention.asset.symbol for mention in scanner.take_assets())
        chains = frozenset(mention.chain for mention in Scanner(normalized).take_chains(bare=True))
        numbers = frozenset(number.value for number in Scanner(normalized).take_numbers())
        windows = frozenset(
            name for name, pattern in (("24h", WINDOW_DAY), ("7d", WINDOW_WEEK)) if pattern.search(normalized)
        )
        read = frozenset({read_chain} if read_chain else ())
        return cls(normalized, numbers, assets, chains, frozenset(_WORD.findall(normalized)), windows, read)


def _chain_read(result: CompileResult) -> str | None:
    """The chain of a compiled result (an agent's or its condition metric's), or None."""
    if not isinstance(result, Compiled):
        return None
    chain = getattr(result.agent, "chain", None)
    if chain is None and result.condition is not None:
        chain = getattr(result.condition.metric, "chain", None)
    return chain if isinstance(chain, str) else None


def _ungrounded(fields: dict[str, Any], words: _Words, wallets: Sequence[str]) -> tuple[str, str] | None:
    """The first (field, value) of the answer that the words do not name, or None."""
    if "contradicted_direction" in fields:
        return "direction", fields["contradicted_direction"]
    # 24h is the contract's default window: a model may state it where the words name none.
    if "window" in fields and fields["window"] not in (words.windows or {"24h"}):
        return "window", fields["window"]
    for name in ("threshold", "percent"):
        if name in fields and Decimal(str(fields[name]).replace(",", "")) not in words.numbers:
            return name, str(fields[name])
    for name in ("asset", "quote_asset"):
        if name in fields and str(fields[name]).upper() not in words.assets:
            return name, str(fields[name])
    if "chain" in fields and str(fields["chain"]).lower() not in words.chains | words.read_chains:
        return "chain", str(fields["chain"])
    protocol = str(fields.get("protocol", "")).lower()
    if protocol:
        known = vocabulary().yield_protocols.get(protocol)
        names = known.aliases if known is not None else (protocol,)
        if not any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", words.text) for name in names):
            return "protocol", protocol
    wallet = str(fields.get("wallet", ""))
    if wallet and wallet.lower() not in words.text and wallet not in wallets:
        return "wallet", wallet
    day = fields.get("day_of_week")
    if day and not any(word.startswith(day) for word in words.words):
        return "day_of_week", str(day)
    if "day_of_month" in fields and Decimal(fields["day_of_month"]) not in words.numbers | _ordinals(words):
        return "day_of_month", str(fields["day_of_month"])
    for name in ("label", "follow_on_action"):
        missing = [w for w in _WORD.findall(str(fields.get(name, "")).lower()) if w not in words.words]
        if missing:
            return name, str(fields[name])
    return None


def _as_stated(fields: dict[str, Any], said: Stated) -> dict[str, Any]:
    """The answer held to what the words state, as the compiler reads them. A side is the words' side:
    one the words do not state is left out (so the compiler asks it, with options that compile), one
    they contradict stays and is asked about by the grounding check, and one the model left out is the
    words' own. A follow-on action or a portfolio window the model left out is the words' own, so an
    action the user asked for never vanishes."""
    out = dict(fields)
    side = next(iter(said.sides)) if len(said.sides) == 1 else None
    if said.either_way and out["kind"] == "portfolio_move":
        out["direction"] = "either"
    elif out.get("direction") is None and side is not None:
        out["direction"] = side
    elif out.get("direction") is not None and side is None:
        del out["direction"]  # no side, or both: the compiler asks
    elif out.get("direction") is not None and out["direction"] != side:
        out["contradicted_direction"] = out["direction"]
    if "follow_on_action" not in out and said.action:
        out["follow_on_action"] = said.action
    if "window" not in out and len(said.windows) == 1:
        out["window"] = next(iter(said.windows))
    return out


def _ordinals(words: _Words) -> frozenset[Decimal]:
    found = {Decimal(int(m.group(1))) for m in re.finditer(r"\b(\d{1,2})(?:st|nd|rd|th)\b", words.text)}
    return frozenset(found | ({Decimal(1)} if "first" in words.words else set()))


def render(fields: dict[str, Any]) -> str:
    """The plain English the compiler reads for the answer's fields; what the fields leave out stays out,
    so the compiler asks for it."""
    kind = fields["kind"]
    asset, direction = fields.get("asset", ""), fields.get("direction")
    if direction == "either" and kind != "portfolio_move":
        direction = None
    level = f"is {direction}" if direction else "hits"
    threshold = fields.get("threshold", "")
    chain = f" on {fields['chain']}" if fields.get("chain") else ""
    if kind == "price_level":
        text = f"alert me when {asset} {level} {threshold}"
    elif kind == "price_move":
        move = {"above": "rises", "below": "falls"}.get(direction or "", "moves")
        text = f"alert me when {asset} {move} {fields.get('percent', '')}%"
    elif kind == "ratio":
        text = f"alert me when {asset}/{fields.get('quote_asset', '')} {level} {threshold}"
    elif kind == "gas":
        text = f"alert me when gas{chain} {level} {threshold} gwei"
    elif kind == "health":
        text = f"alert me when my {fields.get('protocol', '')} health factor{chain} is below {threshold}"
    elif kind == "yield":
        text = f"alert me when the {fields.get('protocol', '')} {asset} apy{chain} {level} {threshold}%"
    elif kind == "portfolio_value":
        text = f"alert me when my portfolio {level} {threshold}"
    elif kind == "portfolio_move":
        move = {"above": "rises", "below": "falls", "either": "moves"}.get(direction or "", "moves")
        way = " either way" if direction == "either" else ""
        window = {"24h": " in 24 hours", "7d": " in 7 days"}.get(fields.get("window") or "", "")
        text = f"alert me when my portfolio {move} {fields.get('percent', '')}%{way}{window}"
    else:
        text = f"remind me {_cadence(fields)} to {fields.get('label', 'check')}"
    if fields.get("wallet"):
        text += f" for {fields['wallet']}"
    if fields.get("follow_on_action"):
        text += f" then {fields['follow_on_action']}"
    return " ".join(text.split())


def _cadence(fields: dict[str, Any]) -> str:
    cadence = fields.get("cadence")
    if cadence == "weekly":
        return f"every {fields['day_of_week']}" if fields.get("day_of_week") else "every week"
    if cadence == "monthly":
        day = fields.get("day_of_month")
        return f"on the {day}{_suffix(day)} of every month" if day else "every month"
    return "every day" if cadence == "daily" else ""


def _suffix(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


# Current USD prices by CoinGecko id, read from the price source the watchers read (bounded in time); an id
# it could not price is left out.
PriceReader = Callable[[Sequence[str]], Awaitable[Mapping[str, Decimal]]]


async def compile_with_prices(
    compile_with: Callable[[PriceLookup | None], CompileResult], prices: PriceReader | None
) -> CompileResult:
    """Compile with no prices; when the answer is a question the current prices would settle (a level's
    side) and `prices` can read them, read them and compile again with them."""
    result = compile_with(None)
    if prices is None or not isinstance(result, NeedsClarification) or not result.prices:
        return result
    known = await prices(result.prices)
    return compile_with(known.get) if known else result


class LlmAgentCompiler:
    """Compiles plain-English agent requests through a chat model's restatement; build once, share it."""

    def __init__(self, chat: ChatCompletions) -> None:
        self.chat = chat

    async def compile(
        self, text: str, wallets: list[str], prices: PriceReader | None = None
    ) -> CompileResult:
        """The compiled result of the model's restatement (see the module docstring), with `prices` read
        when they settle a question. Raises LlmAgentAnswerInvalid after a second unusable answer, or the
        chat client's LlmUnavailable / LlmFailed."""
        original, labels = split_clarifications(text)
        lines = [match.group(0).strip() for match in _ANSWER_LINE.finditer(text)]
        answered = {_question_key(match.group("question")) for match in _ANSWER_LINE.finditer(text)}
        words = _Words.of(" | ".join([original, *labels]), _chain_read(compile_request(text, wallets)))
        said = stated(text)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": _SYSTEM},
            {"role": "user", "content": text},
        ]
        for attempt in range(2):
            completion = await self.chat.complete(messages, tools=_TOOLS)
            call = next((c for c in completion.tool_calls if c.name == ANSWER_TOOL), None)
            try:
                if call is None:
                    raise LlmAgentAnswerInvalid("the model answered in prose instead of calling submit_agent")
                fields = _as_stated(_checked_fields(call.arguments), said)
                missing = _ungrounded(fields, words, wallets)
                if missing is not None:
                    name, value = missing
                    # Ends in "?" so that an answer line carries it and it is known as answered.
                    field = name.replace("_", " ")
                    question = f'The request does not say "{value}" for the {field}. What should it be?'
                    if _question_key(question) in answered:
                        raise LlmAgentAnswerInvalid(
                            f"the answer asks again what the user answered: {question!r}"
                        )
                    return NeedsClarification.ask(question)
                restated = "\n\n".join([render(fields), *lines])
                result = await compile_with_prices(partial(compile_request, restated, wallets), prices)
                if isinstance(result, NeedsClarification) and _question_key(result.question) in answered:
                    raise LlmAgentAnswerInvalid(
                        f"the answer asks again what the user answered: {result.question!r}"
                    )
                return result
            except LlmAgentAnswerInvalid as exc:
                if attempt:
                    raise
                messages.append(completion.assistant_message())
                if call is None:
                    messages.append({"role": "user", "content": PROSE_RETRY})
                else:
                    why = json.dumps({"error": f"{exc}; call submit_agent again following its schema"})
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": why})
        raise LlmAgentAnswerInvalid("no answer")  # pragma: no cover - the loop returns or raises


@dataclasses.dataclass
class AgentCompiler:
    """Compiles plain-English agent requests on the configured backend; the deterministic compiler needs
    no upstream."""

    default_backend: Literal["deterministic", "llm"] = "deterministic"
    llm: LlmAgentCompiler | None = None

    async def compile(
        self, text: str, wallets: list[str], prices: PriceReader | None = None
    ) -> CompileResult:
        """Raises NotRunning when the model backend is configured without a model endpoint; the chat
        client's own errors propagate. A model that gives no usable answer twice is answered by the
        deterministic compiler, whose compiled result says so in its note. `prices` reads current prices
        when they settle a question (a level's side)."""

        deterministic = partial(compile_request, text, wallets)
        if self.default_backend == "deterministic":
            return await compile_with_prices(deterministic, prices)
        if self.llm is None:
            raise NotRunning("The agent model is not configured here (llm_base_url and llm_model).")
        try:
            return await self.llm.compile(text, wallets, prices)
        except LlmAgentAnswerInvalid as exc:
            result = await compile_with_prices(deterministic, prices)
            if isinstance(result, Compiled):
                note = f"{FALLBACK_NOTE} ({exc})." + (f" {result.note}" if result.note else "")
                return dataclasses.replace(result, note=note)
            return result
