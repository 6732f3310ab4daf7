"""What a pointer names when the request leaves the venue to it ("put 1000 usdc in it" under a pasted post
about a pool): the one protocol or trusted vault the pasted text and the earlier turns name. A pointer at
something no registry name matches is refused, never filled with a default venue."""

from __future__ import annotations

from collections.abc import Sequence

from engine.intents.drafts import Draft
from engine.intents.lexicon import Lexicon


def point_venues(drafts: Sequence[Draft], around: Sequence[str], lexicon: Lexicon) -> None:
    """Give each draft whose venue is a pointer the one venue `around` (pasted lines, earlier turns) names,
    or a refusal saying why there is none."""
    for draft in drafts:
        # "claim mine" under a pasted airdrop post: what is claimed is what the paste names.
        claims_pointer = draft.action == "claim" and not draft.assets and bool(around)
        if (
            not (draft.venue_pointer or claims_pointer)
            or draft.protocol is not None
            or draft.vault is not None
        ):
            continue
        if draft.action not in ("deposit", "stake", "claim"):
            draft.pronoun = True  # "swap 100 usdc in it": an "it" of the usual kind
            continue
        protocols: list[str] = []
        vaults = []
        for text in around:
            for lexeme in lexicon.read_text(text):
                if lexeme.protocol is not None and lexeme.protocol not in protocols:
                    protocols.append(lexeme.protocol)
                if lexeme.vault is not None and lexeme.vault not in vaults:
                    vaults.append(lexeme.vault)
        if len(protocols) == 1 and not vaults:
            draft.protocol = protocols[0]
        elif len(vaults) == 1 and not protocols:
            draft.vault = vaults[0]
        elif protocols or vaults:
            named = ", ".join([*protocols, *(vault.symbol for vault in vaults)])
            draft.refusal = f'"{_pointer(draft)}" could be any of {named}; say which one to use.'
        else:
            known = ", ".join(lexicon.universe.protocol_names())
            draft.refusal = (
                f"What you pasted names nothing I can claim: the protocols I plan with are {known}."
                if draft.action == "claim"
                else f'"it" points at something that is none of the protocols or vaults I plan with ({known}), '
                "so I can't put anything in it."
            )


def _pointer(draft: Draft) -> str:
    return "claim" if draft.action == "claim" else "it"
