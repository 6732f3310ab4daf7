"""What a step did to balances, read on the pyrevm fork around it: the holders its logs name (ERC-20
Transfer, WETH's Deposit and Withdrawal, Approval, ERC-721 Transfer), their token balances read through
balanceOf before and after the step, the native balances of the sender, the step's target and every
address a log names, and the allowances the batch set. Runs inside the executor's worker thread; every
function here blocks.

The holders are known only once the step has run, so the step runs, its logs are read and the balances
after it, the fork is reverted to before the step and the same balances read there, and the step runs
again, the state it leaves carrying on to the next step."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from eth_abi import decode, encode
from eth_abi.exceptions import DecodingError
from eth_utils import keccak, to_checksum_address

from engine.simulate import AllowanceSeen, EvmCall, Holding, NftMoved, Observed
from watchers.upstreams.fork_state import BalanceUnreadable, balance_of, read_uint

# Event topics (EIP-20 Transfer and Approval; WETH9's Deposit(address indexed dst, uint wad) and
# Withdrawal(address indexed src, uint wad); EIP-721 Transfer carries its token id as a third indexed topic).
TRANSFER: Final = keccak(text="Transfer(address,address,uint256)")
APPROVAL: Final = keccak(text="Approval(address,address,uint256)")
DEPOSIT: Final = keccak(text="Deposit(address,uint256)")
WITHDRAWAL: Final = keccak(text="Withdrawal(address,uint256)")
# EIP-20 allowance(address,address) and approve(address,uint256).
ALLOWANCE: Final = keccak(text="allowance(address,address)")[:4]
APPROVE: Final = keccak(text="approve(address,uint256)")[:4]
ZERO: Final = "0x" + "00" * 20
# An address in a 32-byte word: twelve zero bytes, then twenty that are not all zero.
_PAD: Final = bytes(12)

Pair = tuple[str, str]  # (token, holder), lower case
Triple = tuple[str, str, str]  # (token, owner, spender), lower case


@dataclass
class LogsSeen:
    """What one step's logs say: the net raw amount each (token, holder) moved, the allowances approved,
    the ERC-721 tokens moved, and every address a log names or was emitted by."""

    flows: dict[Pair, int] = field(default_factory=dict)
    approvals: set[Triple] = field(default_factory=set)
    nfts: list[NftMoved] = field(default_factory=list)
    addresses: set[str] = field(default_factory=set)

    def flow(self, token: str, holder: str, amount: int) -> None:
        if holder == ZERO:
            return  # minted from or burned to nobody: the holders' own balances say it
        self.flows[(token, holder)] = self.flows.get((token, holder), 0) + amount


@dataclass
class Readings:
    """Balances and allowances read at one moment on the fork, raw."""

    tokens: dict[Pair, int]
    natives: dict[str, int]
    allowances: dict[Triple, int]


def _address(word: bytes) -> str | None:
    if len(word) != 32 or word[:12] != _PAD or word[12:] == bytes(20):
        return None
    return "0x" + word[12:].hex()


def read_logs(logs: Iterable[Any]) -> LogsSeen:
    """The movements, approvals and addresses in a step's logs (pyrevm's Log: address, data=(topics, data))."""
    seen = LogsSeen()
    for log in logs:
        emitter = str(log.address).lower()
        topics, data = log.data
        topics = [bytes(t) for t in topics]
        data = bytes(data)
        seen.addresses.add(emitter)
        for topic in topics[1:]:
            named = _address(topic)
            if named is not None:
                seen.addresses.add(named)
        if not topics:
            continue
        head = topics[0]
        if head == TRANSFER and len(topics) == 3 and len(data) == 32:
            source, target = "0x" + topics[1][12:].hex(), "0x" + topics[2][12:].hex()
            amount = int.from_bytes(data, "big")
            seen.flow(emitter, source, -amount)
            seen.flow(emitter, target, amount)
        elif head == TRANSFER and len(topics) == 4:
            source, target = "0x" + topics[1][12:].hex(), "0x" + topics[2][12:].hex()
            seen.nfts.append(NftMoved(emitter, int.from_bytes(topics[3], "big"), source, target))
        elif head == APPROVAL and len(topics) == 3 and len(data) == 32:
            seen.approvals.add((emitter, "0x" + topics[1][12:].hex(), "0x" + topics[2][12:].hex()))
        elif head in (DEPOSIT, WITHDRAWAL) and len(topics) == 2 and len(data) == 32:
            amount = int.from_bytes(data, "big")
            holder = "0x" + topics[1][12:].hex()
            seen.flow(emitter, holder, amount if head == DEPOSIT else -amount)
    return seen


def approve_triple(sender: str, call: EvmCall) -> Triple | None:
    """(token, owner, spender) when the call is an ERC-20 approve from `sender`."""
    if call.data[:4] != APPROVE or len(call.data) != 68:
        return None
    try:
        (spender,) = decode(["address"], call.data[4:36])
    except DecodingError:
        return None
    return (call.to.lower(), sender.lower(), str(spender).lower())


def allowance_of(evm: Any, token: str, owner: str, spender: str) -> int:
    return read_uint(evm, token, ALLOWANCE + encode(["address", "address"], [owner, spender]), "allowance")


def read(evm: Any, tokens: Iterable[Pair], natives: Iterable[str], allowances: Iterable[Triple]) -> Readings:
    """The balances and allowances named, as the fork holds them now. A pair whose token does not answer
    balanceOf (an emitter of a Deposit log that is no token) is left out."""
    found = Readings({}, {}, {})
    for token, holder in tokens:
        try:
            found.tokens[(token, holder)] = balance_of(evm, token, holder)
        except BalanceUnreadable:
            continue
    for address in natives:
        found.natives[address] = int(evm.get_balance(address))
    for triple in allowances:
        try:
            found.allowances[triple] = allowance_of(evm, *triple)
        except BalanceUnreadable:
            continue
    return found


@dataclass
class Watch:
    """What to read around one step, decided from its first run: the pairs and addresses, the allowances
    (those the batch set before it and those it sets), and what they read after the step."""

    seen: LogsSeen
    setting: set[Triple]
    tokens: list[Pair]
    natives: list[str]
    allowances: list[Triple]
    after: Readings


def watch_after(evm: Any, sender: str, call: EvmCall, logs: Iterable[Any], known: set[Triple]) -> Watch:
    """Read the logs of the step just run and the balances they name as they are after it. `known` holds
    the allowances earlier steps set; the ones this step sets are added to it."""
    seen = read_logs(logs)
    own = approve_triple(sender, call)
    setting = set(seen.approvals) | ({own} if own else set())
    known |= setting
    tokens = sorted(seen.flows)
    natives = sorted({sender.lower(), call.to.lower(), *seen.addresses, *(h for _, h in tokens)} - {ZERO})
    allowances = sorted(known)
    return Watch(seen, setting, tokens, natives, allowances, read(evm, tokens, natives, allowances))


def observed(evm: Any, watch: Watch, before: Readings) -> Observed:
    """The step's Observed: every balance that moved (or that a log moved), every allowance it set or
    changed, the NFTs it moved, and which gaining holders hold code (read on the fork after the step)."""
    holdings: list[Holding] = []
    for pair, after in watch.after.tokens.items():
        prior = before.tokens.get(pair)
        logged = watch.seen.flows.get(pair)
        if prior is None or (prior == after and not logged):
            continue
        holdings.append(Holding(_checksum(pair[0]), _checksum(pair[1]), prior, after, logged))
    for address, after in watch.after.natives.items():
        prior = before.natives.get(address)
        if prior is not None and prior != after:
            holdings.append(Holding(None, _checksum(address), prior, after))
    allowances = [
        AllowanceSeen(_checksum(t), _checksum(o), _checksum(s), before.allowances[(t, o, s)], after)
        for (t, o, s), after in watch.after.allowances.items()
        if (t, o, s) in before.allowances
        and (before.allowances[(t, o, s)] != after or (t, o, s) in watch.setting)
    ]
    nfts = [
        NftMoved(_checksum(n.token), n.token_id, _checksum(n.sender), _checksum(n.recipient))
        for n in watch.seen.nfts
    ]
    gaining = {h.holder.lower() for h in holdings if h.after > h.before} | {n.recipient.lower() for n in nfts}
    contracts = frozenset(a for a in gaining if a != ZERO and evm.get_code(a))
    return Observed(tuple(holdings), tuple(allowances), tuple(nfts), contracts)


def _checksum(address: str) -> str:
    return str(to_checksum_address(address))
