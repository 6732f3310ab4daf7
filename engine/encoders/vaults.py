"""ERC-4626 vault calls: deposit, withdraw, redeem, and the reads that size them."""

from __future__ import annotations

from engine.encoders.call import Call
from engine.encoders.contract_abi import load_abi
from engine.encoders.evm_values import checked_address, checked_uint

__all__ = [
    "erc4626_asset",
    "erc4626_convert_to_assets",
    "erc4626_deposit",
    "erc4626_preview_redeem",
    "erc4626_redeem",
    "erc4626_withdraw",
]


def erc4626_deposit(vault: str, assets: int, receiver: str) -> Call:
    """`vault.deposit(assets, receiver)`: deposits raw `assets` of the underlying, shares to `receiver`."""
    data = (
        load_abi("erc4626")
        .function("deposit")
        .encode(checked_uint(assets, 256, "assets"), checked_address(receiver, "receiver"))
    )
    return Call(to=vault, data=data)


def erc4626_withdraw(vault: str, assets: int, receiver: str, owner: str) -> Call:
    """`vault.withdraw(assets, receiver, owner)`: burns `owner`'s shares for exactly `assets` underlying."""
    data = (
        load_abi("erc4626")
        .function("withdraw")
        .encode(
            checked_uint(assets, 256, "assets"),
            checked_address(receiver, "receiver"),
            checked_address(owner, "owner"),
        )
    )
    return Call(to=vault, data=data)


def erc4626_redeem(vault: str, shares: int, receiver: str, owner: str) -> Call:
    """`vault.redeem(shares, receiver, owner)`: burns exactly `shares` of `owner` (the way to exit fully)."""
    data = (
        load_abi("erc4626")
        .function("redeem")
        .encode(
            checked_uint(shares, 256, "shares"),
            checked_address(receiver, "receiver"),
            checked_address(owner, "owner"),
        )
    )
    return Call(to=vault, data=data)


def erc4626_asset(vault: str) -> Call:
    """Read call `vault.asset()`; decode with engine.encoders.tokens.decode_address."""
    return Call(to=vault, data=load_abi("erc4626").function("asset").encode())


def erc4626_convert_to_assets(vault: str, shares: int) -> Call:
    """Read call `vault.convertToAssets(shares)`; decode with decode_uint."""
    data = load_abi("erc4626").function("convertToAssets").encode(checked_uint(shares, 256, "shares"))
    return Call(to=vault, data=data)


def erc4626_preview_redeem(vault: str, shares: int) -> Call:
    """Read call `vault.previewRedeem(shares)`; decode with decode_uint."""
    data = load_abi("erc4626").function("previewRedeem").encode(checked_uint(shares, 256, "shares"))
    return Call(to=vault, data=data)
