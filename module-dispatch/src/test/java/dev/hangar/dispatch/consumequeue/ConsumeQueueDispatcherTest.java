package dev.hangar.dispatch.consumequeue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.spi.format.ConsumeQueueFormat;
import dev.hangar.spi.message.MessageSysFlag;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The consume-queue dispatcher on real mapped files of 10 units each (RocketMQ ConsumeQueueTest scenarios). */
class ConsumeQueueDispatcherTest {
    static final String TOPIC = "FooBar";
    static final int UNITS_PER_FILE = 10;
    static final long BASE_TIME = 1_700_000_000_000L;
    static final int MSG_SIZE = 100;

    @TempDir
    Path root;
    DispatchFixture fixture;
    CommitLogDispatcher dispatcher;
    ConsumeQueueView view;

    @BeforeEach
    void open() {
        fixture = new DispatchFixture(root).with(StoreConfigKeys.MAPPED_FILE_SIZE_CONSUME_QUEUE,
                UNITS_PER_FILE * ConsumeQueueFormat.UNIT_SIZE);
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
        dispatcher = fixture.open("consume-queue");
        view = dispatcher.view(ConsumeQueueView.class).orElseThrow();
    }

    static long phy(long i) {
        return 1000 + i * MSG_SIZE;
    }

    void dispatchMessages(String topic, int queueId, long fromOffset, long toOffset) {
        for (long i = fromOffset; i < toOffset; i++) {
            dispatcher.dispatch(fixture.message(topic, queueId, i, phy(i), MSG_SIZE, BASE_TIME + i * 1000));
        }
    }

    /** Reads the whole queue the way the engine does: re-asking at each file end. */
    List<CqUnit> readAll(String topic, int queueId) {
        List<CqUnit> all = new ArrayList<>();
        long offset = view.minOffset(topic, queueId);
        while (offset < view.maxOffset(topic, queueId)) {
            List<CqUnit> batch = view.read(topic, queueId, offset, 1000);
            if (batch.isEmpty()) {
                offset = view.rollNextFile(topic, queueId, offset);
                continue;
            }
            all.addAll(batch);
            offset += batch.size();
        }
        return all;
    }

