"""The domain, pure: registry, intents, planner, encoders, simulation. Imports nothing of gateway,
watchers or storage; reaches the outside world only through interfaces handed to it."""

__all__: list[str] = []
