"""The use cases: plan, simulate and read intents as plain services over the engine, the upstreams and
storage. They raise domain errors (gateway.usecases.errors, or the engine's and upstreams' own), never
envelopes; REST, streams and MCP are adapters over them, and gateway.errors maps every error to the
contract's envelope in one table."""
