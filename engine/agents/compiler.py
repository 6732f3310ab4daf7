"""The plain-English agent compiler: request text in, a compiled agent, a clarification or a refusal out.

Pure and rule-based. It FAILS CLOSED: it compiles only when every part of the request is understood and
every field of the result is read from the request (see `Compiled.evidence`) or fixed by a contract rule
(the 12:00 UTC schedule anchor, the defaults of typed fields); anything else is a clarification question
or a refusal. It never arms a check it does not understand.
"""

from __future__ import annotations

import dataclasses
import re

from engine.agents.conditions import (
    Condition,
    HealthFactorMetric,
    Metric,
    PriceMetric,
    YieldPoolMetric,
)
from engine.agents.context import Address, PriceLookup, Request
from engine.agents.corrections import WITHDRAWN
from engine.agents.kinds import HEALTH_PROTOCOLS, Kind
from engine.agents.leftovers import blocking_words, unread_words
from engine.agents.models import HealthAgentCreate, PriceAgentCreate, YieldAgentCreate
from engine.agents.phrases import (
    ABOVE,
    ANY_DIRECTION,
    BELOW,
    CHECK_DAILY,
    CHECK_HOURLY,
    DISJUNCTION,
    DISJUNCTION_ALLOWED,
    DOWN,
    GAS,
    HEALTH,
    LEADING_ACTION,
    LOAN_AT_RISK,
    MOVE,
    MY_WALLET,
    NEGATION,
    NEUTRAL_LEVEL,
    NEWS,
    PORTFOLIO,
    SAME_CONDITION,
    TRAILING_ACTION,
    UP,
    YIELD,
)
from engine.agents.prepare import prepare
from engine.agents.readings import settle_readings
from engine.agents.results import Compiled, CompileResult, NeedsClarification, Unwatchable
from engine.agents.rules_lending import compile_health, compile_yield
from engine.agents.rules_market import compile_gas, compile_price, compile_ratio, find_ratio
from engine.agents.rules_portfolio import compile_portfolio
from engine.agents.rules_schedule import (
    DAY_OF_MONTH,
    TIME_OF_DAY,
    compile_schedule,
    is_schedule_phrase,
    take_label,
)
from engine.agents.scan import AssetMention, Scanner, Span, find_addresses, normalize, unclear_scale
from engine.agents.vague import WATCHABLE, misheard_asset, nothing_named, unwatched_metric
from engine.agents.vocabulary import vocabulary
from engine.agents.wallets import is_evm_address, is_solana_address
from engine.intents.wording import CHAT_FILLER

# contract: "Clarification — <question>: <picked label>"; any dash is accepted.
_CLARIFICATION_LINE = re.compile(r"^\s*clarification\s*[\u2014\u2013-]+\s*(?P<rest>.*)$", re.IGNORECASE)
# Joins the original request and each answer; no rule reads across it.
SEPARATOR = " | "


def split_clarifications(text: str) -> tuple[str, list[str]]:
    """Split a request into the original text and the picked labels of its clarification answers.

    The question part of each answer line is dropped: only what the user wrote or picked is read.
    """
    original: list[str] = []
    answers: list[str] = []
    for line in text.splitlines():
        match = _CLARIFICATION_LINE.match(line)
        if match is None:
            original.append(line)
            continue
        rest = match.group("rest")
        cut = rest.rfind("?:")
        if cut >= 0:
            answers.append(rest[cut + 2 :].strip())
        elif ": " in rest:
            answers.append(rest.split(": ", 1)[1].strip())
        else:
            answers.append(rest.strip())
    return "\n".join(original).strip(), [a for a in answers if a]


def compile_request(text: str, wallets: list[str], prices: PriceLookup | None = None) -> CompileResult:
    """Compile a plain-English agent request for `wallets` (already validated, 1 to 10 addresses).

    Returns Compiled, NeedsClarification (answer by re-sending the original text + a blank line +
    "Clarification — <question>: <picked label>") or Unwatchable. Never raises on any text. Every option
    of a clarification compiles, or asks onward, when it is picked: an option that would not is left
    out, and a question none of whose options would is answered with the reason instead. `prices` gives
    the current USD price by CoinGecko id where the caller can read one (a level with no side takes its
    side from it); a question it would settle names the ids it needs (`NeedsClarification.prices`).
    """
    return _checked(text, wallets, _OPTION_DEPTH, prices)


