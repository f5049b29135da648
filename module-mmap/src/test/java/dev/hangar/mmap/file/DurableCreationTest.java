package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * New files reach the disk with their length and their names before anything claims they hold data (issue 32): a
 * CommitLog file before it is handed to a writer, a ConsumeQueue file with the next full flush. Checked through the
 * forces the files announce ({@link ForceEvents}), which is what the power-cut harness turns into what a disk keeps;
 * without them a cut can leave the file empty or nameless.
 */
class DurableCreationTest {
    private static final int FILE_SIZE = 20 * 1024;

    @TempDir
    Path dir;
    private final Forces forces = new Forces();
    private final List<DefaultMappedFile> opened = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        ForceEvents.uninstall(forces);
        opened.forEach(f -> f.shutdown(0));
    }

    @Test
    void aNewReservedFileHasItsLengthAndNamesForcedBeforeItIsReturned() throws IOException {
        ForceEvents.install(forces);
        Path commitLog = dir.resolve("store").resolve("commitlog");
        DefaultMappedFile file = new DefaultMappedFile(commitLog, 0, FILE_SIZE, NativeMemory.system());
        opened.add(file);

        assertEquals(FILE_SIZE, forces.length(file.path()), "its length forced");
        assertTrue(forces.durableNames(commitLog).contains(file.path().getFileName().toString()), "its name forced");
        assertTrue(forces.durableNames(dir.resolve("store")).contains("commitlog"), "the directory made for it too");
        assertTrue(forces.durableNames(dir).contains("store"), "and the one above");
    }

    @Test
    void aNewConsumeQueueFileIsForcedWithTheNextFullFlushOneByOneWhenFew() throws IOException {
        ForceEvents.install(forces);
        UnforcedFiles unforced = new UnforcedFiles(NativeMemory.system());
        OnDemandMappedFile file = open(0, unforced);
        assertEquals(-1, forces.length(file.path()), "not on the dispatch thread");
        assertFalse(forces.durableNames(file.path().getParent()).contains(file.path().getFileName().toString()));
        assertEquals(1, unforced.newFiles());

        unforced.forceAll();

        assertEquals(0, unforced.newFiles());
        assertEquals(0, unforced.syncs(), "one fsync per file and directory, no syncfs for one file");
        assertEquals(FILE_SIZE, forces.length(file.path()));
        assertTrue(forces.durableNames(file.path().getParent()).contains(file.path().getFileName().toString()));
        assertTrue(forces.durableNames(dir.resolve("topic")).contains("0"), "the queue's directory");
        assertTrue(forces.durableNames(dir).contains("topic"), "the topic's directory");
    }

    @Test
    void manyNewConsumeQueueFilesShareTheSyncfsOfTheirUnits() throws IOException {
        ForceEvents.install(forces);
        UnforcedFiles unforced = new UnforcedFiles(NativeMemory.system());
        MappingBudget budget = new MappingBudget(16);
        List<OnDemandMappedFile> files = new ArrayList<>();
        for (int q = 0; q < 100; q++) {
            OnDemandMappedFile file = open(q, unforced, budget);
            assertTrue(file.appendBytes(new byte[20], 0, 20));
            files.add(file);
        }

        unforced.forceAll();

        assertEquals(1, unforced.syncs(), "one syncfs covered the units and the new names");
        for (OnDemandMappedFile file : files) {
            assertEquals(FILE_SIZE, forces.length(file.path()), file.path().toString());
            assertTrue(forces.durableNames(file.path().getParent()).contains(file.path().getFileName().toString()));
        }
        assertEquals(100, forces.durableNames(dir.resolve("topic")).size(), "every queue directory");
    }

    /**
     * A ConsumeQueue flush forces a busy file on its own between full flushes: its units must not become durable in a
     * file whose name a power cut can still take away (the queue would then lose its first file and with it the
     * units below the next one, which recovery does not rebuild).
     */
    @Test
    void aNewFilesOwnFlushForcesItsLengthAndNameBeforeItsUnits() throws IOException {
        ForceEvents.install(forces);
        UnforcedFiles unforced = new UnforcedFiles(NativeMemory.system());
        OnDemandMappedFile file = open(0, unforced);
        for (int u = 0; u < 500; u++) {
            assertTrue(file.appendBytes(new byte[20], 0, 20));
        }

        file.flush(0);

        List<String> order = forces.events(file.path());
        assertEquals(List.of("length", "name", "range"), order, "length and name first, then the units");
        assertEquals(0, unforced.newFiles(), "the next full flush has nothing left to force for it");
    }

    private OnDemandMappedFile open(int queue, UnforcedFiles unforced) throws IOException {
        return open(queue, unforced, new MappingBudget(16));
    }

    private OnDemandMappedFile open(int queue, UnforcedFiles unforced, MappingBudget budget) throws IOException {
        OnDemandMappedFile file = new OnDemandMappedFile(dir.resolve("topic").resolve(Integer.toString(queue)), 0,
                FILE_SIZE, NativeMemory.system(), budget, unforced);
        opened.add(file);
        return file;
    }

    /** The lengths and directory names announced as forced. */
    private static final class Forces implements ForceEvents.Listener {
        private final Map<Path, Long> lengths = new ConcurrentHashMap<>();
        private final Map<Path, Set<String>> names = new ConcurrentHashMap<>();

        private final List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void rangeForced(Path file, long from, long to) {
            events.add(file.toAbsolutePath() + " range");
        }

        @Override
        public void fileForced(Path file) {
        }

        @Override
        public void lengthForced(Path file, long length) {
            lengths.put(file.toAbsolutePath(), length);
            events.add(file.toAbsolutePath() + " length");
        }

        @Override
        public void directoryForced(Path directory, Collection<String> listed) {
            names.computeIfAbsent(directory.toAbsolutePath(), d -> ConcurrentHashMap.newKeySet()).addAll(listed);
            for (String name : listed) {
                events.add(directory.toAbsolutePath().resolve(name) + " name");
            }
        }

        /** What was announced for {@code file}, in order: "length", "name", "range". */
        List<String> events(Path file) {
            String prefix = file.toAbsolutePath() + " ";
            return events.stream().filter(e -> e.startsWith(prefix)).map(e -> e.substring(prefix.length())).toList();
        }

        long length(Path file) {
            return lengths.getOrDefault(file.toAbsolutePath(), -1L);
        }

        Set<String> durableNames(Path directory) {
            return names.getOrDefault(directory.toAbsolutePath(), Set.of());
        }
    }
}
