"""Thin handlers: parse (done by policy) -> one domain call -> response model."""

__all__: list[str] = []
