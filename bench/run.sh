#!/usr/bin/env bash
# Runs the Hangar vs RocketMQ 4.9.8 store benchmark and writes docs/BENCHMARKS.md.
#   bench/run.sh            full run (about 30 minutes on an idle 2-core machine; it prints its estimate first)
#                           rewrites only its own sections of docs/BENCHMARKS.md (HTTP and Replication are kept)
#   bench/run.sh --quick    smoke run with tiny counts (writes bench/target/BENCHMARKS-quick.md)
#   bench/run.sh --help     every option
#   bench/run.sh --replication [HaBench options]   master + slave replication (HaBench, a few minutes); writes
#                           only the "Replication" section of docs/BENCHMARKS.md
#   bench/run.sh --raft [RaftBench options]   three-node Raft groups, Hangar (haService=raft) against RocketMQ's
#                           DLedger CommitLog, one JVM per node (RaftBench, about 10 minutes with the defaults);
#                           writes only the "Raft replication" section of docs/BENCHMARKS.md
# Needs the hangar modules in ~/.m2 (mvn install of the reactor) and RocketMQ 4.9.8 in the local repository.
# BENCH_MVN_ARGS is passed to that mvn call, e.g. BENCH_MVN_ARGS=-Dmaven.repo.local=/path/to/repo.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
mvn -q ${BENCH_MVN_ARGS:-} -f "$here/pom.xml" package
cp="$here/target/classes:$(cat "$here/target/classpath.txt")"
main=dev.hangar.bench.BenchMain
heap="-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=2g"
if [ "${1:-}" = "--replication" ]; then
  shift
  main=dev.hangar.bench.HaBench
  set -- --docs "$root/docs/BENCHMARKS.md" --out "$here/target/HA-BENCH.md" "$@"
elif [ "${1:-}" = "--raft" ]; then
  shift
  main=dev.hangar.bench.RaftBench
  heap="-Xmx256m" # this JVM only starts the node JVMs and reads their answers
  set -- --docs "$root/docs/BENCHMARKS.md" --out "$here/target/RAFT-BENCH.md" "$@"
fi
# BENCH_JAVA_OPTS: extra JVM options for a diagnosis run, e.g. -Xlog:gc*,safepoint:file=/tmp/gc.log
# AlwaysPreTouch: fault the heap in at start (as RocketMQ's runbroker.sh does) so that no engine's puts pay a first
# touch of a fresh eden page (~11 us each on this VM; 56k of them in a 60 s put-stall run without it)
exec java $heap ${BENCH_JAVA_OPTS:-} \
  --add-opens java.base/java.nio=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-exports java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED \
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
  --add-opens java.base/java.io=ALL-UNNAMED \
  --add-opens java.base/java.util=ALL-UNNAMED \
  --add-exports java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED \
  -Dchronicle.analytics.disable=true \
  -Dchronicle.announcer.disable=true \
  -Dio.netty.leakDetection.level=disabled \
  -Dhangar.home="$root" \
  -cp "$cp" "$main" "$@"
