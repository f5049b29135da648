#!/usr/bin/env bash
# Concurrent appends (issue 31): writers x put modes, several rounds, through the launcher's own `bench` command.
# Needs only the jlinked image (a JDK runtime with every module; build it with
# `mvn -B -ntp -DskipTests package -pl jlink -am` and copy jlink/target/maven-jlink/default to the machine):
# no Maven, no network, no other JDK. bash, awk, sort, dd and coreutils are all it uses besides.
#
#   bench/concurrent-appends.sh --image DIR [--rounds 3] [--writers "1 4 16"] [--modes "reentrant adaptive concurrent"]
#                               [--messages 2000000] [--size 1024] [--queues 8] [--store DIR] [--out DIR] [--disk-gib 4]
#                               [--bench-args "more bench options", e.g. "--warmup 0" for a smoke run]
#
# Modes: reentrant, adaptive, spin (appendMode=locked with that putMessageLock); concurrent (appendMode=concurrent,
# the default reentrant lock guarding the reservation); concurrent-adaptive, concurrent-spin. A mode may end in /one or
# /per-dispatcher to set dispatchThreads too (e.g. "concurrent/one concurrent/per-dispatcher"); without it the store's
# default (auto) applies.
# Rounds are interleaved (round 1 of every row, then round 2, ...) so that drift on the machine spreads over all rows.
# Every run gets a new store directory, deleted after it. Output in --out (default ./concurrent-appends-<time>):
#   machine.txt   what the machine is: cores, CPU, memory, kernel, file system, and the disk's sequential write rate
#                 (dd of --disk-gib GiB with fdatasync, into the store's file system; --disk-gib 0 skips it)
#   raw.jsonl     one line per run: the row, the round, and the bench's JSON
#   summary.md    per row: messages/s until readable (median, min-max), put msg/s (median), p99.9 put latency (median)
# The numbers for docs/BENCHMARKS.md are summary.md and machine.txt together.
set -euo pipefail
# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"

image=""
rounds=3
writers="1 4 16"
modes="reentrant adaptive concurrent"
messages=2000000
size=1024
queues=8
store_root="${TMPDIR:-/tmp}/hangar-concurrent-appends"
out="./concurrent-appends-$(date -u +%Y%m%dT%H%M%SZ)"
disk_gib=4
bench_args=""

while [ $# -gt 0 ]; do
  case "$1" in
    --image) image="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --writers) writers="$2"; shift 2 ;;
    --modes) modes="$2"; shift 2 ;;
    --messages) messages="$2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    --queues) queues="$2"; shift 2 ;;
    --store) store_root="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --disk-gib) disk_gib="$2"; shift 2 ;;
    --bench-args) bench_args="$2"; shift 2 ;;
    -h|--help) sed -n 2,21p "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [ -z "$image" ]; then
  here="$(cd "$(dirname "$0")" && pwd)"
  image="$here/../jlink/target/maven-jlink/default"
fi
launcher="$image/bin/store-launcher"
if [ ! -x "$launcher" ]; then
  echo "no launcher at $launcher: pass --image DIR (the jlinked image, with bin/store-launcher)" >&2
  exit 2
fi

settings_of() {
  # MODE/one or MODE/per-dispatcher also sets dispatchThreads (else it stays auto: per-dispatcher on 4+ CPUs)
  local dispatch=""
  case "$1" in
    */one|*/per-dispatcher) dispatch=" -DdispatchThreads=${1#*/}" ;;
    */*) echo "unknown dispatch threads in $1 (one or per-dispatcher)" >&2; exit 2 ;;
  esac
  local lock
  lock=$(lock_settings_of "${1%%/*}") || exit 2
  echo "$lock$dispatch"
}

lock_settings_of() {
  case "$1" in
    reentrant|adaptive|spin) echo "-DappendMode=locked -DputMessageLock=$1" ;;
    concurrent) echo "-DappendMode=concurrent -DputMessageLock=reentrant" ;;
    concurrent-adaptive) echo "-DappendMode=concurrent -DputMessageLock=adaptive" ;;
    concurrent-spin) echo "-DappendMode=concurrent -DputMessageLock=spin" ;;
    *) echo "unknown mode $1" >&2; exit 2 ;;
  esac
}
for m in $modes; do settings_of "$m" > /dev/null; done

mkdir -p "$out" "$store_root"
describe_machine "$store_root" "$disk_gib" \
  "rows: writers [$writers] x modes [$modes], $rounds rounds, $messages x $size B, $queues queues" "$out/machine.txt"

: > "$out/raw.jsonl"
for round in $(seq 1 "$rounds"); do
  for w in $writers; do
    for m in $modes; do
      dir="$store_root/run"
      rm -rf "$dir"
      # shellcheck disable=SC2046
      json=$("$launcher" --store "$dir" $(settings_of "$m") bench --messages "$messages" --size "$size" \
        --threads "$w" --queues "$queues" $bench_args --json 2> "$out/last-stderr.txt" | tail -1)
      rm -rf "$dir"
      echo "{\"mode\":\"$m\",\"writers\":$w,\"round\":$round,\"bench\":$json}" >> "$out/raw.jsonl"
      tps=$(echo "$json" | grep -o '"readableTps":[0-9.]*' | cut -d: -f2)
      echo "round $round, $w writers, $m: $tps msg/s until readable" >&2
    done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

field() { # field NAME: that number from every raw line of the row on stdin
  grep -o "\"$1\":[0-9.]*" | cut -d: -f2
}
stats() { # median (min-max) of the numbers on stdin
  sort -g | awk '{v[NR] = $1} END {
    if (NR == 0) { print "-"; exit }
    med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%\047.0f (%\047.0f-%\047.0f)", med, v[1], v[NR] }'
}
{
  echo "| writers | mode | msg/s until readable, median (min-max) | put msg/s, median (min-max) | p99.9 put us, median (min-max) | rounds | failed puts |"
  echo "|---:|---|---:|---:|---:|---:|---:|"
  for w in $writers; do
    for m in $modes; do
      rows=$(grep "\"mode\":\"$m\",\"writers\":$w," "$out/raw.jsonl" || true)
      n=$(echo "$rows" | grep -c . || true)
      echo "| $w | $m | $(echo "$rows" | field readableTps | stats) | $(echo "$rows" | field putTps | stats) |" \
        "$(echo "$rows" | field p999 | stats) | $n | $(echo "$rows" | field failed | awk '{s += $1} END {print s + 0}') |"
    done
  done
} > "$out/summary.md"
cat "$out/summary.md"
echo "written: $out/machine.txt, $out/raw.jsonl, $out/summary.md" >&2
