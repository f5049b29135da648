package dev.hangar.raft;

import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement, not a test (run on request: {@code mvn -B -ntp -pl module-raft -am verify
 * -Dsurefire.failIfNoSpecifiedTests=false -Dtest=RaftClosedLoopProbe -Dhangar.probe=true}): three raft stores in
 * this JVM, {@code hangar.probe.threads} (16) closed-loop writers of 1 KiB for {@code hangar.probe.seconds} (8) after
 * a 2 s warm-up; prints puts/s and the put latency percentiles. The leader's log line "submitted N Raft entries"
 * at close gives how many puts shared an entry.
 */
@EnabledIfSystemProperty(named = "hangar.probe", matches = "true")
class RaftClosedLoopProbe {
    private static final int THREADS = Integer.getInteger("hangar.probe.threads", 16);
    private static final int SECONDS = Integer.getInteger("hangar.probe.seconds", 8);

    @TempDir
    Path dir;

    @Test
    void closedLoopPuts() throws Exception {
        List<DefaultMessageStore> stores = new ArrayList<>();
        String peers = RaftStores.peers(3);
        for (int i = 0; i < 3; i++) {
            stores.add(RaftStores.start(dir.resolve("n" + i), peers, "n" + i, "mappedFileSizeCommitLog",
                    Integer.toString(256 << 20), "raft.electionTimeoutMin", "1000", "raft.electionTimeoutMax",
                    "2000"));
        }
        try {
            DefaultMessageStore leader = RaftStores.leader(stores);
            String body = "x".repeat(1000);
            run(leader, body, 2);
            long[] lat = run(leader, body, SECONDS);
            Arrays.sort(lat);
            System.out.printf("PROBE %d closed-loop threads: %.0f puts/s, p50 %.2f ms, p99 %.2f ms%n", THREADS,
                    lat.length / (double) SECONDS, lat[lat.length / 2] / 1e6, lat[(int) (lat.length * 0.99)] / 1e6);
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    private static long[] run(DefaultMessageStore leader, String body, int seconds) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<long[]> perThread = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        LongAdder failed = new LongAdder();
        for (int t = 0; t < THREADS; t++) {
            long[][] mine = {new long[1024]};
            int[] n = {0};
            int queue = t % 4;
            Thread th = new Thread(() -> {
                while (!stop.get()) {
                    long t0 = System.nanoTime();
                    PutMessageResult r = leader.putMessage(RaftStores.message("Probe", queue, body));
                    long took = System.nanoTime() - t0;
                    if (!r.isOk()) {
                        failed.increment();
                        continue;
                    }
                    if (n[0] == mine[0].length) {
                        mine[0] = Arrays.copyOf(mine[0], n[0] * 2);
                    }
                    mine[0][n[0]++] = took;
                }
                synchronized (perThread) {
                    perThread.add(Arrays.copyOf(mine[0], n[0]));
                }
            });
            threads.add(th);
            th.start();
        }
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Thread th : threads) {
            th.join();
        }
        if (failed.sum() > 0) {
            System.out.println("PROBE failed puts: " + failed.sum());
        }
        return perThread.stream().flatMapToLong(Arrays::stream).toArray();
    }
}
