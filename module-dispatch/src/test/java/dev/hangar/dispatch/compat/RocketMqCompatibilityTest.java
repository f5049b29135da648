package dev.hangar.dispatch.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.spi.message.MessageSysFlag;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.stream.Stream;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.DispatchRequest;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.index.IndexFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Byte compatibility with Apache RocketMQ 4.9.8's own ConsumeQueue and IndexFile classes: each side reads what the
 * other wrote. RocketMQ's DefaultMessageStore (only needed for its config, flags and checkpoint) lives in a scratch
 * directory; the ConsumeQueues and index files under test are in the Hangar store directory.
 */
class RocketMqCompatibilityTest {
    static final String TOPIC = "FooBar";
    static final int UNITS_PER_FILE = 10;
    static final int CQ_FILE_SIZE = UNITS_PER_FILE * 20;
    static final int SLOTS = 100;
    static final int ENTRIES = 400;
    static final long BASE_TIME = 1_700_000_000_000L;

    @TempDir
    Path root;
    @TempDir
    Path rocketScratch;
    DispatchFixture fixture;
    DefaultMessageStore rocketStore;

    @BeforeEach
    void setUp() throws Exception {
        fixture = new DispatchFixture(root).with(StoreConfigKeys.MAPPED_FILE_SIZE_CONSUME_QUEUE, CQ_FILE_SIZE)
                .with(StoreConfigKeys.MAX_HASH_SLOT_NUM, SLOTS).with(StoreConfigKeys.MAX_INDEX_NUM, ENTRIES);
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(rocketScratch.toString());
        config.setStorePathCommitLog(rocketScratch.resolve("commitlog").toString());
        config.setMappedFileSizeConsumeQueue(CQ_FILE_SIZE);
        config.setMaxHashSlotNum(SLOTS);
        config.setMaxIndexNum(ENTRIES);
        config.setHaListenPort(0);
        rocketStore = new DefaultMessageStore(config, null, null, new BrokerConfig());
        assertTrue(rocketStore.load());
    }

    @AfterEach
    void tearDown() {
        rocketStore.shutdown();
        fixture.close();
    }

    static long phy(long i) {
        return 1000 + i * 100;
    }

    ConsumeQueue rocketQueue(int queueId) {
        return new ConsumeQueue(TOPIC, queueId, root.resolve("consumequeue").toString(), CQ_FILE_SIZE, rocketStore);
    }

    static long[] rocketUnit(ConsumeQueue queue, long offset) {
        SelectMappedBufferResult result = queue.getIndexBuffer(offset);
        assertNotNull(result, "RocketMQ finds queue offset " + offset);
        try {
            ByteBuffer buffer = result.getByteBuffer();
            return new long[] {buffer.getLong(), buffer.getInt(), buffer.getLong()};
        } finally {
            result.release();
        }
    }

    @Test
    void rocketMqReadsConsumeQueuesWrittenByHangar() {
        CommitLogDispatcher hangar = fixture.open("consume-queue");
        for (long i = 0; i < 25; i++) {
            hangar.dispatch(fixture.message(TOPIC, 0, i, phy(i), 100, BASE_TIME + i));
        }
        for (long i = 103; i < 106; i++) {
            hangar.dispatch(fixture.message(TOPIC, 1, i, phy(i), 100, BASE_TIME + i));
        }
        hangar.close();

        ConsumeQueue queue = rocketQueue(0);
        assertTrue(queue.load());
        queue.recover();
        queue.correctMinOffset(phy(0));
        assertEquals(25, queue.getMaxOffsetInQueue());
        assertEquals(0, queue.getMinOffsetInQueue());
        assertEquals(phy(24) + 100, queue.getMaxPhysicOffset());
        for (long i = 0; i < 25; i++) {
            long[] unit = rocketUnit(queue, i);
            assertEquals(phy(i), unit[0]);
            assertEquals(100, unit[1]);
            assertEquals(("tag" + i).hashCode(), unit[2]);
        }

        ConsumeQueue preFilled = rocketQueue(1);
        assertTrue(preFilled.load());
        preFilled.recover();
        preFilled.correctMinOffset(phy(0));
        assertEquals(106, preFilled.getMaxOffsetInQueue());
        assertEquals(103, preFilled.getMinOffsetInQueue());
        assertEquals(phy(104), rocketUnit(preFilled, 104)[0]);
    }

    @Test
    void hangarReadsConsumeQueuesWrittenByRocketMq() {
        ConsumeQueue queue = rocketQueue(0);
        ConsumeQueue preFilled = rocketQueue(1);
        for (long i = 0; i < 25; i++) {
            queue.putMessagePositionInfoWrapper(rocketRequest(0, i, phy(i)), false);
        }
        for (long i = 103; i < 106; i++) {
            preFilled.putMessagePositionInfoWrapper(rocketRequest(1, i, phy(i)), false);
        }
        for (int i = 0; i < 5; i++) {
            queue.flush(0);
            preFilled.flush(0);
        }

        fixture.commitLog.minOffset(phy(0));
        CommitLogDispatcher hangar = fixture.open("consume-queue");
        ConsumeQueueView view = hangar.view(ConsumeQueueView.class).orElseThrow();
        assertEquals(25, view.maxOffset(TOPIC, 0));
        assertEquals(0, view.minOffset(TOPIC, 0));
        assertEquals(phy(105) + 100, hangar.durableOffset(), "the furthest unit over both queues");
        List<CqUnit> units = new ArrayList<>();
        for (long offset = 0; offset < 25; offset = view.rollNextFile(TOPIC, 0, offset)) {
            units.addAll(view.read(TOPIC, 0, offset, 100));
        }
        for (int i = 0; i < 25; i++) {
            assertEquals(new CqUnit(i, phy(i), 100, ("tag" + i).hashCode()), units.get(i));
        }
        assertEquals(103, view.minOffset(TOPIC, 1));
        assertEquals(106, view.maxOffset(TOPIC, 1));
        assertEquals(phy(105), view.read(TOPIC, 1, 105, 1).get(0).commitLogOffset());
        hangar.close();
    }