    List<String> fileNames(String topic, int queueId) throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("consumequeue").resolve(topic).resolve("" + queueId))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void everyDispatchedMessageGetsOneUnitAcrossFileRolls() throws IOException {
        dispatchMessages(TOPIC, 0, 0, 35);

        assertEquals(0, view.minOffset(TOPIC, 0));
        assertEquals(35, view.maxOffset(TOPIC, 0));
        List<CqUnit> units = readAll(TOPIC, 0);
        assertEquals(35, units.size());
        for (int i = 0; i < units.size(); i++) {
            CqUnit unit = units.get(i);
            assertEquals(i, unit.queueOffset());
            assertEquals(phy(i), unit.commitLogOffset());
            assertEquals(MSG_SIZE, unit.size());
            assertEquals(("tag" + i).hashCode(), unit.tagsCode());
        }
        assertEquals(List.of("00000000000000000000", "00000000000000000200", "00000000000000000400",
                "00000000000000000600"), fileNames(TOPIC, 0));
        assertEquals(phy(34) + MSG_SIZE, dispatcher.durableOffset());
        assertEquals(BASE_TIME + 34_000, fixture.checkpoint.logicsMsgTimestamp());
    }

    @Test
    void aReadStopsAtTheEndOfTheFileHoldingTheOffset() {
        dispatchMessages(TOPIC, 0, 0, 25);

        assertEquals(3, view.read(TOPIC, 0, 7, 100).size());
        assertEquals(2, view.read(TOPIC, 0, 7, 2).size());
        assertEquals(10, view.rollNextFile(TOPIC, 0, 7));
        assertEquals(5, view.read(TOPIC, 0, 20, 100).size());
        assertTrue(view.read(TOPIC, 0, 25, 100).isEmpty());
        assertTrue(view.read("unknown", 0, 0, 100).isEmpty());
    }

    @Test
    void unitsOnDiskHaveRocketMqLayout() throws IOException {
        dispatchMessages(TOPIC, 0, 0, 3);
        dispatcher.flush(0);

        byte[] file = Files.readAllBytes(root.resolve("consumequeue/FooBar/0/00000000000000000000"));
        assertEquals(UNITS_PER_FILE * 20, file.length);
        ByteBuffer unit = ByteBuffer.wrap(file, 20, 20);
        assertEquals(phy(1), unit.getLong());
        assertEquals(MSG_SIZE, unit.getInt());
        assertEquals("tag1".hashCode(), unit.getLong());
        assertEquals(0L, ByteBuffer.wrap(file).getLong(60), "the bytes after the last unit stay zero");
    }

    @Test
    void duplicateDispatchIsIgnored() {
        dispatchMessages(TOPIC, 0, 0, 10);
        dispatchMessages(TOPIC, 0, 0, 10);
        // a record past the queue's max physic offset, but for a queue offset already built
        dispatcher.dispatch(fixture.message(TOPIC, 0, 4, phy(50), MSG_SIZE, BASE_TIME));

        assertEquals(10, view.maxOffset(TOPIC, 0));
        List<CqUnit> units = readAll(TOPIC, 0);
        for (int i = 0; i < 10; i++) {
            assertEquals(phy(i), units.get(i).commitLogOffset());
        }
    }

    @Test
    void preparedAndRollbackRecordsAreNotQueued() {
        dispatcher.dispatch(fixture.message(TOPIC, 0, 0, phy(0), MSG_SIZE, BASE_TIME));
        dispatcher.dispatch(fixture.request(TOPIC, 0, 0, phy(1), MSG_SIZE, BASE_TIME, null, null,
                MessageSysFlag.TRANSACTION_PREPARED_TYPE));
        dispatcher.dispatch(fixture.request(TOPIC, 0, 0, phy(2), MSG_SIZE, BASE_TIME, null, null,
                MessageSysFlag.TRANSACTION_ROLLBACK_TYPE));
        dispatcher.dispatch(fixture.request(TOPIC, 0, 1, phy(3), MSG_SIZE, BASE_TIME, null, null,
                MessageSysFlag.TRANSACTION_COMMIT_TYPE));

        List<CqUnit> units = readAll(TOPIC, 0);
        assertEquals(List.of(phy(0), phy(3)), units.stream().map(CqUnit::commitLogOffset).toList());
    }

    @Test
    void aQueueStartingPastZeroIsPreFilledWithBlankUnitsAndKeepsItsMinOffsetAfterReload() throws IOException {
        dispatchMessages(TOPIC, 0, 103, 104);

        assertEquals(103, view.minOffset(TOPIC, 0));
        assertEquals(104, view.maxOffset(TOPIC, 0));
        assertEquals(List.of("00000000000000002000"), fileNames(TOPIC, 0));
        assertTrue(view.read(TOPIC, 0, 100, 10).isEmpty(), "blank units are below the min offset");
        assertEquals(phy(103), view.read(TOPIC, 0, 103, 10).get(0).commitLogOffset());
        dispatcher.flush(0);
        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(root.resolve("consumequeue/FooBar/0/00000000000000002000")));
        for (int p = 0; p < 60; p += 20) {
            assertEquals(0L, file.getLong(p));
            assertEquals(Integer.MAX_VALUE, file.getInt(p + 8));
            assertEquals(0L, file.getLong(p + 12));
        }

        reopen();
        assertEquals(103, view.minOffset(TOPIC, 0));
        assertEquals(104, view.maxOffset(TOPIC, 0));
        assertEquals(phy(103) + MSG_SIZE, dispatcher.durableOffset());
        dispatchMessages(TOPIC, 0, 104, 106);
        assertEquals(106, view.maxOffset(TOPIC, 0));
    }

    @Test
    void reloadKeepsTheMaxOffsetAndTruncatesAZeroedTail() throws IOException {
        dispatchMessages(TOPIC, 0, 0, 25);
        reopen();
        assertEquals(25, view.maxOffset(TOPIC, 0));
        assertEquals(phy(24) + MSG_SIZE, dispatcher.durableOffset());

        dispatcher.close();
        // unit 24 lives at position 80 of the file starting at logical offset 400: zero it, as a lost page would
        try (RandomAccessFile file = new RandomAccessFile(
                root.resolve("consumequeue/FooBar/0/00000000000000000400").toFile(), "rw")) {
            file.seek(80);
            file.write(new byte[20]);
        }
        dispatcher = null;
        reopen();

        assertEquals(24, view.maxOffset(TOPIC, 0));
        assertEquals(phy(23) + MSG_SIZE, dispatcher.durableOffset());
        dispatchMessages(TOPIC, 0, 24, 26);
        assertEquals(26, view.maxOffset(TOPIC, 0));
        assertEquals(phy(25), readAll(TOPIC, 0).get(25).commitLogOffset());
    }

    @Test
    void truncateDropsUnitsAtOrPastTheCommitLogOffsetAndSurvivesReload() throws IOException {
        dispatchMessages(TOPIC, 0, 0, 25);
        dispatchMessages("Other", 1, 0, 5);

        dispatcher.truncate(phy(13));

        assertEquals(13, view.maxOffset(TOPIC, 0));
        assertEquals(5, view.maxOffset("Other", 1), "units below the offset stay");
        assertEquals(phy(12) + MSG_SIZE, dispatcher.durableOffset());
        assertEquals(List.of("00000000000000000000", "00000000000000000200"), fileNames(TOPIC, 0));

        reopen();
        assertEquals(13, view.maxOffset(TOPIC, 0), "the dropped units were zeroed, recovery does not bring them back");
        dispatcher.dispatch(fixture.message(TOPIC, 0, 13, phy(13), MSG_SIZE, BASE_TIME));
        assertEquals(14, view.maxOffset(TOPIC, 0));
    }

    @Test
    void truncateAlsoDropsTheUnitOfATornRecordThatReachesPastTheEnd() {
        dispatchMessages(TOPIC, 0, 0, 25);
        dispatcher.truncate(phy(13) + MSG_SIZE / 2);
        assertEquals(13, view.maxOffset(TOPIC, 0), "unit 13 starts before the end but its record is cut off");
        assertEquals(phy(12) + MSG_SIZE, dispatcher.durableOffset());
    }

    @Test
    void truncateAtAFileBoundaryLeavesAnEmptyFileAndTheOffsetsGoOn() {
        dispatchMessages(TOPIC, 0, 0, 25);

        dispatcher.truncate(phy(20));
        assertEquals(20, view.maxOffset(TOPIC, 0));
        reopen();
        assertEquals(20, view.maxOffset(TOPIC, 0));
        dispatchMessages(TOPIC, 0, 20, 22);
        assertEquals(22, readAll(TOPIC, 0).size());

        dispatcher.truncate(0);
        assertEquals(0, view.maxOffset(TOPIC, 0));
        assertEquals(0, dispatcher.durableOffset());
    }

    @Test
    void offsetByTimeFindsTheExactOrNearestUnit() {
        dispatchMessages(TOPIC, 0, 0, 25);

        assertEquals(17, view.offsetByTime(TOPIC, 0, BASE_TIME + 17_000), "exact");
        assertEquals(3, view.offsetByTime(TOPIC, 0, BASE_TIME + 3_000), "exact, first file");
        assertEquals(17, view.offsetByTime(TOPIC, 0, BASE_TIME + 17_400), "nearer to the earlier");
        assertEquals(18, view.offsetByTime(TOPIC, 0, BASE_TIME + 17_600), "nearer to the later");
        assertEquals(17, view.offsetByTime(TOPIC, 0, BASE_TIME + 17_500), "a tie goes to the earlier");
        assertEquals(17, view.offsetByTime(TOPIC, 0, BASE_TIME + 16_998), "a small skew gives the same unit");
        assertEquals(0, view.offsetByTime(TOPIC, 0, BASE_TIME - 20_000), "earlier than everything: the first");
        assertEquals(24, view.offsetByTime(TOPIC, 0, BASE_TIME + 1_000_000), "later than everything: the last");
        assertEquals(0, view.offsetByTime("unknown", 0, BASE_TIME + 17_000));
        assertEquals(0, view.offsetByTime(TOPIC, 7, BASE_TIME + 17_000));

        fixture.commitLog.minOffset(phy(12));
        assertEquals(12, view.offsetByTime(TOPIC, 0, BASE_TIME), "units gone from the commit log are skipped");
    }

    @Test
    void offsetByTimePicksTheFirstOfUnitsSharingAMillisecond() {
        for (int i = 0; i < 30; i++) {
            dispatcher.dispatch(fixture.message(TOPIC, 0, i, phy(i), MSG_SIZE, BASE_TIME + (i / 10) * 1000));
        }
        assertEquals(10, view.offsetByTime(TOPIC, 0, BASE_TIME + 1000));
        assertEquals(20, view.offsetByTime(TOPIC, 0, BASE_TIME + 2000));
    }

    @Test
    void deleteExpiredRemovesFilesBelowTheCommitLogMinAndCorrectsTheMinOffset() throws IOException {
        dispatchMessages(TOPIC, 0, 0, 25);

        fixture.commitLog.minOffset(phy(12));
        dispatcher.deleteExpired(phy(12));

        assertEquals(List.of("00000000000000000200", "00000000000000000400"), fileNames(TOPIC, 0));
        assertEquals(12, view.minOffset(TOPIC, 0));
        assertEquals(25, view.maxOffset(TOPIC, 0));
        assertTrue(view.read(TOPIC, 0, 5, 10).isEmpty());
        assertEquals(phy(12), view.read(TOPIC, 0, 12, 10).get(0).commitLogOffset());
    }

    @Test
    void loadCorrectsTheMinOffsetFromTheCommitLog() {
        dispatchMessages(TOPIC, 0, 0, 25);
        fixture.commitLog.minOffset(phy(7));
        reopen();
        assertEquals(7, view.minOffset(TOPIC, 0));

        fixture.commitLog.minOffset(phy(100));
        reopen();
        assertEquals(25, view.minOffset(TOPIC, 0), "nothing left in the commit log: min = max");
    }

    @Test
    void loadFindsEveryTopicAndQueue() {
        dispatchMessages("A", 0, 0, 3);
        dispatchMessages("A", 1, 0, 12);
        dispatchMessages("B", 3, 40, 42);
        reopen();

        List<String> visited = new ArrayList<>();
        view.forEachQueue((topic, queueId, min, max) -> visited.add(topic + "/" + queueId + ":" + min + "-" + max));
        assertEquals(List.of("A/0:0-3", "A/1:0-12", "B/3:40-42"), visited);
        assertTrue(view.exists("A", 1));
        assertFalse(view.exists("A", 2));
        assertFalse(view.exists("C", 0));
        assertEquals(0, view.maxOffset("C", 0));
    }

    @Test
    void aTopicThatIsNoDirectoryNameIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> dispatcher.dispatch(fixture.message("..", 0, 0, 0, MSG_SIZE, BASE_TIME)));
        assertThrows(IllegalArgumentException.class,
                () -> dispatcher.dispatch(fixture.message("a/b", 0, 0, 0, MSG_SIZE, BASE_TIME)));
        assertFalse(Files.exists(root.resolve("a")));
        assertFalse(view.exists("..", 0));
    }

    @Test
    void aWriteThatKeepsFailingThrowsAfterTheRetries() throws IOException {
        // a plain file where the topic directory should be: no ConsumeQueue file can be created
        Files.createDirectories(root.resolve("consumequeue"));
        Files.writeString(root.resolve("consumequeue").resolve("Blocked"), "not a directory");
        // a new queue holds its first units in memory (at most a file's worth): those dispatches succeed ...
        for (int i = 0; i < UNITS_PER_FILE; i++) {
            dispatcher.dispatch(fixture.message("Blocked", 0, i, phy(i), MSG_SIZE, BASE_TIME + i));
        }
        assertEquals(UNITS_PER_FILE, view.maxOffset("Blocked", 0));
        // ... but the flush that must create the file fails, so the flush service writes no checkpoint over them
        assertThrows(java.io.UncheckedIOException.class, () -> dispatcher.flush(0));
        assertThrows(java.io.UncheckedIOException.class, () -> dispatcher.flush(2));

        // the next unit must go to the file: it fails after the retries
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> dispatcher.dispatch(
                fixture.message("Blocked", 0, UNITS_PER_FILE, phy(UNITS_PER_FILE), MSG_SIZE, BASE_TIME + 99)));
        assertTrue(error.getMessage().contains(ConsumeQueueDispatcher.WRITE_ATTEMPTS + " attempts"), error.getMessage());
        assertEquals(BASE_TIME + UNITS_PER_FILE - 1, fixture.checkpoint.logicsMsgTimestamp(),
                "the failed unit is not stamped");
        dispatchMessages(TOPIC, 0, 0, 1);
        assertEquals(1, view.maxOffset(TOPIC, 0), "other queues keep working");
    }

    @Test
    void aFileOfTheWrongLengthFailsTheLoadWithTheSettingNamed() throws IOException {
        dispatchMessages(TOPIC, 0, 0, 3);
        dispatcher.close();
        // longer than a ConsumeQueue file: written with another size (a short file of zeros at the end would be a
        // file a crash left unwritten, which the load sets aside)
        Files.write(root.resolve("consumequeue/FooBar/0/00000000000000000200"), new byte[100_077]);
        dispatcher = null;

        IllegalStateException error = assertThrows(IllegalStateException.class, this::reopen);
        assertTrue(error.getMessage().contains("mappedFileSizeConsumeQueue"), error.getMessage());
        Files.delete(root.resolve("consumequeue/FooBar/0/00000000000000000200"));
        reopen();
        assertEquals(3, view.maxOffset(TOPIC, 0));
    }

    @Test
    void readersNeverSeeAHalfWrittenUnit() throws Exception {
        int total = 3000;
        List<String> problems = new ArrayList<>();
        Thread reader = new Thread(() -> {
            long next = 0;
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (next < total && System.nanoTime() < deadline) {
                List<CqUnit> batch = view.read(TOPIC, 0, next, 64);
                if (batch.isEmpty()) {
                    Thread.onSpinWait();
                    continue;
                }
                for (CqUnit unit : batch) {
                    if (unit.commitLogOffset() != phy(unit.queueOffset()) || unit.size() != MSG_SIZE) {
                        synchronized (problems) {
                            problems.add(unit.toString());
                        }
                    }
                }
                next += batch.size();
            }
            if (next < total) {
                synchronized (problems) {
                    problems.add("reader stopped at " + next);
                }
            }
        });
        reader.start();
        dispatchMessages(TOPIC, 0, 0, total);
        reader.join(30_000);
        assertFalse(reader.isAlive());
        assertEquals(List.of(), problems);
    }

    @Test
    void providersAreFoundByNameAndOfferTheirViews() {
        assertEquals("consume-queue", DispatchFixture.provider("consume-queue").name());
        assertTrue(dispatcher.view(ConsumeQueueView.class).isPresent());
        assertTrue(dispatcher.view(KeyIndexView.class).isEmpty());
    }
}
