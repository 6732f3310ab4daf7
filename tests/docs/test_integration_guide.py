"""docs/integration.md stays true: every curl body validates against the served OpenAPI document and is
answered 200 on the devnet, and the Python program runs the whole flow there, with a devnet account
standing in for the user's wallet (anvil's impersonation signs what the program hands to `send`)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
from jsonschema import Draft202012Validator

from devnet.anvil import AnvilNotFound, find_anvil
from devnet.rpc import calldata
from engine.registry import load_registry
from gateway.config import Settings
from tests.support.server import Running, running_service

DOC = Path(__file__).resolve().parents[2] / "docs" / "integration.md"
CURL = re.compile(r"curl -sN? \"\$BASE(/[\w/]+)\"(.*?) -d '(.*?)'\n", re.DOTALL)
PROGRAM_MARK = "# integration_flow.py"
# Endpoints the guide walks through, each of which needs at least one curl example.
FLOW_PATHS = {"/intent", "/plan", "/simulate", "/steps/reencode"}
REG = load_registry()
# USDC a stand-in relayer delivers on base for a 100 USDC bridge (the devnet quote's estimate is 99.9).
FILL = Decimal("99.5")


def code_blocks(language: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)


def curl_examples() -> list[tuple[str, dict[str, str], dict[str, Any]]]:
    """(path, extra headers, body) of every curl call in the guide."""
    found = []
    for block in code_blocks("sh"):
        for path, options, body in CURL.findall(block):
            headers = dict(re.findall(r"-H '(Accept): ([^']+)'", options))
            found.append((path, headers, json.loads(body)))
    return found


def program() -> str:
    (source,) = [block for block in code_blocks("python") if block.startswith(PROGRAM_MARK)]
    return source


def body_validator(openapi: dict[str, Any], path: str) -> Draft202012Validator:
    """The JSON Schema of POST `path`'s request body, resolved inside the OpenAPI document."""
    operation = openapi["paths"][path]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": openapi["components"]})


def assert_valid(openapi: dict[str, Any], path: str, body: Any) -> None:
    problems = [
        f"{list(e.absolute_path)}: {e.message}" for e in body_validator(openapi, path).iter_errors(body)
    ]
    assert not problems, f"POST {path} body does not match the OpenAPI document: {problems}"


@pytest.fixture
async def devnet(settings: Settings) -> AsyncIterator[Running]:
    try:
        find_anvil()
    except AnvilNotFound as error:
        pytest.fail(str(error))
    async with running_service(settings.model_copy(update={"devnet": True})) as running:
        yield running


async def served_openapi(service: Running) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as http:
        return (await http.get(service.api + "/openapi.json")).json()


def test_guide_has_curl_examples_for_every_step_and_one_program() -> None:
    assert {path for path, _, _ in curl_examples()} == FLOW_PATHS
    assert "def main(" in program()


async def test_every_curl_body_validates_against_the_served_openapi(settings: Settings) -> None:
    async with running_service(settings) as service:
        openapi = await served_openapi(service)
    for path, _, body in curl_examples():
        assert_valid(openapi, path, body)
    # The check has teeth: a misspelt field is refused by the same schema.
    path, _, body = curl_examples()[0]
    assert list(body_validator(openapi, path).iter_errors({**body, "promt": "x"}))


@pytest.mark.anvil
async def test_curl_examples_are_answered_200_on_the_devnet(devnet: Running) -> None:
    async with devnet.client() as http:
        for path, headers, body in curl_examples():
            response = await http.post(path, json=body, headers=headers)
            assert response.status_code == 200, (path, response.text)
            if headers.get("Accept") == "text/event-stream":
                assert "event: final" in response.text
            elif path == "/intent":
                assert response.json()["intents"], response.text
            elif path == "/steps/reencode":
                assert response.json()["ok"] is True
            elif path == "/simulate":
                assert response.json()["success"] is True


# How long the test's wallet waits for a receipt, at most (a real node and a real wall clock: no mock).
RECEIPT_POLLS = 100
RECEIPT_POLL_S = 0.05


