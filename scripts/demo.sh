#!/usr/bin/env bash
# The built-in example: three spoken requests, heard, understood and answered offline.
# Usage: scripts/demo.sh [SUSI_BINARY] [OUTPUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
susi=${1:-.build/release/susi}
out=${2:-demo-out}
mkdir -p "$out"
config=(--quiet --config "$out/config.json")
# sox's noise and dither are the same on every run, so the demo hears the same input each time.
export SOX_OPTS="-R"

# A fresh config for the demo: the built-in brain, so no network is needed.
rm -f "$out/config.json"
"$susi" "${config[@]}" config set brain.mode local >/dev/null

requests=("susi, what time is it?" "susi, tell me a joke" "susi, what is seven plus five?")
parts=()
sox -n -r 16000 -c 1 -b 16 "$out/gap.wav" trim 0 1.5
parts+=("$out/gap.wav")
for i in "${!requests[@]}"; do
    "$susi" "${config[@]}" say --voice en-us "${requests[$i]}" --output "$out/request-$i.wav" >/dev/null
    sox "$out/request-$i.wav" -r 16000 "$out/request-$i-16k.wav"
    parts+=("$out/request-$i-16k.wav" "$out/gap.wav" "$out/gap.wav")
done
sox "${parts[@]}" "$out/speech.wav"
# A real microphone always hears a little noise; synthesised speech has exact silence.
sox -n -r 16000 -c 1 -b 16 "$out/hiss.wav" synth "$(soxi -D "$out/speech.wav")" whitenoise vol 0.003
sox -m "$out/speech.wav" "$out/hiss.wav" "$out/requests.wav"
rm -f "$out"/request-*.wav "$out/gap.wav" "$out/hiss.wav" "$out/speech.wav"

echo "SUSI demo: listening to $out/requests.wav"
for request in "${requests[@]}"; do echo "  person: \"$request\""; done
echo
"$susi" "${config[@]}" run --input "$out/requests.wav" --output "$out/answer.wav" \
    --events "$out/events.jsonl" --conversation
echo
where=$(cd "$out" && pwd)
echo "events:  $where/events.jsonl"
echo "answers: $where/answer.wav ($(soxi -d "$out/answer.wav"))"
