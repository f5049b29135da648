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

/**
 * Bytes allocated per put, counted by the JVM per thread ({@code ThreadMXBean.getThreadAllocatedBytes}): a count,
 * not a timing. The put caller pays for the API's result (and an asynchronous put for the one future it returns);
 * the flush service's threads pay for nothing per put. Measured: a blocking sync put 84 B (PutMessageResult 24 +
 * AppendMessageResult 56), an asynchronous one 108-110 B. The bounds fail on the old put path: a request, a future
 * chain and queue nodes per sync put (about 1.8 kB on the caller), and 164 B per async-flush asyncPutMessage (a
 * completed future for replication even without it, and a separate msgId list object).
 */
class PutAllocationTest {
    private static final int WARM_UP = 3_000;
    private static final int MEASURED = 3_000;
    /** The result objects (PutMessageResult, AppendMessageResult), with a little room. */
    private static final long SYNC_CALLER_BOUND = 112;
    /** The same plus the one future an asynchronous put returns. */
    private static final long ASYNC_CALLER_BOUND = 144;
    /**
     * Flush-service threads (group commit, deadline watcher): per force, what forcing a mapping costs (56 B in the
     * JDK's and the mapped file's code, whatever the number of puts it covers), and nothing per put beyond the
     * PutMessageResult an asynchronous put is completed with there.
     */
    private static final long FLUSH_THREADS_PER_FORCE = 64;
    private static final long FLUSH_THREADS_PER_ASYNC_PUT = 32;

    @TempDir
    Path dir;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocatedByCaller() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    private static long allocatedByFlushThreads() {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("hangar-flush")) {
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
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", flushDiskType,
                "mappedFileSizeCommitLog", Integer.toString(64 * 1024 * 1024))) {
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

    private static String describe(String what, long[] bytes) {
        return what + ": " + bytes[0] + " B per put on the caller; " + bytes[1] + " B on the flush threads for "
                + MEASURED + " puts and " + bytes[2] + " forces";
    }

    @Test
    void aBlockingSyncFlushPutAllocatesOnlyItsResult() {
        long[] bytes = perPut("SYNC_FLUSH", DefaultMessageStore::putMessage);
        String what = describe("SYNC_FLUSH putMessage", bytes);
        System.out.println(what);
        assertTrue(bytes[0] <= SYNC_CALLER_BOUND, what);
        assertTrue(bytes[1] <= FLUSH_THREADS_PER_FORCE * bytes[2], what);
    }

    @Test
    void anAsyncSyncFlushPutAllocatesItsResultAndOneFuture() {
        long[] bytes = perPut("SYNC_FLUSH", (store, m) -> poll(store.asyncPutMessage(m)));
        String what = describe("SYNC_FLUSH asyncPutMessage", bytes);
        System.out.println(what);
        assertTrue(bytes[0] <= ASYNC_CALLER_BOUND, what);
        assertTrue(bytes[1] <= FLUSH_THREADS_PER_FORCE * bytes[2] + FLUSH_THREADS_PER_ASYNC_PUT * MEASURED, what);
    }

    @Test
    void blockingSyncFlushPutsFromManyThreadsAllocateOnlyTheirResults() throws Exception {
        int threads = 8;
        int perThread = 1_000;
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", "SYNC_FLUSH",
                "mappedFileSizeCommitLog", Integer.toString(64 * 1024 * 1024))) {
            long[] bytes = new long[threads];
            int[] ok = new int[threads];
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
            long perPut = total / ((long) threads * perThread);
            String what = "SYNC_FLUSH putMessage from " + threads + " threads: " + perPut + " B per put on the callers";
            System.out.println(what);
            assertTrue(perPut <= SYNC_CALLER_BOUND, what);
        }
    }

    @Test
    void anAsyncFlushPutAllocatesItsResultAndOneFuture() {
        long[] bytes = perPut("ASYNC_FLUSH", (store, m) -> poll(store.asyncPutMessage(m)));
        String what = describe("ASYNC_FLUSH asyncPutMessage", bytes);
        System.out.println(what);
        assertTrue(bytes[0] <= ASYNC_CALLER_BOUND, what);
    }
}
