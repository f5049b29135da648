package dev.hangar.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a process has used so far, from Linux's /proc: CPU time (user + system, every thread) and the bytes it sent
 * to storage ({@code write_bytes}, which counts a page of a mapped file once when the process dirties it).
 *
 * @param cpuNanos   user + system CPU time
 * @param writeBytes bytes written to storage, or -1 where /proc/PID/io cannot be read
 */
record ProcStats(long cpuNanos, long writeBytes) {
    /** USER_HZ: /proc/PID/stat counts CPU time in ticks of 1/100 s on every Linux architecture the JDK runs on. */
    static final long NANOS_PER_TICK = 10_000_000L;

    static ProcStats of(long pid) {
        return new ProcStats(cpuNanos(pid), writeBytes(pid));
    }

    ProcStats minus(ProcStats before) {
        return new ProcStats(cpuNanos - before.cpuNanos,
                writeBytes < 0 || before.writeBytes < 0 ? -1 : writeBytes - before.writeBytes);
    }

    static long cpuNanos(long pid) {
        try {
            return parseCpuNanos(Files.readString(Path.of("/proc/" + pid + "/stat")));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the CPU time of process " + pid + ": " + e, e);
        }
    }

    /** utime + stime of a /proc/PID/stat line; the command name in parentheses may hold spaces. */
    static long parseCpuNanos(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // after "pid (comm) ": state is field 3 of proc(5), utime 14 and stime 15
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
    }

    static long writeBytes(long pid) {
        try {
            return parseWriteBytes(Files.readString(Path.of("/proc/" + pid + "/io")));
        } catch (IOException e) {
            return -1;
        }
    }

    static long parseWriteBytes(String io) {
        for (String line : io.split("\n")) {
            if (line.startsWith("write_bytes:")) {
                return Long.parseLong(line.substring("write_bytes:".length()).trim());
            }
        }
        return -1;
    }
}
