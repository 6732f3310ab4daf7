"""The words around a request: filler that carries nothing, and words that change what it means (negations,
times, conditions, corrections, questions, links between steps). The reader consumes filler silently and
never plans past the others (docs/decisions.md, "Grounding").
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

# Chat noise any request may carry, for transactions and alerts alike: greetings, politeness, hedges.
CHAT_FILLER: Final[frozenset[str]] = frozenset(
    """
    please pls plz plze plox pleas kindly thanks thank thx tx ty tysm cheers appreciate appreciated
    n k kk lemme love xx xoxo q rn rq ta tyvm tia thnx thanx thnks thankyou thanku much bless legend
    king queen gracias merci danke er err erm eh ah oh btw tbh ngl fyi imo imho fr lowkey bot buddy pal
    boss chief
    hey hi hello hiya yo gm gn sup howdy heya ok okay alright sure yes yeah yep yup cool great nice
    bro bruh fam ser sir mate dude man guys anon frens fren lol lmao haha hah rofl omg lmk asap
    so um uh umm hmm well just maybe perhaps probably basically literally really kinda
    u ur wanna gonna gotta
    lah leh lor meh hor sia abeg po naman ba ya na
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)

# A heart typed as "<3" (or "<333"): chat, never "less than 3".
HEART: Final = re.compile(r"(?<![\w<])<3+(?![\w.,])")

# A letter typed three or more times running ("plsss", "heyyy", "thxxx"): chat emphasis.
_STRETCHED: Final = re.compile(r"([a-z])\1{2,}")


# A letter typed twice ("heyy", "tyy"): emphasis too, when the word it collapses to is chat filler.
_DOUBLED: Final = re.compile(r"([a-z])\1")


def unstretched(word: str) -> str:
    """The chat filler word a stretched word stands for ("pleaseee" -> "please", "heyy" -> "hey"), or the
    word unchanged: only filler is unstretched, so a stretched token name is never guessed at."""
    if word in CHAT_FILLER or not _DOUBLED.search(word):
        return word
    for candidate in (_STRETCHED.sub(r"\1", word), _STRETCHED.sub(r"\1\1", word), _DOUBLED.sub(r"\1", word)):
        if candidate in CHAT_FILLER:
            return candidate
    return word


# Thanks words; a lone "k" before one ("k thx") is chat for "ok".
THANKS: Final[frozenset[str]] = frozenset(
    {"thx", "thanks", "thank", "ty", "tx", "tysm", "tyvm", "thnx", "thanx", "thnks", "thankyou", "thanku"}
    | {"cheers", "ta"}
)
# Scale letters that are also chat ("k" is "ok").
_CHAT_SCALES: Final = frozenset({"k", "kk"})
# The largest number a scale letter written apart from it multiplies: nobody writes "25,000 k" for 25
# million, so after a larger number the letter is chat, not thousands.
_MOST_SCALED: Final = 1000


def scale_is_chat(scale: str, value: Decimal) -> bool:
    """True when a scale letter written apart from the number before it is chat for "ok" rather than
    thousands: the number is 1000 or more ("25,000 k")."""
    return scale in _CHAT_SCALES and value >= _MOST_SCALED


def scale_is_unclear(scale: str, value: Decimal, after: str | None) -> bool:
    """True when a scale letter apart from a smaller number is followed by a thanks word ("4 k thx"): it
    may be thousands or chat for "ok", so the amount is asked, never guessed."""
    return (
        scale in _CHAT_SCALES and value < _MOST_SCALED and after is not None and unstretched(after) in THANKS
    )


