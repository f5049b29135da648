package dev.hangar.store.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestInternals;
import dev.hangar.store.TestStores;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consensus provider cuts a backlog into ranges of whole records ({@code CommitLogReplicaPort.wholeRecordsEnd}):
 * a range that ended inside a record left a raft group's committed offset mid-record after a leader change, where
 * dispatch could never arrive and the new leader never took a put.
 */
class WholeRecordsEndTest {
    private static final int FILE_SIZE = 8 * 1024;

    @TempDir
    Path dir;

    @Test
    void rangesEndOnRecordBoundariesAcrossFileEndsAndNeverSplitARecord() {
        try (DefaultMessageStore store = TestStores.started(dir, "mappedFileSizeCommitLog", Integer.toString(FILE_SIZE),
                "transientStorePoolEnable", "false")) {
            TreeSet<Long> boundaries = new TreeSet<>();
            boundaries.add(0L);
            Random random = new Random(7);
            for (int i = 0; i < 60; i++) {
                PutMessageResult put = store.putMessage(TestStores.message("Ranges", i % 3,
                        "m" + i + "-" + "x".repeat(50 + random.nextInt(1500))));
                assertTrue(put.isOk(), put.toString());
                AppendMessageResult r = put.appendResult();
                boundaries.add(r.wroteOffset()); // after a BLANK filler: the next file's start
                boundaries.add(r.wroteOffset() + r.wroteBytes());
            }
            CommitLogReplicaPort port = new CommitLogReplicaPort(TestInternals.commitLog(store), () -> { });
            long max = port.maxOffset();
            assertEquals(boundaries.last(), max);
            assertTrue(boundaries.stream().anyMatch(b -> b % FILE_SIZE == 0 && b > 0), "the puts crossed a file end");

            for (long start : boundaries.headSet(max, false)) {
                for (int atMost : new int[] {1, 100, 1200, 3000, 20_000, 1 << 20}) {
                    long end = port.wholeRecordsEnd(start, atMost);
                    String what = "range from " + start + " of at most " + atMost;
                    assertTrue(boundaries.contains(end), what + " ends at " + end + ", inside a record");
                    long next = boundaries.higher(start);
                    if (next - start > atMost) {
                        assertEquals(next, end, what + ": a record longer than the limit is a range of its own");
                    } else {
                        assertTrue(end - start <= atMost, what + " holds " + (end - start) + " bytes");
                        Long after = boundaries.higher(end);
                        assertTrue(end == max || after - start > atMost, what + " stops at " + end
                                + " though the record to " + after + " still fits");
                    }
                }
            }
            long inside = boundaries.first() + 4;
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> port.wholeRecordsEnd(inside,
                    10_000));
            assertTrue(e.getMessage().contains("not the start of a whole record"), e.getMessage());
        }
    }
}
