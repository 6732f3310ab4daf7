"""bench/understanding: how well the service reads English it was not written against.

A generator (generate.py) writes requests from templates x surface forms (amount forms, filler, word
orders, slang, corrections, links, waits, conditions, out-of-scope talk, typos) with the answer each one
must get, for POST /intent and for POST /agents, split by a fixed seed into a dev set and a held-out set.
Some templates and surface forms exist only in the held-out set.

Rules: the held-out set is never used to tune the reader. It was written by someone who did not write the
reader, and a figure from it is reported as measured; a failure it shows is fixed only with a new
held-out set written afterwards. The dev set may be read freely.

The scorer (score.py) runs the path a user's request takes (the deterministic reader behind /intent,
engine.intents.IntentParser over IntentRequest; the compiler behind plain-English /agents,
engine.agents.compile_request) and counts each answer as right, safe (a question or a refusal where an
answer was due: the user is asked, nothing is signed) or silent wrong (intents or an agent that mean
something other than the words).

    python -m bench.understanding [--split heldout|dev|all] [--json]
"""
