"""python -m bench.understanding [--split NAME|all] [--json] [--examples]: accuracy and silent wrong answers.

Every data/<name>_intent.jsonl with its <name>_agents.jsonl is a split. Failure classes are printed for
every split; the requests behind them only for dev splits, and for held-out splits with --examples, so
that a run of the benchmark does not show held-out requests to whoever tunes the reader.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from bench.understanding.score import DATA, load, score_agents, score_intents


def splits() -> list[str]:
    names = sorted(path.name.removesuffix("_intent.jsonl") for path in DATA.glob("*_intent.jsonl"))
    return sorted(names, key=lambda name: ("heldout" in name, name))  # dev sets first


def main() -> None:
    known = splits()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", choices=(*known, "all"), default="all")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--examples", action="store_true", help="show held-out requests behind failures")
    args = parser.parse_args()
    chosen = known if args.split == "all" else [args.split]
    report: dict[str, object] = {"load_1m": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}
    for split in chosen:
        started = time.perf_counter()
        intents = score_intents(load(f"{split}_intent")).summary()
        agents_tally, (options, compiled) = score_agents(load(f"{split}_agents"))
        agents = agents_tally.summary()
        if "heldout" in split and not args.examples:
            intents.pop("top_failures")
            agents.pop("top_failures")
        report[split] = {
            "intent": intents,
            "agents": agents,
            "agent_clarification_options": {"answered": options, "compiled_or_asked_onward": compiled},
            "seconds": round(time.perf_counter() - started, 1),
        }
    report["load_1m_after"] = round(os.getloadavg()[0], 2)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    print(
        f"machine load (1 min) {report['load_1m']} before, {report['load_1m_after']} after, {report['cpus']} cpus"
    )
    for split in chosen:
        part = report[split]
        assert isinstance(part, dict)
        print(f"\n{split}:")
        for name in ("intent", "agents"):
            summary = part[name]
            print(
                f"  /{name:<7} {summary['rows']:>5} rows  accuracy {summary['accuracy_pct']:5.1f}%  "
                f"silent wrong {summary['silent_wrong']:>4}  safe {summary['safe']:>4}"
            )
            for failure, count in summary["failure_counts"].items():
                print(f"      {failure}: {count}")
                for example in summary.get("top_failures", {}).get(failure, []):
                    print(f"          {example['text']!r} -> {example['got'][:140]}")
        options = part["agent_clarification_options"]
        print(
            f"  agent clarification options answered {options['answered']}, compiled or asked onward "
            f"{options['compiled_or_asked_onward']}"
        )


if __name__ == "__main__":
    main()
