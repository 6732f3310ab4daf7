"""The public contract's version facts (contract: Versioning, Limits)."""

# Contract: current dated schema version, sent as Service-Schema-Version and in GET /meta.
SCHEMA_VERSION = "2026-07-15"
SCHEMA_HEADER = "Service-Schema-Version"
# Contract: the version prefix every public path starts with.
API_PREFIX = "/v1beta"
# Contract, Limits: credits per delivered call of /intent, /plan, /simulate and /steps/reencode.
COST_PER_CALL = 5
