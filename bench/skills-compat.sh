#!/bin/sh
# Compatibility with the community's SUSI skills: runs any checkout of
# fossasia/susi_skill_data (or any tree laid out like it) through the built-in brain and
# prints the load rate, the pass rate of the skills' own valid examples, and timing.
#
#   bench/skills-compat.sh SKILL_DATA_DIR [--lang en] [--susi BIN] [--failures]
#
# SKILL_DATA_DIR is the checkout (its models/general is used when present). The skill texts
# stay where they are; nothing is copied into this repository. Figures:
#   - files that load, intents, blocks skipped (`susi skills lint DIR --tree` lists them);
#   - valid offline examples that pass, valid network examples that reach their own intent,
#     with all files loaded and with each file alone (see SkillCompatibility);
#   - load and answer times in process;
#   - a cold `susi ask --local` over the same files copied flat into a temporary models
#     directory (median of 5 runs, wall time and peak memory), and the answer time p95 of
#     `susi skills bench` there.
# Results go to stdout; bench/RESULTS.md quotes a run.
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
DATA=$1
shift
LANG_DIR=en
SUSI=.build/release/susi
# The Makefile's release build flags, read from it when run alone: one build in .build/release.
RELEASE_FLAGS=${RELEASE_FLAGS-$(sed -n 's/^export RELEASE_FLAGS = //p' Makefile)}
FAILURES=
while [ $# -gt 0 ]; do
    case $1 in
    --lang) LANG_DIR=$2; shift 2 ;;
    --susi) SUSI=$2; shift 2 ;;
    --failures) FAILURES=--failures; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[ -d "$DATA/models/general" ] && DATA=$DATA/models/general
[ -x "$SUSI" ] || swift build -c release $RELEASE_FLAGS --product susi >/dev/null
# Without susi-js beside the binary no !javascript intent can answer and the figures drop
# without a word (13 offline examples fewer on susi_skill_data).
[ -x "$(dirname "$SUSI")/susi-js" ] || swift build -c release $RELEASE_FLAGS --product susi-js >/dev/null
[ -x "$(dirname "$SUSI")/susi-js" ] || { echo "no susi-js beside $SUSI" >&2; exit 1; }

echo "== $DATA ($LANG_DIR), $(find "$DATA" -path "*/$LANG_DIR/*.txt" | wc -l) skill files"
"$SUSI" skills compat "$DATA" --lang "$LANG_DIR" $FAILURES

# A cold start over the same skills: one flat models/skills folder of symlinks, as a
# speaker with these skills installed would have.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/models/skills" "$TMP/home"
find "$DATA" -path "*/$LANG_DIR/*.txt" | while IFS= read -r file; do
    name=$(printf '%s' "${file#"$DATA"/}" | sed 's|/|__|g')
    ln -s "$(cd "$(dirname "$file")" && pwd)/$(basename "$file")" "$TMP/models/skills/$name"
done
for i in 1 2 3 4 5; do
    /usr/bin/time -o "$TMP/time" -f '%e %U %S %M' env HOME="$TMP/home" SUSI_MODELS="$TMP/models" \
        "$SUSI" ask --local "what is the capital of india" >/dev/null 2>&1 || true
    cat "$TMP/time" >>"$TMP/times"
done
# The first run parses and writes the cache (~/.cache/susi of the temporary home); the
# others read it. CPU time (user + system) is given too: on a busy machine wall time is not
# the program's own.
head -1 "$TMP/times" | awk '{ printf "cold susi ask --local, first run (parse, write cache): %.0f ms wall, %.0f ms CPU, %.0f MB\n", $1 * 1000, ($2 + $3) * 1000, $4 / 1024 }'
tail -n +2 "$TMP/times" | sort -n | awk '{ w[NR] = $1; c[NR] = $2 + $3; m[NR] = $4 } END {
    printf "cold susi ask --local, cached (4 runs): median %.0f ms wall, max %.0f ms wall, CPU %.0f-%.0f ms, peak memory %.0f MB\n",
        (w[2] + w[3]) * 500, w[NR] * 1000, c[1] * 1000, c[NR] * 1000, m[NR] / 1024 }'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
