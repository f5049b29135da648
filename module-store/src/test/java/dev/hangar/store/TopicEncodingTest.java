package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.format.MessageEncoder;
import dev.hangar.store.format.RecordDecoder;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A record's topic is its UTF-8 bytes behind a one-byte length. ASCII topics (all that RocketMQ's topic rule allows)
 * are copied char by char, with no per-thread cache: the cache of topic bytes thrashed past 1 024 topics, so with
 * thousands of topics each put allocated its topic's bytes and a map node. Other topics still encode as UTF-8.
 */
class TopicEncodingTest {
    private static final InetSocketAddress STORE = new InetSocketAddress("127.0.0.1", 10911);
    private static final int MAX = 4 * 1024 * 1024;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static String decodedTopic(MessageEncoder e) {
        e.stamp(0, 0, 0, 1L);
        ByteBuffer b = ByteBuffer.allocate(e.encodedLength());
        e.copyTo(b);
        return RecordDecoder.decode(b, 0).topic();
    }

    @Test
    void aNonAsciiTopicIsWrittenAsUtf8AndItsByteLengthIsWhatIsBounded() {
        MessageEncoder e = new MessageEncoder(MAX);
        String topic = "订单-ü";
        assertEquals(PutMessageStatus.PUT_OK, e.encode(new Message(topic, new byte[] {1}), STORE));
        assertEquals(topic, decodedTopic(e));

        String asciiAtTheLimit = "t".repeat(127);
        assertEquals(PutMessageStatus.PUT_OK, e.encode(new Message(asciiAtTheLimit, new byte[] {1}), STORE));
        assertEquals(asciiAtTheLimit, decodedTopic(e));
        String shortButLongInUtf8 = "é".repeat(64); // 64 chars, 128 bytes
        assertEquals(128, shortButLongInUtf8.getBytes(StandardCharsets.UTF_8).length);
        assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, e.encode(new Message(shortButLongInUtf8, new byte[] {1}), STORE));
        assertTrue(e.failureReason().contains("128 bytes"), e.failureReason());
    }

    @Test
    void thousandsOfAsciiTopicsCostNoAllocationPerEncode() {
        int topics = 5_000;
        Message[] messages = new Message[topics];
        for (int i = 0; i < topics; i++) {
            messages[i] = new Message("topic-" + i, new byte[256]).keys("k" + i).tags("t");
        }
        MessageEncoder e = new MessageEncoder(MAX);
        for (int round = 0; round < 20; round++) { // warm-up: let the JIT compile the encode path
            for (Message m : messages) {
                assertEquals(PutMessageStatus.PUT_OK, e.encode(m, STORE));
            }
        }
        int encodes = 4 * topics;
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < encodes; i++) {
            e.encode(messages[i % topics], STORE);
        }
        double perEncode = (double) (THREADS.getCurrentThreadAllocatedBytes() - before) / encodes;
        System.out.printf("%.1f B allocated per encode over %d topics%n", perEncode, topics);
        // the cache of topic bytes, past its 1 024 entries, allocated ~60 B per encode here (bytes + map node)
        assertTrue(perEncode < 8, perEncode + " B allocated per encode over " + topics + " topics");
        assertEquals("topic-" + ((encodes - 1) % topics), decodedTopic(e));
    }
}
