"""When a failed delivery is tried again, and when it is given up (contract: Webhook delivery attempt,
Events rule 7, Webhook endpoint status).

Reading of the contract: the first attempt is followed by up to five retries, waiting 1 minute, 5 minutes,
30 minutes, 2 hours and 12 hours after attempts 1 to 5; when the sixth attempt (the fifth retry) fails, the
delivery is dead-lettered. Every wait the contract lists is used.
"""

from __future__ import annotations

# contract: "retry after a wait (1m, 5m, 30m, 2h, 12h after attempts 1 to 5)"; milliseconds.
RETRY_WAITS_MS: tuple[int, ...] = (60_000, 300_000, 1_800_000, 7_200_000, 43_200_000)

# One first attempt plus one retry per wait above.
MAX_ATTEMPTS = 1 + len(RETRY_WAITS_MS)

# contract: "10 consecutive dead-lettered deliveries" disable the endpoint.
DISABLE_AFTER_DEAD = 10


def retry_at(attempt: int, failed_at: int) -> int | None:
    """Epoch-ms of the next attempt after attempt number `attempt` (1-based) failed at `failed_at`, or None
    when that was the last attempt and the delivery is dead-lettered."""
    if attempt < 1:
        raise ValueError("attempts are numbered from 1")
    if attempt >= MAX_ATTEMPTS:
        return None
    return failed_at + RETRY_WAITS_MS[attempt - 1]
