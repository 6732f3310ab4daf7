"""The contract's limits, in one place: key scopes and rate tiers, quotas, page sizes and input sizes.

Every value is the contract's ("Limits" and the endpoint sections of CONTRACT.md); the modules that
enforce one import it from here, so a limit changes in one line.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Final

# Limits: requests per window per API key, by the tenant's tier: (max_requests, window_ms).
RATE_TIERS: Final[dict[str, tuple[int, int]]] = {
    "beta": (30, 60_000),
    "standard": (120, 60_000),
    "high": (600, 60_000),
}
# The scopes an API key may carry (contract: `agents` for agents and webhook endpoints; `plan` is ours, for
# /intent /plan /steps/reencode /simulate).
SCOPES: Final = ("plan", "agents")
# Limits: active agents per tenant, by tier (POST /agents, and PATCH resuming a paused agent).
AGENT_QUOTAS: Final[dict[str, int]] = {"beta": 50, "standard": 500, "high": 5000}
# Limits: webhook endpoints per tenant.
ENDPOINT_QUOTA: Final = 5

# POST /plan (and POST /intent, which shares its wallet rules): intents and wallets per request. Not in the
# contract; chosen far above any real plan so that one request's work stays bounded.
PLAN_INTENTS_MAX: Final = 20
PLAN_WALLETS_MAX: Final = 20

# Limits: page size `limit` of every listing (GET /agents, GET /agent-events; the attempt history too).
PAGE_LIMIT_MIN: Final = 1
PAGE_LIMIT_MAX: Final = 200
PAGE_LIMIT_DEFAULT: Final = 50

# POST /intent: prompt 1 to 2000 chars; conversation_context up to 6000 chars (truncated), about 8 turns.
# Balances a caller may hand POST /intent: one bound for the body and the engine's request, so a list the
# body accepts is never refused later inside the handler (a 500). 7 chains of ~10 tokens fit many times over.
INTENT_BALANCES_MAX: Final = 200
PROMPT_MAX_CHARS: Final = 2000
CONTEXT_MAX_CHARS: Final = 6000
# POST /agents: request 3 to 500 chars; wallets 1 to 10; clarification options at most 4.
AGENT_REQUEST_MIN_CHARS: Final = 3
AGENT_REQUEST_MAX_CHARS: Final = 500
AGENT_WALLETS_MAX: Final = 10
AGENT_OPTIONS_MAX: Final = 4
# POST /webhook-endpoints: url up to 2048 chars.
WEBHOOK_URL_MAX_CHARS: Final = 2048
# Largest amount in token units the service reads: beyond every token supply, so it is a typo.
MAX_TOKEN_AMOUNT: Final = Decimal(10) ** 30
# Typed health agents: the threshold is a health factor and must be below 100.
HEALTH_THRESHOLD_MAX: Final = 100

# How long a signed swap stays valid: SwapRouter02's multicall deadline is the plan's (or the re-encode's)
# time plus this. Long enough to read, approve and sign a multi-step plan; short enough that a signature
# found later cannot be replayed at a price the user never saw (docs/decisions.md).
SIGNING_WINDOW_S = 20 * 60

# Swaps: the most of a quote a swap's minimum may give up (10 %). The planner's own floors are 1-3 %
# (contract: default slippage floor); a caller's pinned route may widen it up to here, never to a swap
# with no minimum (docs/decisions.md).
MAX_SLIPPAGE_BPS: Final = 1000
# Uniswap v3's fee tiers, in hundredths of a bip: the factory enables pools at these (v3-core
# UniswapV3Factory constructor: 500, 3000, 10000; governance added 100 in 2021).
UNISWAP_FEE_TIERS: Final = (100, 500, 3000, 10000)