# How many answers deep an option is followed before it is offered: an option whose reply is a question
# whose own options all fail would lead to a 422 one step later, so the reply is checked the same way.
_OPTION_DEPTH = 3


def _checked(text: str, wallets: list[str], depth: int, prices: PriceLookup | None) -> CompileResult:
    result = _compile(text, wallets, prices)
    if not isinstance(result, NeedsClarification) or not result.options or depth == 0:
        return result
    kept: list[str] = []
    failure: CompileResult | None = None
    for option in result.options:
        follow = f"{text}\n\nClarification \u2014 {result.question}: {option.label}"
        reply = _checked(follow, wallets, depth - 1, prices)
        if isinstance(reply, Compiled) or (
            isinstance(reply, NeedsClarification) and reply.question != result.question
        ):
            kept.append(option.label)
        elif failure is None:
            failure = reply
    if not kept and failure is not None:
        return failure
    return NeedsClarification.ask(result.question, kept, result.prices)


# A figure in a currency other than the US dollar ("500 quid", "£500", "2.800 €", "CHF 500").
_CURRENCY_WORDS = (
    r"quid|pounds?|gbp|euros?|eur|chf|francs?|yen|jpy|rupees?|inr|rs|cad|aud|brl|reais|pesos?|naira|rand|"
    r"krw|sgd|rupiah|zloty|zlotys|lira|shillings|yuan|rmb|rubles?|roubles?"
)
_FOREIGN_FIGURE = re.compile(
    rf"[\u20ac\u00a3\u00a5\u20b9]\s?\d[\d.,']*\s?k?|\b\d[\d.,']*\s?k?\s?(?:[\u20ac\u00a3]|\b(?:{_CURRENCY_WORDS})\b)"
    rf"|\b(?:{_CURRENCY_WORDS})\s?\d[\d.,']*",
    re.IGNORECASE,
)
_IN_DOLLARS = "in US dollars"


def _compile(text: str, wallets: list[str], prices: PriceLookup | None) -> CompileResult:
    original, answers = split_clarifications(text)
    if not original:
        if answers:
            return Unwatchable(
                "the request only answers a clarification; send the original request with the answer"
            )
        return Unwatchable(f"the request is empty; describe a condition on {WATCHABLE}")
    prepared = prepare(original)
    if prepared.text == WITHDRAWN:
        return Unwatchable("the request was withdrawn later in the message; nothing is left to watch")
    raw = SEPARATOR.join([" ".join(prepared.text.split()), *answers])
    request = Request(
        text=normalize(raw), scanner=Scanner(normalize(raw)), wallets=tuple(wallets), price_of=prices
    )
    if not request.wallets:
        return Unwatchable("an agent needs at least one wallet")
    unclear = unclear_scale(request.text)
    if unclear is not None:
        return Unwatchable(f'"{unclear}" may mean thousands or "ok"; write the number in full (such as 4000)')
    two_ways = settle_readings(request, SEPARATOR)
    if two_ways is not None:
        return two_ways
    request.addresses = _take_addresses(request, raw)
    dropped = drop_action(request)
    if isinstance(dropped, Unwatchable):
        return dropped
    if dropped is not None and _ACTION_CONDITION.search(dropped):
        # "buy if it drops again", "sell unless btc is down": a condition inside the action would go
        # unwatched, so the request is refused rather than armed on half of it.
        return Unwatchable(
            f'the follow-on action "{dropped}" carries a condition of its own; create one agent per condition'
        )
    refusal = _refuse_unsafe_logic(request) or _priced_in_an_asset(request)
    if refusal is not None:
        return refusal
    foreign = _FOREIGN_FIGURE.search(original)
    if foreign is not None and not any(_IN_DOLLARS in answer for answer in answers):
        # "if BNB falls under 500 quid": prices are watched in US dollars; £500 read as $500 would fire at
        # the wrong level, so the currency is asked, never assumed.
        return NeedsClarification.ask(
            f'Alerts watch prices in US dollars. Should "{foreign.group(0).strip()}" be read as US dollars?',
            [f"Yes, {_IN_DOLLARS}"],
        )
    result = _dispatch(request)
    aside: list[str] = list(prepared.set_aside)
    if isinstance(result, Compiled):
        unread = unread_words(request, result)
        # A reminder is about what its label says ("check my aave"): names beside a label are its subject;
        # without one ("bitcoin daily") a name may be what was meant to be watched.
        schedule = result.kind is Kind.SCHEDULE and bool(getattr(result.agent, "label", None))
        blocking = blocking_words(request.text, unread, schedule)
        if blocking:
            shown = ", ".join(repr(word) for word in blocking[:5])
            return Unwatchable(
                f"part of the request was not understood ({shown}); it would not be watched as asked"
            )
        aside += unread
        if aside:
            quoted = ", ".join(f'"{item}"' for item in aside[:6])
            note = f"Set aside, as they change nothing watched: {quoted}."
            result = dataclasses.replace(result, note=f"{result.note} {note}" if result.note else note)
    if isinstance(result, Compiled) and dropped is not None:
        note = dropped_note(dropped) + (f" {result.note}" if result.note else "")
        return dataclasses.replace(result, dropped_action=dropped, note=note)
    return result


