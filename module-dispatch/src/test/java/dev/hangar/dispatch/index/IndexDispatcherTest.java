package dev.hangar.dispatch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.spi.format.IndexFileFormat;
import dev.hangar.spi.message.MessageSysFlag;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The index dispatcher on real files of 100 slots and 400 entries. */
class IndexDispatcherTest {
    static final String TOPIC = "FooBar";
    static final long BASE_TIME = 1_700_000_000_000L;
    static final int MSG_SIZE = 100;
    static final long ALL_TIME = Long.MAX_VALUE;

    @TempDir
    Path root;
    DispatchFixture fixture;
    CommitLogDispatcher dispatcher;
    KeyIndexView view;

    @BeforeEach
    void open() {
        fixture = new DispatchFixture(root).with(StoreConfigKeys.MAX_HASH_SLOT_NUM, 100)
                .with(StoreConfigKeys.MAX_INDEX_NUM, 400);
        reopen(true);
    }

    @AfterEach
    void close() {
        dispatcher.close();
        fixture.close();
    }

    void reopen(boolean clean) {
        if (dispatcher != null) {
            dispatcher.close();
        }
        dispatcher = fixture.open("index", clean);
        view = dispatcher.view(KeyIndexView.class).orElseThrow();
    }

    static long phy(long i) {
        return i * MSG_SIZE;
    }

    void dispatch(long i, String keys, String uniqKey) {
        dispatcher.dispatch(fixture.request(TOPIC, 0, i, phy(i), MSG_SIZE, BASE_TIME + i * 1000, keys, uniqKey,
                MessageSysFlag.TRANSACTION_NOT_TYPE));
        dispatcher.endBatch(); // as the reput loop does after each batch of records
    }

