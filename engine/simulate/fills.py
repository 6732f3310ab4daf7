"""What a bridge step promises to land, read from the calldata it will actually sign: Across depositV3's
recipient, output token and output amount on its destination chain id; CCTP depositForBurn's mint
recipient and amount (less its maxFee) on its destination domain. The fill itself is modelled on the
destination fork (or in litesvm, for a mint into a Solana token account); the deposit's own effects are checked on the source fork (DepositWatch)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from eth_utils import to_checksum_address
from solders.pubkey import Pubkey

from engine.encoders import EncodingError
from engine.encoders.contract_abi import load_abi
from engine.planner.models import Step
from engine.registry import Registry, RegistryError, Token
from engine.simulate.outcomes import Credit, DepositWatch, EvmCall, SplCredit

# A bridge step carries wait_for_bridge (contract: Step); its planner type is "bridge".
BRIDGE_TYPE: Final = "bridge"
# How each fill is modelled, in the words the response shows (FillResult.method).
NATIVE_METHOD: Final = "native balance credited on the destination fork"
TOKEN_METHOD: Final = (
    "token balance credited on the destination fork: the token's balance storage slot found by probing, "
    "then read back through balanceOf"
)
SPL_METHOD: Final = (
    "SPL token account credited in litesvm: the mint recipient's token account (created as the wallet's "
    "associated token account when absent) raised by the amount, then read back"
)


def is_bridge(step: Step) -> bool:
    return bool(step.wait_for_bridge) or step.type == BRIDGE_TYPE


@dataclass(frozen=True, slots=True)
class Fill:
    """A bridge deposit's promised landing: `amount_raw` of `token` (native when `token.is_native`) for
    `recipient` on `to_chain`, and what the deposit must do on its own chain."""

    protocol: str
    bridge_order: int
    from_chain: str
    to_chain: str
    recipient: str
    token: Token
    amount_raw: int
    deposit: DepositWatch

    @property
    def amount(self) -> Decimal:
        return Decimal(self.amount_raw).scaleb(-self.token.decimals)

    @property
    def lands_on_evm(self) -> bool:
        """Whether the fill is a credit on an EVM fork; otherwise it is a mint into a Solana token account,
        modelled in litesvm (CCTP's Solana programs ship no binary, so the mint itself cannot run)."""
        return self.recipient.startswith("0x")

    @property
    def method(self) -> str:
        if not self.lands_on_evm:
            return SPL_METHOD
        return NATIVE_METHOD if self.token.is_native else TOKEN_METHOD

    def credit(self) -> Credit:
        return Credit(holder=self.recipient, token=self.token.address, amount=self.amount_raw)

    def spl_credit(self, owners: tuple[str, ...]) -> SplCredit:
        """The fill as a mint into its Solana token account; `owners` are the wallets that account may
        belong to when it does not exist yet (the mint recipient is their associated token account)."""
        return SplCredit(
            account=self.recipient,
            mint=self.token.address or "",
            decimals=self.token.decimals,
            amount=self.amount_raw,
            owners=owners,
        )


def bridge_fill(registry: Registry, step: Step, sender: str, call: EvmCall) -> Fill | str:
    """The fill `step` (a bridge on an EVM chain, sent from `sender` as `call`) promises, or why it cannot
    be modelled."""
    if step.protocol == "across":
        return _across(registry, step, sender, call)
    if step.protocol == "cctp":
        return _cctp(registry, step, sender, call)
    return f"its fill is not modelled: bridges through {step.protocol!r} are not known to the simulator"


def _across(registry: Registry, step: Step, sender: str, call: EvmCall) -> Fill | str:
    try:
        args = load_abi("across_spoke_pool").function("depositV3").decode_input(call.data)
    except EncodingError:
        return "its fill is not modelled: its calldata is not an Across depositV3"
    _, recipient, input_token, output_token, input_amount, output_amount, chain_id = args[:7]
    try:
        to_chain = registry.chain_by_id(int(chain_id)).slug
        out = registry.token_by_address(to_chain, str(output_token))
    except RegistryError as exc:
        return f"its fill is not modelled: its destination is not in the registry ({exc})"
    native_in = call.value > 0
    # Across's SpokePool unwraps a wrapped-native output for a recipient without code (EOA): the
    # recipient gets the native asset, as the planner says for a native bridge.
    if out.address is not None and out == registry.wrapped_native(to_chain) and native_in:
        out = registry.native(to_chain)
    watch = DepositWatch(
        holder=sender,
        token=None if native_in else to_checksum_address(str(input_token)),
        amount=int(input_amount),
        bridge=call.to,
    )
    return Fill(
        protocol="across",
        bridge_order=step.order,
        from_chain=step.chain,
        to_chain=to_chain,
        recipient=to_checksum_address(str(recipient)),
        token=out,
        amount_raw=int(output_amount),
        deposit=watch,
    )


def _cctp(registry: Registry, step: Step, sender: str, call: EvmCall) -> Fill | str:
    max_fee = 0
    try:
        args = load_abi("cctp_token_messenger_v2").function("depositForBurn").decode_input(call.data)
        max_fee = int(args[5])
    except EncodingError:
        try:
            args = load_abi("cctp_token_messenger").function("depositForBurn").decode_input(call.data)
        except EncodingError:
            return "its fill is not modelled: its calldata is not a CCTP depositForBurn"
    amount, domain, mint_recipient, burn_token = int(args[0]), int(args[1]), bytes(args[2]), str(args[3])
    to_chain = next((c for c in registry.chains() if c.cctp_domain == domain), None)
    if to_chain is None:
        return f"its fill is not modelled: CCTP domain {domain} is no chain of the registry"
    try:
        usdc = registry.token(to_chain.slug, "USDC")
    except RegistryError as exc:
        return f"its fill is not modelled: {exc}"
    watch = DepositWatch(holder=sender, token=to_checksum_address(burn_token), amount=amount, bridge=call.to)
    evm = to_chain.family == "evm"
    return Fill(
        protocol="cctp",
        bridge_order=step.order,
        from_chain=step.chain,
        to_chain=to_chain.slug,
        # On Solana the mint recipient is the token account itself (its 32 bytes, base58).
        recipient=to_checksum_address(mint_recipient[12:]) if evm else str(Pubkey.from_bytes(mint_recipient)),
        token=usdc,
        # A V2 burn mints amount less the fee taken, and the fee is at most maxFee: the least that lands.
        amount_raw=amount - max_fee,
        deposit=watch,
    )


def deposit_problem(fill: Fill, sent: int, logged: bool) -> str | None:
    """Why a deposit that ran did not do what its fill relies on, or None when it did."""
    asset = "native value" if fill.deposit.token is None else f"token {fill.deposit.token}"
    if sent != fill.deposit.amount:
        return (
            f"the deposit moved {sent} raw units of {asset} out of the sender, not the {fill.deposit.amount} "
            "its calldata names"
        )
    if not logged:
        return f"the bridge contract {fill.deposit.bridge} emitted no log carrying the deposited amount"
    return None