def dropped_note(action: str) -> str:
    """The compile note's sentence on a follow-on action the compiler dropped (it opens the note; a caller
    that reads the action into a remedy replaces this sentence and keeps the rest)."""
    return f'Phase A is notify-only: the follow-on action "{action}" was dropped; this agent only notifies.'


def compile_condition(text: str, wallets: list[str], prices: PriceLookup | None = None) -> CompileResult:
    """Compile a request for an existing `condition` agent (PATCH with `request`): like compile_request,
    but a result of a typed kind is restated as the equivalent Condition so the agent keeps its kind and
    id. Percent moves, portfolio moves and schedules have no condition form and are Unwatchable."""
    result = compile_request(text, wallets, prices)
    if not isinstance(result, Compiled) or result.agent is None:
        return result
    agent = result.agent
    metric: Metric
    if isinstance(agent, PriceAgentCreate) and agent.pct_change is None:
        metric = PriceMetric(coingecko_id=agent.coingecko_id, symbol=agent.asset_symbol)
        comparator = agent.condition
    elif isinstance(agent, HealthAgentCreate):
        protocol = agent.lending_protocol
        metric = HealthFactorMetric(protocol=protocol, chain=agent.chain, wallet=agent.watched_wallet)
        comparator = "below"
    elif isinstance(agent, YieldAgentCreate):
        display = next(
            (p.display for p in vocabulary().yield_protocols.values() if p.project == agent.protocol),
            agent.protocol,
        )
        metric = YieldPoolMetric(
            project=agent.protocol,
            protocol_display=display,
            chain=agent.chain,
            asset=agent.asset,
            metric=agent.metric,
            pool_id=agent.pool_id,
        )
        comparator = agent.condition
    else:
        return Unwatchable(
            f"a {result.kind.value} request cannot replace a condition agent's check; create a new agent for it"
        )
    condition = Condition(metric=metric, comparator=comparator, threshold=agent.threshold)
    return dataclasses.replace(
        result, kind=Kind.CONDITION, agent=None, condition=condition, rendered=condition.render()
    )


def _take_addresses(request: Request, raw: str) -> tuple[Address, ...]:
    found: list[Address] = []
    for _, address in find_addresses(raw):
        evm = is_evm_address(address)
        if not evm and not is_solana_address(address):
            continue
        for span in request.scanner.take(re.compile(re.escape(address.lower()))):
            found.append(Address(span, address, evm))
    return tuple(found)


# A condition word inside a follow-on action: a second condition, not part of the deed.
_ACTION_CONDITION = re.compile(r"\b(?:if|when|whenever|once|unless|except|as soon as|until)\b")


def drop_action(request: Request) -> str | None | Unwatchable:
    """Consume a follow-on action ("... and then sell", "sell my eth when ..."); Phase A drops it."""
    scanner = request.scanner
    leading = LEADING_ACTION.search(scanner.remaining)
    if leading is not None:
        start, end = leading.start("verb"), leading.start("cond")
        if leading.start() < start:
            scanner.mask(leading.start(), start)  # the openers ("planning to", "hiya, 🙂")
        clause = scanner.mask(start, end)
        request.action_assets = tuple(Scanner(clause.text).take_assets())
        return clause.text.strip()
    trailing = TRAILING_ACTION.search(scanner.remaining)
    if trailing is None:
        return None
    start = trailing.start("verb")
    if trailing.start() < start:
        scanner.mask(trailing.start(), start)  # the joiner and the lead-in ("and then i'll")
    stop = request.text.find(SEPARATOR.strip(), start)
    end = len(request.text) if stop < 0 else stop
    action = scanner.mask(start, _action_end(request.text, start, end)).text
    return SAME_CONDITION.sub("", action).strip(" .,;!?")


