"""Re-encode one planned step for the amount actually available at sign time, re-quoting what is
perishable (swap minimums, bridge outputs). Pure: quotes come from Facts like the planner's."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from eth_utils import to_checksum_address

from engine.encoders import (
    SOLANA_FORMAT_LEGACY,
    EncodingError,
    SolanaMessage,
    aave_borrow,
    aave_repay,
    aave_supply,
    aave_withdraw,
    across_deposit_v3,
    decode_solana_message,
    decoded_instructions,
    erc20_approve,
    erc20_transfer,
    erc4626_deposit,
    erc4626_withdraw,
    identify_calldata,
    lido_request_withdrawals,
    lido_submit,
    swap_exact_input_single,
    unwrap_router_multicall,
    weth_deposit,
    weth_withdraw,
)
from engine.encoders.cctp_solana import (
    CctpSolanaPrograms,
    cctp_solana_deposit_for_burn_message,
    decode_cctp_solana_deposit_for_burn,
)
from engine.encoders.cctp_v2 import cctp_v2_deposit_for_burn
from engine.limits import SIGNING_WINDOW_S
from engine.planner.errors import PlanError, RouteExpired
from engine.planner.facts import BlockhashKey, BridgeQuote, BridgeQuoteKey, Facts, SwapQuote, SwapQuoteKey
from engine.planner.models import ReencodeRequest, ReencodeResponse, Step
from engine.planner.staking import withdrawal_chunks
from engine.planner.swaps import minimum_out, slippage_bps
from engine.registry import Registry, RegistryError, Token
from engine.registry.recipients import recipient_problem, spender_problem

# Steps sized by on-chain state rather than by an amount (position liquidity, claimable requests, accrued
# rewards): their calldata is signed as planned.
UNSIZED_STEP_TYPES = ("lp-remove", "lp-collect", "claim")


class Unsupported(Exception):
    """The step cannot be re-encoded; the message is the unsupported_reason."""


def known_targets(registry: Registry, chain: str) -> set[str]:
    """Every contract this service plans calls to on `chain`: protocol deployments, tokens, vaults."""
    targets = {t.address.lower() for t in registry.tokens(chain) if t.address}
    for protocol in registry.protocols():
        targets.update(d.address.lower() for d in registry.deployments(chain, protocol.name))
    targets.update(v.address.lower() for v in registry.vaults(chain))
    return targets


def reencode_step(registry: Registry, request: ReencodeRequest, facts: Facts) -> ReencodeResponse:
    """The step's fresh data, raw amount and value for `actual_amount` (for a Solana CCTP burn: a fresh
    message on a new blockhash); ok false with the reason when it cannot be re-encoded. Raises RouteExpired
    when a re-quote finds no route, pinned or not."""
    step = request.step
    quoted_at = facts.now * 1000
    try:
        if _is_solana(registry, step):
            message, raw = _reencode_solana(registry, step, request.actual_amount, facts)
            return ReencodeResponse(
                ok=True,
                amount_raw=str(raw),
                solana_tx=message.solana_tx,
                solana_format=message.solana_format,
                quoted_at=quoted_at,
            )
        data, raw, value = _reencode(registry, step, request.actual_amount, facts)
    except Unsupported as exc:
        return ReencodeResponse(ok=False, unsupported_reason=str(exc), quoted_at=quoted_at)
    return ReencodeResponse(ok=True, data=data, amount_raw=str(raw), value=str(value), quoted_at=quoted_at)


def _is_solana(registry: Registry, step: Step) -> bool:
    try:
        return registry.chain(step.chain).family == "solana"
    except RegistryError:
        raise Unsupported(f"unknown chain {step.chain!r}") from None


def _reencode_solana(
    registry: Registry, step: Step, actual: Decimal, facts: Facts
) -> tuple[SolanaMessage, int]:
    """A CCTP burn out of Solana rebuilt for `actual` USDC on a fresh blockhash, with the same owner, event
    account, destination and parameters; the message is checked to be exactly a burn this service plans.
    Transfers and sweeps are re-planned instead (their amounts are never chained)."""
    if (step.type, step.protocol) != ("bridge", "cctp"):
        raise Unsupported("Solana messages carry a blockhash that expires: re-plan the step with /plan")
    try:
        programs = CctpSolanaPrograms.of(
            registry.contract_for(step.chain, "cctp", "bridge").address,
            registry.deployment(step.chain, "cctp", "message_transmitter"),
        )
        usdc = registry.token(step.chain, "USDC")
        raw = registry.to_raw(usdc, actual)
    except RegistryError as exc:
        raise Unsupported(str(exc)) from None
    try:
        message = decode_solana_message(step.solana_tx or "", step.solana_format or "")
        (ix,) = decoded_instructions(message)
        burn = decode_cctp_solana_deposit_for_burn(programs, ix)
    except (EncodingError, ValueError) as exc:
        raise Unsupported(f"the step's message is not a CCTP burn this service plans: {exc}") from None
    if str(burn.burn_token_mint) != usdc.address:
        raise Unsupported("the burn's mint is not the registry's USDC on Solana")
    if step.wallet is not None and step.wallet != str(burn.owner):
        raise Unsupported("the message's owner is not the step's wallet")
    blockhash = facts.get(BlockhashKey(step.chain))
    if blockhash is None:
        return SolanaMessage("", step.solana_format or ""), raw  # fetched, then re-encoded again
    try:
        fresh = cctp_solana_deposit_for_burn_message(
            programs,
            replace(burn, amount=raw),
            str(blockhash),
            solana_format=step.solana_format or SOLANA_FORMAT_LEGACY,
        )
    except EncodingError as exc:
        raise Unsupported(str(exc)) from None
    return fresh, raw


def _token(registry: Registry, step: Step) -> Token:
    try:
        return registry.token(step.chain, registry.resolve_token(step.chain, step.asset))
    except RegistryError:
        raise Unsupported(f"{step.asset} is not a known token on {step.chain}") from None


def _reencode(registry: Registry, step: Step, actual: Decimal, facts: Facts) -> tuple[str, int, int]:
    try:
        chain = registry.chain(step.chain)
    except RegistryError:
        raise Unsupported(f"unknown chain {step.chain!r}") from None
    if chain.family != "evm":
        raise Unsupported(f"{step.chain} is not an EVM chain")
    if step.type in UNSIZED_STEP_TYPES:
        raise Unsupported(
            f"a {step.type} step has no amount to re-encode; sign the planned calldata as it is"
        )
    token = _token(registry, step)
    try:
        raw = registry.to_raw(token, actual)
    except RegistryError as exc:
        raise Unsupported(str(exc)) from None
    if not step.to:
        raise Unsupported("the step has no target address")
    if step.data in (None, "", "0x"):
        if token.is_native:
            _payee(registry, "step.to", step.to)
            return "0x", raw, raw  # a plain native transfer: only the value changes
        raise Unsupported("the step has no calldata")
    if step.to.lower() not in known_targets(registry, step.chain):
        raise Unsupported("the step's target is not a contract this service plans calls to")
    try:
        decoded = identify_calldata(step.data or "")
    except EncodingError as exc:
        raise Unsupported(f"the calldata is not a call this service plans: {exc}") from None
    name, args, to = decoded.function.name, decoded.args, step.to
    _check_parties(registry, step, decoded.abi_name, name, args)
    simple = {
        "approve": lambda: erc20_approve(to, args[0], raw),
        "transfer": lambda: erc20_transfer(to, args[0], raw),
        "deposit": lambda: weth_deposit(to, raw) if not args else erc4626_deposit(to, raw, args[1]),
        "supply": lambda: aave_supply(to, args[0], raw, args[2]),
        "borrow": lambda: aave_borrow(to, args[0], raw, args[4]),
        "repay": lambda: aave_repay(to, args[0], raw, args[3]),
        "submit": lambda: lido_submit(to, raw),
    }
    if name == "withdraw":
        call = (
            weth_withdraw(to, raw)
            if len(args) == 1
            else aave_withdraw(to, args[0], raw, args[2])
            if decoded.abi_name.startswith("aave")
            else erc4626_withdraw(to, raw, args[1], args[2])
        )
    elif name in simple:
        call = simple[name]()
    elif name == "requestWithdrawals":
        try:
            call = lido_request_withdrawals(to, withdrawal_chunks(raw), args[1])
        except ValueError as exc:
            raise Unsupported(str(exc)) from None
    elif name == "multicall" and decoded.abi_name == "uniswap_swap_router02":
        try:
            _, inner = unwrap_router_multicall(step.data or "")
            swap = identify_calldata(inner)
        except EncodingError as exc:
            raise Unsupported(f"the router call is not a swap this service plans: {exc}") from None
        if swap.function.name != "exactInputSingle":
            raise Unsupported(f"the router call wraps {swap.function.name}, not a swap this service plans")
        return _swap(registry, step, token, raw, swap.args[0], facts)
    elif name == "depositV3":
        return _across(registry, step, raw, args, facts)
    elif name == "depositForBurn" and decoded.abi_name.endswith("v2"):
        call = cctp_v2_deposit_for_burn(
            to,
            amount=raw,
            destination_domain=args[1],
            mint_recipient=args[2],
            burn_token=args[3],
            destination_caller=args[4],
            max_fee=args[5],
            min_finality_threshold=args[6],
        )
    else:
        raise Unsupported(f"{name} has no amount to re-encode; sign the planned calldata as it is")
    return call.data, raw, call.value


# Where each call this service plans names who is paid or who owns the position: (abi name prefix, function)
# -> argument indexes. Every one must pass the recipient policy, so a step edited after planning cannot pay
# the zero address, a token or a protocol contract.
PAYEE_ARGS: dict[tuple[str, str], tuple[int, ...]] = {
    ("erc20", "transfer"): (0,),
    ("aave", "supply"): (2,),
    ("aave", "borrow"): (4,),
    ("aave", "repay"): (3,),
    ("aave", "withdraw"): (2,),
    ("erc4626", "deposit"): (1,),
    ("erc4626", "withdraw"): (1,),
    ("lido", "requestWithdrawals"): (1,),
    ("across", "depositV3"): (0, 1),
}


def _payee(registry: Registry, field: str, address: object) -> None:
    problem = recipient_problem(registry, "evm", str(address))
    if problem is not None:
        raise PlanError(field, problem)


def _check_parties(registry: Registry, step: Step, abi: str, name: str, args: tuple[Any, ...]) -> None:
    """Raises PlanError on `step.data` when the call pays, or lets spend, an address the recipient policy
    refuses: an approval's spender must be the step's protocol's own contract."""
    if name == "approve":
        problem = spender_problem(registry, step.chain, step.protocol, str(args[0]))
        if problem is not None:
            raise PlanError("step.data", problem)
        return
    for (prefix, function), indexes in PAYEE_ARGS.items():
        if function == name and abi.startswith(prefix):
            for index in indexes:
                _payee(registry, "step.data", to_checksum_address(args[index]))
    if name == "depositForBurn":
        recipient = bytes(args[2])
        if not any(recipient):
            raise PlanError("step.data", "the burn's mint recipient is zero: the USDC would be lost")
        destination = next((c for c in registry.chains() if c.cctp_domain == args[1]), None)
        if destination is not None and destination.family == "evm":
            _payee(registry, "step.data", to_checksum_address(recipient[-20:]))


