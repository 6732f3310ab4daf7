"""The package hands on exactly its public names (house style: __init__ only re-exports)."""

from __future__ import annotations

import watchers.webhooks


def test_every_public_name_is_exported_and_defined() -> None:
    exported = set(watchers.webhooks.__all__)
    assert {"verify_signature", "SignatureError", "validate_endpoint_url", "send_once"} <= exported
    for name in exported:
        assert getattr(watchers.webhooks, name) is not None
    public = {name for name in vars(watchers.webhooks) if not name.startswith("_")}
    modules = {"addresses", "pool", "resolve", "sender", "signing", "urls"}
    assert public - modules == exported
