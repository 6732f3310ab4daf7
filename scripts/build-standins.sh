#!/usr/bin/env bash
# Compile the devnet stand-in contracts (devnet/contracts/*.sol) with solc-js from the npm registry
# into devnet/artifacts/<Contract>.json = {"abi", "deployedBytecode", "compiler"}.
# The artifacts are committed, so tests and CI never need a compiler; rerun this after editing a .sol file.
set -euo pipefail
cd "$(dirname "$0")/.."

# The compiler version is pinned here and in every pragma; solc-js is the npm package "solc".
SOLC_VERSION=${SOLC_VERSION:-0.8.28}
SRC=devnet/contracts
OUT=devnet/artifacts
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Standard JSON input: every source, optimizer and IR pipeline on, Cancun (what anvil 1.x runs by default supports).
node - "$SRC" > "$work/input.json" <<'JS'
const fs = require("fs"), path = require("path");
const dir = process.argv[2];
const sources = {};
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".sol")).sort()) {
  sources[f] = { content: fs.readFileSync(path.join(dir, f), "utf8") };
}
process.stdout.write(JSON.stringify({
  language: "Solidity",
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    viaIR: true, // the 12-field positions() return needs the IR pipeline (stack depth)
    evmVersion: "cancun",
    outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } },
  },
}));
JS

(cd "$SRC" && npx --yes "solc@$SOLC_VERSION" --standard-json < "$work/input.json") > "$work/output.json"

node - "$work/output.json" "$OUT" "$SOLC_VERSION" <<'JS'
const fs = require("fs"), path = require("path");
const [file, out, version] = process.argv.slice(2);
const text = fs.readFileSync(file, "utf8");
const result = JSON.parse(text.slice(text.indexOf("{")));
const errors = (result.errors || []).filter((e) => e.severity === "error");
for (const e of result.errors || []) process.stderr.write(e.formattedMessage + "\n");
if (errors.length) process.exit(1);
let count = 0;
for (const [source, contracts] of Object.entries(result.contracts)) {
  for (const [name, c] of Object.entries(contracts)) {
    const code = c.evm.deployedBytecode.object;
    if (!code || c.abi.length === 0) continue; // interfaces, and internal libraries (inlined)
    const artifact = { contract: name, source: source, compiler: "solc-js " + version, abi: c.abi, deployedBytecode: "0x" + code };
    fs.writeFileSync(path.join(out, name + ".json"), JSON.stringify(artifact, null, 1) + "\n");
    count++;
  }
}
process.stderr.write(`wrote ${count} artifacts to ${out}\n`);
JS
