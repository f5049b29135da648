#!/usr/bin/env bash
# Builds bench/target/device-bundle: what the scaling rows of issue 31 need on a machine that has no Maven, no network
# and no JDK (the 16-core machine lent for a few minutes): a jlinked Java runtime with the modules the bench and
# RocketMQ 4.9.8 use, the bench's classes and every jar they need except the Raft (Ratis) and Chronicle ones, which
# these rows do not run, and bench/device-scaling.sh as run.sh (with bench/machine.sh, which it sources). It stays
# under 64 MiB, so the device tool can carry it.
#
#   bench/device-bundle.sh            (BENCH_MVN_ARGS as for bench/run.sh, e.g. -o -Dmaven.repo.local=DIR)
#   then, on the machine:   bench/target/device-bundle/run.sh --rounds 3 --out DIR
#
# Needs the hangar modules in the local repository, as bench/run.sh does (mvn install of the reactor).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/target/device-bundle"
mvn -q ${BENCH_MVN_ARGS:-} -f "$here/pom.xml" package
rm -rf "$out"
mkdir -p "$out/lib"
jar --create --file "$out/lib/hangar-bench.jar" -C "$here/target/classes" .
tr ':' '\n' < "$here/target/classpath.txt" | while read -r j; do
  case "$j" in
    */ratis/*|*/ratis-*|*zstd-jni*|*/openhft/*|*/chronicle-*) ;; # Raft and Chronicle: not in these rows
    *.jar) cp "$j" "$out/lib/" ;;
  esac
done
# the modules `jdeps --print-module-deps` names for the bench's class path, less java.desktop (12 MB, reached only
# through optional paths of fastjson and commons-beanutils), plus jdk.jfr to profile on the machine
jlink --add-modules java.base,java.compiler,java.management,java.naming,java.sql,jdk.management,jdk.sctp,jdk.unsupported,jdk.jfr \
  --strip-debug --no-header-files --no-man-pages --compress=2 --output "$out/runtime"
cp "$here/device-scaling.sh" "$out/run.sh"
cp "$here/machine.sh" "$out/machine.sh"
chmod +x "$out/run.sh"
du -sh "$out"
