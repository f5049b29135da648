package dev.hangar.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.compat.support.HangarSide;
import dev.hangar.spi.message.Message;
import dev.hangar.store.DefaultMessageStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.apache.rocketmq.broker.offset.ConsumerOffsetManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code config/consumerOffset.json} both ways, through RocketMQ's own {@link ConsumerOffsetManager} (4.9.7's,
 * source-identical to 4.9.8's with its {@code ConfigManager} and {@code MixAll.string2File}): its {@code load()}
 * reads what Hangar saved, and Hangar takes over what its {@code persist()} wrote.
 */
class ConsumerOffsetFileInterplayTest {
    private static final String HOST = "127.0.0.1:10911";

    @TempDir
    Path dir;

    /** RocketMQ's manager on this store's file (a broker finds it under its storePathRootDir the same way). */
    private ConsumerOffsetManager rocketMq() {
        String path = dir.resolve("config").resolve("consumerOffset.json").toString();
        return new ConsumerOffsetManager() {
            @Override
            public String configFilePath() {
                return path;
            }
        };
    }

    private static void fill(DefaultMessageStore store, String topic, int queues, int perQueue) {
        for (int i = 0; i < queues * perQueue; i++) {
            assertTrue(store.putMessage(new Message(topic, ("m" + i).getBytes(StandardCharsets.UTF_8))
                    .queueId(i % queues)).isOk());
        }
        long deadline = System.currentTimeMillis() + 30_000;
        while (store.getMaxOffsetInQueue(topic, queues - 1) < perQueue && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
    }

    @Test
    void rocketMqLoadsTheOffsetsHangarSaved() {
        HangarSide hangar = HangarSide.open(dir, HOST);
        try {
            fill(hangar.store(), "TopicTest", 4, 300);
            assertTrue(hangar.store().consumerOffsets().commit("GroupA", "TopicTest", 0, 250).isCommitted());
            assertTrue(hangar.store().consumerOffsets().commit("GroupA", "TopicTest", 3, 253).isCommitted());
            assertTrue(hangar.store().consumerOffsets().commit("GroupB", "TopicTest", 1, 7).isCommitted());
        } finally {
            hangar.store().shutdown();
        }
        ConsumerOffsetManager manager = rocketMq();
        assertTrue(manager.load(), "RocketMQ's ConfigManager.load() decodes the file");
        assertEquals(250, manager.queryOffset("GroupA", "TopicTest", 0));
        assertEquals(253, manager.queryOffset("GroupA", "TopicTest", 3));
        assertEquals(7, manager.queryOffset("GroupB", "TopicTest", 1));
        assertEquals(-1, manager.queryOffset("GroupB", "TopicTest", 0));
        assertEquals(2, manager.getOffsetTable().size());
    }

    @Test
    void hangarTakesOverAFileRocketMqPersistedAndRocketMqReadsItBack() throws Exception {
        HangarSide first = HangarSide.open(dir, HOST);
        try {
            fill(first.store(), "TopicTest", 2, 100);
        } finally {
            first.store().shutdown();
        }
        Files.delete(dir.resolve("config").resolve("consumerOffset.json"));
        Files.deleteIfExists(dir.resolve("config").resolve("consumerOffset.json.bak"));
        ConsumerOffsetManager writer = rocketMq();
        writer.commitOffset("127.0.0.1", "GroupR", "TopicTest", 0, 40);
        writer.commitOffset("127.0.0.1", "GroupR", "TopicTest", 1, 41);
        writer.commitOffset("127.0.0.1", "GroupR", "%RETRY%GroupR", 0, 3);
        writer.persist();
        assertTrue(Files.readString(dir.resolve("config").resolve("consumerOffset.json")).contains("TopicTest@GroupR"));

        HangarSide hangar = HangarSide.open(dir, HOST);
        try {
            var offsets = hangar.store().consumerOffsets();
            assertEquals(OptionalLong.of(40), offsets.committed("GroupR", "TopicTest", 0));
            assertEquals(OptionalLong.of(41), offsets.committed("GroupR", "TopicTest", 1));
            assertEquals(OptionalLong.of(3), offsets.committed("GroupR", "%RETRY%GroupR", 0));
            assertTrue(offsets.commit("GroupR", "TopicTest", 1, 90).isCommitted());
        } finally {
            hangar.store().shutdown();
        }
        ConsumerOffsetManager reader = rocketMq();
        assertTrue(reader.load());
        assertEquals(40, reader.queryOffset("GroupR", "TopicTest", 0));
        assertEquals(90, reader.queryOffset("GroupR", "TopicTest", 1), "the commit Hangar made after the takeover");
        assertEquals(3, reader.queryOffset("GroupR", "%RETRY%GroupR", 0));
    }
}
