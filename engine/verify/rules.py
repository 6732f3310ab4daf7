"""The effect check's rules, one per action: what the words of an intent promise, checked against what its
steps did on the fork. Each rule reads its window (engine.verify.window) and records a finding on the step
that breaks the promise, or a check that holds.

Independent of the planner: amounts come from the intent's words and the registry's decimals, receipt
tokens from the lending pool's own reserve data, minimums and bridge fills from the calldata that ran."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Final

from engine.encoders import EncodingError
from engine.encoders.contract_abi import load_abi
from engine.encoders.solana import associated_token_address
from engine.limits import MAX_SLIPPAGE_BPS
from engine.planner.liquidity import LP_SLIPPAGE_BPS
from engine.planner.models import Step
from engine.planner.staking import STETH_ROUNDING_WEI
from engine.planner.tokens import APPROVE_ACTION
from engine.registry import RegistryError, Token
from engine.simulate.effects import address_key
from engine.verify.window import Window
from engine.verify.wraps import wrap

# Aave's balances are scaled by an index: a mint or burn of x can read back x +- 1 (rounding either way).
INDEX_SLACK: Final = 2
LENDERS: Final = ("aave", "spark")

Rule = Callable[[Window], None]


def parted(w: Window, token: Token, position: int, ran: str | None = None) -> int | None:
    """Check the sender parts with exactly the stated amount of `token` (or, for max and chained, with
    something and at most what the step says); the amount parted, or None after a finding."""
    chain = token.chain
    step = dict(w.steps)[position]
    lost = -w.change(chain, w.sender(chain), w.forms(token))
    exact = w.stated(token)
    slack = STETH_ROUNDING_WEI if token.symbol == "stETH" else 0
    if exact is not None:
        if abs(lost - exact) > slack:
            w.fail(
                position,
                f"the sender parts with {w.units(token, lost)}, not the {w.units(token, exact)} {w.said()} names",
            )
            return None
        w.ok(position, f"the sender parts with exactly {w.units(token, exact)}")
        return lost
    bound = w.bound(token, step, ran)
    if lost <= 0 or (bound is not None and lost > bound + slack):
        most = f"at most {w.units(token, bound)}" if bound is not None else "some"
        w.fail(position, f"the sender parts with {w.units(token, lost)}, not {most} as the step says")
        return None
    w.ok(
        position,
        f"the sender parts with {w.units(token, lost)} ({w.intent.amount}, at most what the step says)",
    )
    return lost


def gained(w: Window, token: Token, holder: str) -> int:
    return w.change(token.chain, holder, w.forms(token))


def acting(w: Window, action: str) -> tuple[int, Step, Token] | None:
    """The window's own step of `action` and the token its words name on that step's chain; None after
    a finding when the token is not the chain's."""
    position, step = w.main(action)
    token = w.token(step.chain, w.intent.asset)
    if token is None:
        w.fail(position, f"{w.intent.asset} is not a token of {step.chain}")
        return None
    return position, step, token


def received_nft(w: Window, chain: str, collection: str) -> bool:
    """Whether the sender on `chain` receives an NFT of `collection` (a position, a withdrawal request)."""
    sender = address_key(w.sender(chain))
    return any(
        address_key(n.recipient) == sender and address_key(n.token) == address_key(collection)
        for n in w.nfts()
    )


def sender_gains(w: Window, chain: str) -> bool:
    sender = address_key(w.sender(chain))
    return any(address_key(d.holder) == sender for d in w.gainers())


def only_gainers(w: Window, allowed: set[str], position: int) -> None:
    """Nobody but `allowed` (lower-case or base58 keys) gains anything in the window."""
    for delta in w.gainers():
        if address_key(delta.holder) not in allowed:
            what = f"{delta.raw} raw units of {delta.token or 'the native asset'}"
            try:
                token = (
                    w.registry.native(delta.chain)
                    if delta.token is None
                    else w.registry.token_by_address(delta.chain, delta.token)
                )
                what = w.units(token, delta.raw)
            except RegistryError:
                pass
            w.fail(position, f"{delta.holder} gains {what}, and {w.said()} names nobody but its recipient")
            return
    w.ok(position, "nobody else gains anything")


