# Sourced by bench/concurrent-appends.sh and bench/device-scaling.sh (the device bundle's run.sh, which carries a copy):
# describe_machine STORE_ROOT DISK_GIB ROWS OUT writes to OUT what the machine is (cores, CPU, memory, kernel, the
# store's file system, the load) and ROWS, then the disk's sequential write rate (dd of DISK_GIB GiB with fdatasync,
# into STORE_ROOT's file system; 0 skips it), and prints it.
describe_machine() {
  local store_root="$1" disk_gib="$2" rows="$3" out="$4"
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "cores: $(nproc)"
    grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
    echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
    echo "kernel: $(uname -sr)"
    echo "store file system: $(df -T "$store_root" | awk 'NR == 2 {print $2 " on " $1}')"
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "$rows"
  } > "$out"
  if [ "$disk_gib" -gt 0 ]; then
    local dd_out
    dd_out=$(dd if=/dev/zero of="$store_root/dd-test" bs=1M count=$((disk_gib * 1024)) conv=fdatasync 2>&1 | tail -1)
    rm -f "$store_root/dd-test"
    echo "sequential write + fdatasync, $disk_gib GiB: $dd_out" >> "$out"
  fi
  cat "$out"
}

# The JVM options every bench JVM gets from bench/run.sh (the opens RocketMQ and Chronicle need), for the device
# bundles' scripts, which run the bundle's own java: "${BENCH_JVM_OPENS[@]}".
BENCH_JVM_OPENS=(
  --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-exports java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED
  --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED -Dio.netty.leakDetection.level=disabled
)
