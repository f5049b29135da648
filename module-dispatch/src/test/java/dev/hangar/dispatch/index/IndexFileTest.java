package dev.hangar.dispatch.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One index file (RocketMQ IndexFileTest scenarios plus the byte layout). */
class IndexFileTest {
    static final int SLOTS = 100;
    static final int ENTRIES = 400;
    static final long BASE_TIME = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void aFileOf400EntriesTakes399Keys() {
        IndexFile file = IndexFile.create(dir.resolve("f"), SLOTS, ENTRIES, 0, 0);
        for (int i = 0; i < ENTRIES - 1; i++) {
            assertTrue(file.putKey(Integer.toString(i), i, BASE_TIME), "key " + i);
        }
        assertTrue(file.isFull());
        assertFalse(file.putKey("399", 399, BASE_TIME));
        assertEquals(ENTRIES, file.indexCount());
    }

    @Test
    void aKeyQueryReturnsExactlyThatKeysEntry() {
        IndexFile file = IndexFile.create(dir.resolve("f"), SLOTS, ENTRIES, 0, 0);
        for (int i = 0; i < ENTRIES - 1; i++) {
            file.putKey(Integer.toString(i), i, BASE_TIME);
        }
        List<Long> offsets = new ArrayList<>();
        file.select(offsets, "60", 10, 0, Long.MAX_VALUE);
        assertEquals(List.of(60L), offsets);
    }

    @Test
    void theFileHasRocketMqLayout() throws Exception {
        Path path = dir.resolve("f");
        IndexFile file = IndexFile.create(path, SLOTS, ENTRIES, 0, 0);
        file.putKey("T#k1", 4096, BASE_TIME);
        file.putKey("T#k1", 8192, BASE_TIME + 2500);
        file.flush();

        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(path));
        assertEquals(40 + SLOTS * 4 + ENTRIES * 20, bytes.capacity());
        assertEquals(BASE_TIME, bytes.getLong(0));
        assertEquals(BASE_TIME + 2500, bytes.getLong(8));
        assertEquals(4096, bytes.getLong(16));
        assertEquals(8192, bytes.getLong(24));
        assertEquals(1, bytes.getInt(32), "one slot in use");
        assertEquals(3, bytes.getInt(36), "index count starts at 1");
        int hash = Math.abs("T#k1".hashCode());
        assertEquals(2, bytes.getInt(40 + (hash % SLOTS) * 4), "the slot points at the newest entry");
        int second = 40 + SLOTS * 4 + 2 * 20;
        assertEquals(hash, bytes.getInt(second));
        assertEquals(8192, bytes.getLong(second + 4));
        assertEquals(2, bytes.getInt(second + 12), "2.5 s after the begin, in whole seconds");
        assertEquals(1, bytes.getInt(second + 16), "chained to the first entry");
        int first = 40 + SLOTS * 4 + 20;
        assertEquals(0, bytes.getInt(first + 16), "the first entry ends the chain");
    }

    @Test
    void reopeningReadsTheHeaderAndRefusesAFileOfTheWrongSize() {
        Path path = dir.resolve("f");
        IndexFile file = IndexFile.create(path, SLOTS, ENTRIES, 0, 0);
        file.putKey("a", 10, BASE_TIME);
        file.flush();

        IndexFile reopened = IndexFile.open(path, SLOTS, ENTRIES);
        assertEquals(2, reopened.indexCount());
        assertEquals(10, reopened.endPhyOffset());
        List<Long> offsets = new ArrayList<>();
        reopened.select(offsets, "a", 10, 0, Long.MAX_VALUE);
        assertEquals(List.of(10L), offsets);

        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> IndexFile.open(path, SLOTS * 2, ENTRIES));
        assertTrue(error.getMessage().contains("maxHashSlotNum"), error.getMessage());
    }

    /**
     * A store opened read-only maps its index files {@code READ_ONLY}: keys are found, and a put fails naming the
     * file instead of writing into it (mapped {@code READ_WRITE}, the code before, took the key and changed the file).
     */
    @Test
    void aFileOpenedReadOnlyFindsKeysAndRefusesNewOnesUnchanged() throws Exception {
        Path path = dir.resolve("f");
        IndexFile file = IndexFile.create(path, SLOTS, ENTRIES, 0, 0);
        file.putKey("a", 10, BASE_TIME);
        file.flush();
        byte[] before = Files.readAllBytes(path);

        IndexFile readOnly = IndexFile.open(path, SLOTS, ENTRIES, true);
        List<Long> offsets = new ArrayList<>();
        readOnly.select(offsets, "a", 10, 0, Long.MAX_VALUE);
        assertEquals(List.of(10L), offsets);
        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> readOnly.putKey("b", 20, BASE_TIME));
        assertTrue(error.getMessage().contains(path.toString()) && error.getMessage().contains("read-only"),
                error.getMessage());
        readOnly.flush();
        assertArrayEquals(before, Files.readAllBytes(path));
    }

    @Test
    void truncationRePointsSlotsAsIfTheKeysWereNeverPut() {
        IndexFile file = IndexFile.create(dir.resolve("f"), SLOTS, ENTRIES, 0, 0);
        for (int i = 0; i < 50; i++) {
            file.putKey("same", i * 10L, BASE_TIME + i * 1000L);
            file.putKey("k" + i, i * 10L, BASE_TIME + i * 1000L);
        }
        int slotsBefore = file.hashSlotCount();

        assertEquals(60, file.truncateFrom(200));

        assertEquals(41, file.indexCount());
        assertEquals(190, file.endPhyOffset());
        List<Long> offsets = new ArrayList<>();
        file.select(offsets, "same", 100, 0, Long.MAX_VALUE);
        assertEquals(20, offsets.size());
        assertEquals(190L, offsets.get(0));
        offsets.clear();
        file.select(offsets, "k30", 100, 0, Long.MAX_VALUE);
        assertEquals(List.of(), offsets);
        assertTrue(file.hashSlotCount() <= slotsBefore);

        file.putKey("k30", 200, BASE_TIME + 60_000);
        file.select(offsets, "k30", 100, 0, Long.MAX_VALUE);
        assertEquals(List.of(200L), offsets);
    }
}
