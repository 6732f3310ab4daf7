"""The devnet fixtures of tests/devnet (one anvil for this directory's session, each test on a snapshot it
reverts), shared here rather than copied: the quote sources are tested against the same stand-ins."""

from __future__ import annotations

from tests.devnet import conftest as devnet_fixtures

devnet = devnet_fixtures.devnet
rpc = devnet_fixtures.rpc
anvil = devnet_fixtures.anvil
evm = devnet_fixtures.evm
