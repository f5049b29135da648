package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.reput.ReputMessageService;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under SYNC_FLUSH a record may be dispatched only once forced, so the force wakes the dispatch thread and a put does
 * not: a put's wake-up found nothing new to dispatch (its bytes wait for the force) and cost the putting thread a
 * futex syscall and the dispatch thread a context switch, several per force with many puts in flight. Counted, not
 * timed: {@code wakeupsSent()} counts the unparks of the dispatch thread, the flush statistics the forces.
 */
class SyncFlushReputWakeupTest {
    private static final int THREADS = 4;
    private static final int PUTS_PER_THREAD = 1_500;
    private static final int IN_FLIGHT = 64;

    @TempDir
    Path dir;

    @Test
    void putsInFlightWakeTheDispatchThreadAtMostOncePerForce() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", "SYNC_FLUSH",
                "mappedFileSizeCommitLog", Integer.toString(4 << 20))) {
            ReputMessageService reput = store.runtime().reput();
            long wakeupsBefore = reput.wakeupsSent();
            long forcesBefore = store.flushStatistics().flushes();
            List<Thread> writers = new ArrayList<>();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int queue = t;
                Thread w = new Thread(() -> {
                    try {
                        putInFlight(store, queue);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "sync-writer-" + t);
                writers.add(w);
                w.start();
            }
            for (Thread w : writers) {
                w.join();
            }
            assertTrue(failures.isEmpty(), () -> "a writer failed: " + failures);
            TestStores.await("every put dispatched", () -> store.dispatchBehindBytes() == 0);
            long wakeups = reput.wakeupsSent() - wakeupsBefore;
            long forces = store.flushStatistics().flushes() - forcesBefore;
            int puts = THREADS * PUTS_PER_THREAD;
            System.out.printf("%d wake-ups of the dispatch thread for %d sync puts in flight, %d forces%n", wakeups,
                    puts, forces);
            // one per force that moved the flushed position at most (a force over a file's end counts twice), for
            // each dispatch thread (dispatchThreads=per-dispatcher has one for the ConsumeQueue and one for the index)
            assertTrue(wakeups <= forces * reput.threads(), wakeups + " wake-ups of " + reput.threads()
                    + " dispatch thread(s) for " + forces + " forces and " + puts + " puts");
            for (int q = 0; q < THREADS; q++) {
                assertEquals(PUTS_PER_THREAD, store.getMaxOffsetInQueue("SyncInFlight", q), "queue " + q);
            }
        }
    }

    @Test
    void aLoneSyncPutIsDispatchedAfterTheForceWakesTheDispatchThread() {
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", "SYNC_FLUSH")) {
            ReputMessageService reput = store.runtime().reput();
            long before = reput.wakeupsSent();
            int puts = 20;
            for (int i = 0; i < puts; i++) {
                assertTrue(store.putMessage(TestStores.message("Lone", 0, "lone put " + i)).isOk(), "put " + i);
                int expected = i + 1;
                TestStores.await("put " + i + " dispatched", () -> store.getMaxOffsetInQueue("Lone", 0) == expected);
            }
            long wakeups = reput.wakeupsSent() - before;
            // between two puts the dispatch thread parks without a timer (the put does not wake it): only the force
            // can, and it must, or each record would wait for the idle park's bound
            assertTrue(wakeups >= 1 && wakeups <= (long) puts * reput.threads(), wakeups + " wake-ups of "
                    + reput.threads() + " dispatch thread(s) for " + puts + " lone sync puts");
        }
    }

    private static void putInFlight(DefaultMessageStore store, int queue) throws Exception {
        ArrayDeque<CompletableFuture<PutMessageResult>> pending = new ArrayDeque<>();
        for (int i = 0; i < PUTS_PER_THREAD; i++) {
            pending.addLast(store.asyncPutMessage(TestStores.message("SyncInFlight", queue, "in flight " + i)));
            if (pending.size() >= IN_FLIGHT) {
                assertTrue(pending.removeFirst().get().isOk());
            }
        }
        while (!pending.isEmpty()) {
            assertTrue(pending.removeFirst().get().isOk());
        }
    }
}