# An ask to be told after the action ("... swap 1 eth to usdc and ping me") belongs to the alert: the action
# ends before it, and the alert reads it as its framing.
_TELL_ME_AFTER = re.compile(
    r"(?:\s*[,;]\s*|[\s,;]+(?:and|&|\+|then|and then)\s+)"
    r"(?:(?:ping|notify|tell|alert|text|dm|msg|message|warn|buzz|email)\s+me\b|let me know\b|lmk\b)"
)


def _action_end(text: str, start: int, end: int) -> int:
    """Where a trailing follow-on action ends: before an ask to be told and before chat filler or emoji
    at its end ("repay 200 dai pls 🙏"), so the action handed to the intent reader is only the action."""
    tell = _TELL_ME_AFTER.search(text, start, end)
    if tell is not None:
        end = tell.start()
    words = text[start:end].split(" ")
    while len(words) > 1 and (not any(ch.isalnum() for ch in words[-1]) or words[-1] in CHAT_FILLER):
        words.pop()
    return start + len(" ".join(words))


def _refuse_unsafe_logic(request: Request) -> Unwatchable | None:
    remaining = request.scanner.remaining
    if NEGATION.search(remaining):
        return Unwatchable("negated or exception wording (not, unless, except) cannot be watched safely")
    if DISJUNCTION.search(DISJUNCTION_ALLOWED.sub(" ", remaining)):
        return Unwatchable("'or' joins several conditions; create one agent per condition")
    return None


def _priced_in_an_asset(request: Request) -> Unwatchable | None:
    """A level written in a token that is no dollar ("floor below 10 eth"): the agents watch USD prices, so
    reading it as a price in dollars would watch something else; a ratio says it ("eth/btc below 0.05")."""
    remaining = request.scanner.remaining
    # A protocol's name after a health factor or a yield ("hf < 1.15 aave mainnet") is the protocol.
    lending = HEALTH.search(remaining) is not None or YIELD.search(remaining) is not None
    for match in re.finditer(
        r"(?<![\w.])\$?\d(?:[\d.,]*\d)?\s?(?:k|m)?\s+([a-z][a-z0-9]*)(?![\w/])", remaining
    ):
        asset = _NON_DOLLAR.get(match.group(1))
        if lending and match.group(1) in _PROTOCOL_NAMES:
            continue
        if asset is not None and not _AMOUNT_OF.search(remaining[: match.start()]):
            return Unwatchable(
                f"the level {match.group(0).strip()} is priced in {asset}; agents watch prices in US dollars "
                f"(for one asset priced in another, ask for a ratio such as ETH/BTC below 0.05)"
            )
    return None


def _non_dollar_names() -> dict[str, str]:
    stable = {"usdc", "usdt", "dai", "usds", "usde", "fdusd", "tusd", "busd", "pyusd"}
    return {
        alias.lower(): asset.symbol
        for asset in vocabulary().assets
        if asset.symbol.lower() not in stable
        for alias in (asset.symbol, *asset.aliases)
    }


_NON_DOLLAR = _non_dollar_names()
_PROTOCOL_NAMES = frozenset(alias for p in vocabulary().yield_protocols.values() for alias in p.aliases)
# A deed's amount, not a level ("sell 2 eth", "send 0.1 eth to my savings"): the verb before it.
_AMOUNT_OF = re.compile(
    r"\b(?:buy|sell|swap|of|send|transfer|bridge|deposit|withdraw|repay|stake|unstake|borrow|lend|supply|pay|"
    r"give|move|convert|dca)\s*$"
)


def _check_cadence(request: Request) -> str | None | Unwatchable:
    hourly, daily = request.scanner.find(CHECK_HOURLY), request.scanner.find(CHECK_DAILY)
    if hourly and daily:
        return Unwatchable("the request names two check cadences")
    span, cadence = (hourly[0], "hourly") if hourly else (daily[0], "daily") if daily else (None, None)
    if span is not None and cadence is not None:
        request.cite("cadence", span, cadence)
    return cadence