class DevnetWallet:
    """Signs and sends what the program hands over, as the user's wallet would, on the devnet's chains;
    it returns once the transaction is mined (anvil mines each one at once)."""

    def __init__(self, rpc_urls: dict[str, str]) -> None:
        self.rpc_urls = rpc_urls
        self.receipts: list[dict[str, Any]] = []

    def rpc(self, chain: str, method: str, params: list[Any]) -> Any:
        reply = httpx.post(
            self.rpc_urls[chain], json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        )
        body = reply.json()
        assert "error" not in body, body
        return body["result"]

    def transact(self, chain: str, sender: str, to: str, data: str, value: int = 0) -> dict[str, Any]:
        """Send as `sender` (impersonated) and return the receipt, which must have status 1."""
        self.rpc(chain, "anvil_impersonateAccount", [sender])
        tx = {"from": sender, "to": to, "data": data, "value": hex(value)}
        tx_hash = self.rpc(chain, "eth_sendTransaction", [tx])
        receipt = self.rpc(chain, "eth_getTransactionReceipt", [tx_hash])
        for _ in range(RECEIPT_POLLS):
            if receipt is not None:
                break
            # A wallet waits for the receipt: anvil mines a sent transaction at once, but a loaded machine
            # can answer the receipt before that block is written (seen once in CI under load 5.9).
            time.sleep(RECEIPT_POLL_S)
            receipt = self.rpc(chain, "eth_getTransactionReceipt", [tx_hash])
        assert receipt is not None and receipt["status"] == "0x1", receipt
        return receipt

    def send(self, transaction: dict[str, Any]) -> None:
        self.receipts.append(
            self.transact(
                transaction["chain"],
                transaction["from"],
                transaction["to"],
                transaction["data"],
                int(transaction["value"]),
            )
        )

    def balance(self, chain: str, symbol: str, owner: str) -> Decimal:
        """`owner`'s balance of a registry token, in token units."""
        token = REG.token(chain, symbol)
        call = {"to": token.address, "data": "0x" + calldata("balanceOf(address)", [owner]).hex()}
        return Decimal(int(self.rpc(chain, "eth_call", [call, "latest"]), 16)).scaleb(-token.decimals)


