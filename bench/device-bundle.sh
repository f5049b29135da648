#!/usr/bin/env bash
# Builds what a bench needs on a machine that has no Maven, no network and no JDK (the 16-core machine lent for a few
# minutes): a jlinked Java runtime with the modules the bench, RocketMQ 4.9.8 and Ratis use, the bench's classes, the
# jars the chosen rows need, and the script that runs them as run.sh (with bench/machine.sh, which it sources). It
# stays under 64 MiB, so the device tool can carry it.
#
#   bench/device-bundle.sh           issue 31's scaling rows (bench/device-scaling.sh) -> bench/target/device-bundle
#                                    (no Raft and no Chronicle jars)
#   bench/device-bundle.sh --raft    issue 28's Raft rows, Hangar's raft group against DLedger (bench/device-raft.sh)
#                                    -> bench/target/device-bundle-raft (Ratis without the TLS natives, whose rows do
#                                    not use TLS; no Chronicle)
#   (BENCH_MVN_ARGS as for bench/run.sh, e.g. -o -Dmaven.repo.local=DIR)
#   then, on the machine:   bench/target/device-bundle[-raft]/run.sh --rounds 3 --out DIR
#
# Needs the hangar modules in the local repository, as bench/run.sh does (mvn install of the reactor).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kind=scaling
if [ "${1:-}" = "--raft" ]; then
  kind=raft
elif [ -n "${1:-}" ]; then
  echo "unknown option $1 (--raft, or nothing for the scaling rows)" >&2
  exit 2
fi
out="$here/target/device-bundle"
script="$here/device-scaling.sh"
if [ "$kind" = raft ]; then
  out="$here/target/device-bundle-raft"
  script="$here/device-raft.sh"
fi
mvn -q ${BENCH_MVN_ARGS:-} -f "$here/pom.xml" package
rm -rf "$out"
mkdir -p "$out/lib"
jar --create --file "$out/lib/hangar-bench.jar" -C "$here/target/classes" .
tr ':' '\n' < "$here/target/classpath.txt" | while read -r j; do
  case "$j" in
    */openhft/*|*/chronicle-*|*/jnr-*|*/jffi-*|*/jna-platform-*|*/posix-*) ;; # Chronicle and what only it uses
    *zstd-jni*) ;; # RocketMQ's compression of large bodies: the rows put 1 KiB
    */ratis-thirdparty-misc-*.jar)
      if [ "$kind" = raft ]; then
        # shaded gRPC/Netty with netty-tcnative for five platforms (15 MB): the rows use plaintext gRPC
        cp "$j" "$out/lib/"
        zip -q -d "$out/lib/$(basename "$j")" 'META-INF/native/*tcnative*' 'META-INF/native/*aarch_64*'
      fi ;;
    */ratis/*|*/ratis-*) [ "$kind" = raft ] && cp "$j" "$out/lib/" || true ;;
    *.jar) cp "$j" "$out/lib/" ;;
  esac
done
# the runtime below is Linux x86-64: JNA's and LZ4's native libraries for other platforms only take room (2.5 MB)
for j in "$out"/lib/jna-*.jar; do
  zip -q -d "$j" 'com/sun/jna/aix-*' 'com/sun/jna/win32-*' 'com/sun/jna/darwin*' 'com/sun/jna/sunos-*' \
    'com/sun/jna/*bsd-*' 'com/sun/jna/linux-[!x]*' 'com/sun/jna/linux-x86/*' || true
done
for j in "$out"/lib/lz4-java-*.jar; do
  zip -q -d "$j" 'net/jpountz/util/win32/*' 'net/jpountz/util/darwin/*' 'net/jpountz/util/linux/[!a]*' \
    'net/jpountz/util/linux/aarch64/*' || true
done
# the modules `jdeps --print-module-deps` names for the bench's class path, less java.desktop (12 MB, reached only
# through optional paths of fastjson and commons-beanutils), plus jdk.jfr to profile on the machine
jlink --add-modules java.base,java.compiler,java.management,java.naming,java.sql,jdk.management,jdk.sctp,jdk.unsupported,jdk.jfr \
  --strip-debug --no-header-files --no-man-pages --compress=2 --output "$out/runtime"
# the JVM's own symbol table (4 MB of libjvm.so): only a crash report's native frames would name fewer functions
if command -v objcopy > /dev/null; then
  chmod u+w "$out/runtime/lib/server/libjvm.so"
  objcopy --strip-unneeded "$out/runtime/lib/server/libjvm.so"
fi
cp "$script" "$out/run.sh"
cp "$here/machine.sh" "$out/machine.sh"
chmod +x "$out/run.sh"
du -sh "$out"
