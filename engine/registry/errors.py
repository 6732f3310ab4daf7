"""Errors the registry raises; every one is a RegistryError."""


class RegistryError(Exception):
    """Base of every registry error."""


class RegistryDataError(RegistryError):
    """The packaged data files are malformed (a bug in the data, caught at load time)."""


class UnknownChain(RegistryError):
    """No chain has this slug or alias."""

    def __init__(self, chain: str) -> None:
        super().__init__(f"unknown chain {chain!r}")
        self.chain = chain


class UnknownToken(RegistryError):
    """The chain has no token with this symbol, alias or address."""

    def __init__(self, chain: str, token: str) -> None:
        super().__init__(f"unknown token {token!r} on {chain}")
        self.chain = chain
        self.token = token


class UnknownProtocol(RegistryError):
    """No protocol has this name."""

    def __init__(self, protocol: str) -> None:
        super().__init__(f"unknown protocol {protocol!r}")
        self.protocol = protocol


class Unsupported(RegistryError):
    """The protocol does not serve this action, or has no such contract on this chain."""


class InvalidAmount(RegistryError):
    """An amount cannot be converted exactly between decimal units and raw integer units."""