    List<Path> indexFiles() throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("index"))) {
            return files.sorted().toList();
        }
    }

    List<Long> query(String key) {
        return view.queryOffsets(TOPIC, key, 1000, 0, ALL_TIME);
    }

    @Test
    void aFileTakes399KeysAndThe400thRollsToANewFileRecordedInTheCheckpoint() throws IOException {
        for (int i = 0; i < 399; i++) {
            dispatch(i, "k" + i, null);
        }
        assertEquals(1, indexFiles().size());
        assertEquals(0, fixture.checkpoint.indexMsgTimestamp());

        dispatch(399, "k399", null);

        List<Path> files = indexFiles();
        assertEquals(2, files.size());
        assertTrue(files.get(0).getFileName().toString().matches("\\d{17}"));
        assertTrue(files.get(0).getFileName().toString().compareTo(files.get(1).getFileName().toString()) < 0);
        assertEquals(BASE_TIME + 398_000, fixture.checkpoint.indexMsgTimestamp());
        assertTrue(fixture.checkpoint.flushes() > 0);
        ByteBuffer first = ByteBuffer.wrap(Files.readAllBytes(files.get(0)));
        assertEquals(400, first.getInt(36), "the full file's header is on disk");
        assertEquals(phy(398), first.getLong(24));
        assertEquals(List.of(phy(399)), query("k399"));
        assertEquals(List.of(phy(5)), query("k5"));
        assertEquals(phy(399), dispatcher.durableOffset());
    }

    @Test
    void aKeyQueryReturnsExactlyTheEntriesOfThatKeyNewestFirst() {
        for (int i = 0; i < 50; i++) {
            dispatch(i, "order-" + (i % 5), null);
        }
        assertEquals(List.of(phy(48), phy(43), phy(38), phy(33), phy(28), phy(23), phy(18), phy(13), phy(8), phy(3)),
                query("order-3"));
        assertEquals(3, view.queryOffsets(TOPIC, "order-3", 3, 0, ALL_TIME).size());
        assertEquals(List.of(), query("order-9"));
        assertEquals(List.of(), view.queryOffsets("OtherTopic", "order-3", 100, 0, ALL_TIME));
    }

    @Test
    void keysWithTheSameHashAreBothReturnedForTheCallerToReCheck() {
        assertEquals("Aa".hashCode(), "BB".hashCode());
        dispatch(0, "Aa", null);
        dispatch(1, "BB", null);
        dispatch(2, "Ab", null);

        assertEquals(List.of(phy(1), phy(0)), query("Aa"));
        assertEquals(List.of(phy(1), phy(0)), query("BB"));
        assertEquals(List.of(phy(2)), query("Ab"));
    }

    @Test
    void theUniqKeyAndEveryKeysTokenAreIndexed() {
        dispatch(0, "alpha  beta gamma", "UNIQ-0");
        dispatch(1, null, "UNIQ-1");
        dispatch(2, "", null);

        for (String key : List.of("alpha", "beta", "gamma", "UNIQ-0")) {
            assertEquals(List.of(phy(0)), query(key), key);
        }
        assertEquals(List.of(phy(1)), query("UNIQ-1"));
        assertEquals(List.of(), query(""));
        IndexFile file = ((IndexDispatcher) dispatcher).files().get(0);
        assertEquals(1 + 5, file.indexCount());
    }

    @Test
    void queriesKeepToTheTimeWindow() {
        for (int i = 0; i < 10; i++) {
            dispatcher.dispatch(fixture.request(TOPIC, 0, i, phy(i), MSG_SIZE, BASE_TIME + i * 10_000L, "same", null,
                    MessageSysFlag.TRANSACTION_NOT_TYPE));
            dispatcher.endBatch(); // as the reput loop does after each batch of records
        }
        assertEquals(List.of(phy(6), phy(5), phy(4), phy(3)),
                view.queryOffsets(TOPIC, "same", 100, BASE_TIME + 30_000, BASE_TIME + 60_000));
        assertEquals(List.of(), view.queryOffsets(TOPIC, "same", 100, 0, BASE_TIME - 1));
        assertEquals(List.of(), view.queryOffsets(TOPIC, "same", 100, BASE_TIME + 90_001, ALL_TIME));
        assertEquals(10, view.queryOffsets(TOPIC, "same", 100, BASE_TIME, BASE_TIME + 90_000).size());
    }

    @Test
    void queriesWalkEveryFileNewestFirst() {
        for (int i = 0; i < 1000; i++) {
            dispatch(i, "all", null);
        }
        assertEquals(3, ((IndexDispatcher) dispatcher).files().size());
        List<Long> offsets = query("all");
        assertEquals(1000, offsets.size());
        assertEquals(phy(999), offsets.get(0));
        assertEquals(phy(0), offsets.get(999));
    }

    @Test
    void theIndexSurvivesACleanReload() {
        for (int i = 0; i < 500; i++) {
            dispatch(i, "k" + (i % 7), null);
        }
        long lastTime = view.lastUpdateTimestamp();
        reopen(true);

        assertEquals(2, ((IndexDispatcher) dispatcher).files().size());
        assertEquals(phy(499), dispatcher.durableOffset());
        assertEquals(phy(499), view.lastUpdatePhyOffset());
        assertEquals(lastTime, view.lastUpdateTimestamp());
        assertEquals(72, query("k0").size());
        dispatch(500, "k0", null);
        assertEquals(phy(500), query("k0").get(0));
    }

    @Test
    void anUncleanReloadKeepsTheFilesSoACrashDoesNotReDispatchTheWholeIndex() {
        for (int i = 0; i < 500; i++) {
            dispatch(i, "k" + i, null);
        }

        reopen(false);

        assertEquals(2, ((IndexDispatcher) dispatcher).files().size());
        assertEquals(phy(499), dispatcher.durableOffset(), "only the last record is sent again");
        assertEquals(List.of(phy(450)), query("k450"));
        dispatch(499, "k499", null);
        assertEquals(List.of(phy(499)), query("k499"), "not indexed twice");
    }

    @Test
    void anEmptyIndexFileLeftByACrashDuringItsCreationIsIgnoredThenDeletedOnTheNextWrite() throws IOException {
        for (int i = 0; i < 10; i++) {
            dispatch(i, "k" + i, null);
        }
        dispatcher.close();
        dispatcher = null;
        Path torn = root.resolve("index").resolve(IndexFileFormat.fileName(System.currentTimeMillis() + 60_000));
        Files.createFile(torn);

        reopen(false);

        assertEquals(List.of(phy(5)), query("k5"), "the keys of the older file are still found");
        assertTrue(Files.exists(torn), "nothing is deleted before the index is written");
        dispatch(10, "k10", null);
        assertEquals(List.of(phy(10)), query("k10"));
        assertFalse(Files.exists(torn), "the empty file is gone once the index is written");
        assertTrue(indexFiles().stream().allMatch(p -> p.toFile().length() > 0), indexFiles().toString());
        reopen(true);
        assertEquals(List.of(phy(10)), query("k10"));
    }

    @Test
    void withMessageIndexSafeAnUncleanReloadDropsFilesNewerThanTheCheckpointAsRocketMqDoes() {
        for (int i = 0; i < 500; i++) {
            dispatch(i, "k" + i, null);
        }
        long firstFileEnd = BASE_TIME + 398_000;
        assertEquals(firstFileEnd, fixture.checkpoint.indexMsgTimestamp());

        fixture.with(StoreConfigKeys.MESSAGE_INDEX_SAFE, true);
        reopen(false);

        assertEquals(1, ((IndexDispatcher) dispatcher).files().size());
        assertEquals(phy(398), dispatcher.durableOffset(), "recovery re-dispatches from the older file's end");
        assertEquals(List.of(), query("k450"));
        dispatch(398, "k398", null);
        for (int i = 399; i < 500; i++) {
            dispatch(i, "k" + i, null);
        }
        assertEquals(List.of(phy(398)), query("k398"), "the record at the end offset is not indexed twice");
        assertEquals(List.of(phy(450)), query("k450"));
    }

    @Test
    void rollbackRecordsAreSkippedAndPreparedOnesIndexed() {
        dispatcher.dispatch(fixture.request(TOPIC, 0, 0, phy(0), MSG_SIZE, BASE_TIME, "p", null,
                MessageSysFlag.TRANSACTION_PREPARED_TYPE));
        dispatcher.endBatch(); // as the reput loop does after each batch of records
        dispatcher.dispatch(fixture.request(TOPIC, 0, 0, phy(1), MSG_SIZE, BASE_TIME, "r", null,
                MessageSysFlag.TRANSACTION_ROLLBACK_TYPE));
        dispatcher.endBatch(); // as the reput loop does after each batch of records
        dispatcher.dispatch(fixture.request(TOPIC, 0, 0, phy(2), MSG_SIZE, BASE_TIME, "c", null,
                MessageSysFlag.TRANSACTION_COMMIT_TYPE));
        dispatcher.endBatch(); // as the reput loop does after each batch of records

        assertEquals(List.of(phy(0)), query("p"));
        assertEquals(List.of(), query("r"));
        assertEquals(List.of(phy(2)), query("c"));
    }

    @Test
    void aDisabledIndexWritesNothing() {
        dispatcher.close();
        fixture.with(StoreConfigKeys.MESSAGE_INDEX_ENABLE, false);
        dispatcher = fixture.open("index");
        dispatcher.dispatch(fixture.request(TOPIC, 0, 0, 0, MSG_SIZE, BASE_TIME, "k", "u",
                MessageSysFlag.TRANSACTION_NOT_TYPE));
        dispatcher.endBatch(); // as the reput loop does after each batch of records
        assertFalse(Files.exists(root.resolve("index")));
        assertEquals(Long.MAX_VALUE, dispatcher.durableOffset(), "a disabled index never asks for a re-dispatch");
    }

    @Test
    void reDispatchedRecordsAreNotIndexedTwice() {
        for (int i = 0; i < 10; i++) {
            dispatch(i, "k" + i + " all", "u" + i);
        }
        for (int i = 0; i < 10; i++) {
            dispatch(i, "k" + i + " all", "u" + i);
        }
        assertEquals(10, query("all").size());
        assertEquals(List.of(phy(9)), query("u9"));
        assertEquals(31, ((IndexDispatcher) dispatcher).files().get(0).indexCount());
    }

    @Test
    void truncateForgetsRecordsAtOrPastTheOffsetSoTheyCanBeIndexedAgain() throws IOException {
        for (int i = 0; i < 500; i++) {
            dispatch(i, "k" + i + " all", null);
        }
        assertEquals(3, indexFiles().size());

        dispatcher.truncate(phy(150));

        assertEquals(1, indexFiles().size(), "files beginning past the offset are deleted");
        assertEquals(phy(149), dispatcher.durableOffset());
        assertEquals(150, query("all").size());
        assertEquals(List.of(), query("k150"));
        for (int i = 150; i < 160; i++) {
            dispatch(i, "new" + i, null);
        }
        assertEquals(List.of(phy(155)), query("new155"));
        assertEquals(150, query("all").size());

        reopen(true);
        assertEquals(List.of(phy(155)), query("new155"));
        assertEquals(List.of(), query("k155"));
    }

    @Test
    void deleteExpiredRemovesOldFilesButNeverTheNewest() throws IOException {
        for (int i = 0; i < 1000; i++) {
            dispatch(i, "k" + i, null);
        }
        assertEquals(3, indexFiles().size());

        dispatcher.deleteExpired(phy(500));
        assertEquals(2, indexFiles().size());
        assertEquals(List.of(), query("k100"));
        assertEquals(List.of(phy(600)), query("k600"));

        dispatcher.deleteExpired(phy(5000));
        assertEquals(1, indexFiles().size());
        assertEquals(List.of(phy(999)), query("k999"));
    }

    @Test
    void anIndexFileTooLargeToMapIsRefusedUpFront() {
        dispatcher.close();
        fixture.with(StoreConfigKeys.MAX_HASH_SLOT_NUM, 5_000_000).with(StoreConfigKeys.MAX_INDEX_NUM, 200_000_000);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> fixture.open("index"));
        assertTrue(error.getMessage().contains("maxIndexNum"), error.getMessage());
        fixture.with(StoreConfigKeys.MAX_HASH_SLOT_NUM, 100).with(StoreConfigKeys.MAX_INDEX_NUM, 400);
        dispatcher = fixture.open("index");
    }

    @Test
    void theProviderIsFoundByNameAndOffersOnlyTheKeyView() {
        assertEquals("index", DispatchFixture.provider("index").name());
        assertTrue(dispatcher.view(KeyIndexView.class).isPresent());
        assertTrue(dispatcher.view(ConsumeQueueView.class).isEmpty());
    }
}
