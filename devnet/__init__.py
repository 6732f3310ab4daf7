"""The offline devnet: anvil nodes with protocol stand-ins at given addresses, and a faucet."""

from devnet.anvil import AnvilFailed, AnvilNode, AnvilNotFound, find_anvil, open_anvil, run_anvil
from devnet.artifacts import Artifact, UnknownArtifact, artifact_names, load_artifact
from devnet.chain import DevnetChain, install_world, open_devnet_chain
from devnet.deploy import DeployReport, SetupCall, Standin, deploy_standins
from devnet.faucet import FAUCET_NATIVE, FAUCET_TOKENS, Faucet
from devnet.from_registry import world_from_registry
from devnet.rpc import AnvilRpc, TransactionFailed, calldata
from devnet.world import (
    DevnetToken,
    DevnetVault,
    DevnetWorld,
    build_world,
    default_tokens,
    devnet_address,
)

__all__ = [
    "FAUCET_NATIVE",
    "FAUCET_TOKENS",
    "AnvilFailed",
    "AnvilNode",
    "AnvilNotFound",
    "AnvilRpc",
    "Artifact",
    "DeployReport",
    "DevnetChain",
    "DevnetToken",
    "DevnetVault",
    "DevnetWorld",
    "Faucet",
    "SetupCall",
    "Standin",
    "TransactionFailed",
    "UnknownArtifact",
    "artifact_names",
    "build_world",
    "calldata",
    "default_tokens",
    "deploy_standins",
    "devnet_address",
    "find_anvil",
    "install_world",
    "load_artifact",
    "open_anvil",
    "open_devnet_chain",
    "run_anvil",
    "world_from_registry",
]
