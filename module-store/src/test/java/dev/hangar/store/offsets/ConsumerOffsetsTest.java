package dev.hangar.store.offsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.CommittedOffset;
import dev.hangar.spi.store.ConsumerOffsets;
import dev.hangar.spi.store.ConsumerOffsets.ResetPoint;
import dev.hangar.spi.store.OffsetCommitResult;
import dev.hangar.spi.store.OffsetCommitResult.Outcome;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commits, reads, deletes and resets through the engine API, and what survives a restart. */
class ConsumerOffsetsTest {
    @TempDir
    Path dir;

    private static void fill(DefaultMessageStore store, String topic, int queues, int perQueue) {
        for (int i = 0; i < queues * perQueue; i++) {
            assertTrue(store.putMessage(TestStores.message(topic, i % queues, "m" + i)).isOk());
        }
        TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
    }

    @Test
    void aCommitIsReadBackAtOnceAndAfterARestart() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "Orders", 2, 10);
            ConsumerOffsets offsets = store.consumerOffsets();
            OffsetCommitResult r = offsets.commit("billing", "Orders", 1, 7);
            assertEquals(Outcome.COMMITTED, r.outcome(), r.reason());
            assertEquals(PutMessageStatus.PUT_OK, r.putStatus());
            assertEquals(OptionalLong.of(7), offsets.committed("billing", "Orders", 1));
            assertEquals(OptionalLong.empty(), offsets.committed("billing", "Orders", 0));
            assertTrue(offsets.commit("billing", "Orders", 1, 9).isCommitted());
            assertTrue(offsets.commit("audit", "Orders", 0, 10).isCommitted());
        }
        try (DefaultMessageStore store = TestStores.started(dir)) {
            ConsumerOffsets offsets = store.consumerOffsets();
            assertEquals(Set.of("audit", "billing"), offsets.groups());
            assertEquals(List.of(new CommittedOffset("billing", "Orders", 1, 9)), offsets.offsetsOf("billing"));
            assertEquals(OptionalLong.of(10), offsets.committed("audit", "Orders", 0));
        }
    }

    @Test
    void theSnapshotIsRocketMqsFileWithTheCoveredPosition() throws Exception {
        long end;
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "TopicTest", 2, 300);
            assertTrue(store.consumerOffsets().commit("GroupA", "TopicTest", 0, 250).isCommitted());
            assertTrue(store.consumerOffsets().commit("GroupA", "TopicTest", 1, 251).isCommitted());
            end = store.getMaxPhyOffset();
        }
        String text = Files.readString(dir.resolve("config/consumerOffset.json"), StandardCharsets.UTF_8);
        assertEquals("{\n\t\"offsetTable\":{\n\t\t\"TopicTest@GroupA\":{0:250,1:251\n\t\t}\n\t},\n"
                + "\t\"hangarCommitLogOffset\":" + end + "\n}", text);
        assertTrue(Files.exists(dir.resolve("config/consumerOffset.json.bak")), "the previous version is kept");
    }

    @Test
    void aFileWrittenByRocketMqIsTakenOverOnFirstStart() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "TopicTest", 4, 5);
        }
        Files.writeString(dir.resolve("config/consumerOffset.json"), "{\n\t\"offsetTable\":{\n"
                + "\t\t\"TopicTest@GroupA\":{0:2,1:3,2:4,3:5\n\t\t},\n\t\t\"%RETRY%GroupB@GroupB\":{\"0\":7\n\t\t}\n\t}\n}");
        try (DefaultMessageStore store = TestStores.started(dir)) {
            ConsumerOffsets offsets = store.consumerOffsets();
            assertEquals(OptionalLong.of(4), offsets.committed("GroupA", "TopicTest", 2));
            assertEquals(OptionalLong.of(7), offsets.committed("GroupB", "%RETRY%GroupB", 0));
            assertTrue(offsets.commit("GroupA", "TopicTest", 2, 1).isCommitted());
        }
        try (DefaultMessageStore store = TestStores.started(dir)) {
            assertEquals(OptionalLong.of(1), store.consumerOffsets().committed("GroupA", "TopicTest", 2));
            assertEquals(OptionalLong.of(5), store.consumerOffsets().committed("GroupA", "TopicTest", 3));
        }
    }

    @Test
    void aBrokenFileFallsBackToTheBackup() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "T", 1, 5);
            assertTrue(store.consumerOffsets().commit("g", "T", 0, 3).isCommitted());
        }
        Path file = dir.resolve("config/consumerOffset.json");
        Files.copy(file, dir.resolve("config/consumerOffset.json.bak"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(file, "{\"offsetTable\":{\"T@g\":{0:");
        try (DefaultMessageStore store = TestStores.started(dir)) {
            assertEquals(OptionalLong.of(3), store.consumerOffsets().committed("g", "T", 0));
        }
    }

    @Test
    void badInputGetsAnOutcomeAndChangesNothing() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "Orders", 2, 10);
            ConsumerOffsets offsets = store.consumerOffsets();
            assertTrue(offsets.commit("g", "Orders", 0, 4).isCommitted());
            long end = store.getMaxPhyOffset();
            List<OffsetCommitResult> refused = new ArrayList<>();
            refused.add(expect(Outcome.INVALID_ARGUMENT, offsets.commit("bad/group", "Orders", 0, 1), "group"));
            refused.add(expect(Outcome.INVALID_ARGUMENT, offsets.commit("", "Orders", 0, 1), "group"));
            refused.add(expect(Outcome.INVALID_ARGUMENT, offsets.commit("g", "../etc", 0, 1), "topic"));
            refused.add(expect(Outcome.INVALID_ARGUMENT, offsets.commit("g", "Orders", -1, 1), "negative"));
            refused.add(expect(Outcome.INVALID_ARGUMENT, offsets.commit("g", ConsumerOffsets.TOPIC, 0, 0), "internal"));
            refused.add(expect(Outcome.UNKNOWN_TOPIC, offsets.commit("g", "Nope", 0, 0), "Nope"));
            refused.add(expect(Outcome.UNKNOWN_QUEUE, offsets.commit("g", "Orders", 5, 0), "queue 5"));
            refused.add(expect(Outcome.OUT_OF_RANGE, offsets.commit("g", "Orders", 0, 11), "[0, 10]"));
            refused.add(expect(Outcome.OUT_OF_RANGE, offsets.commit("g", "Orders", 0, -1), "[0, 10]"));
            refused.add(expect(Outcome.UNKNOWN_GROUP, offsets.deleteGroup("nobody"), "nobody"));
            refused.add(expect(Outcome.UNKNOWN_TOPIC, offsets.reset("g", "Nope", ResetPoint.latest()), "Nope"));
            refused.add(expect(Outcome.INVALID_ARGUMENT, offsets.reset("g", "Orders", ResetPoint.at(-5)), "timestamp"));
            refused.forEach(r -> assertEquals(null, r.putStatus(), "nothing was put for " + r));
            assertEquals(end, store.getMaxPhyOffset(), "nothing was appended");
            assertEquals(List.of(new CommittedOffset("g", "Orders", 0, 4)), offsets.offsetsOf("g"));
            assertEquals(Set.of("g"), offsets.groups());
            // the boundaries themselves are fine
            assertTrue(offsets.commit("g", "Orders", 0, 0).isCommitted());
            assertTrue(offsets.commit("g", "Orders", 0, 10).isCommitted());
        }
    }

    private static OffsetCommitResult expect(Outcome outcome, OffsetCommitResult r, String inReason) {
        assertEquals(outcome, r.outcome(), String.valueOf(r));
        assertTrue(r.reason().contains(inReason), r.reason() + " should name " + inReason);
        assertTrue(r.offsets().isEmpty());
        return r;
    }

    @Test
    void userPutsToTheInternalTopicAreRefused() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            long end = store.getMaxPhyOffset();
            assertEquals(PutMessageStatus.MESSAGE_ILLEGAL,
                    store.putMessage(TestStores.message(ConsumerOffsets.TOPIC, 0, "forged")).status());
            assertEquals(PutMessageStatus.MESSAGE_ILLEGAL,
                    store.putMessages(List.of(TestStores.message(ConsumerOffsets.TOPIC, 0, "forged"))).status());
            assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, store.asyncPutMessage(
                    TestStores.message(ConsumerOffsets.TOPIC, 0, "forged")).join().status());
            assertEquals(end, store.getMaxPhyOffset());
        }
    }

    @Test
    void deleteForgetsTheGroupAlsoAfterARestartAndALaterCommitRecreatesIt() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "T", 2, 5);
            ConsumerOffsets offsets = store.consumerOffsets();
            assertTrue(offsets.commit("gone", "T", 0, 3).isCommitted());
            assertTrue(offsets.commit("gone", "T", 1, 4).isCommitted());
            assertTrue(offsets.commit("kept", "T", 1, 2).isCommitted());
            assertTrue(offsets.deleteGroup("gone").isCommitted());
            assertEquals(Set.of("kept"), offsets.groups());
            assertEquals(List.of(), offsets.offsetsOf("gone"));
        }
        try (DefaultMessageStore store = TestStores.started(dir)) {
            ConsumerOffsets offsets = store.consumerOffsets();
            assertEquals(Set.of("kept"), offsets.groups());
            assertTrue(offsets.commit("gone", "T", 0, 1).isCommitted());
            assertEquals(List.of(new CommittedOffset("gone", "T", 0, 1)), offsets.offsetsOf("gone"));
        }
    }

    @Test
    void resetMovesEveryQueueToEarliestLatestOrATime() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "T", 3, 4);
            // a time after every store timestamp of the first puts and before every one of the next
            long between = nextMillisecond(System.currentTimeMillis());
            nextMillisecond(between);
            fill(store, "T", 3, 2);
            ConsumerOffsets offsets = store.consumerOffsets();
            OffsetCommitResult latest = offsets.reset("r", "T", ResetPoint.latest());
            assertTrue(latest.isCommitted(), latest.reason());
            assertEquals(List.of(new CommittedOffset("r", "T", 0, 6), new CommittedOffset("r", "T", 1, 6),
                    new CommittedOffset("r", "T", 2, 6)), offsets.offsetsOf("r"));
            assertTrue(offsets.reset("r", "T", ResetPoint.at(between)).isCommitted());
            for (int q = 0; q < 3; q++) {
                assertEquals(OptionalLong.of(4), offsets.committed("r", "T", q), "queue " + q + " by time");
            }
            assertTrue(offsets.reset("r", "T", ResetPoint.earliest()).isCommitted());
            for (int q = 0; q < 3; q++) {
                assertEquals(OptionalLong.of(0), offsets.committed("r", "T", q));
            }
        }
        try (DefaultMessageStore store = TestStores.started(dir)) {
            for (int q = 0; q < 3; q++) {
                assertEquals(OptionalLong.of(0), store.consumerOffsets().committed("r", "T", q), "after restart");
            }
        }
    }

    @Test
    void manyGroupsAndQueuesCommittingConcurrentlyLeaveAnExactTable() throws Exception {
        int groups = 8;
        int queues = 4;
        int rounds = 60;
        try (DefaultMessageStore store = TestStores.started(dir, "flushConsumerOffsetInterval", "100")) {
            fill(store, "Busy", queues, rounds);
            ConsumerOffsets offsets = store.consumerOffsets();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int g = 0; g < groups; g++) {
                for (int q = 0; q < queues; q++) {
                    String group = "g" + g;
                    int queue = q;
                    Thread t = new Thread(() -> {
                        try {
                            for (int n = 1; n <= rounds; n++) {
                                OffsetCommitResult r = offsets.commit(group, "Busy", queue, n);
                                if (!r.isCommitted()) {
                                    throw new AssertionError(r.toString());
                                }
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    });
                    threads.add(t);
                    t.start();
                }
            }
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertExact(offsets, groups, queues, rounds);
            TestStores.await("commit records dispatched", () -> store.dispatchBehindBytes() == 0);
            assertExact(offsets, groups, queues, rounds);
        }
        try (DefaultMessageStore store = TestStores.started(dir)) {
            assertExact(store.consumerOffsets(), groups, queues, rounds);
        }
    }

    private static void assertExact(ConsumerOffsets offsets, int groups, int queues, int last) {
        assertEquals(groups, offsets.groups().size());
        for (int g = 0; g < groups; g++) {
            List<CommittedOffset> expected = new ArrayList<>();
            for (int q = 0; q < queues; q++) {
                expected.add(new CommittedOffset("g" + g, "Busy", q, last));
            }
            assertEquals(expected, offsets.offsetsOf("g" + g));
        }
    }

    @Test
    void theReplayAppliesCommitsTheSnapshotDoesNotCover() throws Exception {
        Path file = dir.resolve("config/consumerOffset.json");
        String early;
        try (DefaultMessageStore store = TestStores.started(dir, "flushConsumerOffsetInterval", "600000")) {
            fill(store, "T", 1, 10);
            assertTrue(store.consumerOffsets().commit("g", "T", 0, 2).isCommitted());
            early = Files.readString(file);
            assertTrue(store.consumerOffsets().commit("g", "T", 0, 8).isCommitted());
            assertTrue(store.consumerOffsets().commit("h", "T", 0, 5).isCommitted());
            assertTrue(store.consumerOffsets().deleteGroup("h").isCommitted());
        }
        // as if the process died before saving again: the file of the start, covering none of the commits
        Files.writeString(file, early);
        assertFalse(early.contains("T@g"));
        try (DefaultMessageStore store = TestStores.started(dir)) {
            assertEquals(OptionalLong.of(8), store.consumerOffsets().committed("g", "T", 0));
            assertEquals(Set.of("g"), store.consumerOffsets().groups(), "the deletion is replayed too");
        }
    }

    @Test
    void aReadOnlyOpenSeesTheOffsetsAndWritesNothing() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "T", 1, 3);
            assertTrue(store.consumerOffsets().commit("g", "T", 0, 2).isCommitted());
        }
        Path file = dir.resolve("config/consumerOffset.json");
        long modified = Files.getLastModifiedTime(file).toMillis();
        String before = Files.readString(file);
        DefaultMessageStore ro = new DefaultMessageStore(TestStores.config(dir));
        try {
            ro.startReadOnly();
            assertEquals(OptionalLong.of(2), ro.consumerOffsets().committed("g", "T", 0));
            assertEquals(OffsetCommitResult.Outcome.NOT_STORED, ro.consumerOffsets().commit("g", "T", 0, 1).outcome());
        } finally {
            ro.shutdown();
        }
        assertEquals(before, Files.readString(file));
        assertEquals(modified, Files.getLastModifiedTime(file).toMillis());
    }

    /** Waits until the clock has passed {@code millis}; returns the new time (a condition, not a guessed sleep). */
    private static long nextMillisecond(long millis) {
        long now;
        while ((now = System.currentTimeMillis()) <= millis) {
            Thread.onSpinWait();
        }
        return now;
    }
}
