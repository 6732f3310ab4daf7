"""docs/webhooks.md stays true: its test vectors verify, and its Python and Node.js snippets work."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.webhooks.test_signing import reference_header
from watchers.webhooks import SignatureError, sign, verify_signature

DOC = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def code_blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", doc_text(), flags=re.DOTALL | re.MULTILINE)


def vectors() -> list[dict[str, str]]:
    found = []
    for block in code_blocks("text"):
        fields = dict(re.findall(r"^(secret|timestamp|body|header):(?: (.*))?$", block, flags=re.MULTILINE))
        if {"secret", "timestamp", "body", "header"} <= fields.keys():
            found.append(fields)
    return found


def test_doc_has_three_vectors() -> None:
    assert len(vectors()) == 3


@pytest.mark.parametrize("index", [0, 1, 2])
def test_doc_vector_matches_sign_and_an_independent_hmac(index: int) -> None:
    vector = vectors()[index]
    timestamp, body = int(vector["timestamp"]), vector["body"].encode("utf-8")
    assert sign(vector["secret"], timestamp, body) == vector["header"]
    assert reference_header(vector["secret"], timestamp, body) == vector["header"]
    verify_signature(vector["secret"], vector["header"], body, now=timestamp)


def standalone_python_verifier():
    [source] = [block for block in code_blocks("python") if "def verify_signature" in block]
    namespace: dict[str, object] = {}
    exec(compile(source, str(DOC), "exec"), namespace)
    return namespace["verify_signature"]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_doc_standalone_python_snippet_verifies_the_vectors(index: int) -> None:
    verify = standalone_python_verifier()
    vector = vectors()[index]
    timestamp, body = int(vector["timestamp"]), vector["body"].encode("utf-8")
    verify(vector["secret"], vector["header"], body, now=timestamp)
    with pytest.raises(ValueError):
        verify(vector["secret"], vector["header"], body + b" ", now=timestamp)
    with pytest.raises(ValueError):
        verify(vector["secret"], vector["header"], body, now=timestamp + 301)


def test_doc_kit_snippet_imports_only_public_names() -> None:
    [usage] = [block for block in code_blocks("python") if "from watchers.webhooks import" in block]
    assert "from watchers.webhooks import SignatureError, verify_signature" in usage
    assert SignatureError.__module__ == "watchers.webhooks.signing"


NODE_HARNESS = """
const verify = module.exports.verifySignature;
const vectors = JSON.parse(process.argv[2]);
const results = vectors.map((v) => {
  const body = Buffer.from(v.body, "utf8");
  const outcome = (fn) => { try { fn(); return "ok"; } catch (e) { return "rejected"; } };
  return {
    good: outcome(() => verify(v.secret, v.header, body, Number(v.timestamp))),
    tampered: outcome(() => verify(v.secret, v.header, Buffer.concat([body, Buffer.from("x")]), Number(v.timestamp))),
    old: outcome(() => verify(v.secret, v.header, body, Number(v.timestamp) + 301)),
    future: outcome(() => verify(v.secret, v.header, body, Number(v.timestamp) - 301)),
    malformed: outcome(() => verify(v.secret, "t=abc,v1=00", body, Number(v.timestamp))),
  };
});
console.log(JSON.stringify(results));
"""


def test_doc_node_snippet_verifies_the_vectors_and_rejects_bad_ones(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    [source] = code_blocks("js")
    script = tmp_path / "verify.js"
    script.write_text(source + NODE_HARNESS, encoding="utf-8")
    completed = subprocess.run(
        [node, str(script), json.dumps(vectors())], capture_output=True, text=True, timeout=60, check=True
    )
    results = json.loads(completed.stdout)
    assert results == [
        {
            "good": "ok",
            "tampered": "rejected",
            "old": "rejected",
            "future": "rejected",
            "malformed": "rejected",
        }
    ] * len(vectors())


def test_doc_states_the_signature_key_and_retry_schedule() -> None:
    text = doc_text()
    assert "including** the `whsec_` prefix" in text
    assert "1 minute, 5 minutes, 30 minutes, 2 hours and 12 hours" in text
    assert "10 consecutive dead-lettered deliveries disable the endpoint" in text


def test_kit_rejects_doc_vector_with_another_secret() -> None:
    vector = vectors()[0]
    with pytest.raises(SignatureError):
        verify_signature(
            vector["secret"] + "A", vector["header"], vector["body"].encode(), now=int(vector["timestamp"])
        )
