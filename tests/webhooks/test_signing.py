"""Signing secrets and signatures, checked against an HMAC and HKDF written here from RFC 2104 / RFC 5869."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from watchers.webhooks import (
    SignatureError,
    derive_signing_secret,
    secret_hash,
    sign,
    verify_signature,
)

SECRET = "whsec_6sIx0Y7oWbWq6L3mFqj1mUuJ0Y2j9n8rQd0fHq1kE4c"
NOW = 1_767_225_600
BODY = b'{"id":"evt_01JD","type":"agent.triggered","trigger":{"headline":"ETH above 4000"}}'


def reference_hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC per RFC 2104 section 2, from hashlib alone, independent of the hmac module."""
    block = 64  # SHA-256 block size in bytes (FIPS 180-4)
    if len(key) > block:
        key = hashlib.sha256(key).digest()
    key = key.ljust(block, b"\x00")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key) + message).digest()
    return hashlib.sha256(bytes(b ^ 0x5C for b in key) + inner).digest()


def reference_hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """HKDF per RFC 5869 section 2.2 and 2.3."""
    prk = reference_hmac_sha256(salt or b"\x00" * 32, ikm)
    okm, block, counter = b"", b"", 1
    while len(okm) < length:
        block = reference_hmac_sha256(prk, block + info + bytes([counter]))
        okm += block
        counter += 1
    return okm[:length]


def reference_header(secret: str, timestamp: int, body: bytes) -> str:
    digest = reference_hmac_sha256(secret.encode("utf-8"), str(timestamp).encode("ascii") + b"." + body)
    return f"t={timestamp},v1={digest.hex()}"


def test_reference_hmac_matches_rfc_4231_test_case_2() -> None:
    # RFC 4231 section 4.3, HMAC-SHA-256 test case 2.
    expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    assert reference_hmac_sha256(b"Jefe", b"what do ya want for nothing?").hex() == expected


def test_reference_hkdf_matches_rfc_5869_test_case_1() -> None:
    # RFC 5869 appendix A.1.
    okm = reference_hkdf_sha256(
        bytes.fromhex("0b" * 22),
        bytes.fromhex("000102030405060708090a0b0c"),
        bytes.fromhex("f0f1f2f3f4f5f6f7f8f9"),
        42,
    )
    assert okm.hex() == (
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
    )


def test_sign_matches_an_independent_hmac_over_timestamp_dot_raw_body() -> None:
    assert sign(SECRET, NOW, BODY) == reference_header(SECRET, NOW, BODY)


def test_signature_key_is_the_whole_secret_string_prefix_included() -> None:
    stripped = SECRET.removeprefix("whsec_")
    assert sign(SECRET, NOW, BODY) != reference_header(stripped, NOW, BODY)


def test_verify_accepts_a_header_made_by_the_independent_implementation() -> None:
    verify_signature(SECRET, reference_header(SECRET, NOW, BODY), BODY, now=NOW)


@pytest.mark.parametrize("skew", [-300, -1, 0, 1, 300])
def test_verify_accepts_timestamps_within_the_tolerance(skew: int) -> None:
    verify_signature(SECRET, sign(SECRET, NOW + skew, BODY), BODY, now=NOW)


def test_verify_rejects_an_old_timestamp() -> None:
    with pytest.raises(SignatureError, match="too old"):
        verify_signature(SECRET, sign(SECRET, NOW - 301, BODY), BODY, now=NOW)


def test_verify_rejects_a_future_timestamp() -> None:
    with pytest.raises(SignatureError, match="future"):
        verify_signature(SECRET, sign(SECRET, NOW + 301, BODY), BODY, now=NOW)


def test_verify_honours_a_custom_tolerance() -> None:
    header = sign(SECRET, NOW - 60, BODY)
    with pytest.raises(SignatureError):
        verify_signature(SECRET, header, BODY, now=NOW, tolerance=30)


def test_verify_uses_the_current_time_by_default() -> None:
    with pytest.raises(SignatureError, match="too old"):
        verify_signature(SECRET, sign(SECRET, NOW, BODY), BODY)


def test_verify_rejects_a_tampered_body() -> None:
    header = sign(SECRET, NOW, BODY)
    with pytest.raises(SignatureError, match="matches"):
        verify_signature(SECRET, header, BODY.replace(b"4000", b"4001"), now=NOW)


def test_verify_rejects_a_reserialized_body() -> None:
    header = sign(SECRET, NOW, BODY)
    with pytest.raises(SignatureError):
        verify_signature(SECRET, header, BODY.replace(b":", b": "), now=NOW)


