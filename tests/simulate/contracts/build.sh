#!/usr/bin/env bash
# Compile the test-only SimulateProbe.sol with solc-js (npm package "solc", same pinned version as
# scripts/build-standins.sh) into SimulateProbe.json = {"contract", "compiler", "abi", "deployedBytecode"}.
# The artifact is committed so the tests never need a compiler; rerun this after editing the .sol file.
set -euo pipefail
cd "$(dirname "$0")"
SOLC_VERSION=${SOLC_VERSION:-0.8.28}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node -e '
const fs = require("fs");
process.stdout.write(JSON.stringify({
  language: "Solidity",
  sources: { "SimulateProbe.sol": { content: fs.readFileSync("SimulateProbe.sol", "utf8") } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } },
  },
}));' > "$work/input.json"
npx --yes "solc@$SOLC_VERSION" --standard-json < "$work/input.json" > "$work/output.json"
node - "$work/output.json" "$SOLC_VERSION" <<'JS'
const fs = require("fs");
const [file, version] = process.argv.slice(2);
const text = fs.readFileSync(file, "utf8");
const result = JSON.parse(text.slice(text.indexOf("{")));
const errors = (result.errors || []).filter((e) => e.severity === "error");
for (const e of result.errors || []) process.stderr.write(e.formattedMessage + "\n");
if (errors.length) process.exit(1);
const c = result.contracts["SimulateProbe.sol"].SimulateProbe;
const artifact = { contract: "SimulateProbe", compiler: "solc-js " + version, abi: c.abi, deployedBytecode: "0x" + c.evm.deployedBytecode.object };
fs.writeFileSync("SimulateProbe.json", JSON.stringify(artifact, null, 1) + "\n");
JS