def transfer(w: Window) -> None:
    position, step = w.main("transfer", "sweep")
    token = w.token(step.chain, w.intent.asset)
    recipient = w.intent.recipient or ""
    if token is None:
        w.fail(position, f"{w.intent.asset} is not a token of {step.chain}")
        return
    lost = parted(w, token, position)
    if lost is None:
        return
    got = gained(w, token, recipient)
    if got != lost:
        w.fail(
            position,
            f"the recipient {recipient} gains {w.units(token, got)}, not the {w.units(token, lost)} sent",
        )
        return
    w.ok(position, f"the recipient {recipient} gains exactly {w.units(token, lost)}")
    only_gainers(w, {address_key(recipient)}, position)


def sweep(w: Window) -> None:
    # Each step sweeps one asset: held to its own effect (ETH and WETH are two steps, not one amount).
    bridges = [(i, s) for i, s in w.steps if s.type == "bridge"]
    if bridges:
        for position, step in bridges:
            bridge_step(w.part(position), position, step)
        return
    recipient = w.intent.recipient or ""
    for position, step in w.steps:
        token = w.token(step.chain, step.asset)
        if token is None or step.type != "sweep":
            continue
        one = w.part(position)
        lost = parted(one, token, position)
        if lost is not None and gained(one, token, recipient) != lost:
            w.fail(position, f"the recipient {recipient} does not gain the {w.units(token, lost)} swept")
    only_gainers(w, {address_key(recipient)}, w.steps[-1][0])


def bridge(w: Window) -> None:
    for position, step in w.steps:
        if step.type == "bridge":
            bridge_step(w, position, step)


def bridge_step(w: Window, position: int, step: Step) -> None:
    chain = step.chain
    token = w.token(chain, step.asset if w.intent.action == "sweep" else w.intent.asset)
    if token is None:
        w.fail(position, f"{w.intent.asset} is not a token of {chain}")
        return
    lost = parted(w, token, position)
    if lost is None:
        return
    try:
        contract = w.registry.contract_for(chain, step.protocol, "bridge").address
    except RegistryError as exc:
        w.fail(position, f"its bridge is not the registry's: {exc}")
        return
    into = gained(w, token, contract)
    if step.protocol == "cctp":
        held = sum(
            d.raw
            for d in w.gainers()
            if d.chain == chain and d.token is not None and d.token.lower() == (token.address or "").lower()
        )
        if held:
            w.fail(
                position,
                f"the {w.units(token, lost)} parted with is not all burned: {w.units(token, held)} is held by someone",
            )
            return
        w.ok(position, f"the {w.units(token, lost)} parted with is burned by the bridge")
    elif into != lost:
        w.fail(
            position,
            f"the bridge contract {contract} receives {w.units(token, into)}, not the {w.units(token, lost)} parted with",
        )
        return
    else:
        w.ok(position, f"exactly {w.units(token, lost)} moves into the bridge contract")
    fill = w.fills.get(position)
    if fill is None:
        w.fail(position, "its fill cannot be read from its calldata")
        return
    to_chain = w.intent.to_chain or chain
    if fill.to_chain != to_chain:
        w.fail(position, f"its output lands on {fill.to_chain}, not on {to_chain}")
        return
    expected = recipients(w, w.sender(chain), to_chain, fill.token.address)
    if address_key(fill.recipient) not in expected:
        named = ", ".join(sorted(expected)) or "one of the request's wallets"
        w.fail(position, f"its output goes to {fill.recipient} on {to_chain}, not to {named}")
        return
    same = {fill.token.symbol, token.symbol} <= {
        w.registry.native(to_chain).symbol,
        w.registry.wrapped_native(to_chain).symbol,
        w.registry.native(chain).symbol,
        w.registry.wrapped_native(chain).symbol,
    } or fill.token.symbol == token.symbol
    if not same:
        w.fail(position, f"its output is {fill.token.symbol}, not {token.symbol}")
        return
    sent = w.registry.from_raw(token, lost)
    output = w.units(fill.token, fill.amount_raw)
    if not 0 < fill.amount <= sent:
        w.fail(
            position,
            f"its output of {output} is not more than nothing and at most the {w.units(token, lost)} sent",
        )
        return
    w.ok(position, f"its output of {output} goes to {fill.recipient} on {to_chain}")


