package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.lock.PutMessageLock;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.commitlog.LiveAppend;
import dev.hangar.store.commitlog.TopicQueueOffsets;
import dev.hangar.store.format.MessageEncoder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement, not a test (run on request: {@code mvn -B -ntp -pl module-store -am verify
 * -Dsurefire.failIfNoSpecifiedTests=false -Dtest=AppendLockProbe -Dhangar.probe=true}): what a put costs the put lock
 * in the locked and the concurrent append mode, with 1, 4 and 16 writers appending 1 KiB records straight into a
 * CommitLog (no flush wait, no dispatch, no admission): per append, the time spent waiting for the lock, the time
 * holding it, and the whole append call (for the concurrent mode that includes the copy and the wait until the
 * record is published). The lock is a reentrant lock with clocks around it. Figures go to stdout; docs/PERFORMANCE.md
 * section 51 has a run.
 */
@EnabledIfSystemProperty(named = "hangar.probe", matches = "true")
class AppendLockProbe {
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);
    private static final int APPENDS = Integer.getInteger("hangar.probe.appends", 200_000);
    private static final int ROUNDS = Integer.getInteger("hangar.probe.rounds", 5);

    @TempDir
    Path dir;

    /** A reentrant lock that sums the waits for it and the holds of it. */
    private static final class TimedLock implements PutMessageLock {
        private final ReentrantLock lock = new ReentrantLock();
        final LongAdder waitNanos = new LongAdder();
        final LongAdder holdNanos = new LongAdder();
        private long acquired;

        @Override
        public void lock() {
            long t0 = System.nanoTime();
            lock.lock();
            acquired = System.nanoTime();
            waitNanos.add(acquired - t0);
        }

        @Override
        public void unlock() {
            long held = System.nanoTime() - acquired;
            lock.unlock();
            holdNanos.add(held);
        }
    }

    @Test
    void lockWaitAndHoldPerAppend() throws Exception {
        StringBuilder table = new StringBuilder("| round | writers | mode | lock wait ns/append | lock hold ns/append |"
                + " append call ns/append | appends/s |\n|---:|---:|---|---:|---:|---:|---:|\n");
        for (int round = 1; round <= ROUNDS; round++) {
            for (int writers : new int[] {1, 4, 16}) {
                for (boolean concurrent : new boolean[] {false, true}) {
                    table.append(measure(round, writers, concurrent)).append('\n');
                }
            }
        }
        System.out.println("append lock probe, " + APPENDS + " appends of 1 KiB per row (256 MiB files):\n" + table);
    }

    private String measure(int round, int writers, boolean concurrent) throws Exception {
        Path root = dir.resolve("r" + round + "-" + writers + "-" + concurrent);
        try (DefaultMessageStore store = TestStores.started(root, "dispatchers", "",
                "mappedFileSizeCommitLog", Integer.toString(256 << 20))) {
            TimedLock lock = new TimedLock();
            // a second CommitLog over the store's file queue, with the timed lock: the store itself takes no puts
            CommitLog log = new CommitLog(TestInternals.commitLog(store).queue(), lock, new TopicQueueOffsets(), HOST,
                    concurrent);
            LongAdder callNanos = new LongAdder();
            LongAdder ok = new LongAdder();
            int perWriter = APPENDS / writers;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int queue = w % 8;
                Thread t = new Thread(() -> {
                    MessageEncoder encoder = new MessageEncoder(4 * 1024 * 1024);
                    encoder.encode(TestStores.message("Probe", queue, "x".repeat(1024)), HOST);
                    CommitLog.AppendOutcome<Boolean> outcome = new CommitLog.AppendOutcome<>() {
                        @Override
                        public Boolean appended(LiveAppend append) {
                            return true;
                        }

                        @Override
                        public Boolean failed(AppendMessageResult failure) {
                            return false;
                        }
                    };
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    long sum = 0;
                    for (int i = 0; i < perWriter; i++) {
                        long t0 = System.nanoTime();
                        boolean appended = log.append(encoder, "Probe", queue, true, outcome);
                        sum += System.nanoTime() - t0;
                        if (appended) {
                            ok.increment();
                        }
                    }
                    callNanos.add(sum);
                });
                threads.add(t);
                t.start();
            }
            long begin = System.nanoTime();
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            long elapsed = System.nanoTime() - begin;
            long appends = (long) perWriter * writers;
            assertEquals(appends, ok.sum(), "every append succeeded");
            String row = "| " + round + " | " + writers + " | " + (concurrent ? "concurrent" : "locked") + " | "
                    + lock.waitNanos.sum() / appends + " | " + lock.holdNanos.sum() / appends + " | "
                    + callNanos.sum() / appends + " | " + appends * 1_000_000_000L / elapsed + " |";
            System.out.println(row);
            return row;
        } finally {
            TestStores.deleteTree(root);
        }
    }
}
