package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replication floor moves every put's bytes to the slave's files, across file ends, and answers SYNC puts late. */
class RawPipePairTest {
    private static final int FILE_SIZE = 64 * 1024;
    private static final int MESSAGE_SIZE = 1000;

    @TempDir
    Path dir;

    @Test
    void theSlaveFilesHoldTheMastersBytesAcrossFileEnds() throws IOException {
        int puts = 200; // 200 000 bytes: four files, each ending in an unused tail
        long end;
        try (RawPipePair pair = new RawPipePair(dir, "ASYNC_MASTER", FILE_SIZE, MESSAGE_SIZE)) {
            end = 0;
            for (int i = 0; i < puts; i++) {
                end = pair.put(i).join();
            }
            long last = end;
            HaBench.await("the slave holds every put", () -> pair.slaveMaxOffset() >= last);
            assertEquals(end, pair.slaveMaxOffset(), "nothing past the last put");
        }
        List<Path> master = files(dir.resolve("master"));
        List<Path> slave = files(dir.resolve("slave"));
        assertEquals(4, master.size());
        assertEquals(master.stream().map(p -> p.getFileName().toString()).toList(),
                slave.stream().map(p -> p.getFileName().toString()).toList());
        long perFile = FILE_SIZE / MESSAGE_SIZE * MESSAGE_SIZE;
        assertEquals(3 * (long) FILE_SIZE + (puts - 3 * perFile / MESSAGE_SIZE) * MESSAGE_SIZE, end,
                "a put that does not fit a file's rest starts the next file");
        for (int f = 0; f < master.size(); f++) {
            byte[] m = Files.readAllBytes(master.get(f));
            byte[] s = Files.readAllBytes(slave.get(f));
            int used = (int) Math.min(FILE_SIZE, end - (long) f * FILE_SIZE);
            assertArrayEquals(Arrays.copyOf(m, used), Arrays.copyOf(s, used), "file " + f);
        }
        assertFalse(Arrays.equals(new byte[MESSAGE_SIZE], Arrays.copyOf(Files.readAllBytes(slave.get(0)),
                MESSAGE_SIZE)), "the bytes are the body, not zeros");
    }

    @Test
    void aSyncMasterPutCompletesOnlyOnceTheSlaveWrotePastIt() throws Exception {
        try (RawPipePair pair = new RawPipePair(dir, "SYNC_MASTER", FILE_SIZE, MESSAGE_SIZE)) {
            List<CompletableFuture<Long>> answers = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                answers.add(pair.put(i));
            }
            for (CompletableFuture<Long> a : answers) {
                long end = a.get(60, TimeUnit.SECONDS);
                assertTrue(pair.slaveMaxOffset() >= end, "answered at " + end + " with the slave at "
                        + pair.slaveMaxOffset());
            }
        }
    }

    private static List<Path> files(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.sorted().toList();
        }
    }
}
