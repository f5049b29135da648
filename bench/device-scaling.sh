#!/usr/bin/env bash
# Issue 31's scaling rows in one go, from the folder bench/device-bundle.sh builds (copied there as run.sh): 1, 4 and
# 16 writers of 1 KiB (async flush, 8 queues... as the bench's async-1k-1t, async-1k-4t and async-1k-16t-reentrant
# workloads), Hangar in each put mode against RocketMQ 4.9.8, engine order shuffled in every round, time until
# readable by queue and by key. Uses only the bundle's runtime and jars: no Maven, no network.
#
#   ./run.sh [--rounds 3] [--out DIR] [--dir STORE_DIR] [--modes "default concurrent adaptive"] [--disk-gib 4] [--quick]
#
# Modes (Hangar's settings; RocketMQ runs with the first mode only, in the same JVM):
#   default            appendMode=locked, putMessageLock=reentrant, dispatchThreads=auto (per-dispatcher here)
#   one-dispatch       the default with dispatchThreads=one
#   adaptive           putMessageLock=adaptive
#   concurrent         appendMode=concurrent
#   concurrent-adaptive  appendMode=concurrent, putMessageLock=adaptive
# Output in --out (default ./scaling-<time>): machine.txt (cores, CPU, memory, kernel, file system, the disk's
# sequential write rate with fdatasync) and one report per mode (<mode>.md, the bench's own tables with medians,
# ranges and ratios). docs/BENCHMARKS.md takes machine.txt and the reports.
set -euo pipefail
bundle="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/machine.sh
. "$bundle/machine.sh"
java="$bundle/runtime/bin/java"
rounds=3
modes="default concurrent adaptive"
disk_gib=4
quick=""
store_root="${TMPDIR:-/tmp}/hangar-scaling"
out="./scaling-$(date -u +%Y%m%dT%H%M%SZ)"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --modes) modes="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --dir) store_root="$2"; shift 2 ;;
    --disk-gib) disk_gib="$2"; shift 2 ;;
    --quick) quick="--quick"; shift ;;
    *) echo "unknown option $1 (see the head of this script)" >&2; exit 2 ;;
  esac
done
settings_of() {
  case "$1" in
    default) echo "" ;;
    one-dispatch) echo "dispatchThreads=one" ;;
    adaptive) echo "putMessageLock=adaptive" ;;
    concurrent) echo "appendMode=concurrent" ;;
    concurrent-adaptive) echo "appendMode=concurrent,putMessageLock=adaptive" ;;
    *) echo "unknown mode $1" >&2; exit 2 ;;
  esac
}
for m in $modes; do settings_of "$m" > /dev/null; done
if [ ! -x "$java" ]; then
  echo "no runtime at $java: build the bundle with bench/device-bundle.sh" >&2
  exit 2
fi
mkdir -p "$out" "$store_root"
out="$(cd "$out" && pwd)"
describe_machine "$store_root" "$disk_gib" "modes: $modes; rounds: $rounds $quick" "$out/machine.txt"
engines="hangar,rocketmq"
for m in $modes; do
  echo "--- mode $m" >&2
  # the same JVM options as bench/run.sh
  "$java" -Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=2g \
    "${BENCH_JVM_OPENS[@]}" \
    -Dhangar.home="$bundle" -Dbench.hangar.set="$(settings_of "$m")" \
    -cp "$bundle/lib/*" dev.hangar.bench.BenchMain $quick --rounds "$rounds" \
    --only async-1k-1t,async-1k-4t,async-1k-16t-reentrant --engines "$engines" \
    --dir "$store_root" --out "$out/$m.md"
  engines="hangar"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
echo "reports in $out" >&2
