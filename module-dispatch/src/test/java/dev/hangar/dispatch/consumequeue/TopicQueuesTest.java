package dev.hangar.dispatch.consumequeue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.hangar.spi.format.ConsumeQueueFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopicQueuesTest {
    private static final byte[] UNIT = new byte[ConsumeQueueFormat.UNIT_SIZE];

    private static ConsumeQueue queue(int id) {
        // a held queue: nothing is opened or mapped until it is materialized, which these tests never do
        return new ConsumeQueue("t", id, 20 * 1000, (topic, queueId) -> {
            throw new AssertionError("no file queue is opened here");
        }, new PendingUnits.Budget(1 << 20), UNIT);
    }

    @Test
    void queuesAreFoundByIdAndVisitedInIdOrderAcrossGrowthAndLargeIds() {
        TopicQueues byId = new TopicQueues();
        int huge = 2_000_000_000;
        ConsumeQueue q3 = queue(3);
        ConsumeQueue q40 = queue(40);
        ConsumeQueue qHuge = queue(huge);
        ConsumeQueue qEdge = queue(TopicQueues.DENSE_QUEUE_IDS);
        byId.add(40, q40); // past the first 8 slots: the array grows
        byId.add(huge, qHuge); // a slot array up to it would be 16 GB
        byId.add(3, q3);
        byId.add(TopicQueues.DENSE_QUEUE_IDS, qEdge);
        assertSame(q3, byId.get(3));
        assertSame(q40, byId.get(40));
        assertSame(qHuge, byId.get(huge));
        assertSame(qEdge, byId.get(TopicQueues.DENSE_QUEUE_IDS));
        assertNull(byId.get(4));
        assertNull(byId.get(41));
        assertNull(byId.get(TopicQueues.DENSE_QUEUE_IDS - 1));
        assertNull(byId.get(huge - 1));
        assertEquals(List.of(3, 40, TopicQueues.DENSE_QUEUE_IDS, huge), byId.queueIds());
    }

    @Test
    void anEmptyTopicVisitsNothing() {
        assertEquals(List.of(), new TopicQueues().queueIds());
    }
}
