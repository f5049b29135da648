package dev.hangar.dispatch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.dispatch.support.FakeCommitLog;
import dev.hangar.dispatch.support.InMemoryCheckpoint;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.format.IndexFileFormat;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.QueueRole;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writable index file's hash slots are offered for huge pages right after the file is mapped (created, rolled or
 * opened again at start), through the store's {@code MappedStorage.adviseHugePages}; a file of a store opened
 * read-only is never offered.
 */
class HashSlotAdviceTest {
    private static final int SLOTS = 1_000_000;
    private static final int ENTRIES = 4;

    @TempDir
    Path dir;

    /** Every advice asked for: the mapping's capacity and the length advised. */
    private static final class Recorded implements HashSlotAdvice {
        final List<long[]> calls = new ArrayList<>();

        @Override
        public boolean advise(MappedByteBuffer mapping, long length) {
            calls.add(new long[] {mapping.capacity(), length});
            return true;
        }
    }

    @Test
    void theSlotsOfEachWritableFileAreAdvisedWhenMappedInWhole2MiBPagesNoneReachingIntoTheEntries() {
        long fileSize = IndexFileFormat.fileSize(SLOTS, ENTRIES);
        long slotsEnd = IndexFileFormat.HEADER_SIZE + (long) SLOTS * IndexFileFormat.SLOT_SIZE;
        assertEquals(2 * 1024 * 1024, IndexFile.hashSlotRegion(SLOTS), "4 000 040 bytes of header and slots: the "
                + "first 2 MiB page; the second would reach into the entries");
        assertTrue(IndexFile.hashSlotRegion(SLOTS) <= slotsEnd);
        assertEquals(0, IndexFile.hashSlotRegion(1000), "a slot table under 2 MiB: nothing to advise");

        Recorded advice = new Recorded();
        IndexFileSet set = new IndexFileSet(dir, SLOTS, ENTRIES, new InMemoryCheckpoint(), false, advice);
        IndexFile first = set.writableFile();
        assertEquals(1, advice.calls.size(), "advised when created");
        assertEquals(fileSize, advice.calls.get(0)[0]);
        assertEquals(IndexFile.hashSlotRegion(SLOTS), advice.calls.get(0)[1]);
        for (int i = 0; i < ENTRIES - 1; i++) {
            assertTrue(first.putKey("key-" + i, 100 + i, 1_700_000_000_000L + i));
        }
        assertTrue(first.isFull());
        set.writableFile();
        assertEquals(2, advice.calls.size(), "the next file, made when the first is full, is advised too");

        Recorded atStart = new Recorded();
        new IndexFileSet(dir, SLOTS, ENTRIES, new InMemoryCheckpoint(), false, atStart).load(false);
        assertEquals(2, atStart.calls.size(), "both files mapped again for writing at start");

        Recorded readOnly = new Recorded();
        new IndexFileSet(dir, SLOTS, ENTRIES, new InMemoryCheckpoint(), true, readOnly).load(false);
        assertEquals(0, readOnly.calls.size(), "a read-only store never writes its index: no advice");
    }

    @Test
    void theDispatcherAsksTheStoresMappedStorage() {
        List<Long> asked = new ArrayList<>();
        MappedStorage storage = new MappedStorage() {
            @Override
            public MappedFileQueue openQueue(Path directory, int fileSize, QueueRole role) {
                throw new UnsupportedOperationException("the index keeps its own files");
            }

            @Override
            public boolean adviseHugePages(MappedByteBuffer mapping, long length) {
                asked.add(length);
                return true;
            }

            @Override
            public boolean usesWriteBuffer() {
                return false;
            }

            @Override
            public void start() {
            }

            @Override
            public void shutdown() {
            }
        };
        StoreConfig config = StoreConfig.builder().build();
        IndexDispatcher dispatcher = new IndexDispatcher(new DispatcherContext(dir, config, storage,
                new InMemoryCheckpoint(), new FakeCommitLog(), true));
        dispatcher.load();
        dispatcher.dispatch(new DispatchFixture(dir).request("T", 0, 0, 0, 100,
                1_700_000_000_000L, "order-1", null, 0));
        assertEquals(9L * 2 * 1024 * 1024, IndexFile.hashSlotRegion(5_000_000));
        assertEquals(List.of(IndexFile.hashSlotRegion(5_000_000)), asked,
                "RocketMQ's 5 000 000 slots: 20 000 040 bytes, advised as 9 pages of 2 MiB");
    }
}