def recipients(w: Window, sender: str, to_chain: str, mint: str | None) -> set[str]:
    """Who may receive a bridge's output on `to_chain`: the intent's recipient, else the sender when it
    can hold there, else the request's wallets of that chain's family. Into Solana the output is the
    recipient's USDC token account."""
    family = w.registry.chain(to_chain).family
    if w.intent.recipient:
        wallets = [w.intent.recipient]
    elif (family == "evm") == sender.startswith("0x"):
        wallets = [sender]
    else:
        wallets = [a for a in w.wallets if a.startswith("0x") == (family == "evm")]
    if family == "solana" and mint:
        return {str(associated_token_address(a, mint)) for a in wallets}
    return {address_key(a) for a in wallets}


def lending_token(w: Window, chain: str, underlying: Token, kind: str) -> str | None:
    protocol = (w.intent.protocol or "").lower()
    for address, found in w.lending.get(chain, {}).items():
        if found.protocol == protocol and found.kind == kind and found.underlying == underlying.symbol:
            return address
    return None


def _pooled(w: Window, token: Token) -> Token:
    return w.registry.wrapped_native(token.chain) if token.is_native else token


def deposit(w: Window) -> None:
    found = acting(w, "deposit")
    if found is None:
        return None
    position, step, token = found
    lost = parted(w, token, position, None)
    if lost is None:
        return None
    sender = w.sender(step.chain)
    if w.intent.vault_address:
        vault = w.registry.vault(step.chain, w.intent.vault_address)
        shares = w.change(step.chain, sender, [address_key(vault.address)]) if vault else 0
        if shares <= 0:
            return w.fail(position, f"the sender receives no shares of the vault {w.intent.vault_address}")
        return w.ok(position, f"the sender receives {w.shown(step.chain, w.intent.vault_address, shares)}")
    receipt = lending_token(w, step.chain, _pooled(w, token), "receipt")
    if receipt is None:
        return w.fail(
            position, f"{w.intent.protocol} has no receipt token for {token.symbol} on {step.chain}"
        )
    got = w.change(step.chain, sender, [receipt])
    shown = w.shown(step.chain, receipt, got)
    if got < lost - INDEX_SLACK:
        return w.fail(position, f"the sender receives {shown}, not the {w.units(token, lost)} deposited")
    return w.ok(position, f"the sender receives {shown}, {w.intent.protocol}'s receipt token")


def withdraw(w: Window) -> None:
    found = acting(w, "withdraw")
    if found is None:
        return None
    position, step, token = found
    sender = w.sender(step.chain)
    got = gained(w, token, sender)
    exact = w.stated(token)
    if (exact is not None and got != exact) or got <= 0:
        want = w.units(token, exact) if exact is not None else "some"
        return w.fail(position, f"the sender receives {w.units(token, got)}, not {want} as {w.said()} says")
    w.ok(position, f"the sender receives {w.units(token, got)}")
    if w.intent.vault_address:
        return None
    receipt = lending_token(w, step.chain, _pooled(w, token), "receipt")
    if receipt is None or w.change(step.chain, sender, [receipt]) >= 0:
        return w.fail(position, "the sender's receipt token does not go down")
    return None


