"""Words a request's reading set aside or could not place: named in the reasoning, asked about, or
planned past only when the caller says so (a negation or a stray number never is)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.drafts import Draft
from engine.intents.filling import Filler
from engine.intents.meaning import meaning_words
from engine.intents.steps import Outcome, Step

# The option of the unread-words question that says "plan without them".
_IGNORE: Final = "ignore"


def read_fully(drafts: Sequence[Draft], outcome: Outcome, filler: Filler) -> bool:
    """True when every word was read, or the caller said to plan without the words that were not.
    A negation or a stray number is never planned past; other words are asked about once."""
    unread = [item for draft in drafts for item in draft.unread]
    refusal = next((draft.refusal for draft in drafts if draft.refusal), None)
    if refusal is not None:
        outcome.refuse(refusal)
        return False
    if not unread:
        return True
    # Open-class words change nothing the plan is made of: set aside, and said so.
    aside = [item for item in unread if item.kind == "word" and not meaning_words(item.text)]
    unread = [item for item in unread if item not in aside]
    remarks = [item for item in unread if item.kind == "remark"]
    unread = [item for item in unread if item not in remarks]
    if aside:
        words = ", ".join(f'"{text}"' for text in dict.fromkeys(item.text for item in aside))
        verb = "changes" if len(aside) == 1 else "change"
        outcome.notes.append(f"I set aside {words}, which {verb} nothing in the plan.")
    if remarks:
        words = ", ".join(f'"{text}"' for text in dict.fromkeys(item.text for item in remarks))
        outcome.notes.append(
            f"I set aside {words}: it is said around the request (how you feel, why, or as a "
            "courtesy), not what to do or not to do."
        )
    if not unread:
        return True
    quoted = ", ".join(f'"{item.text}"' for item in unread)
    placeholder = Step(index=0, action="transfer")
    if any(item.kind != "word" for item in unread):
        question = (
            f"I couldn't read {quoted} as part of a transaction, and I won't plan past a number or a "
            "negation I don't understand. Could you say the request again without it?"
        )
        if any(item.kind == "unfinished" for item in unread):
            question = (
                'Your message ends on a correction with nothing after it ("no wait", "actually"). '
                "What should change? Send the request again as you want it."
            )
        elif all(item.kind == "verb" for item in unread):
            question = (
                f"I couldn't place {quoted} in the plan, and I won't leave out an action you named. "
                "Could you say each action as its own step, in the order to do them?"
            )
        answer = filler.ask(placeholder, "unread", "rephrase", question, [])
        if answer is not None:
            filler.unusable(answer)
        return False
    question = f"I didn't understand {quoted} in your request. Should I plan it without those words?"
    answer = filler.ask(placeholder, "unread", "rephrase", question, [(_IGNORE, "Yes, plan without them")])
    if answer is None:
        return False
    if answer.value != _IGNORE:
        filler.unusable(answer)
        return False
    outcome.notes.append(f"As you said, I left out {quoted}.")
    return True
