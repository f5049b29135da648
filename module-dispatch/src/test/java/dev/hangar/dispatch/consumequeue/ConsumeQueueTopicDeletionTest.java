package dev.hangar.dispatch.consumequeue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.format.ConsumeQueueFormat;
import dev.hangar.spi.mapped.SelectedRegion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code deleteTopic} of the consume-queue dispatcher on real mapped files of 10 units each. */
class ConsumeQueueTopicDeletionTest {
    static final int MSG_SIZE = 100;

    @TempDir
    Path root;
    DispatchFixture fixture;
    ConsumeQueueDispatcher dispatcher;
    ConsumeQueueView view;

    @BeforeEach
    void open() {
        fixture = new DispatchFixture(root).with(StoreConfigKeys.MAPPED_FILE_SIZE_CONSUME_QUEUE,
                10 * ConsumeQueueFormat.UNIT_SIZE);
        reopen();
    }

    @AfterEach
    void close() {
        dispatcher.close();
        fixture.close();
    }

    void reopen() {
        if (dispatcher != null) {
            dispatcher.close();
        }
        dispatcher = (ConsumeQueueDispatcher) fixture.open("consume-queue");
        view = dispatcher.view(ConsumeQueueView.class).orElseThrow();
    }

    /** Units of queue offsets [from, to) at commit-log offsets {@code base + offset * MSG_SIZE}. */
    void dispatch(String topic, int queueId, long from, long to, long base) {
        for (long i = from; i < to; i++) {
            dispatcher.dispatch(fixture.message(topic, queueId, i, base + i * MSG_SIZE, MSG_SIZE, 1_700_000_000_000L + i));
        }
    }

    @Test
    void theTopicsFilesAndDirectoryGoAndTheTopicStartsAgainAtZero() {
        dispatch("Doomed", 0, 0, 25, 0);
        dispatch("Doomed", 1, 0, 5, 10_000);
        dispatch("Kept", 0, 0, 3, 20_000);
        dispatcher.flush(0);
        assertTrue(Files.isDirectory(root.resolve("consumequeue/Doomed/0")));

        dispatcher.deleteTopic("Doomed");

        assertFalse(Files.exists(root.resolve("consumequeue/Doomed")), "files and directories deleted");
        assertFalse(view.exists("Doomed", 0));
        assertEquals(0, view.maxOffset("Doomed", 1));
        assertEquals(3, view.maxOffset("Kept", 0), "another topic keeps its queue");
        dispatch("Doomed", 0, 0, 2, 30_000);
        List<CqUnit> again = view.read("Doomed", 0, 0, 10);
        assertEquals(2, again.size());
        assertEquals(30_000, again.get(0).commitLogOffset());

        dispatcher.flush(0);
        reopen();
        assertEquals(2, view.maxOffset("Doomed", 0), "a restart loads only the new queue");
        assertFalse(view.exists("Doomed", 1));
    }

    @Test
    void aFileAReaderHoldsIsUnlinkedAndStaysReadableUntilReleased() {
        dispatch("Doomed", 0, 0, 15, 0);
        dispatcher.flush(0);
        ConsumeQueue queue = dispatcher.queue("Doomed", 0);
        SelectedRegion held = queue.fileQueue().mappedFiles().get(0).selectMappedBuffer(0);
        assertNotNull(held);
        try (held) {
            dispatcher.deleteTopic("Doomed");
            assertFalse(Files.exists(root.resolve("consumequeue/Doomed/0")),
                    "a held file must not stay on the disk: the next start would load it as the queue");
            assertEquals(0, held.buffer().getLong(0), "the reader still reads its unit (commit-log offset 0)");
            assertEquals(MSG_SIZE, held.buffer().getLong(ConsumeQueueFormat.UNIT_SIZE));
        }
        reopen();
        assertFalse(view.exists("Doomed", 0));
    }

    @Test
    void unitsHeldInMemoryAreDroppedAndNoFileIsMadeForThem() {
        dispatch("Doomed", 0, 0, 4, 0);
        assertTrue(dispatcher.heldUnitBytes() > 0, "a new queue holds its first units in memory");
        ConsumeQueue queue = dispatcher.queue("Doomed", 0);

        dispatcher.deleteTopic("Doomed");

        assertEquals(0, dispatcher.heldUnitBytes(), "the held units' budget is given back");
        assertTrue(queue.materialize(), "the flush side may still ask a deleted queue to make its file");
        dispatcher.flush(0);
        assertFalse(Files.exists(root.resolve("consumequeue/Doomed")), "and it makes none");
        assertTrue(view.read("Doomed", 0, 0, 10).isEmpty());
    }
}
