"""A local Solana JSON-RPC endpoint backed by a LiteSVM, for planning tests: litesvm has no RPC server, so
this answers the read methods the service uses from the LiteSVM state, in the response shapes of the Solana
RPC reference (solana.com/docs/rpc/http): `{"context": {"slot"}, "value": ...}` envelopes, account data as
`[<base64>, "base64"]`, JSON-RPC 2.0 error objects for unknown methods and bad parameters."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import h11
import trio
from solders.account import Account
from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.token.state import Mint, TokenAccount, TokenAccountState
from solders.transaction import VersionedTransaction
from solders.transaction_metadata import FailedTransactionMetadata, TransactionMetadata

from engine.encoders import TOKEN_PROGRAM_ID, associated_token_address, decode_solana_message

# JSON-RPC 2.0 specification, section 5.1: reserved error codes.
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
# Solana RPC reference, getLatestBlockhash: a blockhash stays valid for 150 blocks after its own.
BLOCKHASH_VALIDITY_BLOCKS = 150
API_VERSION = "2.2.0"


class InvalidParams(Exception):
    pass


@dataclass
class SolanaRpc:
    """JSON-RPC methods over one LiteSVM; `methods` records every method called, in order."""

    svm: LiteSVM
    url: str = ""
    methods: list[str] = field(default_factory=list)

    def answer(self, request: Any) -> Any:
        """The JSON-RPC response to one request object or a batch (a list of them)."""
        if isinstance(request, list):
            return [self.answer(item) for item in request]
        method, params = request.get("method"), request.get("params") or []
        self.methods.append(str(method))
        handler = getattr(self, f"_{method}", None)
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request.get("id")}
        if handler is None:
            reply["error"] = {"code": METHOD_NOT_FOUND, "message": "Method not found"}
            return reply
        try:
            reply["result"] = handler(params)
        except (InvalidParams, ValueError, IndexError, KeyError, TypeError) as exc:
            reply["error"] = {"code": INVALID_PARAMS, "message": f"Invalid params: {exc}"}
        return reply

    def _envelope(self, value: Any) -> dict[str, Any]:
        return {"context": {"apiVersion": API_VERSION, "slot": self.svm.get_clock().slot}, "value": value}

    def _getLatestBlockhash(self, params: list[Any]) -> dict[str, Any]:  # noqa: N802 (the RPC method name)
        slot = self.svm.get_clock().slot
        return self._envelope(
            {
                "blockhash": str(self.svm.latest_blockhash()),
                "lastValidBlockHeight": slot + BLOCKHASH_VALIDITY_BLOCKS,
            }
        )

    def _getBalance(self, params: list[Any]) -> dict[str, Any]:  # noqa: N802
        return self._envelope(self.svm.get_balance(_pubkey(params[0])) or 0)

    def _getAccountInfo(self, params: list[Any]) -> dict[str, Any]:  # noqa: N802
        _require_base64(params[1:])
        return self._envelope(_account_json(self.svm.get_account(_pubkey(params[0]))))

    def _getMultipleAccounts(self, params: list[Any]) -> dict[str, Any]:  # noqa: N802
        _require_base64(params[1:])
        return self._envelope([_account_json(self.svm.get_account(_pubkey(p))) for p in params[0]])

    def _getTokenAccountsByOwner(self, params: list[Any]) -> dict[str, Any]:  # noqa: N802
        owner, selector = _pubkey(params[0]), params[1]
        _require_base64(params[2:])
        mint = _pubkey(selector["mint"]) if "mint" in selector else None
        program = _pubkey(selector.get("programId", str(TOKEN_PROGRAM_ID)))
        found = []
        for address, account in self.svm.get_program_accounts(program):
            try:
                holding = TokenAccount.from_bytes(bytes(account.data))
            except ValueError:
                continue  # a mint, not a token account
            if holding.owner == owner and (mint is None or holding.mint == mint):
                found.append({"pubkey": str(address), "account": _account_json(account)})
        return self._envelope(found)


def _pubkey(value: Any) -> Pubkey:
    if not isinstance(value, str):
        raise InvalidParams(f"expected a base58 pubkey string, got {value!r}")
    return Pubkey.from_string(value)


def _require_base64(config: list[Any]) -> None:
    encoding = config[0].get("encoding", "binary") if config else "binary"
    if encoding != "base64":
        raise InvalidParams(f"this test endpoint serves base64 account data only, not {encoding}")


def _account_json(account: Account | None) -> dict[str, Any] | None:
    if account is None:
        return None
    data = bytes(account.data)
    return {
        "data": [base64.b64encode(data).decode(), "base64"],
        "executable": account.executable,
        "lamports": account.lamports,
        "owner": str(account.owner),
        "rentEpoch": account.rent_epoch,
        "space": len(data),
    }


async def _serve(rpc: SolanaRpc, stream: trio.SocketStream) -> None:
    conn = h11.Connection(h11.SERVER)
    body = b""
    try:
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(await stream.receive_some(65536))
            elif isinstance(event, h11.Data):
                body += bytes(event.data)
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                return
        reply = json.dumps(rpc.answer(json.loads(body))).encode()
        headers = [("content-type", "application/json"), ("content-length", str(len(reply)))]
        await stream.send_all(
            conn.send(h11.Response(status_code=200, headers=[*headers, ("connection", "close")]))
        )
        await stream.send_all(conn.send(h11.Data(data=reply)))
        await stream.send_all(conn.send(h11.EndOfMessage()))
    except (trio.BrokenResourceError, trio.ClosedResourceError, h11.RemoteProtocolError):
        return
    finally:
        await trio.aclose_forcefully(stream)


@asynccontextmanager
async def solana_rpc(svm: LiteSVM) -> AsyncIterator[SolanaRpc]:
    """Serve `svm` over JSON-RPC on 127.0.0.1 at a port the OS picks, for the duration of the block."""
    rpc = SolanaRpc(svm)
    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        rpc.url = f"http://127.0.0.1:{listeners[0].socket.getsockname()[1]}"
        await nursery.start(trio.serve_listeners, lambda stream: _serve(rpc, stream), listeners)
        try:
            yield rpc
        finally:
            nursery.cancel_scope.cancel()


def install_mint(svm: LiteSVM, mint: str, decimals: int) -> None:
    """An initialized SPL mint at `mint` (the registry's mainnet address works: LiteSVM accepts any key)."""
    data = bytes(Mint(mint_authority=None, supply=0, decimals=decimals, is_initialized=True))
    svm.set_account(Pubkey.from_string(mint), _token_account(svm, data))


def give_tokens(svm: LiteSVM, mint: str, owner: Pubkey, amount: int) -> Pubkey:
    """Set `owner`'s associated token account for `mint` to hold `amount` raw units; returns its address."""
    holding = TokenAccount(
        mint=Pubkey.from_string(mint),
        owner=owner,
        amount=amount,
        delegate=None,
        state=TokenAccountState.Initialized,
        is_native=None,
        delegated_amount=0,
    )
    address = associated_token_address(str(owner), mint)
    svm.set_account(address, _token_account(svm, bytes(holding)))
    return address


def token_amount(svm: LiteSVM, owner: Pubkey, mint: str) -> int:
    account = svm.get_account(associated_token_address(str(owner), mint))
    return 0 if account is None else TokenAccount.from_bytes(bytes(account.data)).amount


def _token_account(svm: LiteSVM, data: bytes) -> Account:
    return Account(
        lamports=svm.minimum_balance_for_rent_exemption(len(data)),
        data=data,
        owner=TOKEN_PROGRAM_ID,
        executable=False,
    )


def execute(svm: LiteSVM, step: dict[str, Any], signer: Keypair) -> TransactionMetadata:
    """Sign a planned step's exact message bytes with `signer` as a wallet would, and run them; raises
    AssertionError with the program logs when the transaction fails."""
    message = decode_solana_message(step["solana_tx"], step["solana_format"])
    result = svm.send_transaction(VersionedTransaction(message, [signer]))
    if isinstance(result, FailedTransactionMetadata):
        raise AssertionError(f"{step['description']} failed: {result.err()} {result.meta().logs()}")
    return result