def _dispatch(request: Request) -> CompileResult:
    scanner = request.scanner
    unwatched = unwatched_metric(request)
    if unwatched is not None:
        return unwatched
    misheard = _misheard_subject(request)
    if misheard is not None:
        return misheard
    label = None
    if is_schedule_phrase(request):
        label = take_label(request)
        if not _is_measurable(request, label):
            return compile_schedule(request, label)
    families = [
        name for name, pattern in (("gas", GAS), ("health", HEALTH), ("yield", YIELD)) if scanner.has(pattern)
    ]
    if "health" not in families and scanner.has(LOAN_AT_RISK) and _names_a_lender(scanner.remaining):
        families.append("health")
    if scanner.has(PORTFOLIO) or (
        not families and scanner.has(MY_WALLET) and not Scanner(scanner.remaining).take_assets()
    ):
        families.append("portfolio")
    ratio = find_ratio(request)
    if isinstance(ratio, Unwatchable):
        return ratio
    if ratio is not None:
        families.append("ratio")
    if len(families) > 1:
        return Unwatchable(
            f"the request names several metrics ({', '.join(families)}); create one agent per condition"
        )
    if label is not None and not families:
        return Unwatchable("a reminder with a condition is not supported; create a price alert or a schedule")
    check_cadence: str | None = None
    if "portfolio" not in families:
        cadence = _check_cadence(request)
        if isinstance(cadence, Unwatchable):
            return cadence
        check_cadence = cadence
    if families == ["gas"]:
        return compile_gas(request, check_cadence)
    if families == ["health"]:
        return compile_health(request, check_cadence)
    if families == ["yield"]:
        return compile_yield(request, check_cadence)
    if families == ["ratio"]:
        assert ratio is not None
        return compile_ratio(request, ratio, check_cadence)
    mentions: list[AssetMention] = scanner.take_assets() or list(request.action_assets)
    if families == ["portfolio"]:
        return compile_portfolio(request, mentions, None)
    if mentions:
        return compile_price(request, mentions, check_cadence)
    if scanner.has(NEWS):
        return Unwatchable("news agents cannot be created through the API; describe a measurable condition")
    asked = misheard_asset(scanner.remaining) or nothing_named(request)
    if asked is not None:
        return asked
    return Unwatchable(f"the request has no measurable condition; watchable are {WATCHABLE}")


def _misheard_subject(request: Request) -> NeedsClarification | None:
    """A word that may be a token's name misheard, standing where a token would in a request that names no
    token and no other metric but says a level or a move ("ping me when soul moves ten percent"): asked as
    "did you mean" before a reminder could take the request as its label."""
    remaining = request.scanner.remaining
    probe = Scanner(remaining)
    if probe.take_assets() or any(probe.has(p) for p in (GAS, HEALTH, YIELD, PORTFOLIO, MY_WALLET)):
        return None
    if not any(probe.has(p) for p in (ABOVE, BELOW, NEUTRAL_LEVEL, UP, DOWN, MOVE)):
        return None
    return misheard_asset(remaining)


def _names_a_lender(text: str) -> bool:
    """Whether a text names a lending protocol whose health factor agents read (Aave, Spark)."""
    return any(m.protocol.name in HEALTH_PROTOCOLS for m in Scanner(text).take_protocols())


def _is_measurable(request: Request, label: Span | None = None) -> bool:
    """Whether the request (outside a reminder's label) states a metric with an amount or a move."""
    probe = Scanner(request.scanner.remaining)
    probe.take(TIME_OF_DAY)  # "daily 8am", "on day 15": times and dates are no amounts
    probe.take(DAY_OF_MONTH)
    if any(probe.has(p) for p in (GAS, HEALTH, YIELD)):
        return True
    if probe.has(PORTFOLIO):
        # "daily 8am Chicago time send me my balance", "a monthly portfolio statement on the 1st": a summary
        # on a schedule; with an amount or a move ("my portfolio drops 10% in a week") it is an alert.
        sized = any(probe.has(p) for p in (ABOVE, BELOW, NEUTRAL_LEVEL, UP, DOWN, MOVE, ANY_DIRECTION))
        return sized or bool(Scanner(probe.remaining).take_numbers())
    levels = (ABOVE, BELOW, NEUTRAL_LEVEL)
    if probe.has(MY_WALLET) and any(probe.has(p) for p in levels) and probe.take_numbers():
        return True  # "ping me when my wallet is worth over 15k": a value, not a reminder
    moves = probe.has(MY_WALLET) and any(probe.has(p) for p in (ANY_DIRECTION, UP, DOWN))
    if moves and any(n.unit == "%" for n in Scanner(probe.remaining).take_numbers()):
        return True  # "ping me when my wallet swings 20% either way": a move, not a reminder
    if not probe.take_assets():
        return False
    # "ping me when eth dumps": a move with its size left open is asked as an alert, not read as a label.
    return bool(probe.take_numbers()) or (label is None and any(probe.has(p) for p in (UP, DOWN)))
