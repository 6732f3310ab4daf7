"""Webhook signing secrets and signatures (contract: Authentication, webhook signature).

Header: ``X-Service-Signature: t=<unix seconds>,v1=<hex>``. ``<hex>`` is the lowercase hex HMAC-SHA256
whose key is the UTF-8 bytes of the whole signing secret string exactly as handed out, ``whsec_`` prefix
included (it is NOT base64-decoded first), and whose message is the ASCII bytes of ``<t>.`` followed by the
raw request body bytes. A receiver in any language reproduces it with its standard HMAC.

``verify_signature`` is the partner receiver kit: ``from watchers.webhooks import verify_signature``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time
from collections.abc import Sequence

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

# Prefix of every signing secret, so a secret is recognisable in a partner's configuration.
SECRET_PREFIX = "whsec_"

# Bytes of key material in a derived secret: RFC 2104 section 3 recommends an HMAC key at least as long as
# the hash output, 32 bytes for SHA-256.
SECRET_BYTES = 32

# A master key shorter than this cannot carry 128 bits of secrecy into HKDF.
MIN_MASTER_KEY_BYTES = 16

# HKDF "info" label (RFC 5869 section 3.2): binds derived keys to this use, so the master key can safely
# derive other keys for other purposes later.
HKDF_INFO_PREFIX = b"intentgate/webhook-signing-secret/v1:"

# Contract: "rejects timestamps more than about 300 seconds (5 minutes) from now".
DEFAULT_TOLERANCE_SECONDS = 300

# The scheme name in the header, and the shape of one signature (hex of a 32-byte HMAC-SHA256).
SIGNATURE_SCHEME = "v1"
_HEX_SIGNATURE = re.compile(r"^[0-9a-fA-F]{64}$")
_TIMESTAMP = re.compile(r"^[0-9]{1,12}$")


class SignatureError(Exception):
    """A webhook signature header that is malformed, stale, from the future, or does not match the body."""


def derive_signing_secret(master_key: bytes, endpoint_id: str, salt: bytes) -> str:
    """Derive an endpoint's signing secret, ``whsec_<base64url of 32 bytes, no padding>``.

    HKDF-SHA256 (RFC 5869) with ``salt`` as the salt and the endpoint id in the info, so the same master
    key, endpoint id and salt always give the same secret and nothing but its hash needs storing. Raises
    ValueError when the master key is shorter than 16 bytes or the endpoint id is empty.
    """
    if len(master_key) < MIN_MASTER_KEY_BYTES:
        raise ValueError(f"the webhook master key must be at least {MIN_MASTER_KEY_BYTES} bytes")
    if not endpoint_id:
        raise ValueError("an endpoint id is needed to derive its signing secret")
    hkdf = HKDF(
        algorithm=hashes.SHA256(),
        length=SECRET_BYTES,
        salt=salt,
        info=HKDF_INFO_PREFIX + endpoint_id.encode("utf-8"),
    )
    key = hkdf.derive(master_key)
    return SECRET_PREFIX + base64.urlsafe_b64encode(key).rstrip(b"=").decode("ascii")


def secret_hash(secret: str) -> str:
    """Return the value stored for a signing secret: SHA-256 of its UTF-8 bytes, lowercase hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def signature_hex(secret: str, timestamp: int, raw_body: bytes) -> str:
    """Return the lowercase hex HMAC-SHA256 of ``f"{timestamp}."`` + ``raw_body`` keyed with the secret."""
    message = f"{timestamp}.".encode("ascii") + raw_body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def sign(secret: str, timestamp: int, raw_body: bytes, also: Sequence[str] = ()) -> str:
    """Return the ``X-Service-Signature`` value ``t=<timestamp>,v1=<hex>`` for a body sent at ``timestamp``,
    with one more ``v1=<hex>`` entry per secret in ``also`` (a rotated-out secret still signing).

    Raises TypeError when ``raw_body`` is not bytes and ValueError for a negative timestamp.
    """
    _require_bytes(raw_body)
    if isinstance(timestamp, bool) or not isinstance(timestamp, int) or timestamp < 0:
        raise ValueError("the signature timestamp is a non-negative integer of unix seconds")
    entries = [f"{SIGNATURE_SCHEME}={signature_hex(key, timestamp, raw_body)}" for key in (secret, *also)]
    return f"t={timestamp}," + ",".join(entries)


def verify_signature(
    secret: str,
    header: str,
    raw_body: bytes,
    now: float | None = None,
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
) -> None:
    """Check an ``X-Service-Signature`` header against the raw, unparsed request body.

    Returns None when one of the header's ``v1`` signatures matches (several are tolerated, for secret
    rotation) and its timestamp is within ``tolerance`` seconds of ``now`` (default: the current time),
    in the past or in the future. Raises SignatureError otherwise, and TypeError when ``raw_body`` is not
    bytes (a parsed and re-serialized body would not match).
    """
    _require_bytes(raw_body)
    timestamp, candidates = parse_signature_header(header)
    current = time.time() if now is None else now
    if timestamp < current - tolerance:
        raise SignatureError("the signature timestamp is too old")
    if timestamp > current + tolerance:
        raise SignatureError("the signature timestamp is in the future")
    expected = signature_hex(secret, timestamp, raw_body)
    # Compare against every candidate without stopping early, so timing says nothing about which matched.
    matched = False
    for candidate in candidates:
        matched |= hmac.compare_digest(expected, candidate.lower())
    if not matched:
        raise SignatureError("no signature in the header matches the body")


def parse_signature_header(header: str) -> tuple[int, list[str]]:
    """Split a signature header into its timestamp and its ``v1`` signatures.

    Entries are ``key=value`` separated by commas; unknown keys are ignored so new schemes can be added.
    Raises SignatureError when the header is not text, an entry is malformed, ``t`` is missing, repeated
    or not an integer, or no well-formed ``v1`` entry is present.
    """
    if not isinstance(header, str) or not header.strip():
        raise SignatureError("the signature header is missing")
    timestamp: int | None = None
    signatures: list[str] = []
    for entry in header.split(","):
        key, sep, value = entry.strip().partition("=")
        if not sep or not key or not value:
            raise SignatureError(f"malformed signature header entry {entry.strip()!r}")
        if key == "t":
            if timestamp is not None:
                raise SignatureError("the signature header has more than one timestamp")
            if not _TIMESTAMP.match(value):
                raise SignatureError("the signature timestamp is not an integer of unix seconds")
            timestamp = int(value)
        elif key == SIGNATURE_SCHEME:
            if not _HEX_SIGNATURE.match(value):
                raise SignatureError("a v1 signature is not 64 hex digits")
            signatures.append(value)
    if timestamp is None:
        raise SignatureError("the signature header has no timestamp")
    if not signatures:
        raise SignatureError("the signature header has no v1 signature")
    return timestamp, signatures


def _require_bytes(raw_body: object) -> None:
    if not isinstance(raw_body, bytes | bytearray | memoryview):
        raise TypeError("pass the raw request body as bytes, exactly as received")
