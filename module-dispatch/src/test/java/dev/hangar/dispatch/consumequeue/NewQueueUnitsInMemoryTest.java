package dev.hangar.dispatch.consumequeue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.format.ConsumeQueueFormat;
import dev.hangar.spi.message.MessageConst;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ConsumeQueue new to the store holds its first units in memory ({@link PendingUnits}): readable at once, its
 * file made by the flush side, never claimed by a full flush while only in memory.
 */
class NewQueueUnitsInMemoryTest {
    private static final long BASE_TIME = 1_700_000_000_000L;
    private static final int MSG_SIZE = 100;

    @TempDir
    Path root;
    private DispatchFixture fixture;
    private CommitLogDispatcher dispatcher;
    private ConsumeQueueView view;

    @BeforeEach
    void open() {
        fixture = new DispatchFixture(root);
        dispatcher = fixture.open("consume-queue");
        view = dispatcher.view(ConsumeQueueView.class).orElseThrow();
    }

    @AfterEach
    void close() {
        if (dispatcher != null) {
            dispatcher.close();
        }
        fixture.close();
    }

    private static long phy(String topic, long i) {
        return (Math.abs(topic.hashCode()) % 1000) * 1_000_000L + i * MSG_SIZE;
    }

    private void dispatch(String topic, int queueId, long from, long to) {
        for (long i = from; i < to; i++) {
            dispatcher.dispatch(fixture.message(topic, queueId, i, phy(topic, i), MSG_SIZE, BASE_TIME + i));
        }
    }

    private Path firstFile(String topic, int queueId) {
        return root.resolve("consumequeue").resolve(topic).resolve(Integer.toString(queueId))
                .resolve("00000000000000000000");
    }

