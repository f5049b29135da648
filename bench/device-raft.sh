#!/usr/bin/env bash
# Issue 28's Raft rows in one go, from the folder `bench/device-bundle.sh --raft` builds (copied there as run.sh):
# RaftBench, three node JVMs per engine on loopback, Hangar's raft group (haService=raft) against RocketMQ 4.9.8's
# DLedger CommitLog, engine order shuffled in every round: 4 x 256 puts in flight, 16 closed-loop threads, CPU and
# disk bytes per message, and the failover time (kill -9 of the leader). Uses only the bundle's runtime and jars: no
# Maven, no network. On a machine with spare cores this judges the closed-loop row, which on the 2-core CI host is
# bound by three JVMs sharing two CPUs (docs/PERFORMANCE.md 57, 58).
#
#   ./run.sh [--rounds 5] [--out DIR] [--dir STORE_DIR] [--disk-gib 4] [--quick] [RaftBench options...]
#
# Output in --out (default ./raft-<time>): machine.txt (cores, CPU, memory, kernel, file system, the disk's sequential
# write rate with fdatasync), raft.md (RaftBench's report: medians, ranges, ratios) and BENCHMARKS-raft.md (the
# "Raft replication" section as docs/BENCHMARKS.md takes it), and the nodes' logs of a failed round.
set -euo pipefail
bundle="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/machine.sh
. "$bundle/machine.sh"
java="$bundle/runtime/bin/java"
rounds=5
disk_gib=4
store_root="${TMPDIR:-/tmp}/hangar-raft"
out="./raft-$(date -u +%Y%m%dT%H%M%SZ)"
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --dir) store_root="$2"; shift 2 ;;
    --disk-gib) disk_gib="$2"; shift 2 ;;
    --quick) extra+=(--messages 2000 --closed-messages 300 --warmup 1000 --closed-warmup 200); shift ;;
    *) extra+=("$1"); shift ;;
  esac
done
if [ ! -x "$java" ]; then
  echo "no runtime at $java: build the bundle with bench/device-bundle.sh --raft" >&2
  exit 2
fi
mkdir -p "$out" "$store_root"
out="$(cd "$out" && pwd)"
describe_machine "$store_root" "$disk_gib" "RaftBench: rounds $rounds ${extra[*]:-}" "$out/machine.txt"
# the same JVM options as bench/run.sh --raft; the node JVMs get theirs from RaftBench
"$java" -Xmx256m \
  "${BENCH_JVM_OPENS[@]}" \
  -Dhangar.home="$bundle" \
  -cp "$bundle/lib/*" dev.hangar.bench.RaftBench --rounds "$rounds" --dir "$store_root" \
  --out "$out/raft.md" --docs "$out/BENCHMARKS-raft.md" ${extra[@]+"${extra[@]}"}
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
echo "reports in $out" >&2
