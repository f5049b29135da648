package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.QueryMessageResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Read-path scenarios ported from RocketMQ's DefaultMessageStoreTest and BatchPutMessageTest. */
class ReadPathTest {
    @TempDir
    Path dir;

    private static String body(StoredMessage m) {
        return new String(m.body(), StandardCharsets.UTF_8);
    }

    private static void awaitDispatched(DefaultMessageStore store) {
        TestStores.await("dispatch caught up", () -> store.dispatchBehindBytes() == 0);
    }

    @Test
    void getMessageAnswersEveryBoundaryWithRocketMqsStatus() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            for (int i = 0; i < 10; i++) {
                assertTrue(store.putMessage(TestStores.message("FooBar", 0, "m" + i).tags("TAG1")).isOk());
            }
            awaitDispatched(store);
            assertEquals(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE, store.getMessage("g", "Nope", 0, 0, 10, null).status());
            assertEquals(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE, store.getMessage("g", "FooBar", 7, 0, 10, null).status());
            GetMessageResult found = store.getMessage("g", "FooBar", 0, 3, 4, null);
            assertEquals(GetMessageStatus.FOUND, found.status());
            assertEquals(4, found.messages().size());
            assertEquals("m3", body(found.messages().get(0)));
            assertEquals(7, found.nextBeginOffset());
            assertEquals(0, found.minOffset());
            assertEquals(10, found.maxOffset());
            GetMessageResult one = store.getMessage("g", "FooBar", 0, 10, 4, null);
            assertEquals(GetMessageStatus.OFFSET_OVERFLOW_ONE, one.status());
            assertEquals(10, one.nextBeginOffset());
            GetMessageResult badly = store.getMessage("g", "FooBar", 0, 99, 4, null);
            assertEquals(GetMessageStatus.OFFSET_OVERFLOW_BADLY, badly.status());
            assertEquals(0, badly.nextBeginOffset(), "min is 0, so a badly overflowing reader restarts at min");
        }
    }

    @Test
    void pullSizeLimitsAreExact() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            for (int i = 0; i < 32; i++) {
                store.putMessage(TestStores.message("Pull", 0, "m" + i));
            }
            awaitDispatched(store);
            for (int n : new int[] {32, 20, 10}) {
                assertEquals(n, store.getMessage("g", "Pull", 0, 0, n, null).messages().size());
            }
        }
    }

    @Test
    void lookMessageByOffsetFindsFirstAndLastAndNothingAtTheEnd() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            List<Long> offsets = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                offsets.add(store.putMessage(TestStores.message("Look", 0, "offset " + i)).appendResult().wroteOffset());
            }
            assertEquals("offset 0", body(store.lookMessageByOffset(offsets.get(0))));
            assertEquals("offset 4", body(store.lookMessageByOffset(offsets.get(4))));
            assertNull(store.lookMessageByOffset(store.getMaxPhyOffset()));
            assertNull(store.lookMessageByOffset(-1));
            assertNull(store.lookMessageByMsgId("not-an-id"));
        }
    }

    @Test
    void offsetInQueueByTimeAndStoreTimestamps() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            List<Long> times = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                times.add(store.putMessage(TestStores.message("Time", 0, "t" + i)).appendResult().storeTimestamp());
                Thread.sleep(3);
            }
            awaitDispatched(store);
            for (int i = 0; i < 5; i++) {
                assertEquals(i, store.getOffsetInQueueByTime("Time", 0, times.get(i)), "exact time " + i);
                assertEquals(times.get(i), store.getMessageStoreTimeStamp("Time", 0, i));
            }
            assertEquals(0, store.getOffsetInQueueByTime("Time", 0, times.get(0) - 20_000), "earlier than all");
            assertEquals(4, store.getOffsetInQueueByTime("Time", 0, times.get(4) + 20_000), "later than all");
            assertEquals(0, store.getOffsetInQueueByTime("Time", 3, times.get(2)), "wrong queue");
            assertEquals(-1, store.getMessageStoreTimeStamp("Time", 3, 0));
            assertEquals(-1, store.getMessageStoreTimeStamp("Time", 0, -1));
        }
    }

    @Test
    void batchMessagesAreFoundByQueueOffsetAndByCommitLogOffset() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            List<Message> batch = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                batch.add(TestStores.message("Batch", 0, "b" + i).keys("bk" + i));
            }
            PutMessageResult r = store.putMessages(batch);
            assertTrue(r.isOk());
            awaitDispatched(store);
            for (int i = 0; i < 10; i++) {
                StoredMessage byId = store.lookMessageByMsgId(r.appendResult().msgIds().get(i));
                assertEquals("b" + i, body(byId));
                assertNotNull(store.lookMessageByOffset(byId.commitLogOffset()));
                GetMessageResult g = store.getMessage("g", "Batch", 0, i, 1, null);
                assertEquals(GetMessageStatus.FOUND, g.status());
                assertEquals("b" + i, body(g.messages().get(0)));
                assertEquals(1, store.queryMessage("Batch", "bk" + i, 10, 0, Long.MAX_VALUE).messages().size());
            }
        }
    }

    @Test
    void keyQueriesReCheckTopicAndKeySoHashCollisionsNeverAnswer() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            assertEquals("Aa".hashCode(), "BB".hashCode());
            store.putMessage(TestStores.message("Keys", 0, "aa").keys("Aa", "multi"));
            store.putMessage(TestStores.message("Keys", 0, "bb").keys("BB"));
            store.putMessage(TestStores.message("Other", 0, "other").keys("Aa"));
            store.putMessage(TestStores.message("Keys", 0, "uniq").property(MessageConst.UNIQ_KEY, "U-1"));
            awaitDispatched(store);
            QueryMessageResult aa = store.queryMessage("Keys", "Aa", 10, 0, Long.MAX_VALUE);
            assertEquals(List.of("aa"), aa.messages().stream().map(ReadPathTest::body).toList());
            assertEquals(List.of("bb"), store.queryMessage("Keys", "BB", 10, 0, Long.MAX_VALUE).messages()
                    .stream().map(ReadPathTest::body).toList());
            assertEquals(List.of("aa"), store.queryMessage("Keys", "multi", 10, 0, Long.MAX_VALUE).messages()
                    .stream().map(ReadPathTest::body).toList());
            assertEquals(List.of("uniq"), store.queryMessage("Keys", "U-1", 10, 0, Long.MAX_VALUE).messages()
                    .stream().map(ReadPathTest::body).toList());
            assertTrue(store.queryMessage("Keys", "Aa", 10, 0, 1).messages().isEmpty(), "outside the time window");
        }
    }

    @Test
    void transactionHalfAndRollbackRecordsAreNotInTheConsumeQueue() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            store.putMessage(TestStores.message("Tx", 0, "plain"));
            store.putMessage(TestStores.message("Tx", 0, "half").transactionType(MessageSysFlag.TRANSACTION_PREPARED_TYPE));
            store.putMessage(TestStores.message("Tx", 0, "rb").transactionType(MessageSysFlag.TRANSACTION_ROLLBACK_TYPE));
            store.putMessage(TestStores.message("Tx", 0, "commit").transactionType(MessageSysFlag.TRANSACTION_COMMIT_TYPE));
            awaitDispatched(store);
            GetMessageResult g = store.getMessage("g", "Tx", 0, 0, 10, null);
            assertEquals(List.of("plain", "commit"), g.messages().stream().map(ReadPathTest::body).toList());
        }
    }

    @Test
    void arrivalListenerIsToldTheNewMaxOffsetAfterDispatch() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            List<String> arrivals = new CopyOnWriteArrayList<>();
            store.addMessageArrivingListener((topic, queueId, max) -> arrivals.add(topic + ":" + queueId + ":" + max));
            store.putMessage(TestStores.message("Arr", 2, "x"));
            store.putMessage(TestStores.message("Arr", 2, "y"));
            TestStores.await("two arrivals", () -> arrivals.size() == 2);
            assertEquals(List.of("Arr:2:1", "Arr:2:2"), arrivals);
        }
    }

    @Test
    void syncFlushMakesMessagesVisibleOnlyOnceFlushed() {
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", "SYNC_FLUSH")) {
            for (int i = 0; i < 10; i++) {
                assertTrue(store.putMessage(TestStores.message("Sync", 0, "s" + i)).isOk());
            }
            awaitDispatched(store);
            assertEquals(10, store.getMaxOffsetInQueue("Sync", 0));
            assertTrue(TestInternals.commitLog(store).queue().getFlushedWhere() >= store.getMaxPhyOffset());
        }
    }

    @Test
    void aDelayedMessageIsInvisibleOnItsTopicUntilDueThenDeliveredOnce() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "messageDelayLevel", "1s 2s")) {
            long put = System.currentTimeMillis();
            PutMessageResult r = store.putMessage(TestStores.message("Later", 1, "delayed").delayLevel(1));
            assertTrue(r.isOk());
            StoredMessage waiting = store.lookMessageByOffset(r.appendResult().wroteOffset());
            assertEquals(MessageConst.SCHEDULE_TOPIC, waiting.topic());
            assertEquals(0, waiting.queueId());
            assertEquals("Later", waiting.property(MessageConst.REAL_TOPIC));
            awaitDispatched(store);
            if (System.currentTimeMillis() - put < 900) {
                assertEquals(0, store.getMaxOffsetInQueue("Later", 1), "not visible before its time");
            }
            TestStores.await("delivered", () -> store.getMaxOffsetInQueue("Later", 1) == 1);
            assertTrue(System.currentTimeMillis() - put >= 1000, "not delivered before the 1 s delay");
            StoredMessage delivered = store.getMessage("g", "Later", 1, 0, 10, null).messages().get(0);
            assertEquals("delayed", body(delivered));
            assertNull(delivered.property(MessageConst.DELAY_TIME_LEVEL));
            awaitMoreSchedulePasses(store, 3);
            awaitDispatched(store);
            assertEquals(1, store.getMaxOffsetInQueue("Later", 1), "delivered once");
        }
        try (DefaultMessageStore store = TestStores.started(dir, "messageDelayLevel", "1s 2s")) {
            awaitMoreSchedulePasses(store, 3);
            awaitDispatched(store);
            assertEquals(1, store.getMaxOffsetInQueue("Later", 1), "a restart does not deliver it again");
        }
    }

    /** Waits until the delivery service has looked at every level {@code passes} more times. */
    private static void awaitMoreSchedulePasses(DefaultMessageStore store, int passes) {
        long target = store.scheduleService().passes() + passes;
        TestStores.await(passes + " more delivery passes", () -> store.scheduleService().passes() >= target);
    }
}
