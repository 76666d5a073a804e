#!/bin/sh
# Probes of the `susi` command line against outside input (issue 50): a huge file given to
# `config validate` is refused without being read, duplicate JSON keys are errors, a
# brain.server URL with a quote or a space is refused, and a bidi control (U+202E) in a
# config value or an argument never reaches the terminal raw. One line per probe; exits 1 on
# the first failure.
#
#   reliability/probes-cli.sh path/to/susi
#   MAX_RSS_KB=51200 (the default) bounds the memory of `config validate` on a 200 MB file
set -eu

SUSI=${1:-}
MAX_RSS_KB=${MAX_RSS_KB:-51200}
[ -n "$SUSI" ] || { echo "usage: $0 path/to/susi" >&2; exit 2; }
[ -x "$SUSI" ] || { echo "FAIL: $SUSI is not an executable" >&2; exit 1; }

WORK=$(mktemp -d)
export XDG_CONFIG_HOME="$WORK"
# eSpeak NG opens PulseAudio when it loads a voice; keep its runtime files in here too.
mkdir -m 700 "$WORK/run"
export XDG_RUNTIME_DIR="$WORK/run"
trap 'rm -rf "$WORK"' EXIT INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# Runs susi with its stdout and stderr in $WORK/out and $WORK/err; sets STATUS.
run() {
	STATUS=0
	"$SUSI" "$@" >"$WORK/out" 2>"$WORK/err" || STATUS=$?
}

# contains FILE BYTES: whether FILE holds BYTES (compared as bytes, whatever the locale).
contains() { LC_ALL=C grep -q -F -e "$2" "$1"; }

RLO=$(printf '\342\200\256')   # U+202E RIGHT-TO-LEFT OVERRIDE in UTF-8
LRI=$(printf '\342\201\246')   # U+2066 LEFT-TO-RIGHT ISOLATE

# 1. A 200 MB (sparse) file is refused by its size, in little memory.
BIG="$WORK/big.json"
dd if=/dev/null of="$BIG" bs=1 seek=209715200 2>/dev/null
if [ -x /usr/bin/time ]; then
	STATUS=0
	/usr/bin/time -o "$WORK/time" -f '%M' "$SUSI" config validate "$BIG" >"$WORK/out" 2>"$WORK/err" || STATUS=$?
	RSS=$(tail -n 1 "$WORK/time")
else
	# Without GNU time: the peak resident size the kernel kept, read while the process lives.
	"$SUSI" config validate "$BIG" >"$WORK/out" 2>"$WORK/err" &
	PID=$!
	RSS=0
	while kill -0 "$PID" 2>/dev/null; do
		NOW=$(awk '/^VmHWM/ { print $2 }' "/proc/$PID/status" 2>/dev/null || true)
		[ -n "$NOW" ] && [ "$NOW" -gt "$RSS" ] && RSS=$NOW
	done
	STATUS=0
	wait "$PID" || STATUS=$?
fi
[ "$STATUS" -ne 0 ] || fail "config validate accepted a 200 MB file"
contains "$WORK/err" "1 MiB" || fail "the size error does not name the limit: $(cat "$WORK/err")"
contains "$WORK/err" "$BIG" || fail "the size error does not name the file: $(cat "$WORK/err")"
[ "$RSS" -lt "$MAX_RSS_KB" ] || fail "config validate of a 200 MB file peaked at $RSS KB (limit $MAX_RSS_KB KB)"
pass "200 MB file refused by its size: exit $STATUS, peak $RSS KB"

# 2. Duplicate keys, nested and at the top level, are errors naming the key.
DUP="$WORK/dup.json"
printf '{"tts": {"voice": "en-us", "voice": "x"}}\n' >"$DUP"
run config validate "$DUP"
[ "$STATUS" -ne 0 ] || fail "a duplicate tts.voice was accepted"
contains "$WORK/err" "'tts.voice'" || fail "the duplicate-key error does not name tts.voice: $(cat "$WORK/err")"
printf '{"room": "Kitchen", "room": "Attic"}\n' >"$DUP"
run config validate "$DUP"
[ "$STATUS" -ne 0 ] || fail "a duplicate top-level room was accepted"
contains "$WORK/err" "'room'" || fail "the duplicate-key error does not name room: $(cat "$WORK/err")"
pass "duplicate keys refused: tts.voice and room named"

# 5. brain.server with a quote or a space is refused, and the file keeps the old value.
run config set brain.server "http://127.0.0.1:4000"
[ "$STATUS" -eq 0 ] || fail "a plain brain.server was refused: $(cat "$WORK/err")"
for URL in 'https://api.susi.ai"' "https://api.susi.ai'" 'https://api susi.ai' 'https://api.susi.ai\x'; do
	run config set brain.server "$URL"
	[ "$STATUS" -ne 0 ] || fail "brain.server '$URL' was accepted"
done
run config get brain.server
[ "$(cat "$WORK/out")" = "http://127.0.0.1:4000" ] || fail "brain.server changed to $(cat "$WORK/out")"
pass "brain.server with a quote, an apostrophe, a space or a backslash refused"

# 3. A bidi control in a config value and in an argument is shown escaped, never raw.
run config set room "Kitchen${RLO}nehctiK"
[ "$STATUS" -eq 0 ] || fail "config set room failed: $(cat "$WORK/err")"
for ACTION in "get room" "show"; do
	# shellcheck disable=SC2086
	run config $ACTION
	[ "$STATUS" -eq 0 ] || fail "config $ACTION failed: $(cat "$WORK/err")"
	! contains "$WORK/out" "$RLO" || fail "config $ACTION printed a raw U+202E"
done
run config get room
contains "$WORK/out" 'Kitchen\u{202E}nehctiK' || fail "config get room printed $(cat "$WORK/out")"
run config get "tts.${RLO}eciov${LRI}"
[ "$STATUS" -ne 0 ] || fail "config get of a made-up key succeeded"
! contains "$WORK/err" "$RLO" || fail "the error line echoed a raw U+202E"
! contains "$WORK/err" "$LRI" || fail "the error line echoed a raw U+2066"
contains "$WORK/err" 'tts.\u{202E}eciov\u{2066}' || fail "the error line shows $(cat "$WORK/err")"
pass "bidi controls shown as \\u{202E}: config get, config show, error line"
