package dev.hangar.store.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.file.CopyOnWriteMappedFile;
import dev.hangar.mmap.file.MappedFileFactory;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.queue.DefaultMappedFileQueue;
import dev.hangar.spi.mapped.MappedFileQueue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With a write buffer, appends become readable (and so shippable to a slave) only when committed; the master's
 * replication learns of it from {@link CommitLogFlushTarget#afterCommit}. Without that signal a SYNC_MASTER's
 * connection thread slept until its select timeout after each commit (7.5k instead of 28-38k msg/s in HaBench's
 * in-flight row on a pooled master).
 */
class CommitLogFlushTargetTest {
    private static final int FILE_SIZE = 64 * 1024;

    @TempDir
    Path dir;

    private MappedFileQueue writeBufferQueue() {
        MappedFileFactory files = (d, offset, size) ->
                new CopyOnWriteMappedFile(d, offset, size, NativeMemory.system());
        return new DefaultMappedFileQueue(dir, FILE_SIZE, files, files, null);
    }

    @Test
    void theListenerHearsEachCommitThatMadeBytesReadableAndNothingElse() throws Exception {
        MappedFileQueue queue = writeBufferQueue();
        try {
            CommitLogFlushTarget target = new CommitLogFlushTarget(queue);
            List<Long> heard = new ArrayList<>();
            target.afterCommit(() -> heard.add(queue.getMaxOffset()));

            target.commit(0);
            assertEquals(List.of(), heard, "an empty log: nothing committed, nobody told");

            byte[] bytes = new byte[1000];
            assertTrue(queue.getLastMappedFile(0, true).appendBytes(bytes, 0, bytes.length));
            assertEquals(0, queue.getMaxOffset(), "appended but not committed: not readable yet");
            target.commit(4);
            assertEquals(List.of(), heard, "below leastPages the commit waits, so there is nothing to tell");

            target.commit(0);
            assertEquals(List.of(1000L), heard, "told once, after the bytes became readable");

            target.commit(0);
            assertEquals(List.of(1000L), heard, "a commit that moved nothing tells nobody");

            assertTrue(queue.getLastMappedFile(0, true).appendBytes(bytes, 0, 500));
            target.commit(0);
            assertEquals(List.of(1000L, 1500L), heard);
        } finally {
            queue.shutdown(0);
        }
    }

    @Test
    void withoutAListenerACommitStillWorks() throws Exception {
        MappedFileQueue queue = writeBufferQueue();
        try {
            CommitLogFlushTarget target = new CommitLogFlushTarget(queue);
            target.afterCommit(null);
            assertTrue(queue.getLastMappedFile(0, true).appendBytes(new byte[100], 0, 100));
            target.commit(0);
            assertEquals(100, queue.getMaxOffset());
        } finally {
            queue.shutdown(0);
        }
    }
}
