package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class ProcStatsTest {

    @Test
    void cpuTimeIsUserPlusSystemTicksEvenWhenTheCommandNameHoldsSpacesAndParentheses() {
        // utime 250 and stime 50 ticks: 3 s; a name that fools a split on spaces or on the first ')'
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 1000 0 0";
        assertEquals(3_000_000_000L, ProcStats.parseCpuNanos(stat));
    }

    @Test
    void storageWritesAreTheWriteBytesLineNotTheWcharLine() {
        String io = "rchar: 10\nwchar: 999\nsyscr: 1\nsyscw: 2\nread_bytes: 0\nwrite_bytes: 8192\n"
                + "cancelled_write_bytes: 4096\n";
        assertEquals(8192, ProcStats.parseWriteBytes(io));
        assertEquals(-1, ProcStats.parseWriteBytes("rchar: 1\n"));
    }

    @Test
    void thisProcessesCpuTimeGrowsWhileAThreadSpins() {
        long pid = ProcessHandle.current().pid();
        ProcStats before = ProcStats.of(pid);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long spunFrom = threads.getCurrentThreadCpuTime();
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - spunFrom < 200_000_000L) {
            sink += Long.numberOfTrailingZeros(System.nanoTime() | 1);
        }
        ProcStats used = ProcStats.of(pid).minus(before);
        // this thread alone used 200 ms; /proc counts in 10 ms ticks
        assertTrue(used.cpuNanos() >= 150_000_000L, used + " (" + sink + ")");
        assertTrue(used.writeBytes() >= 0 || ProcStats.writeBytes(pid) < 0, used.toString());
    }
}
