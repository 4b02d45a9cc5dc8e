#!/usr/bin/env bash
# Checks the declared rust-version (Cargo.toml) without the old toolchain, which this machine
# cannot fetch: (1) the lock file is current (--locked); (2) no locked dependency declares a
# newer rust-version than ours; (3) clippy's incompatible_msrv finds no std item newer than
# ours, in any target and feature. (Language features newer than ours would still pass: only
# the toolchain itself can tell those.)
set -euo pipefail
cd "$(dirname "$0")/.."
ours=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
ours = tuple(int(x) for x in sys.argv[1].split("."))
newer = []
for p in json.load(sys.stdin)["packages"]:
    v = p.get("rust_version")
    if v and p["name"] != "tilespace" and tuple(int(x) for x in v.split(".")) > ours + (0,) * (3 - len(ours)):
        newer.append(" ".join([p["name"], p["version"], "needs", v]))
if newer:
    sys.exit("dependencies newer than rust-version " + sys.argv[1] + ": " + "; ".join(newer))
print("every locked dependency builds with rust-version", sys.argv[1])
' "$ours"
cargo clippy --profile ci --locked --all-targets --features mpi -- -D clippy::incompatible_msrv
echo "no std item newer than rust-version $ours"
