package dev.hangar.dispatch.consumequeue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.DispatchRequest;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the dispatch thread pays per ConsumeQueue new to the store: with 100 000 queues every second message makes
 * one, and whatever a new queue allocates stays live until its file is made, so it is copied by the young
 * collections of the burst. A held queue must not build its directory path or file queue on the dispatch thread
 * (they were some 570 of the 870 bytes a new queue took before; see {@link ConsumeQueue}'s class comment).
 */
class NewQueueAllocationTest {
    private static final int TOPICS = 500;
    private static final int QUEUES_PER_TOPIC = 8;
    private static final int MSG_SIZE = 100;
    /**
     * Bytes per new queue on the dispatch thread: the queue and its held units (4 units' room); its slot in the
     * topic's {@link TopicQueues} array costs nothing. 203 measured; 300 while each topic had an inner map.
     */
    private static final long MAX_BYTES_PER_NEW_QUEUE = 250;

    @TempDir
    Path root;

    @Test
    void aNewQueueCostsTheDispatchThreadNoFileQueueAndFewBytes() {
        try (DispatchFixture fixture = new DispatchFixture(root)) {
            // not closed: a close makes every held queue's file (8 000 files, tens of seconds on a loaded machine),
            // and what this test measures is in memory only; nothing is mapped, the fixture shuts the storage down
            CommitLogDispatcher dispatcher = fixture.open("consume-queue");
            // the same message count to warm up on other topics: the first dispatches load classes and compile
            dispatchAll(dispatcher, requests(fixture, "Warm", 0));
            List<DispatchRequest> requests = requests(fixture, "Many", 1_000_000_000L);
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = threads.getCurrentThreadAllocatedBytes();
            dispatchAll(dispatcher, requests);
            long perQueue = (threads.getCurrentThreadAllocatedBytes() - before) / (TOPICS * QUEUES_PER_TOPIC);

            System.out.println("a new queue allocated " + perQueue + " bytes on the dispatch thread");

            ConsumeQueueView view = dispatcher.view(ConsumeQueueView.class).orElseThrow();
            assertEquals(1, view.maxOffset("Many7", 3), "every new queue is readable at once");
            assertTrue(Files.notExists(root.resolve("consumequeue").resolve("Many7")),
                    "no directory is made on the dispatch path");
            assertTrue(perQueue <= MAX_BYTES_PER_NEW_QUEUE, "a new queue allocated " + perQueue
                    + " bytes on the dispatch thread, more than " + MAX_BYTES_PER_NEW_QUEUE);
        }
    }

    private static List<DispatchRequest> requests(DispatchFixture fixture, String prefix, long firstOffset) {
        List<DispatchRequest> requests = new ArrayList<>(TOPICS * QUEUES_PER_TOPIC);
        long offset = firstOffset;
        for (int t = 0; t < TOPICS; t++) {
            String topic = prefix + t;
            for (int q = 0; q < QUEUES_PER_TOPIC; q++) {
                requests.add(fixture.message(topic, q, 0, offset, MSG_SIZE, 1_700_000_000_000L));
                offset += MSG_SIZE;
            }
        }
        return requests;
    }

    private static void dispatchAll(CommitLogDispatcher dispatcher, List<DispatchRequest> requests) {
        for (DispatchRequest request : requests) {
            dispatcher.dispatch(request);
        }
    }
}
