"""The devnet's Solana: one LiteSVM (solders) served over JSON-RPC on loopback, with SPL Token (built into
LiteSVM), the registry's mints installed at their mainnet addresses, and the devnet faucet's balances given
to a wallet the first time a request reads it.

LiteSVM has no RPC server, so this answers the read methods the service uses from the LiteSVM state, in the
response shapes of the Solana RPC reference (solana.com/docs/rpc/http): `{"context": {"slot"}, "value": ...}`
envelopes, account data as `[<base64>, "base64"]` (and SPL token accounts as `jsonParsed` when asked),
JSON-RPC 2.0 error objects for unknown methods and bad parameters.

Funding on first sight: a wallet is funded when getBalance or getTokenAccountsByOwner names it (the reads
the service makes of a wallet itself); a read of an associated token account alone names no wallet, so it
funds nothing. Each wallet is funded once: balances a demo spends stay spent.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import h11
import trio
from solders.account import Account
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.token.state import Mint, TokenAccount, TokenAccountState

from devnet.faucet import DEFAULT_TOKEN_AMOUNT, FAUCET_NATIVE, FAUCET_TOKENS
from engine.encoders import TOKEN_PROGRAM_ID, associated_token_address
from engine.registry import Registry, Token

# JSON-RPC 2.0 specification, section 5.1: reserved error codes.
PARSE_ERROR = -32700
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
# Solana RPC reference, getLatestBlockhash: a blockhash stays valid for 150 blocks after its own.
BLOCKHASH_VALIDITY_BLOCKS = 150
API_VERSION = "2.2.0"
# The registry's Solana chain slug.
SOLANA = "solana"
# Largest request body the server reads (a getMultipleAccounts of 100 keys is about 5 KB).
MAX_BODY = 1 << 20


class InvalidParams(Exception):
    pass


@dataclass(frozen=True)
class SolanaFaucet:
    """The raw balances a new wallet gets: lamports, and (mint, raw amount) per SPL token."""

    lamports: int
    tokens: tuple[tuple[str, int], ...]

    @classmethod
    def from_registry(cls, registry: Registry) -> SolanaFaucet:
        native = registry.native(SOLANA)
        tokens = tuple(
            (token.address or "", _raw(token, FAUCET_TOKENS.get(token.symbol, DEFAULT_TOKEN_AMOUNT)))
            for token in spl_tokens(registry)
            # Wrapped SOL is a native token account (its lamports are the balance): the faucet gives SOL.
            if token.symbol != registry.chain(SOLANA).wrapped_native_symbol
        )
        return cls(lamports=_raw(native, FAUCET_NATIVE), tokens=tokens)

    def fund(self, svm: LiteSVM, wallet: Pubkey) -> None:
        svm.airdrop(wallet, self.lamports)
        for mint, amount in self.tokens:
            give_tokens(svm, mint, wallet, amount)


@dataclass
class SolanaRpc:
    """JSON-RPC methods over one LiteSVM; `faucet` funds wallets on first sight when set."""

    svm: LiteSVM
    faucet: SolanaFaucet | None = None
    url: str = ""
    methods: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def answer(self, request: Any) -> Any:
        """The JSON-RPC response to one request object or a batch (a list of them)."""
        if isinstance(request, list):
            return [self.answer(item) for item in request]
        if not isinstance(request, dict):
            return {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": INVALID_PARAMS, "message": "not an object"},
            }
        method, params = request.get("method"), request.get("params") or []
        self.methods.append(str(method))
        handler = getattr(self, f"_{method}", None)
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request.get("id")}
        if handler is None:
            reply["error"] = {"code": METHOD_NOT_FOUND, "message": "Method not found"}
            return reply
        try:
            reply["result"] = handler(params)
        except (InvalidParams, ValueError, IndexError, KeyError, TypeError, AttributeError) as exc:
            reply["error"] = {"code": INVALID_PARAMS, "message": f"Invalid params: {exc}"}
        return reply

    def _first_sight(self, wallet: Pubkey) -> None:
        # Only a key on the ed25519 curve can sign: an off-curve key is a program-derived address.
        if self.faucet is None or str(wallet) in self.seen or not wallet.is_on_curve():
            return
        self.seen.add(str(wallet))
        self.faucet.fund(self.svm, wallet)

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
        wallet = _pubkey(params[0])
        self._first_sight(wallet)
        return self._envelope(self.svm.get_balance(wallet) or 0)

    def _getAccountInfo(self, params: list[Any]) -> dict[str, Any]:  # noqa: N802
        _require_base64(params[1:])
        return self._envelope(_account_json(self.svm.get_account(_pubkey(params[0]))))

    def _getMultipleAccounts(self, params: list[Any]) -> dict[str, Any]:  # noqa: N802
        _require_base64(params[1:])
        return self._envelope([_account_json(self.svm.get_account(_pubkey(p))) for p in params[0]])

    def _getTokenAccountsByOwner(self, params: list[Any]) -> dict[str, Any]:  # noqa: N802
        owner, selector = _pubkey(params[0]), params[1]
        parsed = _encoding(params[2:]) == "jsonParsed"
        if not parsed:
            _require_base64(params[2:])
        self._first_sight(owner)
        mint = _pubkey(selector["mint"]) if "mint" in selector else None
        program = _pubkey(selector.get("programId", str(TOKEN_PROGRAM_ID)))
        found = []
        for address, account in self.svm.get_program_accounts(program):
            try:
                holding = TokenAccount.from_bytes(bytes(account.data))
            except ValueError:
                continue  # a mint, not a token account
            if holding.owner == owner and (mint is None or holding.mint == mint):
                shown = _account_json(account) or {}
                if parsed:
                    shown["data"] = self._parsed(holding)
                found.append({"pubkey": str(address), "account": shown})
        return self._envelope(found)

    def _parsed(self, holding: TokenAccount) -> dict[str, Any]:
        # The jsonParsed shape of an SPL token account (solana.com/docs/rpc/http/gettokenaccountsbyowner).
        mint_account = self.svm.get_account(holding.mint)
        decimals = Mint.from_bytes(bytes(mint_account.data)).decimals if mint_account else 0
        amount = holding.amount
        return {
            "program": "spl-token",
            "parsed": {
                "type": "account",
                "info": {
                    "mint": str(holding.mint),
                    "owner": str(holding.owner),
                    "state": "initialized",
                    "isNative": False,
                    "tokenAmount": {
                        "amount": str(amount),
                        "decimals": decimals,
                        "uiAmountString": str(Decimal(amount).scaleb(-decimals)),
                    },
                },
            },
            "space": 165,
        }


def spl_tokens(registry: Registry) -> list[Token]:
    """The registry's SPL tokens on Solana (every token with a mint address)."""
    return [t for t in registry.tokens(SOLANA) if not t.is_native and t.address]


