"""bench/understanding: how well the service reads English it was not written against.

Rule: a held-out set is never used to tune the reader. Its figures are reported as measured; its
requests and failures are not read by whoever changes the reader; a failure it shows is fixed only with a
new held-out set written afterwards. Dev sets may be read freely.

Generators write requests from templates x surface forms (amount forms, filler, word orders, slang,
corrections, links, waits, conditions, out-of-scope talk, typos) with the answer each one must get, for
POST /intent and for POST /agents, split by a fixed seed into dev and held-out sets; some templates and
surface forms exist only in the held-out set. generate.py writes dev and the numbered held-out sets;
sealed.py writes sealed_dev and sealed_heldout, with templates of their own (dollar, Ξ and percent
amounts, whole positions, BNB Chain and Solana, portfolio and schedule agents, among others), written
before the next change to the reader by someone who does not change it. sealed2.py writes sealed2_dev and
sealed2_heldout the same way, with templates and forms of its own (sealed2_*.py), before the change after
that.

The scorer (score.py) runs the path a user's request takes (the deterministic reader behind /intent,
engine.intents.IntentParser over IntentRequest; the compiler behind plain-English /agents,
engine.agents.compile_request) and counts each answer as right, safe (a question or a refusal where an
answer was due: the user is asked, nothing is signed) or silent wrong (intents or an agent that mean
something other than the words).

    python -m bench.understanding [--split NAME|all] [--json] [--examples]
"""
