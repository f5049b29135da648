package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageResult;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bytes allocated per put, counted by the JVM per thread ({@code ThreadMXBean.getThreadAllocatedBytes}): a count,
 * not a timing. Counted together: the put caller and the commit-log flush service's threads (group commit, flush
 * deadline watcher, realtime flusher), which release or complete every put. At most 64 B per put, for blocking and
 * asynchronous puts, SYNC_FLUSH and ASYNC_FLUSH. Measured: a blocking put 48-51 B (its one StoredPut), an
 * asynchronous one 56-62 B (its one PendingPut, which is the future and the result), about 0 per put on the flush
 * threads.
 *
 * <p>The bound fails on the put path before the flat result: a PutMessageResult (24 B) around an
 * AppendMessageResult (56 B) made 84 B per blocking put, and an asynchronous put added its future (108-110 B), and
 * completing a waiting asynchronous put built its PutMessageResult on the flush thread (24 B more per put there).
 * Not counted: the reput thread (its cost per pass is {@code DispatchAllocationTest}'s), and the ConsumeQueue
 * flusher ({@code hangar-flush-consumequeue}), whose work follows the clock (every 10 ms here), not the puts.
 */
class PutAllocationTest {
    private static final int WARM_UP = 3_000;
    private static final int MEASURED = 3_000;
    /** Per put, the caller and the commit-log flush threads together. */
    private static final long PER_PUT_BOUND = 64;

    @TempDir
    Path dir;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocatedByCaller() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** The commit-log flush service's threads; not the ConsumeQueue flusher, which runs on a clock. */
    private static long allocatedByFlushThreads() {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("hangar-flush") && !t.getName().equals("hangar-flush-consumequeue")) {
                sum += THREADS.getThreadAllocatedBytes(t.getId());
            }
        }
        return sum;
    }

    private interface Put {
        PutMessageResult put(DefaultMessageStore store, Message message);
    }

    /** Waits for an async put without allocating (join() would add a waiter node on the caller). */
    private static PutMessageResult poll(CompletableFuture<PutMessageResult> future) {
        while (!future.isDone()) {
            LockSupport.parkNanos(10_000);
        }
        return future.getNow(null);
    }

    private long[] perPut(String flushDiskType, Put put) {
        return perPut(flushDiskType, "locked", put);
    }

    private long[] perPut(String flushDiskType, String appendMode, Put put) {
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", flushDiskType,
                "mappedFileSizeCommitLog", Integer.toString(64 * 1024 * 1024), "appendMode", appendMode)) {
            Message message = TestStores.message("AllocTopic", 0, "x".repeat(1024));
            for (int i = 0; i < WARM_UP; i++) {
                assertTrue(put.put(store, message).isOk());
            }
            long forcesBefore = store.flushStatistics().flushes();
            long callerBefore = allocatedByCaller();
            long flushBefore = allocatedByFlushThreads();
            int ok = 0;
            for (int i = 0; i < MEASURED; i++) {
                if (put.put(store, message).isOk()) {
                    ok++;
                }
            }
            long caller = (allocatedByCaller() - callerBefore) / MEASURED;
            long flush = allocatedByFlushThreads() - flushBefore;
            long forces = store.flushStatistics().flushes() - forcesBefore;
            assertTrue(ok == MEASURED, ok + " of " + MEASURED + " puts ok");
            return new long[] {caller, flush, forces};
        }
    }

    /** Asserts the bound on caller + flush threads per put, and says what was measured. */
    private static void assertWithinBound(String what, long[] bytes) {
        long perPut = bytes[0] + bytes[1] / MEASURED;
        String said = what + ": " + perPut + " B per put (" + bytes[0] + " B on the caller, " + bytes[1]
                + " B on the flush threads for " + MEASURED + " puts and " + bytes[2] + " forces)";
        System.out.println(said);
        assertTrue(perPut <= PER_PUT_BOUND, said);
    }

    @Test
    void aBlockingSyncFlushPutAllocatesOnlyItsResult() {
        assertWithinBound("SYNC_FLUSH putMessage", perPut("SYNC_FLUSH", DefaultMessageStore::putMessage));
    }

    @Test
    void anAsyncSyncFlushPutAllocatesOnlyTheFutureThatIsItsResult() {
        assertWithinBound("SYNC_FLUSH asyncPutMessage",
                perPut("SYNC_FLUSH", (store, m) -> poll(store.asyncPutMessage(m))));
    }

    @Test
    void aBlockingAsyncFlushPutAllocatesOnlyItsResult() {
        assertWithinBound("ASYNC_FLUSH putMessage", perPut("ASYNC_FLUSH", DefaultMessageStore::putMessage));
    }

    /** Concurrent appends: each writer thread reuses its own reservation and result, so a put still allocates none. */
    @Test
    void aBlockingAsyncFlushPutWithConcurrentAppendsAllocatesOnlyItsResult() {
        assertWithinBound("ASYNC_FLUSH putMessage, appendMode=concurrent",
                perPut("ASYNC_FLUSH", "concurrent", DefaultMessageStore::putMessage));
    }

    @ParameterizedTest(name = "appendMode={0}")
    @ValueSource(strings = {"locked", "concurrent"})
    void blockingSyncFlushPutsFromManyThreadsAllocateOnlyTheirResults(String appendMode) throws Exception {
        int threads = 8;
        int perThread = 1_000;
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", "SYNC_FLUSH",
                "mappedFileSizeCommitLog", Integer.toString(64 * 1024 * 1024), "appendMode", appendMode)) {
            long[] bytes = new long[threads];
            int[] ok = new int[threads];
            long flushBefore = allocatedByFlushThreads();
            Thread[] putters = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int index = t;
                putters[t] = new Thread(() -> {
                    Message message = TestStores.message("AllocTopic", index, "x".repeat(1024));
                    for (int i = 0; i < perThread; i++) {
                        store.putMessage(message);
                    }
                    long sum = 0;
                    for (int i = 0; i < perThread; i++) {
                        long before = allocatedByCaller();
                        boolean isOk = store.putMessage(message).isOk();
                        sum += allocatedByCaller() - before;
                        ok[index] += isOk ? 1 : 0;
                    }
                    bytes[index] = sum;
                });
                putters[t].start();
            }
            long total = 0;
            for (int t = 0; t < threads; t++) {
                putters[t].join(120_000);
                total += bytes[t];
                assertTrue(ok[t] == perThread, ok[t] + " puts ok of " + perThread);
            }
            // the flush threads' count covers the warm-up puts too (the callers' does not): an upper bound
            long flush = allocatedByFlushThreads() - flushBefore;
            long puts = (long) threads * perThread;
            long perPut = (total + flush) / puts;
            String what = "SYNC_FLUSH putMessage from " + threads + " threads, appendMode=" + appendMode + ": " + perPut + " B per put ("
                    + total / puts + " B on the callers, " + flush + " B on the flush threads for " + 2 * puts
                    + " puts)";
            System.out.println(what);
            assertTrue(perPut <= PER_PUT_BOUND, what);
        }
    }

    @Test
    void anAsyncFlushPutAllocatesOnlyTheFutureThatIsItsResult() {
        assertWithinBound("ASYNC_FLUSH asyncPutMessage",
                perPut("ASYNC_FLUSH", (store, m) -> poll(store.asyncPutMessage(m))));
    }
}
