"""The shipped ABI files: each cites its source, parses, and the package exports what it declares."""

from __future__ import annotations

import json
from importlib import resources

import pytest

import engine.encoders
from engine.encoders import EncodingError, aave_supply, abi_names, identify_calldata, load_abi

EXPECTED_FILES = {
    "aave_v3_errors",
    "aave_v3_pool",
    "aave_v3_rewards_controller",
    "across_spoke_pool",
    "cctp_token_messenger",
    "cctp_token_messenger_v2",
    "erc20",
    "erc4626",
    "lido_steth",
    "lido_withdrawal_queue",
    "multicall3",
    "uniswap_position_manager",
    "uniswap_quoter_v2",
    "uniswap_swap_router02",
    "weth",
}


def test_every_expected_abi_file_ships() -> None:
    assert set(abi_names()) == EXPECTED_FILES


@pytest.mark.parametrize("name", sorted(EXPECTED_FILES))
def test_each_abi_file_cites_a_pinned_github_source(name: str) -> None:
    doc = json.loads(resources.files("engine.encoders.abi").joinpath(f"{name}.json").read_text())
    sources = [doc["source"]] if isinstance(doc["source"], str) else doc["source"]
    assert sources
    for source in sources:
        assert source.startswith("https://github.com/") and "/blob/" in source
        commit = source.split("/blob/")[1].split("/")[0]
        assert len(commit) == 40 and int(commit, 16) >= 0
    assert doc["abi"] and all(f["type"] in {"function", "error"} for f in doc["abi"])


def test_missing_abi_file_or_function_is_an_encoding_error() -> None:
    with pytest.raises(EncodingError):
        load_abi("no_such_contract")
    with pytest.raises(EncodingError):
        load_abi("erc20").function("mint")


def test_function_decode_input_round_trips_and_checks_the_selector() -> None:
    fn = load_abi("erc20").function("transfer")
    data = fn.encode("0x2222222222222222222222222222222222222222", 5)
    assert fn.decode_input(data) == ("0x2222222222222222222222222222222222222222", 5)
    with pytest.raises(EncodingError, match="selector"):
        load_abi("erc20").function("approve").decode_input(data)


def test_wrong_argument_count_is_an_encoding_error() -> None:
    with pytest.raises(EncodingError, match="takes 2 arguments"):
        load_abi("erc20").function("transfer").encode(5)


def test_package_exports_exactly_its_all() -> None:
    public = {n for n in dir(engine.encoders) if not n.startswith("_")}
    submodules = {
        "aave",
        "abi",
        "bridges",
        "call",
        "cctp_solana",
        "cctp_v2",
        "contract_abi",
        "errors",
        "evm_values",
        "lido",
        "multicall",
        "reverts",
        "solana",
        "tokens",
        "uniswap",
        "uniswap_ticks",
        "vaults",
    }
    assert public - submodules == set(engine.encoders.__all__)


def test_identify_calldata_finds_the_shipped_function_and_its_arguments() -> None:
    call = aave_supply(
        "0x4444444444444444444444444444444444444444",
        "0x1111111111111111111111111111111111111111",
        1234,
        "0x2222222222222222222222222222222222222222",
    )
    found = identify_calldata(call.data)
    assert found.abi_name == "aave_v3_pool" and found.function.name == "supply"
    assert found.args[1] == 1234
    with pytest.raises(EncodingError, match="not a function"):
        identify_calldata("0xdeadbeef")


def test_no_two_shipped_functions_share_a_selector_with_different_signatures() -> None:
    seen: dict[bytes, str] = {}
    for name in abi_names():
        abi = load_abi(name)
        for frag in abi.fragments:
            if frag["type"] == "function":
                fn = abi.function(frag["name"])
                assert seen.setdefault(fn.selector, fn.signature) == fn.signature
