package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store with many more ConsumeQueues than it may keep mapped at once writes, reads and recovers them all. */
class ManyQueuesTest {
    private static final int TOPICS = 40;
    private static final int QUEUES = 8;
    private static final int ROUNDS = 6;

    @TempDir
    Path dir;

    private static String topic(int t) {
        return "Many" + t;
    }

    private static String body(int t, int q, int round) {
        return t + "/" + q + "/" + round;
    }

    private static void assertAllReadable(DefaultMessageStore store) {
        for (int t = 0; t < TOPICS; t++) {
            for (int q = 0; q < QUEUES; q++) {
                GetMessageResult got = store.getMessage("g", topic(t), q, 0, ROUNDS, null);
                assertEquals(GetMessageStatus.FOUND, got.status(), topic(t) + "-" + q);
                assertEquals(ROUNDS, got.messages().size(), topic(t) + "-" + q);
                for (int round = 0; round < ROUNDS; round++) {
                    assertEquals(body(t, q, round),
                            new String(got.messages().get(round).body(), StandardCharsets.UTF_8));
                }
            }
        }
    }

    @Test
    void moreQueuesThanTheMappingBudgetAreWrittenReadAndRecovered() {
        String[] settings = {"maxMappedConsumeQueueFiles", "16", "mappedFileSizeConsumeQueue", "80"};
        try (DefaultMessageStore store = TestStores.started(dir, settings)) {
            for (int round = 0; round < ROUNDS; round++) {
                for (int t = 0; t < TOPICS; t++) {
                    for (int q = 0; q < QUEUES; q++) {
                        assertEquals(PutMessageStatus.PUT_OK,
                                store.putMessage(TestStores.message(topic(t), q, body(t, q, round))).status());
                    }
                }
            }
            TestStores.await("every queue dispatched", () -> {
                for (int t = 0; t < TOPICS; t++) {
                    for (int q = 0; q < QUEUES; q++) {
                        if (store.getMaxOffsetInQueue(topic(t), q) < ROUNDS) {
                            return false;
                        }
                    }
                }
                return true;
            });
            assertAllReadable(store);
        }
        try (DefaultMessageStore reopened = TestStores.started(dir, settings)) {
            assertAllReadable(reopened);
        }
    }
}
