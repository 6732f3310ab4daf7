"""python -m bench.understanding [--split heldout|dev|all] [--json]: accuracy and silent wrong answers."""

from __future__ import annotations

import argparse
import json
import os
import time

from bench.understanding.score import load, score_agents, score_intents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", choices=("heldout", "heldout2", "heldout3", "dev", "all"), default="all")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    splits = ("dev", "heldout", "heldout2", "heldout3") if args.split == "all" else (args.split,)
    report: dict[str, object] = {"load_1m": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}
    for split in splits:
        started = time.perf_counter()
        intents = score_intents(load(f"{split}_intent"))
        agents, (options, compiled) = score_agents(load(f"{split}_agents"))
        report[split] = {
            "intent": intents.summary(),
            "agents": agents.summary(),
            "agent_clarification_options": {"answered": options, "compiled_or_asked_onward": compiled},
            "seconds": round(time.perf_counter() - started, 1),
        }
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    print(f"machine load (1 min) {report['load_1m']} on {report['cpus']} cpus")
    for split in splits:
        part = report[split]
        assert isinstance(part, dict)
        print(f"\n{split}:")
        for name in ("intent", "agents"):
            summary = part[name]
            print(
                f"  /{name:<7} {summary['rows']:>5} rows  accuracy {summary['accuracy_pct']:5.1f}%  "
                f"silent wrong {summary['silent_wrong']:>4}  safe {summary['safe']:>4}"
            )
            for failure, examples in summary["top_failures"].items():
                print(f"      {failure}: {examples[0]['text']!r} -> {examples[0]['got'][:140]}")
        options = part["agent_clarification_options"]
        print(
            f"  agent clarification options answered {options['answered']}, compiled or asked onward "
            f"{options['compiled_or_asked_onward']}"
        )


if __name__ == "__main__":
    main()
