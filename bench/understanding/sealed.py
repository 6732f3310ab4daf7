"""The sealed sets: a dev set and a held-out set written before the next change to the reader, by someone
who does not change it, from templates and surface forms of their own.

The sealed held-out set is scored and reported as figures only; its requests and failures are not read
by whoever tunes the reader (`python -m bench.understanding` prints no held-out examples unless asked).
The sealed dev set may be read freely. About a third of the rows are held out; some templates and forms
(sealed_forms.HELD_OUT_*, `held_out` branches, templates marked held-out only) exist only there, and no
request is in both sets.

    python -m bench.understanding.sealed   # rewrites bench/understanding/data/sealed_*.jsonl
"""

from __future__ import annotations

import random

from bench.understanding.forms import Row
from bench.understanding.generate import draw, named, write
from bench.understanding.sealed_agent_templates import SEALED_AGENT_TEMPLATES
from bench.understanding.sealed_forms import SEED
from bench.understanding.sealed_intent_templates import SEALED_INTENT_TEMPLATES

# (set, held out, seed, /intent rows, /agents rows)
SEALED_SETS = (("sealed_dev", False, SEED, 2400, 700), ("sealed_heldout", True, SEED + 1, 1200, 350))


def generate_sealed() -> dict[str, list[Row]]:
    sets: dict[str, list[Row]] = {}
    used: set[str] = set()
    for name, held_out, seed, intent_rows, agent_rows in SEALED_SETS:
        rng = random.Random(seed)
        intents = draw(SEALED_INTENT_TEMPLATES, intent_rows, held_out, rng, used)
        agents = draw(SEALED_AGENT_TEMPLATES, agent_rows, held_out, rng, used)
        used |= {row.get("prompt") or row["request"] for row in intents + agents}
        sets |= named(name, intents, agents)
    return sets


def main() -> None:
    write(generate_sealed())


if __name__ == "__main__":
    main()