@pytest.mark.anvil
async def test_python_program_runs_intent_plan_simulate_reencode_and_hands_each_step_to_the_wallet(
    devnet: Running, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    openapi = await served_openapi(devnet)
    monkeypatch.setenv("INTENTGATE_URL", devnet.api)
    monkeypatch.setenv("INTENTGATE_KEY", devnet.dev_key or "")
    sent: list[tuple[str, Any]] = []
    send_request = httpx.Client.send

    def recording_send(self: httpx.Client, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        if str(request.url).startswith(devnet.api):
            sent.append((request.url.path.removeprefix("/v1beta"), json.loads(request.content)))
        return send_request(self, request, **kwargs)

    monkeypatch.setattr(httpx.Client, "send", recording_send)
    namespace: dict[str, Any] = {"__name__": "integration_flow"}
    exec(compile(program(), "integration_flow.py", "exec"), namespace)
    wallet = DevnetWallet(devnet.services.settings.rpc_urls)

    await trio.to_thread.run_sync(lambda: namespace["main"](send=wallet.send))

    paths = [path for path, _ in sent]
    assert paths[:3] == ["/intent", "/plan", "/simulate"]
    # The swap (a quoted route) and the two chained steps are re-encoded right before they are signed.
    assert paths[3:] == ["/steps/reencode"] * 3
    assert len(wallet.receipts) == 4  # approve, swap, approve, deposit: each mined with status 1
    for path, body in sent:
        assert_valid(openapi, path, body)
    out = capsys.readouterr().out
    assert "simulated 4 steps on base" in out
    assert "done: " in out and "WETH" in out


@pytest.mark.anvil
@pytest.mark.parametrize(
    ("prompt", "kept"),
    [
        ("bridge 100 usdc from ethereum to base and deposit it into aave", Decimal(0)),
        ("bridge 100 usdc from ethereum to base and deposit 50 usdc into aave on base", Decimal("49.5")),
        ("bridge 100 usdc from ethereum to base, swap it for weth and deposit it into aave", Decimal(0)),
    ],
    ids=["chained-deposit", "fixed-deposit", "swap-then-deposit"],
)
async def test_python_program_signs_the_destination_steps_of_a_bridge_plan_once_the_bridge_has_landed(
    devnet: Running,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    prompt: str,
    kept: Decimal,
) -> None:
    monkeypatch.setenv("INTENTGATE_URL", devnet.api)
    monkeypatch.setenv("INTENTGATE_KEY", devnet.dev_key or "")
    planned: list[dict[str, Any]] = []
    reencoded: list[dict[str, Any]] = []
    send_request = httpx.Client.send

    def recording_send(self: httpx.Client, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        response = send_request(self, request, **kwargs)
        if request.url.path.endswith("/plan"):
            planned.extend(json.loads(response.text, parse_float=Decimal)["steps"])
        elif request.url.path.endswith("/steps/reencode"):
            reencoded.append(json.loads(request.content, parse_float=Decimal))
        return response

    monkeypatch.setattr(httpx.Client, "send", recording_send)
    namespace: dict[str, Any] = {"__name__": "integration_flow"}
    exec(compile(program(), "integration_flow.py", "exec"), namespace)
    wallet = DevnetWallet(devnet.services.settings.rpc_urls)
    spoke_pool = REG.deployment("ethereum", "across", "spoke_pool").lower()
    # The devnet admin (anvil's first account) stands in for the relayer: base's USDC is Circle's real
    # FiatToken, which only its minters (the admin among them) can mint with.
    relayer = wallet.rpc("base", "eth_accounts", [])[0]
    happened: list[str] = []
    before_fill: list[Decimal] = []

    def send(transaction: dict[str, Any]) -> None:
        wallet.send(transaction)
        happened.append(transaction["chain"])
        if transaction["to"].lower() == spoke_pool:
            # The devnet runs no relayer: fill the deposit on base as Across would, a little under the
            # plan's estimate (as when the fee rose before the bridge was signed), so only a re-encode for
            # what landed signs the right amounts.
            recipient = transaction["from"]
            before_fill.append(wallet.balance("base", "USDC", recipient))
            mint = calldata(
                "mint(address,uint256)", [recipient, int(FILL.scaleb(REG.token("base", "USDC").decimals))]
            )
            wallet.transact("base", relayer, REG.token("base", "USDC").address, "0x" + mint.hex())

    def landed(bridge: dict[str, Any]) -> Decimal:
        # A partner's watcher: what the bridge delivered is the rise of the balance on the destination.
        happened.append("landed")
        (before,) = before_fill
        return wallet.balance(bridge["route"]["to_chain"], "USDC", bridge["wallet"]) - before

    await trio.to_thread.run_sync(lambda: namespace["main"](send=send, landed=landed, prompt=prompt))

    out = capsys.readouterr().out
    assert "done: " in out
    (bridge,) = [step for step in planned if step.get("wait_for_bridge")]
    assert bridge["route"]["to_chain"] == "base"
    # Nothing on base is sent before the bridge has landed, chained or not; landed is asked once.
    on_ethereum = sum(1 for step in planned if step["chain"] == "ethereum")
    assert happened == ["ethereum"] * on_ethereum + ["landed"] + ["base"] * (len(planned) - on_ethereum)
    assert len(wallet.receipts) == len(planned)  # every step mined with status 1
    # Chained and quoted steps are re-encoded: those chained to the bridge for what landed, the others
    # chained to a same-chain step for the plan's estimate.
    assert [body["step"]["key"] for body in reencoded] == [
        step["key"] for step in planned if "chained" in step or "route" in step
    ]
    for body in reencoded:
        step = body["step"]
        if "chained" not in step:
            assert body["actual_amount"] == step["amount"]
        elif step["chained"]["from_key"] == bridge["key"]:
            assert body["actual_amount"] == FILL
        else:
            assert body["actual_amount"] == step["chained"]["estimate_amount"]
    # Base's steps spent what they were signed for: all that landed when chained to it, 50 otherwise.
    assert wallet.balance("base", "USDC", bridge["wallet"]) == before_fill[0] + kept