def solana_world(registry: Registry) -> LiteSVM:
    """A LiteSVM with every registry mint installed at its mainnet address."""
    svm = LiteSVM()
    for token in spl_tokens(registry):
        install_mint(svm, token.address or "", token.decimals)
    return svm


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


def _raw(token: Token, whole: Decimal) -> int:
    return int(whole.scaleb(token.decimals))


def _token_account(svm: LiteSVM, data: bytes) -> Account:
    return Account(
        lamports=svm.minimum_balance_for_rent_exemption(len(data)),
        data=data,
        owner=TOKEN_PROGRAM_ID,
        executable=False,
    )


def _pubkey(value: Any) -> Pubkey:
    if not isinstance(value, str):
        raise InvalidParams(f"expected a base58 pubkey string, got {value!r}")
    return Pubkey.from_string(value)


def _encoding(config: Iterable[Any]) -> str:
    first = next(iter(config), None)
    return str(first.get("encoding", "binary")) if isinstance(first, dict) else "binary"


def _require_base64(config: list[Any]) -> None:
    encoding = _encoding(config)
    if encoding != "base64":
        raise InvalidParams(f"the devnet serves base64 account data only, not {encoding}")


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
                if len(body) > MAX_BODY:
                    return
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                return
        try:
            answer = rpc.answer(json.loads(body))
        except ValueError:
            answer = {"jsonrpc": "2.0", "id": None, "error": {"code": PARSE_ERROR, "message": "Parse error"}}
        reply = json.dumps(answer).encode()
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
async def solana_rpc(svm: LiteSVM, faucet: SolanaFaucet | None = None) -> AsyncIterator[SolanaRpc]:
    """Serve `svm` over JSON-RPC on 127.0.0.1 at a port the OS picks, for the duration of the block."""
    rpc = SolanaRpc(svm, faucet)
    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        rpc.url = f"http://127.0.0.1:{listeners[0].socket.getsockname()[1]}"
        await nursery.start(trio.serve_listeners, lambda stream: _serve(rpc, stream), listeners)
        try:
            yield rpc
        finally:
            nursery.cancel_scope.cancel()
