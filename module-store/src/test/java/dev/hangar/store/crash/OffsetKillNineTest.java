package dev.hangar.store.crash;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.store.ConsumerOffsets;
import dev.hangar.store.DefaultMessageStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real {@code kill -9} of a process committing consumer offsets ({@link OffsetCommitChild}), then recovery here: every
 * queue's committed offset is at least the last one the child saw acknowledged, and never one it did not try.
 */
class OffsetKillNineTest {
    private static final int ROUNDS = Integer.getInteger("hangar.crash.rounds", 3);
    private static final int GROUPS = 6;
    /** A protocol line of the child; found anywhere in a line, should a log line share it. */
    private static final Pattern PROTOCOL = Pattern.compile("(TRY|ACK) (group\\d+) (\\d+) (\\d+)");

    @TempDir
    Path dir;

    /** What the child printed for one group's queue: the last acknowledged offset and the largest tried. */
    static final class Seen {
        long acked = -1;
        long triedMax = -1;
    }

    @ParameterizedTest
    @ValueSource(strings = {"SYNC_FLUSH", "ASYNC_FLUSH"})
    void everyAcknowledgedCommitSurvivesKillNine(String flushDiskType) throws Exception {
        Random random = new Random(flushDiskType.hashCode());
        Map<String, Seen> seen = new HashMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            int acks = runAndKill(flushDiskType, 300 + random.nextInt(700), seen);
            assertTrue(acks > 0, "round " + round + ": the child acknowledged commits before the kill");
            verify(seen, round);
        }
    }

    private int runAndKill(String flushDiskType, long killAfterMillis, Map<String, Seen> seen) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                OffsetCommitChild.class.getName(), dir.toString(), flushDiskType, Integer.toString(GROUPS)));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process child = pb.start();
        int[] acks = {0};
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    Matcher m = PROTOCOL.matcher(line);
                    synchronized (seen) {
                        while (m.find()) {
                            Seen s = seen.computeIfAbsent(m.group(2) + " " + m.group(3), k -> new Seen());
                            long offset = Long.parseLong(m.group(4));
                            if (m.group(1).equals("TRY")) {
                                s.triedMax = Math.max(s.triedMax, offset);
                            } else {
                                s.acked = offset;
                                acks[0]++;
                            }
                        }
                    }
                }
            } catch (Exception e) {
                throw new AssertionError("reading the child's lines", e);
            }
        });
        reader.start();
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline && child.isAlive()) {
            synchronized (seen) {
                if (acks[0] > 0) {
                    break;
                }
            }
            Thread.sleep(10);
        }
        Thread.sleep(killAfterMillis);
        // SIGKILL through the handle: Process.destroyForcibly() would also close our end of the pipe, and the lines
        // still in it (TRY lines this test must see) would be lost
        child.toHandle().destroyForcibly();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        reader.join(60_000);
        assertFalse(reader.isAlive(), "every line of the child was read");
        synchronized (seen) {
            return acks[0];
        }
    }

    private StoreConfig config() {
        return StoreConfig.builder()
                .set("storePathRootDir", dir.toString(), "test")
                .set("mappedFileSizeCommitLog", Integer.toString(256 * 1024), "test")
                .set("mappedFileSizeConsumeQueue", Integer.toString(20 * 2000), "test")
                .set("maxHashSlotNum", "2000", "test")
                .set("maxIndexNum", "8000", "test")
                .build();
    }

    private void verify(Map<String, Seen> seen, int round) {
        try (DefaultMessageStore store = new DefaultMessageStore(config())) {
            store.start();
            assertTrue(store.recoveryReport().abnormal(), "the abort file marked the crash");
            ConsumerOffsets offsets = store.consumerOffsets();
            int checked = 0;
            for (Map.Entry<String, Seen> e : seen.entrySet()) {
                String[] key = e.getKey().split(" ");
                OptionalLong got = offsets.committed(key[0], OffsetCommitChild.TOPIC, Integer.parseInt(key[1]));
                Seen s = e.getValue();
                if (s.acked >= 0) {
                    checked++;
                    assertTrue(got.isPresent() && got.getAsLong() >= s.acked, "round " + round + ": " + e.getKey()
                            + " was acknowledged at " + s.acked + " but recovered " + got);
                }
                assertTrue(got.isEmpty() || got.getAsLong() <= s.triedMax, "round " + round + ": " + e.getKey()
                        + " recovered " + got + ", never tried (largest tried " + s.triedMax + ")");
            }
            assertTrue(checked > 0, "some commit was acknowledged");
        }
    }
}