def borrow(w: Window) -> None:
    found = acting(w, "borrow")
    if found is None:
        return None
    position, step, token = found
    sender = w.sender(step.chain)
    got, exact = gained(w, token, sender), w.stated(token)
    if exact is None or got != exact:
        return w.fail(position, f"the sender is credited {w.units(token, got)}, not {w.said()}'s amount")
    debt = lending_token(w, step.chain, _pooled(w, token), "debt")
    owed = w.change(step.chain, sender, [debt]) if debt else 0
    if owed < exact - INDEX_SLACK:
        shown = w.shown(step.chain, debt, owed)
        return w.fail(
            position, f"the sender's debt rises by {shown}, not by the {w.units(token, exact)} borrowed"
        )
    return w.ok(position, f"the sender is credited exactly {w.units(token, exact)} and owes it")


def repay(w: Window) -> None:
    found = acting(w, "repay")
    if found is None:
        return None
    position, step, token = found
    if parted(w, token, position) is None:
        return None
    debt = lending_token(w, step.chain, _pooled(w, token), "debt")
    if debt is None or w.change(step.chain, w.sender(step.chain), [debt]) >= 0:
        return w.fail(position, "the sender's debt does not go down")
    return w.ok(position, "the sender's debt goes down")


def stake(w: Window) -> None:
    position, step = w.main("stake")
    token = w.token(step.chain, w.intent.asset)
    steth = w.token(step.chain, "stETH")
    if token is None or steth is None:
        return w.fail(position, "Lido stakes ETH for stETH")
    lost = parted(w, token, position)
    if lost is None:
        return None
    got = gained(w, steth, w.sender(step.chain))
    if got < lost - STETH_ROUNDING_WEI:
        return w.fail(
            position, f"the sender receives {w.units(steth, got)}, not the {w.units(steth, lost)} staked"
        )
    return w.ok(position, f"the sender receives {w.units(steth, got)}")


def unstake(w: Window) -> None:
    position, step = w.main("unstake")
    steth = w.token(step.chain, "stETH")
    if steth is None or parted(w, steth, position) is None:
        return None
    if not received_nft(w, step.chain, w.registry.contract_for(step.chain, "lido", "unstake").address):
        return w.fail(position, "the sender receives no Lido withdrawal request")
    return w.ok(position, "the sender receives its Lido withdrawal request")


def claim(w: Window) -> None:
    position, step = w.main("claim")
    if not sender_gains(w, step.chain):
        return w.fail(position, "the sender receives nothing")
    return w.ok(position, "the sender receives what it claims")


def approve(w: Window) -> None:
    found = acting(w, "approve")
    if found is None:
        return None
    position, step, token = found
    if w.intent.vault_address:
        spender = w.intent.vault_address
    else:
        try:
            role = APPROVE_ACTION[(w.intent.protocol or "").lower()]
            spender = w.registry.contract_for(step.chain, w.intent.protocol or "", role).address
        except (KeyError, RegistryError):
            return w.fail(position, f"{w.intent.protocol} takes no approvals on {step.chain}")
    exact = w.stated(token)
    seen = [
        s
        for _, s in w.allowances()
        if address_key(s.spender) == address_key(spender)
        and address_key(s.token) == address_key(token.address or "")
    ]
    if not seen or (exact is not None and seen[-1].after != exact):
        after = w.units(token, seen[-1].after) if seen else "nothing"
        return w.fail(
            position,
            f"{spender} is allowed {after}, not the {w.intent.amount} {token.symbol} {w.said()} names",
        )
    return w.ok(position, f"{spender} is allowed exactly {w.units(token, seen[-1].after)}")


