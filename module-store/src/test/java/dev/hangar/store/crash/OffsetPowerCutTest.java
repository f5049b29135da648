package dev.hangar.store.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.OffsetCommitResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumer-offset commits under the power-cut simulation ({@link PowerCutDisk}): after the cut only what a completed
 * force covered is left, and the store reopened from that must hold every commit acknowledged under SYNC_FLUSH. The
 * negative control acknowledges without forcing and must be caught losing commits.
 */
class OffsetPowerCutTest {
    private static final int ROUNDS = Integer.getInteger("hangar.crash.rounds", 6);
    private static final String TOPIC = "Cut";
    private static final int QUEUES = 2;
    private static final int PER_QUEUE = 300;

    @TempDir
    Path dir;

    /** A round's count: commits acknowledged before the cut, and those whose queue recovered an older offset. */
    record Outcome(int acknowledged, int lost, List<String> examples) {
    }

    @Test
    void syncFlushLosesNoAcknowledgedCommitInAPowerCut() throws Exception {
        long seed = Long.getLong("hangar.crash.seed", new SecureRandom().nextLong());
        System.out.println("offset power cut: seed " + seed);
        for (int i = 0; i < ROUNDS; i++) {
            // a short saving interval: the replay starts from files saved during the round
            Outcome o = round(i, seed + i, "flushDiskType", "SYNC_FLUSH", "flushConsumerOffsetInterval", "20");
            assertTrue(o.acknowledged() > 0, "round " + i + ": something was acknowledged");
            assertEquals(0, o.lost(), "round " + i + " (seed " + (seed + i) + "): acknowledged commits lost: "
                    + o.examples());
        }
    }

    @Test
    void theHarnessCatchesACommitAcknowledgedWithoutForce() throws Exception {
        long seed = Long.getLong("hangar.crash.seed", new SecureRandom().nextLong());
        for (int i = 0; i < 3; i++) {
            // the file is saved only at start: the commits live in the CommitLog alone, which is never forced
            Outcome o = round(i, seed + i, "flushDiskType", "SYNC_FLUSH", "flushConsumerOffsetInterval", "600000",
                    "flushService", AcknowledgeWithoutForceFlushProvider.NAME);
            assertTrue(o.lost() > 0, "round " + i + ": the harness did not see any of " + o.acknowledged()
                    + " commits acknowledged without a force lost");
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private Outcome round(int i, long seed, String... settings) throws Exception {
        Random random = new Random(seed);
        Path live = dir.resolve("round-" + i).resolve("live");
        Path shadow = dir.resolve("round-" + i).resolve("shadow");
        Map<String, Long> acked = new ConcurrentHashMap<>();
        // the topic first, shut down cleanly and copied whole to the shadow: the commits' queues exist on both
        // (under the negative control's flush nothing would ever be dispatched)
        try (DefaultMessageStore store = TestStores.started(live, "flushDiskType", "SYNC_FLUSH")) {
            for (int n = 0; n < QUEUES * PER_QUEUE; n++) {
                assertTrue(store.putMessage(TestStores.message(TOPIC, n % QUEUES, "m" + n)).isOk());
            }
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
        }
        copyTree(live, shadow);
        try (PowerCutDisk disk = new PowerCutDisk(live, shadow, new Random(seed * 31 + 17))) {
            DefaultMessageStore store = TestStores.started(live, settings);
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            try {
                int groups = 2 + random.nextInt(4);
                for (int g = 0; g < groups; g++) {
                    String group = "g" + g;
                    Thread t = new Thread(() -> {
                        try {
                            for (int n = 0; !stop.get(); n++) {
                                int queue = n % QUEUES;
                                long offset = Math.min(PER_QUEUE, n / QUEUES + 1);
                                OffsetCommitResult r = store.consumerOffsets().commit(group, TOPIC, queue, offset);
                                if (r.isCommitted() && !disk.isCut()) {
                                    acked.put(group + " " + queue, offset);
                                }
                            }
                        } catch (RuntimeException e) {
                            if (!stop.get()) {
                                synchronized (failures) {
                                    failures.add(e);
                                }
                            }
                        }
                    });
                    threads.add(t);
                    t.start();
                }
                TestStores.await("a first acknowledged commit", () -> !acked.isEmpty() || !failures.isEmpty());
                Thread.sleep(10 + random.nextInt(250));
                disk.cut();
            } finally {
                stop.set(true);
                for (Thread t : threads) {
                    t.join(30_000);
                }
                store.shutdown();
            }
            assertTrue(failures.isEmpty(), "a committer failed before the cut: " + failures);
        }
        int lost = 0;
        List<String> examples = new ArrayList<>();
        try (DefaultMessageStore store = TestStores.started(shadow)) {
            for (Map.Entry<String, Long> e : acked.entrySet()) {
                String[] key = e.getKey().split(" ");
                OptionalLong got = store.consumerOffsets().committed(key[0], TOPIC, Integer.parseInt(key[1]));
                if (got.isEmpty() || got.getAsLong() < e.getValue()) {
                    lost++;
                    if (examples.size() < 5) {
                        examples.add(e.getKey() + " acknowledged " + e.getValue() + ", recovered " + got);
                    }
                }
            }
        }
        return new Outcome(acked.size(), lost, examples);
    }
}
