"""The second sealed set: a held-out set (about 600 /intent and 250 /agents requests) and a small dev
split, written before the next change to the English reader by someone who does not change it, from
templates and surface forms of their own (sealed2_*.py), not those of the earlier sets.

Classes, drawn with equal weight for /intent: number words, decimal commas, suffixes and separators,
shares of a balance, dollar amounts, "all but N", whole balances, slang verbs, sentence shape
(front-loaded chains, questions that are requests, run-ons), corrections, multi-step links, transfers in
several word orders, waits (conditions, one-off and repeating times), out-of-scope talk, requests that
must be asked about, zero/negative/over-100% amounts, and typos. /agents: price levels and moves with
direction words, follow-on actions, yields, gas, health factors, requests without a direction or chain,
and things no agent can watch.

The held-out split is reported as figures only and never used to tune the reader; the dev split may be
read freely. No request is in both, and none repeats an earlier set's request.

    python -m bench.understanding.sealed2   # rewrites bench/understanding/data/sealed2_*.jsonl
"""

from __future__ import annotations

from bench.understanding.generate import draw_sets, write
from bench.understanding.sealed2_agent_templates import SEALED2_AGENT_TEMPLATES
from bench.understanding.sealed2_forms import SEED, Row
from bench.understanding.sealed2_intent_shapes import SHAPE_TEMPLATES, t_typo
from bench.understanding.sealed2_intent_templates import (
    t_all,
    t_all_but,
    t_decimal_comma,
    t_dollars,
    t_fraction,
    t_number_words,
    t_suffix,
)

AMOUNT_TEMPLATES = (t_number_words, t_decimal_comma, t_suffix, t_fraction, t_dollars, t_all_but, t_all)
SEALED2_INTENT_TEMPLATES = tuple((t, 1, False) for t in (*AMOUNT_TEMPLATES, *SHAPE_TEMPLATES, t_typo))

# (set, seed, /intent rows, /agents rows); the dev split is drawn first so the held-out one avoids it
SEALED2_SETS = (("sealed2_dev", SEED, 100, 40), ("sealed2_heldout", SEED + 1, 600, 250))


def generate_sealed2() -> dict[str, list[Row]]:
    return draw_sets(SEALED2_SETS, SEALED2_INTENT_TEMPLATES, SEALED2_AGENT_TEMPLATES, set())


def main() -> None:
    write(generate_sealed2())


if __name__ == "__main__":
    main()
