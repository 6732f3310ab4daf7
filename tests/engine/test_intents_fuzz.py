"""Property tests: any text (and any mix of the parser's own words) never raises, and every intent names
only chains, assets and protocols the registry has."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.intents import IntentRequest, IntentResponse, Wallet
from engine.registry import load_registry
from tests.engine.test_intents_support import EVM_A, EVM_B, SOL_A, parser

REGISTRY = load_registry()

_VOCABULARY = """
send bridge swap deposit withdraw stake unstake claim approve borrow repay sweep move buy sell
add remove collect liquidity pool fees lp provide take out pay back loan
eth ether weth usdc usdcc usdt dai wbtc steth sol bnb matic pol pepe
ethereum etherum base arbitrum arbitum arb optimism op polygon bsc solana mainnet
aave spark lido uniswap across cctp compound
from to into on in via with for and then it them that the proceeds my all everything max half
same again but instead now do what about nft short leverage 10x
1 12 12.5 1,000 1.5k 2m .5 $100 100$ 25% 0.0000001 a third quarter ten
, ; . / - -> $ %
"""

WORDS = [
    *_VOCABULARY.split(),
    EVM_A,
    SOL_A,
    "0x83F20F44975D03b1b09e64809B757c47f942BEeA",
    "vitalik.eth",
    "\n\nClarification \u2014 Which chain do you want to swap ETH on?: Base",
    "\n\nClarification \u2014 How much USDC do you want to deposit?: 5",
]

WALLET_SETS = [
    [(EVM_A, "ethereum")],
    [(EVM_A, "base"), (EVM_A, "arbitrum")],
    [(EVM_A, "base"), (EVM_B, "base")],
    [(EVM_A, "ethereum"), (SOL_A, "solana")],
    [(SOL_A, "solana")],
    [(EVM_A, "unknown-chain")],
]

CONTEXTS = [None, "User: deposit 100 usdc into aave on base\nFlip: ok", "User: swap 1 eth to usdc on base"]


def _check(response: IntentResponse) -> None:
    assert response.reasoning
    assert not (response.intents and response.clarifications)
    protocols = {protocol.name for protocol in REGISTRY.protocols()}
    for intent in response.intents:
        assert intent.missing_fields() == []
        cross = intent.action in ("bridge", "sweep")
        chains = [intent.from_chain, intent.to_chain] if cross else [intent.chain]
        for chain in chains:
            assert chain is not None
            REGISTRY.chain(chain)
            for asset in (intent.asset, intent.to_asset):
                if asset is not None:
                    REGISTRY.token(chain, asset)  # raises UnknownToken when the registry lacks it
        if intent.protocol is not None:
            assert intent.protocol in protocols
    for item in response.clarifications:
        assert item.id.startswith("clarify_")
        assert all(":" in option.id for option in item.options)


def _request(prompt: str, wallet_set: int, context: int) -> IntentRequest:
    wallets = tuple(Wallet(address=address, chain=chain) for address, chain in WALLET_SETS[wallet_set])
    return IntentRequest(prompt=prompt, wallets=wallets, conversation_context=CONTEXTS[context])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(min_size=1, max_size=2000),
    st.integers(0, len(WALLET_SETS) - 1),
    st.integers(0, len(CONTEXTS) - 1),
)
def test_arbitrary_text_never_raises_and_names_only_registry_things(
    prompt: str, wallet_set: int, context: int
) -> None:
    _check(parser().parse(_request(prompt, wallet_set, context)))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=25),
    st.integers(0, len(WALLET_SETS) - 1),
    st.integers(0, len(CONTEXTS) - 1),
)
def test_any_mix_of_the_parsers_words_never_raises_and_names_only_registry_things(
    words: list[str], wallet_set: int, context: int
) -> None:
    _check(parser().parse(_request(" ".join(words), wallet_set, context)))
