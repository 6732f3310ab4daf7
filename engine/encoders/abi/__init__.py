"""ABI fragments of the protocols the encoders speak, as JSON data files. Each file is
`{"source": <url or urls at a pinned commit>, "note"?: ..., "abi": [fragments]}` and every fragment is copied
from the cited official ABI or interface source. Loaded through engine.encoders.contract_abi."""

__all__: list[str] = []
