"""The clarification round trip: questions with stable ids, and the answers a follow-up carries.

The caller re-sends `prompt = original + blank line + "Clarification — <question>: <picked label>"`
(contract: POST /intent), possibly several such lines. An answer is matched to the question it answers by
the question text; the label is mapped back to the option it names, or read as free text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.intents.models import Clarification, ClarificationOption

# Contract: "Clarification — <question>: <picked label>". Dash variants and spacing are tolerated.
_ANSWER_LINE: Final = re.compile(r"^\s*clarification\s*[\u2014\u2013:-]+\s*(?P<body>.+?)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Answer:
    """A picked label, with the value of the option it names when it names one."""

    question: str
    label: str
    value: str | None


def _normalize(text: str) -> str:
    return " ".join(text.lower().replace("?", " ").split())


def split_answers(prompt: str) -> tuple[str, list[tuple[str, str]]]:
    """Separate the original prompt from its clarification lines -> (prompt, [(question, label)])."""
    kept: list[str] = []
    answers: list[tuple[str, str]] = []
    for line in prompt.splitlines():
        match = _ANSWER_LINE.match(line)
        if match is None:
            kept.append(line)
            continue
        body = match.group("body")
        question, colon, label = body.rpartition(":")
        if colon and question.strip() and label.strip():
            answers.append((question.strip(), label.strip()))
    return "\n".join(kept).strip(), answers


class Answers:
    """The answers of a follow-up. Each is used for the question it answers, never raised again."""

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self._pairs = [(_normalize(question), question, label) for question, label in pairs]

    def __bool__(self) -> bool:
        return bool(self._pairs)

    def find(self, question: str, options: Sequence[ClarificationOption]) -> Answer | None:
        """The latest answer to this question, matched by its text (case, spacing and "?" ignored)."""
        wanted = _normalize(question)
        for normalized, original, label in reversed(self._pairs):
            if normalized == wanted:
                return Answer(original, label, _option_value(label, options))
        return None


def _option_value(label: str, options: Sequence[ClarificationOption]) -> str | None:
    wanted = _normalize(label)
    for option in options:
        if _normalize(option.label) == wanted or option.id.lower() == label.strip().lower():
            return option.id.split(":", 1)[1]
    return None


def option(kind: str, value: str, label: str) -> ClarificationOption:
    """An option whose id is derived from its content: `<kind>:<value>` (e.g. `chain:base`)."""
    return ClarificationOption(id=f"{kind}:{value}", label=label)


def clarification(
    slot: str, step: int, kind: str, question: str, options: Sequence[ClarificationOption]
) -> Clarification:
    """A clarification with the stable id `clarify_<slot>_<step>` (e.g. `clarify_chain_0`)."""
    return Clarification(id=f"clarify_{slot}_{step}", kind=kind, question=question, options=tuple(options))
