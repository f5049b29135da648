package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.store.reput.ReputMessageService;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A put wakes the dispatch thread only when that thread went to sleep, and it sleeps only once puts stopped coming:
 * while they come, it naps between passes without asking to be woken. With one writer at a paced rate the old loop
 * parked after every record, so nearly every put paid an unpark (a futex syscall, several microseconds of the put's
 * latency on this VM) and the dispatch thread a context switch. Counted, not timed: {@code wakeupsSent()} counts the
 * unparks.
 */
class ReputWakeupTest {
    private static final int PUTS = 3_000;
    /** A gap between puts well below the napping window, as a writer at tens of thousands of puts per second. */
    private static final long GAP_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    @TempDir
    Path dir;

    @Test
    void aWriterAtAPacedRateDoesNotWakeTheDispatchThreadPerPut() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            ReputMessageService reput = store.runtime().reput();
            pacedPuts(store, 0, 500);
            long before = reput.wakeupsSent();
            pacedPuts(store, 500, PUTS);
            long wakeups = reput.wakeupsSent() - before;
            TestStores.await("every put dispatched", () -> store.dispatchBehindBytes() == 0);
            System.out.printf("%d wake-ups of the dispatch thread for %d paced puts%n", wakeups, PUTS);
            // a descheduled writer may leave a gap longer than the napping window now and then (7.5 % of the puts
            // with a benchmark beside it); the old loop, parked after every pass: 65 % with the same load
            assertTrue(wakeups <= PUTS / 4, wakeups + " of " + PUTS + " paced puts woke the dispatch thread");
            assertEquals(500 + PUTS, store.getMaxOffsetInQueue("Paced", 0), "every put is in its queue");
        }
    }

    @Test
    void anIdleDispatchThreadSleepsUntilAPutWakesIt() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            ReputMessageService reput = store.runtime().reput();
            pacedPuts(store, 0, 100);
            long before = reput.wakeupsSent();
            // once no record came for the napping window the thread parks until woken: a later put must wake it (a
            // loop that napped forever would never be woken, and would cost an idle store timer wake-ups for ever)
            int[] puts = {100};
            TestStores.await("a put after a pause woke the sleeping dispatch thread", () -> {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                pacedPuts(store, puts[0]++, 1);
                return reput.wakeupsSent() > before;
            });
            TestStores.await("the put after the pause is dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(puts[0], store.getMaxOffsetInQueue("Paced", 0));
        }
    }

    private static void pacedPuts(DefaultMessageStore store, int from, int count) {
        for (int i = from; i < from + count; i++) {
            assertTrue(store.putMessage(TestStores.message("Paced", 0, "paced put " + i)).isOk(), "put " + i);
            long due = System.nanoTime() + GAP_NANOS;
            while (System.nanoTime() < due) {
                Thread.onSpinWait();
            }
        }
    }
}