    static DispatchRequest rocketRequest(int queueId, long queueOffset, long commitLogOffset) {
        return new DispatchRequest(TOPIC, queueId, commitLogOffset, 100, ("tag" + queueOffset).hashCode(),
                BASE_TIME + queueOffset, queueOffset, null, null, 0, 0, new HashMap<>());
    }

    @Test
    void rocketMqReadsIndexFilesWrittenByHangar() throws Exception {
        CommitLogDispatcher hangar = fixture.open("index");
        for (int i = 0; i < 450; i++) {
            hangar.dispatch(fixture.request(TOPIC, 0, i, phy(i), 100, BASE_TIME + i * 1000L, "k" + i + " all",
                    i == 7 ? "UNIQ7" : null, MessageSysFlag.TRANSACTION_NOT_TYPE));
        }
        hangar.close();

        List<Path> files = indexFiles();
        assertEquals(3, files.size(), "399 keys per file, 901 keys");
        IndexFile first = new IndexFile(files.get(0).toString(), SLOTS, ENTRIES, 0, 0);
        first.load();
        assertTrue(first.isWriteFull());
        List<Long> offsets = new ArrayList<>();
        first.selectPhyOffset(offsets, TOPIC + "#k60", 10, 0, Long.MAX_VALUE);
        assertEquals(List.of(phy(60)), offsets);
        offsets.clear();
        first.selectPhyOffset(offsets, TOPIC + "#UNIQ7", 10, 0, Long.MAX_VALUE);
        assertEquals(List.of(phy(7)), offsets);

        IndexFile last = new IndexFile(files.get(2).toString(), SLOTS, ENTRIES, 0, 0);
        last.load();
        assertEquals(phy(449), last.getEndPhyOffset());
        assertEquals(BASE_TIME + 449_000, last.getEndTimestamp());
        offsets.clear();
        last.selectPhyOffset(offsets, TOPIC + "#all", 100, BASE_TIME + 440_000, Long.MAX_VALUE);
        assertEquals(List.of(phy(449), phy(448), phy(447), phy(446), phy(445), phy(444), phy(443), phy(442),
                phy(441), phy(440)), offsets);
    }

    @Test
    void hangarReadsIndexFilesWrittenByRocketMq() throws Exception {
        Path dir = Files.createDirectories(root.resolve("index"));
        String name = UtilAll.timeMillisToHumanString(System.currentTimeMillis());
        IndexFile rocket = new IndexFile(dir.resolve(name).toString(), SLOTS, ENTRIES, 0, 0);
        for (int i = 0; i < 100; i++) {
            assertTrue(rocket.putKey(TOPIC + "#k" + (i % 10), phy(i), BASE_TIME + i * 1000L));
        }
        rocket.flush();

        CommitLogDispatcher hangar = fixture.open("index");
        KeyIndexView view = hangar.view(KeyIndexView.class).orElseThrow();
        assertEquals(phy(99), hangar.durableOffset());
        assertEquals(BASE_TIME + 99_000, view.lastUpdateTimestamp());
        List<Long> offsets = view.queryOffsets(TOPIC, "k3", 100, 0, Long.MAX_VALUE);
        assertEquals(10, offsets.size());
        assertEquals(phy(93), offsets.get(0));
        assertEquals(phy(3), offsets.get(9));
        assertEquals(List.of(phy(93), phy(83)), view.queryOffsets(TOPIC, "k3", 100, BASE_TIME + 80_000, Long.MAX_VALUE));
        assertFalse(view.queryOffsets(TOPIC, "k3", 100, 0, Long.MAX_VALUE).contains(phy(4)));

        // Hangar goes on writing into RocketMQ's file, and RocketMQ still reads it
        hangar.dispatch(fixture.request(TOPIC, 0, 100, phy(100), 100, BASE_TIME + 100_000, "k3", null,
                MessageSysFlag.TRANSACTION_NOT_TYPE));
        hangar.close();
        IndexFile reread = new IndexFile(dir.resolve(name).toString(), SLOTS, ENTRIES, 0, 0);
        reread.load();
        List<Long> rocketOffsets = new ArrayList<>();
        reread.selectPhyOffset(rocketOffsets, TOPIC + "#k3", 100, 0, Long.MAX_VALUE);
        assertEquals(11, rocketOffsets.size());
        assertEquals(phy(100), rocketOffsets.get(0));
    }

    List<Path> indexFiles() throws Exception {
        try (Stream<Path> files = Files.list(root.resolve("index"))) {
            return files.sorted().toList();
        }
    }
}
