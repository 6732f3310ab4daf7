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

import json
import random

from bench.understanding.forms import DATA, Row
from bench.understanding.sealed_agent_templates import SEALED_AGENT_TEMPLATES
from bench.understanding.sealed_forms import SEED, SealedTemplate
from bench.understanding.sealed_intent_templates import SEALED_INTENT_TEMPLATES

# (set, held out, seed, /intent rows, /agents rows)
SEALED_SETS = (("sealed_dev", False, SEED, 2400, 700), ("sealed_heldout", True, SEED + 1, 1200, 350))


def _draw(
    templates: list[tuple[SealedTemplate, int, bool]],
    count: int,
    held_out: bool,
    rng: random.Random,
    exclude: set[str],
) -> list[Row]:
    """`count` distinct rows, none of them in `exclude`."""
    usable = [(t, w) for t, w, only in templates if held_out or not only]
    rows: list[Row] = []
    seen = set(exclude)
    for _ in range(count * 50):
        if len(rows) == count:
            break
        (template,) = rng.choices([t for t, _ in usable], weights=[w for _, w in usable])
        row = template(rng, held_out)
        key = row.get("prompt") or row["request"]
        if key not in seen:
            seen.add(key)
            rows.append(row)
    if len(rows) < count:
        raise RuntimeError(f"the templates give only {len(rows)} distinct rows, not {count}")
    return rows


def generate_sealed() -> dict[str, list[Row]]:
    sets: dict[str, list[Row]] = {}
    used: set[str] = set()
    for name, held_out, seed, intent_rows, agent_rows in SEALED_SETS:
        rng = random.Random(seed)
        intents = _draw(SEALED_INTENT_TEMPLATES, intent_rows, held_out, rng, used)
        agents = _draw(SEALED_AGENT_TEMPLATES, agent_rows, held_out, rng, used)
        used |= {row.get("prompt") or row["request"] for row in intents + agents}
        for index, row in enumerate(intents):
            row["id"] = f"{name}-i{index:04d}"
        for index, row in enumerate(agents):
            row["id"] = f"{name}-a{index:04d}"
        sets[f"{name}_intent"] = intents
        sets[f"{name}_agents"] = agents
    return sets


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for name, rows in generate_sealed().items():
        with (DATA / f"{name}.jsonl").open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{name}: {len(rows)} rows")


if __name__ == "__main__":
    main()
