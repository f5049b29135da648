package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.nativeio.RecordingLibC;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group force of ConsumeQueue files ({@link UnforcedFiles}): one {@code syncfs} covers every written file, and
 * nothing is announced as forced ({@link ForceEvents}, which the power-cut harness turns into what a disk keeps)
 * or recorded as flushed unless it was written before the sync returned.
 */
class UnforcedFilesTest {
    private static final int FILE_SIZE = 20 * 1024;
    private static final int UNIT = 20;
    /** The syncfs path even for the few files of a test (by default so few are forced one by one). */
    private static final int ALWAYS_SYNCFS = 0;
    private static final int PAGE = DirtyPages.OS_PAGE_SIZE;

    @TempDir
    Path dir;
    private final RecordedForces forces = new RecordedForces();
    private final List<OnDemandMappedFile> files = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        ForceEvents.uninstall(forces);
        files.forEach(f -> f.shutdown(0));
    }

    @Test
    void oneSyncfsForcesEveryWrittenFileAndRecordsThemFlushed() throws IOException {
        ForceEvents.install(forces);
        NativeMemory nativeMemory = NativeMemory.system();
        UnforcedFiles unforced = new UnforcedFiles(nativeMemory);
        try {
            MappingBudget budget = new MappingBudget(16);
            for (int q = 0; q < 200; q++) {
                OnDemandMappedFile file = open(q, budget, unforced);
                for (int u = 0; u <= q % 3; u++) {
                    assertTrue(file.appendBytes(unit(q, u), 0, UNIT));
                }
            }
            assertEquals(200, unforced.size());

            assertEquals(200, unforced.forceAll());

            assertEquals(1, unforced.syncs(), "one syncfs for files on one file system");
            for (OnDemandMappedFile file : files) {
                assertEquals(file.wrotePosition(), file.flushedPosition(), file.path().toString());
                assertEquals(file.wrotePosition(), forces.forcedEnd(file.path()),
                        "announced up to the wrote position: " + file.path());
            }
            assertTrue(budget.mappedFiles() <= 16 + 1, "forcing mapped no parked file again");
            assertEquals(0, unforced.forceAll(), "nothing written since: nothing to force");

            assertTrue(files.get(7).appendBytes(unit(7, 9), 0, UNIT));
            assertEquals(1, unforced.forceAll(), "only the file written since is forced again");
            assertEquals(files.get(7).wrotePosition(), forces.forcedEnd(files.get(7).path()));
        } finally {
            unforced.close();
        }
    }

    /**
     * A unit written while the sync runs must not be claimed by it, and must be forced by the next one: a force
     * that read the wrote position after the sync (or forgot the file) would let the checkpoint claim a unit a
     * power cut can still take. The stand-in libc snapshots every file when syncfs is called: that snapshot is what
     * the disk holds, and every announced range must be in it.
     */
    @Test
    void aUnitWrittenDuringTheSyncIsNotClaimedAndIsForcedNextTime() throws IOException {
        ForceEvents.install(forces);
        RecordingLibC libc = RecordingLibC.succeeding();
        UnforcedFiles unforced = new UnforcedFiles(new NativeMemory(libc, null), ALWAYS_SYNCFS);
        try {
            MappingBudget budget = new MappingBudget(64);
            for (int q = 0; q < 5; q++) {
                assertTrue(open(q, budget, unforced).appendBytes(unit(q, 0), 0, UNIT));
            }
            Map<Path, byte[]> disk = new ConcurrentHashMap<>();
            OnDemandMappedFile racing = files.get(2);
            libc.onSyncfs = () -> {
                for (OnDemandMappedFile file : files) {
                    disk.put(file.path(), read(file.path()));
                }
                // the dispatch thread appends while the sync is under way
                assertTrue(racing.appendBytes(unit(2, 1), 0, UNIT));
            };

            assertEquals(5, unforced.forceAll());

            assertEquals(1, libc.syncfsCalls.get());
            for (OnDemandMappedFile file : files) {
                long end = forces.forcedEnd(file.path());
                assertTrue(end > 0, "announced " + file.path());
                byte[] onDisk = disk.get(file.path());
                assertNotNull(onDisk, "announced without a sync: " + file.path());
                assertArrayEquals(Arrays.copyOf(read(file.path()), (int) end), Arrays.copyOf(onDisk, (int) end),
                        "announced bytes that were not on the disk when it synced: " + file.path());
            }
            assertEquals(UNIT, racing.flushedPosition(), "the racing unit is not recorded as flushed");
            assertEquals(2 * UNIT, racing.wrotePosition());
            assertEquals(1, unforced.size(), "the racing unit's file waits for the next force");

            libc.onSyncfs = null;
            assertEquals(1, unforced.forceAll());
            assertEquals(2 * UNIT, racing.flushedPosition());
            assertEquals(2 * UNIT, forces.forcedEnd(racing.path()));
        } finally {
            unforced.close();
        }
    }

    @Test
    void aFailedSyncClaimsNothingAndKeepsTheFilesForTheNextAttempt() throws IOException {
        ForceEvents.install(forces);
        RecordingLibC libc = RecordingLibC.succeeding();
        libc.syncfsResult = -1;
        UnforcedFiles unforced = new UnforcedFiles(new NativeMemory(libc, null), ALWAYS_SYNCFS);
        try {
            MappingBudget budget = new MappingBudget(64);
            for (int q = 0; q < 3; q++) {
                assertTrue(open(q, budget, unforced).appendBytes(unit(q, 0), 0, UNIT));
            }

            IOException failure = assertThrows(IOException.class, unforced::forceAll);

            assertTrue(failure.getMessage().contains("syncfs"), failure.getMessage());
            for (OnDemandMappedFile file : files) {
                assertEquals(0, file.flushedPosition(), "recorded as flushed after a failed sync");
                assertEquals(0, forces.forcedEnd(file.path()), "announced after a failed sync");
            }
            assertEquals(3, unforced.size());
            libc.syncfsResult = 0;
            assertEquals(3, unforced.forceAll());
            files.forEach(f -> assertEquals(UNIT, f.flushedPosition()));
        } finally {
            unforced.close();
        }
    }

    @Test
    void aCLibraryWithoutSyncfsClaimsNothingAndLeavesEveryFileToItsOwnForce() throws IOException {
        ForceEvents.install(forces);
        RecordingLibC libc = RecordingLibC.succeeding();
        libc.noSyncfs = true;
        UnforcedFiles unforced = new UnforcedFiles(new NativeMemory(libc, null), ALWAYS_SYNCFS);
        try {
            MappingBudget budget = new MappingBudget(64);
            for (int q = 0; q < 3; q++) {
                assertTrue(open(q, budget, unforced).appendBytes(unit(q, 0), 0, UNIT));
            }

            assertEquals(0, unforced.forceAll());

            for (OnDemandMappedFile file : files) {
                assertEquals(0, file.flushedPosition(), "recorded as flushed without a sync");
                assertEquals(0, forces.forcedEnd(file.path()), "announced without a sync");
                assertEquals(1, file.refCount(), "the group force let go of its reference");
                assertEquals(UNIT, file.flush(0), "the file's own force covers it");
            }
            assertTrue(open(3, budget, unforced).appendBytes(unit(3, 0), 0, UNIT));
            assertEquals(0, unforced.size(), "no file is registered any more");
        } finally {
            unforced.close();
        }
    }

    @Test
    void fewWrittenFilesAreForcedOneByOneWithoutASyncfs() throws IOException {
        ForceEvents.install(forces);
        RecordingLibC libc = RecordingLibC.succeeding();
        UnforcedFiles unforced = new UnforcedFiles(new NativeMemory(libc, null));
        try {
            MappingBudget budget = new MappingBudget(128);
            for (int q = 0; q < UnforcedFiles.DEFAULT_FORCE_EACH_FILE_UP_TO; q++) {
                assertTrue(open(q, budget, unforced).appendBytes(unit(q, 0), 0, UNIT));
            }

            assertEquals(UnforcedFiles.DEFAULT_FORCE_EACH_FILE_UP_TO, unforced.forceAll());

            assertEquals(0, libc.syncfsCalls.get(), "a syncfs for a few ConsumeQueue files");
            assertEquals(UnforcedFiles.DEFAULT_FORCE_EACH_FILE_UP_TO, unforced.fileByFileForces());
            for (OnDemandMappedFile file : files) {
                assertEquals(UNIT, file.flushedPosition(), file.path().toString());
                assertEquals(UNIT, forces.forcedEnd(file.path()), "announced: " + file.path());
            }
            assertEquals(0, unforced.size());

            // one file more than that: the group force again
            for (OnDemandMappedFile file : List.copyOf(files)) {
                assertTrue(file.appendBytes(unit(1, 1), 0, UNIT));
            }
            assertTrue(open(UnforcedFiles.DEFAULT_FORCE_EACH_FILE_UP_TO, budget, unforced)
                    .appendBytes(unit(0, 2), 0, UNIT));
            assertEquals(UnforcedFiles.DEFAULT_FORCE_EACH_FILE_UP_TO + 1, unforced.forceAll());
            assertEquals(1, libc.syncfsCalls.get(), "many files: one syncfs");
        } finally {
            unforced.close();
        }
    }

    /**
     * The event the file-by-file force removes: a syncfs writes back the CommitLog's dirty pages touched ahead of
     * the writer (by the pretoucher) and write-protects them, so the writer's next store into each faults again
     * (17-20 us per page on the VM of docs/PERFORMANCE.md). Counted as this thread's minor faults while it stores
     * into 4 MiB of pages it had touched before a ConsumeQueue force; the same with the syncfs forced is the
     * negative control (it must show the faults, or the count proves nothing on this file system).
     */
    @Test
    void forcingAFewConsumeQueuesLeavesTheCommitLogPagesTouchedAheadWritable() throws IOException {
        assertTrue(Files.isReadable(Path.of("/proc/thread-self/stat")), "needs Linux /proc/thread-self");
        NativeMemory nativeMemory = NativeMemory.system();
        assertTrue(nativeMemory.isAvailable(), "needs the C library for syncfs: " + nativeMemory.lastFailure());

        long fileByFile = faultsAfterAConsumeQueueForce(new UnforcedFiles(nativeMemory), "by-file");
        long syncfs = faultsAfterAConsumeQueueForce(new UnforcedFiles(nativeMemory, ALWAYS_SYNCFS), "syncfs");

        int pages = TOUCHED_AHEAD / PAGE;
        assertTrue(syncfs >= pages / 8, "negative control: after a syncfs the touched pages should fault again, "
                + "but " + syncfs + " faults for " + pages + " pages");
        assertTrue(fileByFile <= pages / 64, "a ConsumeQueue force write-protected the CommitLog's touched pages: "
                + fileByFile + " faults for " + pages + " pages (with syncfs " + syncfs + ")");
    }

    private static final int TOUCHED_AHEAD = 4 << 20;

    /** Touches a CommitLog-like file's pages, forces two written ConsumeQueue files, then counts re-store faults. */
    private long faultsAfterAConsumeQueueForce(UnforcedFiles unforced, String name) throws IOException {
        Path commitLog = dir.resolve("commitlog-" + name);
        try (FileChannel channel = FileChannel.open(commitLog, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, TOUCHED_AHEAD);
            for (int page = 0; page < TOUCHED_AHEAD; page += PAGE) {
                mapping.put(page, (byte) 1); // the pretoucher's touch: dirty pages ahead of the writer
            }
            MappingBudget budget = new MappingBudget(8);
            for (int q = 0; q < 2; q++) {
                OnDemandMappedFile file = new OnDemandMappedFile(dir.resolve(name).resolve(Integer.toString(q)), 0,
                        FILE_SIZE, nativeMemory(), budget, unforced);
                files.add(file);
                assertTrue(file.appendBytes(unit(q, 0), 0, UNIT));
            }
            assertEquals(2, unforced.forceAll());
            long before = threadMinorFaults();
            for (int page = 0; page < TOUCHED_AHEAD; page += PAGE) {
                mapping.put(page + 8, (byte) 2); // the writer's stores
            }
            return threadMinorFaults() - before;
        } finally {
            unforced.close();
        }
    }

    private static NativeMemory nativeMemory() {
        return NativeMemory.system();
    }

    /** Minor page faults of the calling thread so far: field 10 of /proc/thread-self/stat. */
    private static long threadMinorFaults() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[7]);
    }

    @Test
    void withoutNativeCallsNoFileIsRegisteredAndEachIsFlushedOnItsOwn() throws IOException {
        UnforcedFiles unforced = new UnforcedFiles(new NativeMemory(null, "no libc in this test"));
        OnDemandMappedFile file = open(0, new MappingBudget(4), unforced);
        assertTrue(file.appendBytes(unit(0, 0), 0, UNIT));

        assertEquals(0, unforced.size());
        assertEquals(0, unforced.forceAll());
        assertFalse(file.flushedPosition() == file.wrotePosition(), "nothing claimed without a sync");
        assertEquals(UNIT, file.flush(0), "the file's own force still works");
        unforced.close();
    }

    private OnDemandMappedFile open(int queue, MappingBudget budget, UnforcedFiles unforced) throws IOException {
        OnDemandMappedFile file = new OnDemandMappedFile(dir.resolve("topic").resolve(Integer.toString(queue)), 0,
                FILE_SIZE, NativeMemory.system(), budget, unforced);
        files.add(file);
        return file;
    }

    private static byte[] unit(int queue, int n) {
        byte[] unit = new byte[UNIT];
        Arrays.fill(unit, (byte) (queue * 7 + n + 1));
        return unit;
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The end of the last announced range per file. */
    private static final class RecordedForces implements ForceEvents.Listener {
        private final Map<Path, Long> ends = new ConcurrentHashMap<>();

        @Override
        public void rangeForced(Path file, long from, long to) {
            ends.merge(file, to, Math::max);
        }

        @Override
        public void fileForced(Path file) {
        }

        long forcedEnd(Path file) {
            return ends.getOrDefault(file, 0L);
        }
    }
}
