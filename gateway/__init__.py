"""The Quart-Trio app, its policies (auth, scopes, limits, credits, envelope) and the CLI."""

__all__: list[str] = []
