package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An asynchronous flush (one that waits for whole pages) leaves the page the writer is filling alone. Writing a page
 * back write-protects it in the mapping, so the writer's next store into it takes a fault, and while the write-back
 * runs that store waits for it: a replica's {@code pwrite} waited 271 ms behind a preempted flusher this way
 * (docs/PERFORMANCE.md, "Replication IX"). Counted here as the writer thread's minor faults on a page it has
 * already touched: with the tail page flushed, each round costs one.
 */
class AsyncFlushTailPageTest {
    private static final int PAGE = DirtyPages.OS_PAGE_SIZE;
    private static final int ROUNDS = 8;

    @TempDir
    Path dir;

    @Test
    void anAsyncFlushStopsBelowThePageBeingWrittenSoTheWriterTakesNoFaultThere() throws IOException {
        assertTrue(Files.isReadable(Path.of("/proc/thread-self/stat")), "needs Linux /proc/thread-self");
        DefaultMappedFile file = new DefaultMappedFile(dir, 0, 4 * ROUNDS * PAGE, NativeMemory.system());
        byte[] fill = new byte[3 * PAGE];
        byte[] small = new byte[100];
        long faultsInTailPages = 0;
        for (int round = 0; round < ROUNDS; round++) {
            // the writer fills up to 100 bytes into a new page, touching every page it writes (first-touch faults
            // are not counted), then the asynchronous flusher runs
            int toPageStart = (file.wrotePosition() / PAGE + 1) * PAGE - file.wrotePosition();
            file.appendBytes(fill, 0, toPageStart);
            file.appendBytes(small, 0, small.length);
            int tailPageStart = file.wrotePosition() - small.length;
            assertEquals(tailPageStart, file.flush(1), "the flush ends at the boundary below the write position");
            long before = threadMinorFaults();
            file.appendBytes(small, 0, small.length);
            faultsInTailPages += threadMinorFaults() - before;
        }
        assertTrue(faultsInTailPages < ROUNDS / 2, "the writer re-faulted the page it was filling "
                + faultsInTailPages + " times in " + ROUNDS + " rounds of append, async flush, append");
        int written = file.wrotePosition();
        assertEquals(written, file.flush(0), "a flush of any byte still covers the tail page");
        assertTrue(file.destroy(0));
    }

    /** Minor page faults of the calling thread so far: field 10 of /proc/thread-self/stat. */
    private static long threadMinorFaults() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(afterName[10 - 3]);
    }
}