def test_verify_rejects_a_replayed_signature_under_a_new_timestamp() -> None:
    signature = sign(SECRET, NOW, BODY).split(",")[1]
    with pytest.raises(SignatureError):
        verify_signature(SECRET, f"t={NOW + 5},{signature}", BODY, now=NOW)


def test_verify_rejects_another_secret() -> None:
    with pytest.raises(SignatureError):
        verify_signature(SECRET + "x", sign(SECRET, NOW, BODY), BODY, now=NOW)


def test_verify_accepts_any_of_several_v1_signatures_for_rotation() -> None:
    old = sign("whsec_old", NOW, BODY).split(",")[1]
    new = sign(SECRET, NOW, BODY).split(",")[1]
    verify_signature(SECRET, f"t={NOW},{old},{new}", BODY, now=NOW)
    verify_signature(SECRET, f"t={NOW}, {new}, {old}", BODY, now=NOW)


def test_verify_ignores_unknown_schemes_but_needs_a_v1() -> None:
    header = sign(SECRET, NOW, BODY) + ",v0=abc"
    verify_signature(SECRET, header, BODY, now=NOW)
    with pytest.raises(SignatureError, match="no v1"):
        verify_signature(SECRET, f"t={NOW},v0=abc", BODY, now=NOW)


def test_verify_accepts_uppercase_hex() -> None:
    timestamp, signature = sign(SECRET, NOW, BODY).split(",")
    verify_signature(SECRET, f"{timestamp},{signature.upper().replace('V1=', 'v1=')}", BODY, now=NOW)


GOOD_HEX = "0" * 64


@pytest.mark.parametrize(
    "header",
    [
        "",
        "   ",
        "garbage",
        f"v1={GOOD_HEX}",
        f"t={NOW}",
        f"t=abc,v1={GOOD_HEX}",
        f"t=-5,v1={GOOD_HEX}",
        f"t=1.5,v1={GOOD_HEX}",
        f"t={NOW},t={NOW},v1={GOOD_HEX}",
        f"t={NOW},v1=zz",
        f"t={NOW},v1={GOOD_HEX[:-1]}",
        f"t={NOW},,v1={GOOD_HEX}",
        f"t={NOW},v1=",
        f"t={NOW};v1={GOOD_HEX}",
    ],
)
def test_verify_rejects_a_malformed_header(header: str) -> None:
    with pytest.raises(SignatureError):
        verify_signature(SECRET, header, BODY, now=NOW)


def test_verify_insists_on_raw_bytes() -> None:
    with pytest.raises(TypeError, match="raw request body"):
        verify_signature(SECRET, sign(SECRET, NOW, BODY), BODY.decode(), now=NOW)  # type: ignore[arg-type]


def test_derived_secret_is_hkdf_sha256_of_the_master_key_salt_and_endpoint_id() -> None:
    master, salt, endpoint = b"m" * 32, b"salt-0001", "we_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0"
    okm = reference_hkdf_sha256(
        master, salt, b"intentgate/webhook-signing-secret/v1:" + endpoint.encode(), 32
    )
    expected = "whsec_" + base64.urlsafe_b64encode(okm).rstrip(b"=").decode()
    assert derive_signing_secret(master, endpoint, salt) == expected


def test_derived_secret_is_stable_and_has_the_documented_shape() -> None:
    master = bytes(range(32))
    secret = derive_signing_secret(master, "we_1", b"s")
    assert secret == derive_signing_secret(master, "we_1", b"s")
    assert re.fullmatch(r"whsec_[A-Za-z0-9_-]{43}", secret)


def test_derived_secret_differs_per_endpoint_salt_and_master_key() -> None:
    master = bytes(range(32))
    base = derive_signing_secret(master, "we_1", b"s")
    assert derive_signing_secret(master, "we_2", b"s") != base
    assert derive_signing_secret(master, "we_1", b"t") != base
    assert derive_signing_secret(bytes(range(1, 33)), "we_1", b"s") != base


def test_derivation_refuses_a_short_master_key_or_empty_endpoint() -> None:
    with pytest.raises(ValueError, match="master key"):
        derive_signing_secret(b"short", "we_1", b"s")
    with pytest.raises(ValueError, match="endpoint id"):
        derive_signing_secret(b"k" * 32, "", b"s")


def test_secret_hash_is_sha256_hex_of_the_secret() -> None:
    assert secret_hash(SECRET) == hashlib.sha256(SECRET.encode()).hexdigest()
    assert SECRET not in secret_hash(SECRET)


def test_sign_refuses_text_bodies_and_bad_timestamps() -> None:
    with pytest.raises(TypeError):
        sign(SECRET, NOW, "text")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        sign(SECRET, -1, BODY)