    /** The units at the head of the file on disk, decoded, up to the first zero unit. */
    private List<long[]> unitsOnDisk(String topic, int queueId) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(firstFile(topic, queueId)));
        List<long[]> units = new java.util.ArrayList<>();
        for (int p = 0; p + ConsumeQueueFormat.UNIT_SIZE <= bytes.capacity(); p += ConsumeQueueFormat.UNIT_SIZE) {
            int size = ConsumeQueueFormat.size(bytes, p);
            if (size == 0) {
                break;
            }
            units.add(new long[] {ConsumeQueueFormat.commitLogOffset(bytes, p), size});
        }
        return units;
    }

    @Test
    void aNewQueuesUnitsAreReadableBeforeItsFileExists() {
        dispatch("Fresh", 3, 0, 5);

        assertFalse(Files.exists(root.resolve("consumequeue").resolve("Fresh")), "no directory on the dispatch path");
        assertTrue(((ConsumeQueueDispatcher) dispatcher).heldUnitBytes() > 0);
        assertEquals(5, view.maxOffset("Fresh", 3));
        assertEquals(0, view.minOffset("Fresh", 3));
        List<CqUnit> units = view.read("Fresh", 3, 1, 10);
        assertEquals(4, units.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(1 + i, units.get(i).queueOffset());
            assertEquals(phy("Fresh", 1 + i), units.get(i).commitLogOffset());
            assertEquals(MSG_SIZE, units.get(i).size());
        }
        assertTrue(view.read("Fresh", 3, 5, 10).isEmpty(), "nothing past the end");
    }

    @Test
    void aRegularFlushWritesHeldUnitsWithinItsTimeBudgetAndAFullFlushWritesThemAll() {
        for (int q = 0; q < 30; q++) {
            dispatch("T" + q, 0, 0, 2);
        }
        long held = ((ConsumeQueueDispatcher) dispatcher).heldUnitBytes();

        dispatcher.flush(2);
        assertTrue(((ConsumeQueueDispatcher) dispatcher).heldUnitBytes() < held, "at least one queue got its file");

        dispatcher.flush(0);
        assertEquals(0, ((ConsumeQueueDispatcher) dispatcher).heldUnitBytes());
        for (int q = 0; q < 30; q++) {
            assertTrue(Files.exists(firstFile("T" + q, 0)), "T" + q);
        }
    }

    @Test
    void aFullFlushWritesTheHeldUnitsToTheQueuesNewFileInTheFileFormat() throws IOException {
        dispatch("Fresh", 0, 0, 7);
        dispatch("Other", 1, 0, 2);

        dispatcher.flush(0);

        assertEquals(0, ((ConsumeQueueDispatcher) dispatcher).heldUnitBytes());
        List<long[]> onDisk = unitsOnDisk("Fresh", 0);
        assertEquals(7, onDisk.size());
        for (int i = 0; i < 7; i++) {
            assertEquals(phy("Fresh", i), onDisk.get(i)[0]);
            assertEquals(MSG_SIZE, onDisk.get(i)[1]);
        }
        assertEquals(2, unitsOnDisk("Other", 1).size());
        // the queue goes on in its file
        dispatch("Fresh", 0, 7, 9);
        assertEquals(9, view.maxOffset("Fresh", 0));
        assertEquals(phy("Fresh", 8), view.read("Fresh", 0, 8, 1).get(0).commitLogOffset());
        assertEquals(9, unitsOnDisk("Fresh", 0).size(), "units after the file exists go to it (page cache)");
    }

    @Test
    void aQueueThatOutgrowsWhatItMayHoldGetsItsFileOnTheDispatchThread() throws IOException {
        dispatch("Busy", 0, 0, PendingUnits.MAX_UNITS);
        assertFalse(Files.exists(firstFile("Busy", 0)));

        dispatch("Busy", 0, PendingUnits.MAX_UNITS, PendingUnits.MAX_UNITS + 3);

        assertEquals(PendingUnits.MAX_UNITS + 3, unitsOnDisk("Busy", 0).size());
        assertEquals(PendingUnits.MAX_UNITS + 3, view.maxOffset("Busy", 0));
        assertEquals(0, ((ConsumeQueueDispatcher) dispatcher).heldUnitBytes());
    }

    @Test
    void aNewQueueStartingPastOffsetZeroIsWrittenToItsFileAtOnce() {
        dispatcher.dispatch(fixture.message("Late", 0, 40, 123_000, MSG_SIZE, BASE_TIME));

        assertTrue(Files.exists(firstFile("Late", 0)));
        assertEquals(40, view.minOffset("Late", 0));
        assertEquals(41, view.maxOffset("Late", 0));
        assertEquals(123_000, view.read("Late", 0, 40, 1).get(0).commitLogOffset());
    }

    @Test
    void aScheduleTopicQueueWritesItsFirstUnitsToItsFileAtOnce() throws IOException {
        // RocketMQ 4.9.8 re-dispatches a crashed store's delayed records before it loads its delay levels and then
        // writes tag hashes instead of deliver times: the schedule topic's units must be in the file (page cache)
        String schedule = MessageConst.SCHEDULE_TOPIC;
        dispatch(schedule, 17, 0, 2);
        dispatch("Plain", 17, 0, 2);

        assertEquals(2L * ConsumeQueueFormat.UNIT_SIZE, ((ConsumeQueueDispatcher) dispatcher).heldUnitBytes(),
                "only the plain queue holds units");
        assertFalse(Files.exists(firstFile("Plain", 17)));
        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(firstFile(schedule, 17)));
        List<CqUnit> read = view.read(schedule, 17, 0, 10);
        assertEquals(2, read.size());
        for (int i = 0; i < 2; i++) {
            int at = i * ConsumeQueueFormat.UNIT_SIZE;
            assertEquals(phy(schedule, i), ConsumeQueueFormat.commitLogOffset(file, at), "unit " + i);
            assertEquals(MSG_SIZE, ConsumeQueueFormat.size(file, at), "unit " + i);
            assertEquals(read.get(i).tagsCode(), ConsumeQueueFormat.tagsCode(file, at), "unit " + i);
        }
    }

    @Test
    void aRedispatchedUnitIsNotHeldTwice() {
        dispatch("Again", 0, 0, 3);
        dispatch("Again", 0, 0, 3);

        assertEquals(3, view.maxOffset("Again", 0));
        assertEquals(3L * ConsumeQueueFormat.UNIT_SIZE, ((ConsumeQueueDispatcher) dispatcher).heldUnitBytes());
    }

    @Test
    void aCleanCloseWritesEveryHeldUnitAndAReopenReadsThem() {
        for (int q = 0; q < 50; q++) {
            dispatch("T" + q, q % 8, 0, 3);
        }
        dispatcher.close();
        dispatcher = fixture.open("consume-queue");
        view = dispatcher.view(ConsumeQueueView.class).orElseThrow();

        for (int q = 0; q < 50; q++) {
            assertEquals(3, view.maxOffset("T" + q, q % 8), "T" + q);
            assertEquals(phy("T" + q, 2), view.read("T" + q, q % 8, 2, 1).get(0).commitLogOffset());
        }
    }

    @Test
    void whatAFullFlushLeavesIsOnDiskForAStoreOpenedAfterACrash() {
        for (int q = 0; q < 40; q++) {
            dispatch("T" + q, 0, 0, 2);
        }
        dispatcher.flush(0);
        dispatch("Late", 0, 0, 2); // after the flush: held in memory only, and lost by the crash below

        // a crash: the first dispatcher is never closed; a second one loads what is in the files
        CommitLogDispatcher afterCrash = fixture.open("consume-queue", false);
        try {
            ConsumeQueueView reopened = afterCrash.view(ConsumeQueueView.class).orElseThrow();
            for (int q = 0; q < 40; q++) {
                assertEquals(2, reopened.maxOffset("T" + q, 0), "T" + q);
            }
            assertFalse(reopened.exists("Late", 0), "held units are not on disk: recovery re-dispatches them");
        } finally {
            afterCrash.closeWithoutWriting();
        }
    }
}
