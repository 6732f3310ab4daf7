"""POST /intent on the served app reads chat phrasing of moves and trades: a verbless "from <chain> to
ethereum" is a bridge (never a swap into ETH), and "use 20 usdc to buy eth" spends the USDC."""

from __future__ import annotations

from tests.intent.conftest import body
from tests.support.server import Running


async def test_a_verbless_move_to_a_chain_named_like_a_token_is_a_bridge(app: Running) -> None:
    async with app.client() as client:
        response = await client.post(
            "/intent", json=body("1,500 dai from base to ethereum", "base", "ethereum")
        )
    assert response.status_code == 200
    assert response.json()["intents"] == [
        {
            "action": "bridge",
            "asset": "DAI",
            "protocol": "across",
            "from_chain": "base",
            "to_chain": "ethereum",
            "amount": 1500,
        }
    ]


async def test_what_pays_is_named_first_and_spent(app: Running) -> None:
    async with app.client() as client:
        response = await client.post("/intent", json=body("use 20 usdc to buy eth on base pls"))
    intents = response.json()["intents"]
    assert [(i["action"], i["asset"], i["to_asset"], i["amount"]) for i in intents] == [
        ("swap", "USDC", "ETH", 20)
    ]