def swap(w: Window) -> None:
    position, step = w.main("swap")
    token_in, token_out = w.token(step.chain, w.intent.asset), w.token(step.chain, w.intent.to_asset)
    if token_in is None or token_out is None:
        return w.fail(position, "its assets are not tokens of its chain")
    if w.forms(token_in) == w.forms(token_out):
        return wrap(w, position, step, token_in, token_out)
    if parted(w, token_in, position) is None:
        return None
    minimum = swap_minimum(w, position)
    if minimum is None:
        return None
    sender = w.sender(step.chain)
    got = gained(w, token_out, sender)
    # The minimum is said of the asset the words name (ETH after its unwrap, WETH as WETH).
    own = None if token_out.is_native else address_key(token_out.address or "")
    w.minimums[(step.chain, address_key(sender), own)] = minimum
    if minimum <= 0:
        return w.fail(position, "the swap's minimum output is 0: it can be filled at any price")
    if got < minimum:
        return w.fail(
            position,
            f"the sender receives {w.units(token_out, got)}, less than the swap's minimum {w.units(token_out, minimum)}",
        )
    floor = got * (10_000 - MAX_SLIPPAGE_BPS) // 10_000
    if minimum < floor:
        return w.fail(
            position,
            f"the swap's minimum {w.units(token_out, minimum)} is more than {Decimal(MAX_SLIPPAGE_BPS) / 100}% "
            f"below the {w.units(token_out, got)} it yields on the fork",
        )
    return w.ok(
        position,
        f"the sender receives {w.units(token_out, got)}, at least the minimum {w.units(token_out, minimum)}",
    )


def swap_minimum(w: Window, position: int) -> int | None:
    """amountOutMinimum of the SwapRouter02 multicall(exactInputSingle) that ran."""
    effect = w.effects[[i for i, _ in w.steps].index(position)]
    router = load_abi("uniswap_swap_router02")
    try:
        data = effect.call.data if effect.call is not None else b""
        _, calls = router.function("multicall").decode_input(data)
        params = router.function("exactInputSingle").decode_input(bytes(calls[0]))[0]
    except (EncodingError, IndexError):
        w.fail(position, "its calldata is not a Uniswap exactInputSingle: its minimum output cannot be read")
        return None
    return int(params[5])


def lp_add(w: Window) -> None:
    found = acting(w, "lp-add")
    if found is None:
        return None
    position, step, token = found
    lost = -w.change(step.chain, w.sender(step.chain), w.forms(token))
    exact = w.stated(token)
    # A mint takes at most the amount desired of each side and at least its minimum (LP_SLIPPAGE_BPS
    # less): the words' amount is the most the sender parts with.
    least = exact * (10_000 - LP_SLIPPAGE_BPS) // 10_000 if exact is not None else 1
    most = exact if exact is not None else w.bound(token, step)
    if lost < least or (most is not None and lost > most):
        most_said = w.units(token, most) if most is not None else "what it holds"
        return w.fail(
            position,
            f"the sender parts with {w.units(token, lost)}, not between {w.units(token, least)} and "
            f"{most_said} as {w.said()} says",
        )
    w.ok(position, f"the sender parts with {w.units(token, lost)}, at most the amount named")
    if not received_nft(w, step.chain, w.registry.contract_for(step.chain, "uniswap", "lp-add").address):
        return w.fail(position, "the sender receives no Uniswap v3 position")
    return w.ok(position, "the sender receives its Uniswap v3 position")


def lp_remove(w: Window) -> None:
    position, step = w.main("lp-remove", "lp-collect")
    if not sender_gains(w, step.chain):
        return w.fail(position, "the sender receives none of the pool's tokens")
    return w.ok(position, "the sender receives the pool's tokens")


def lp_collect(w: Window) -> None:
    position, _ = w.main("lp-collect")
    w.ok(position, "only the sender may receive the fees (checked below)")


RULES: Final[dict[str, Rule]] = {
    "transfer": transfer,
    "sweep": sweep,
    "bridge": bridge,
    "deposit": deposit,
    "withdraw": withdraw,
    "borrow": borrow,
    "repay": repay,
    "stake": stake,
    "unstake": unstake,
    "claim": claim,
    "approve": approve,
    "swap": swap,
    "lp-add": lp_add,
    "lp-remove": lp_remove,
    "lp-collect": lp_collect,
}
