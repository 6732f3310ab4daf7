"""The third sealed set: a held-out set (about 600 /intent and 250 /agents requests) and a small dev split,
written before the next change to the English reader by someone who neither changes the reader nor read
its source, with templates and surface forms of their own (sealed3_*.py).

Classes for /intent: amount forms (number words, decimal commas, suffixes, separators, Ξ, ratios before a
token), shares of a stated balance and of an unknown one, "all but N", dollar amounts, whole balances,
slang verbs, "buy X with Y", front-loaded chains, requests put as questions, corrections, "scratch that",
multi-step links, bridges, deposits, transfers, requests that must be asked about, one-off and repeating
times, conditions, out-of-scope requests, questions, chit-chat, zero/negative/over-100 % amounts and
typos. /agents: price levels and percent moves with direction words, follow-on actions, yields, gas,
health factors, portfolio moves, schedules, requests without a side or chain, and things no agent can
watch.

The held-out split is reported as figures only and never used to tune the reader; the dev split may be
read freely. No request is in both, and none repeats a request of any earlier set.

    python -m bench.understanding.sealed3   # rewrites bench/understanding/data/sealed3_*.jsonl
"""

from __future__ import annotations

from bench.understanding.generate import draw_sets, write
from bench.understanding.score import DATA, load
from bench.understanding.sealed3_agents import (
    t_follow_on,
    t_gas,
    t_health,
    t_level,
    t_move,
    t_no_side,
    t_portfolio,
    t_schedule,
    t_unwatchable,
    t_yield,
)
from bench.understanding.sealed3_forms import SEED, Row
from bench.understanding.sealed3_intents import (
    t_all_but,
    t_ambiguous,
    t_amount_forms,
    t_bridge,
    t_buy_with,
    t_correction,
    t_deposit,
    t_dollars,
    t_front_chain,
    t_link,
    t_question_request,
    t_scratch,
    t_share,
    t_share_unknown,
    t_slang,
    t_swap_then_bridge,
    t_transfer,
    t_whole,
)
from bench.understanding.sealed3_talk import (
    t_bad_amount,
    t_chat,
    t_conditional,
    t_out_of_scope,
    t_question,
    t_repeating,
    t_timed,
    t_typo,
)

INTENT_WEIGHTS = (
    (t_amount_forms, 4),
    (t_share, 2),
    (t_share_unknown, 1),
    (t_all_but, 2),
    (t_dollars, 2),
    (t_whole, 1),
    (t_slang, 2),
    (t_buy_with, 2),
    (t_front_chain, 2),
    (t_question_request, 2),
    (t_correction, 2),
    (t_scratch, 1),
    (t_link, 1),
    (t_swap_then_bridge, 1),
    (t_bridge, 2),
    (t_deposit, 2),
    (t_transfer, 2),
    (t_ambiguous, 2),
    (t_timed, 1),
    (t_repeating, 1),
    (t_conditional, 2),
    (t_out_of_scope, 1),
    (t_question, 1),
    (t_chat, 1),
    (t_bad_amount, 1),
    (t_typo, 1),
)
AGENT_WEIGHTS = (
    (t_level, 4),
    (t_move, 3),
    (t_follow_on, 3),
    (t_yield, 2),
    (t_gas, 1),
    (t_health, 2),
    (t_portfolio, 1),
    (t_schedule, 1),
    (t_no_side, 2),
    (t_unwatchable, 1),
)
SEALED3_INTENT_TEMPLATES = tuple((t, w, False) for t, w in INTENT_WEIGHTS)
SEALED3_AGENT_TEMPLATES = tuple((t, w, False) for t, w in AGENT_WEIGHTS)

# (set, seed, /intent rows, /agents rows); the dev split is drawn first so the held-out one avoids it
SEALED3_SETS = (("sealed3_dev", SEED, 100, 40), ("sealed3_heldout", SEED + 1, 600, 250))


def earlier_requests() -> set[str]:
    """Every request of the sets written before this one, so that none is repeated."""
    seen: set[str] = set()
    for path in DATA.glob("*.jsonl"):
        if path.name.startswith("sealed3_"):
            continue
        seen |= {row.get("prompt") or row["request"] for row in load(path.name.removesuffix(".jsonl"))}
    return seen


def generate_sealed3() -> dict[str, list[Row]]:
    return draw_sets(SEALED3_SETS, SEALED3_INTENT_TEMPLATES, SEALED3_AGENT_TEMPLATES, earlier_requests())


def main() -> None:
    write(generate_sealed3())


if __name__ == "__main__":
    main()