# Words that carry nothing a transaction needs: chat noise, request framing ("could you", "I want to",
# "help me"). Everything else a request says must be read, or asked about.
FILLER: Final[frozenset[str]] = CHAT_FILLER | frozenset(
    """
    a an the my me mine our ours i i'm im i'd id i'll ill we us you your yours
    so think guess very real
    can could would will want wants wanted need needs needed like let lets let's do go ahead try
    help assist make quick quickly fast asap now today immediately rn right away please kindly
    some of this these those there here is are be am been being have has had got gotta gonna
    want wanna trying able ready time looking hoping planning keen
    wallet wallets address account balance balances chain chains network networks mainnet l2 side
    amount total value worth holding holdings gas fees route way cheapest best fastest safest
    about around approximately approx roughly ~ yield interest rewards reward earnings
    alr aight tho though i've ive we've mind meant chance team favour favor lot ugh argh oof edit first firstly friend friends homie
    v2 v3 liquid withdrawal withdrawals debt debts loan loans collateral savings lending staked
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)

# "is it possible to swap ...": request framing shaped like a question.
REQUEST_OPENERS: Final[tuple[tuple[str, ...], ...]] = (
    ("is", "it", "possible", "to"),
    ("is", "it", "ok", "to"),
    ("is", "it", "okay", "to"),
    ("would", "it", "be", "possible", "to"),
    ("are", "you", "able", "to"),
    ("is", "there", "a", "way", "to"),
    ("is", "there", "any", "way", "to"),
    ("any", "way", "to"),
    ("any", "way", "u", "could"),
    ("any", "way", "you", "could"),
    ("do", "you", "think", "you", "could"),
    ("do", "you", "think", "u", "could"),
    ("r", "u", "able", "to"),
    ("could", "it", "be", "possible", "to"),
    ("would", "it", "be", "okay", "to"),
    ("would", "it", "be", "ok", "to"),
    ("would", "it", "be", "alright", "to"),
    ("would", "it", "be", "fine", "to"),
    ("is", "it", "alright", "to"),
    ("is", "it", "fine", "to"),
    ("is", "it", "safe", "to"),
    ("would", "you", "be", "able", "to"),
    ("will", "you", "be", "able", "to"),
    ("can", "i", "ask", "you", "to"),
)
# "how do i swap 60 usdc to eth on arb": how-to framing around a transaction whose verb and amount are all
# written asks for that transaction (shape.is_question); without them it stays a question.
HOW_TO_OPENERS: Final[tuple[tuple[str, ...], ...]] = tuple(
    ("how", aux, subject) for aux in ("do", "can", "could") for subject in ("i", "we")
)
# Politeness that reads like a condition or a clause but asks for nothing ("swap it if you can"): dropped as
# whole phrases before a request is read for waits, so "if you can" never makes a transaction conditional.
POLITE_PHRASES: Final[tuple[tuple[str, ...], ...]] = (
    ("if", "you", "can"),
    ("if", "u", "can"),
    ("if", "you", "could"),
    ("if", "u", "could"),
    ("if", "you", "would"),
    ("if", "possible"),
    ("if", "poss"),
    ("if", "that's", "ok"),
    ("if", "thats", "ok"),
    ("if", "that", "works"),
    ("when", "you", "can"),
    ("when", "you", "get", "a", "chance"),
    ("when", "you", "get", "a", "sec"),
    ("when", "u", "get", "a", "sec"),
    ("when", "u", "can"),
    ("would", "you", "mind"),
    ("no", "rush"),
    ("whenever", "you", "can"),
    ("thank", "you"),
    ("thanks", "a", "lot"),
    ("thanks", "in", "advance"),
    ("for", "me"),
    ("appreciate", "it"),
    ("many", "thanks"),
    ("much", "appreciated"),
    ("so", "much"),
    ("very", "much"),
    ("much", "love"),
    ("in", "advance"),
    ("no", "worries", "if", "not"),
    ("no", "worries"),
    ("any", "chance"),
    ("to", "work"),
    ("pretty", "please"),
    *REQUEST_OPENERS,
    *HOW_TO_OPENERS,
)

# Punctuation that carries nothing ("(", quotes, "#", "*").
FILLER_PUNCT: Final[frozenset[str]] = frozenset({"(", ")", '"', "#", "*", ":", "—", "–", "-", "~", "/"})

# Words that negate or exclude: never planned past, never offered to be ignored.
NEGATIONS: Final[frozenset[str]] = frozenset(
    {"not", "no", "dont", "don't", "never", "without", "except", "excluding", "exclude", "nothing"}
    | {"neither", "nor", "none", "doesn't", "isn't", "won't", "can't", "cannot", "shouldn't"}
)

# Question words that open a question ("what is a bridge", "how much eth do i have").
QUESTION_WORDS: Final[frozenset[str]] = frozenset(
    {"what", "what's", "whats", "wat", "how", "how's", "why", "who", "where", "which", "whose"}
)
# Verbs that ask to be taught, not to transact ("explain bridging", "can you define slippage").
# "check my balance", "show me my usdc" ask to be told too.
QUESTION_VERBS: Final[frozenset[str]] = frozenset(
    {"explain", "define", "describe", "teach", "eli5", "check", "show"}
)
# Openers of yes/no questions ("is aave safe", "should i bridge").
QUESTION_AUXILIARIES: Final[frozenset[str]] = frozenset(
    {"is", "are", "was", "were", "does", "did", "should", "shall", "am", "has", "isn't", "aren't"}
)
# Auxiliaries that open a question only before a subject ("do i have", "will it"), not as requests ("do
# the same on base").
SUBJECT_AUXILIARIES: Final[frozenset[str]] = frozenset({"do", "will", "would", "could", "can", "may"})
SUBJECTS: Final[frozenset[str]] = frozenset({"it", "they", "there", "that", "this", "my"})
# "can you", "could you", "would you", "can i": request framing, not a question.
REQUEST_SUBJECTS: Final[frozenset[str]] = frozenset({"you", "u", "i", "we"})
# Questions that are follow-ups of the previous request ("what about base", "how about 50").
FOLLOW_UP_QUESTIONS: Final[frozenset[tuple[str, str]]] = frozenset(
    {("what", "about"), ("how", "about"), ("what", "if")}
)

# Corrections: the statement after them replaces the one before (the later statement wins).
CORRECTIONS: Final[tuple[tuple[str, ...], ...]] = (
    ("wait", "wait"),
    ("no", "sorry"),
    ("no", "actually"),
    ("whoops",),
    ("no", "wait"),
    ("wait", "no"),
    ("no", "no"),
    ("i", "mean"),
    ("i", "meant"),
    ("make", "that"),
    ("make", "it"),
    ("change", "that", "to"),
    ("change", "it", "to"),
    ("nah",),
    ("or", "rather"),
    ("on", "second", "thought"),
    ("my", "bad"),
    ("sorry",),
    ("sry",),
    ("soz",),
    ("typo",),
    ("oops",),
    ("actually",),
    ("correction",),
    ("edit",),
    ("err",),
    ("er",),
    ("erm",),
    ("rather",),
    ("wait",),
)
# Corrections that drop everything said before them.
RESETS: Final[tuple[tuple[str, ...], ...]] = (
    ("scratch", "that"),
    ("scrap", "that"),
    ("never", "mind"),
    ("nevermind",),
    ("nvm",),
    ("forget", "that"),
    ("forget", "it"),
    ("cancel", "that"),
    ("ignore", "that"),
    ("disregard", "that"),
    ("disregard", "this"),
    ("delete", "that"),
    ("forget", "what", "i", "said"),
    ("cancel", "."),
    ("cancel", ","),
    ("cancel", "!"),
    ("start", "over"),
)

# Subjects of "once it lands": what a previous step produced.
LINK_SUBJECTS: Final[frozenset[str]] = frozenset(
    {
        "it",
        "that",
        "they",
        "them",
        "this",
        "the",
        "bridge",
        "funds",
        "tokens",
        "transfer",
        "swap",
        "its",
        "it's",
    }
)
# What happens to a previous step's output before the next step may start.
LINK_EVENTS: Final[frozenset[str]] = frozenset(
    {"lands", "landed", "arrives", "arrived", "clears", "cleared", "confirms", "confirmed", "completes"}
    | {"completed", "settles", "settled", "done", "finished", "there", "through", "bridged"}
    | {"swapped", "received"}
)
# Words that open a link or a condition ("once it lands", "if eth drops").
LINK_OPENERS: Final[frozenset[str]] = frozenset({"when", "once", "after", "as"})

# Words that make a transaction wait for a condition.
CONDITION_WORDS: Final[frozenset[str]] = frozenset(
    {"if", "when", "whenever", "once", "until", "unless", "till", "til", "provided", "assuming"}
)
# Words that compare a price with a level ("below 3000", "at $4000").
LEVEL_WORDS: Final[frozenset[str]] = frozenset(
    {"above", "below", "under", "over", "at", "@", "hits", "reaches", "drops", "dips", "falls", "rises"}
    | {"pumps", "dumps", "crosses", "touches", ">", "<", ">=", "<="}
)

# Words that make a transaction wait for a time.
TIME_WORDS: Final[frozenset[str]] = frozenset(
    {"tomorrow", "tmr", "tmrw", "tonight", "later", "soon", "eod", "weekend", "midnight", "noon"}
    | {"daily", "weekly", "monthly", "hourly", "yearly", "everyday", "biweekly", "fortnightly"}
    | {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
    | {"mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays"}
    | {"morning", "afternoon", "evening", "night", "am", "pm", "o'clock", "oclock", "utc"}
)
# Time units after "in 2", "every", "next" ("in 2 hours", "every week", "next month").
TIME_UNITS: Final[frozenset[str]] = frozenset(
    {"min", "mins", "minute", "minutes", "h", "hr", "hrs", "hour", "hours", "day", "days", "week"}
    | {"weeks", "month", "months", "year", "years", "bit", "while", "moment", "sec", "secs"}
)
# Words before a time unit or a day that make it a schedule ("every", "each", "next", "this").
TIME_OPENERS: Final[frozenset[str]] = frozenset({"every", "each", "next", "this", "by", "before", "in"})
