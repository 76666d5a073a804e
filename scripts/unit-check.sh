#!/bin/sh
# Checks the systemd units in dist/ offline (systemd need not be PID 1): `systemd-analyze
# verify` must print nothing, and `systemd-analyze security` must rate each unit's exposure at
# most $MAX_EXPOSURE (default 3.0). Prints one line per unit; exits non-zero on a failure.
# Usage: scripts/unit-check.sh [SUSI_BINARY]   (the binary the units' ExecStart points at)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/release/susi}
case $binary in /*) ;; *) binary=$(pwd)/$binary ;; esac
max=${MAX_EXPOSURE:-3.0}
command -v systemd-analyze >/dev/null || { echo "unit-check: systemd-analyze is missing (Debian package systemd)" >&2; exit 2; }
[ -x "$binary" ] || { echo "unit-check: no susi binary at $binary (make build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# verify wants ExecStart's program to exist; point it at the built binary.
for unit in "$here"/dist/*.service; do
    sed "s#/usr/local/bin/susi#$binary#g" "$unit" > "$work/$(basename "$unit")"
done
status=0
warnings=$(cd "$work" && systemd-analyze verify ./*.service 2>&1) || status=1
if [ -n "$warnings" ]; then echo "unit-check: systemd-analyze verify: $warnings"; status=1; fi
for unit in "$work"/*.service; do
    name=$(basename "$unit")
    exposure=$(systemd-analyze security --offline=true "$unit" 2>/dev/null | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    if [ -z "$exposure" ]; then echo "unit-check: no exposure figure for $name"; status=1; continue; fi
    verdict=$(awk -v e="$exposure" -v m="$max" 'BEGIN { print (e <= m) ? "ok" : "TOO HIGH" }')
    echo "$name: exposure $exposure (at most $max: $verdict)"
    [ "$verdict" = ok ] || status=1
done
exit $status