def _swap(
    registry: Registry, step: Step, token: Token, raw: int, params: tuple[Any, ...], facts: Facts
) -> tuple[str, int, int]:
    token_in, token_out, fee, recipient = params[0], params[1], params[2], params[3]
    _payee(registry, "step.data", to_checksum_address(recipient))
    pinned = step.route.fee_tier if step.route and step.route.fee_tier else fee
    quote: SwapQuote | None = None
    for tier in (pinned, None):  # the pinned pool first, then once unpinned (contract, 2026-07-15)
        key = SwapQuoteKey(step.chain, token_in.lower(), token_out.lower(), raw, tier)
        found = facts.get(key)
        if isinstance(found, SwapQuote):
            quote = found
            break
        if found is None and key not in facts.failed:
            break  # being fetched
    if quote is None:
        tried = [
            SwapQuoteKey(step.chain, token_in.lower(), token_out.lower(), raw, t) for t in (pinned, None)
        ]
        if all(k in facts.failed for k in tried):
            raise RouteExpired(f"no Uniswap v3 pool can fill this swap any more: {facts.failed[tried[-1]]}")
        return "0x", raw, 0
    bps = (
        step.route.slippage_bps
        if step.route and step.route.slippage_bps
        else slippage_bps(token, registry.from_raw(token, raw))
    )
    minimum = minimum_out(quote.amount_out, bps)
    if minimum <= 0:
        # A swap with no minimum output can be filled at any price: never encoded.
        raise PlanError("actual_amount", "is too small to swap: the swap's minimum output would be 0")
    call = swap_exact_input_single(
        step.to or "",
        token_in,
        token_out,
        quote.fee_tier,
        recipient,
        raw,
        minimum,
        deadline=facts.now + SIGNING_WINDOW_S,  # a fresh quote gets a fresh signing window
        native_in=token.is_native,
    )
    return call.data, raw, call.value


def _across(
    registry: Registry, step: Step, raw: int, args: tuple[Any, ...], facts: Facts
) -> tuple[str, int, int]:
    depositor, recipient, input_token, output_token = args[0], args[1], args[2], args[3]
    destination = registry.chain_by_id(args[6]).slug
    key = BridgeQuoteKey("across", step.chain, destination, input_token.lower(), output_token.lower(), raw)
    quote = facts.get(key)
    if key in facts.failed:
        raise RouteExpired(f"Across no longer quotes this route: {facts.failed[key]}")
    if not isinstance(quote, BridgeQuote):
        return "0x", raw, 0
    native_in = int(step.value or 0) > 0
    call = across_deposit_v3(
        step.to or "",
        depositor=to_checksum_address(depositor),
        recipient=to_checksum_address(recipient),
        input_token=to_checksum_address(input_token),
        output_token=to_checksum_address(output_token),
        input_amount=raw,
        output_amount=quote.output_amount,
        destination_chain_id=args[6],
        quote_timestamp=quote.quote_timestamp,
        fill_deadline=quote.fill_deadline,
        exclusive_relayer=quote.exclusive_relayer,
        exclusivity_deadline=quote.exclusivity_deadline,
        native_in=native_in,
    )
    return call.data, raw, call.value
