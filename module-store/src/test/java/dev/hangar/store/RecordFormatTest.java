package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.format.CommitLogRecordFormat;
import dev.hangar.store.format.MessageEncoder;
import dev.hangar.store.format.MessageIdCodec;
import dev.hangar.store.format.RecordDecoder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class RecordFormatTest {
    private static final InetSocketAddress STORE_V4 = new InetSocketAddress("127.0.0.1", 10911);
    private static final int MAX = 4 * 1024 * 1024;

    private static ByteBuffer encodeStamped(Message m, InetSocketAddress storeHost, long queueOffset, long phy, long ts) {
        MessageEncoder e = new MessageEncoder(MAX);
        assertEquals(PutMessageStatus.PUT_OK, e.encode(m, storeHost));
        e.stamp(0, queueOffset, phy, ts);
        ByteBuffer b = ByteBuffer.allocate(e.encodedLength());
        e.copyTo(b);
        return b;
    }

    @Test
    void ipv4RecordHasThe88ByteFixedPartAndDecodesFieldByField() throws Exception {
        Message m = new Message("FooBar", "hello".getBytes(StandardCharsets.UTF_8))
                .queueId(3).flag(7).keys("k1", "k2").tags("TAG1").bornTimestamp(123456789L)
                .bornHost(new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 4567)).reconsumeTimes(2)
                .preparedTransactionOffset(99);
        m.property("ünïcödé", "值 ✓");
        ByteBuffer b = encodeStamped(m, STORE_V4, 42, 1000, 555L);

        String props = "KEYS\u0001k1 k2\u0002TAGS\u0001TAG1\u0002ünïcödé\u0001值 ✓"; // RocketMQ: no trailing separator
        int propLen = props.getBytes(StandardCharsets.UTF_8).length;
        assertEquals(88 + 5 + 1 + 6 + 2 + propLen, b.getInt(0), "total size");
        assertEquals(CommitLogRecordFormat.MESSAGE_MAGIC_CODE, b.getInt(4));
        CRC32 crc = new CRC32();
        crc.update("hello".getBytes(StandardCharsets.UTF_8));
        assertEquals((int) (crc.getValue() & 0x7FFFFFFF), b.getInt(8), "body CRC as RocketMQ computes it");
        assertEquals(5, b.getInt(84), "body length at 84 for IPv4 hosts");

        RecordDecoder.Check check = RecordDecoder.check(b, 0, b.capacity(), true);
        assertEquals(RecordDecoder.Kind.MESSAGE, check.kind());
        StoredMessage d = RecordDecoder.decode(b, 0);
        assertEquals("FooBar", d.topic());
        assertEquals(3, d.queueId());
        assertEquals(7, d.flag());
        assertEquals(42, d.queueOffset());
        assertEquals(1000, d.commitLogOffset());
        assertEquals(555L, d.storeTimestamp());
        assertEquals(123456789L, d.bornTimestamp());
        assertEquals(new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 4567), d.bornHost());
        assertEquals(STORE_V4, d.storeHost());
        assertEquals(2, d.reconsumeTimes());
        assertEquals(99, d.preparedTransactionOffset());
        assertEquals("k1 k2", d.keys());
        assertEquals("TAG1", d.tags());
        assertEquals("值 ✓", d.property("ünïcödé"));
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), d.body());
        assertEquals(32, d.msgId().length());
        assertEquals(1000, MessageIdCodec.decode(d.msgId()).commitLogOffset());
    }

    @Test
    void ipv6HostsWidenTheHostFieldsAndSetTheSysFlagBits() throws Exception {
        InetSocketAddress born = new InetSocketAddress(InetAddress.getByName("1050:0000:0000:0000:0005:0600:300c:326b"), 1);
        InetSocketAddress store = new InetSocketAddress(InetAddress.getByName("::1"), 10911);
        Message m = new Message("FooBar", new byte[] {1, 2, 3}).bornHost(born);
        ByteBuffer b = encodeStamped(m, store, 0, 0, 1L);
        int sysFlag = b.getInt(36);
        assertTrue((sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) != 0);
        assertTrue((sysFlag & MessageSysFlag.STOREHOST_V6_FLAG) != 0);
        assertEquals(88 + 24 + 3 + 1 + 6 + 2, b.getInt(0));
        StoredMessage d = RecordDecoder.decode(b, 0);
        assertEquals(born, d.bornHost());
        assertEquals(store, d.storeHost());
        assertEquals(56, d.msgId().length(), "an IPv6 offset msgId has 56 hex characters");
    }

    @Test
    void emptyBodyAndMaxSizeBodyRoundTrip() {
        for (int size : new int[] {0, MAX}) {
            byte[] body = new byte[size];
            for (int i = 0; i < size; i++) {
                body[i] = (byte) (i * 31);
            }
            ByteBuffer b = encodeStamped(new Message("T", body), STORE_V4, 1, 2, 3);
            assertEquals(RecordDecoder.Kind.MESSAGE, RecordDecoder.check(b, 0, b.capacity(), true).kind());
            assertArrayEquals(body, RecordDecoder.decode(b, 0).body());
        }
    }

    @Test
    void bodyOverMaxPropertiesOver32767AndLongTopicsAreRefused() {
        MessageEncoder e = new MessageEncoder(MAX);
        assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, e.encode(new Message("T", new byte[MAX + 1]), STORE_V4));
        Message big = new Message("T", new byte[1]).property("p", "x".repeat(32768));
        assertEquals(PutMessageStatus.PROPERTIES_SIZE_EXCEEDED, e.encode(big, STORE_V4));
        assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, e.encode(new Message("t".repeat(128), new byte[1]), STORE_V4));
    }

    @Test
    void batchEncodesConsecutiveRecordsEachStampedWithItsOwnOffsets() {
        MessageEncoder e = new MessageEncoder(MAX);
        List<Message> batch = List.of(new Message("B", new byte[] {1}), new Message("B", new byte[] {2, 2}),
                new Message("B", new byte[] {3, 3, 3}));
        assertEquals(PutMessageStatus.PUT_OK, e.encodeBatch(batch, STORE_V4));
        assertEquals(3, e.recordCount());
        for (int i = 0; i < 3; i++) {
            e.stamp(i, 10 + i, 5000 + e.recordStart(i), 77);
        }
        ByteBuffer b = ByteBuffer.allocate(e.encodedLength());
        e.copyTo(b);
        int pos = 0;
        for (int i = 0; i < 3; i++) {
            RecordDecoder.Check c = RecordDecoder.check(b, pos, b.capacity() - pos, true);
            assertEquals(RecordDecoder.Kind.MESSAGE, c.kind());
            StoredMessage d = RecordDecoder.decode(b, pos);
            assertEquals(10 + i, d.queueOffset());
            assertEquals(5000 + pos, d.commitLogOffset());
            assertEquals(i + 1, d.body().length);
            pos += c.size();
        }
        assertEquals(b.capacity(), pos);
    }

    @Test
    void corruptionIsDetected() {
        ByteBuffer b = encodeStamped(new Message("T", "body!".getBytes(StandardCharsets.UTF_8)), STORE_V4, 0, 0, 1);
        ByteBuffer flipped = ByteBuffer.allocate(b.capacity()).put(b.array());
        flipped.put(89, (byte) (flipped.get(89) ^ 0x40));
        assertEquals(RecordDecoder.Kind.INVALID, RecordDecoder.check(flipped, 0, flipped.capacity(), true).kind(),
                "a flipped body byte fails the CRC");
        assertEquals(RecordDecoder.Kind.INVALID, RecordDecoder.check(b, 0, b.capacity() - 1, true).kind(),
                "a truncated record is invalid");
        assertEquals(RecordDecoder.Kind.END, RecordDecoder.check(ByteBuffer.allocate(64), 0, 64, true).kind(),
                "zeros are the end of the log");
    }

    @Test
    void theDispatchViewCarriesTheTagHashKeysAndUniqueKeyDecodedInOnePass() {
        for (String tag : new String[] {"TAG1", "标签"}) {
            Message m = new Message("FooBar", "x".getBytes(StandardCharsets.UTF_8)).queueId(1).keys("k1", "k2")
                    .tags(tag);
            m.property("TAGSX", "decoy");
            m.property(dev.hangar.spi.message.MessageConst.UNIQ_KEY, "U-1");
            dev.hangar.spi.dispatch.DispatchRequest r = RecordDecoder.toDispatchRequest(
                    encodeStamped(m, STORE_V4, 5, 2000, 777L), 0);
            assertEquals("FooBar", r.topic());
            assertEquals(tag.hashCode(), r.tagsCode(), tag);
            assertEquals("k1 k2", r.keys());
            assertEquals("U-1", r.uniqKey());
            assertEquals(2000, r.commitLogOffset());
            assertEquals(5, r.consumeQueueOffset());
            assertEquals("decoy", r.properties().get("TAGSX"));
        }
        dev.hangar.spi.dispatch.DispatchRequest bare = RecordDecoder.toDispatchRequest(
                encodeStamped(new Message("FooBar", new byte[1]), STORE_V4, 0, 0, 1L), 0);
        assertEquals(0, bare.tagsCode());
        assertEquals(null, bare.keys());
        assertEquals(null, bare.uniqKey());
    }

    @Test
    void theReusedDispatchViewGivesTheKeyBytesInPlaceAndStableCopies() {
        Message first = new Message("Orders", "x".getBytes(StandardCharsets.UTF_8)).queueId(2)
                .keys("k-1", "ключ", "k-3").tags("T1");
        first.property(dev.hangar.spi.message.MessageConst.UNIQ_KEY, "U-1");
        first.property("DELAY", "3");
        Message second = new Message("Orders", "y".getBytes(StandardCharsets.UTF_8)).queueId(2).keys("other");
        dev.hangar.store.format.DispatchRecordView view = new dev.hangar.store.format.DispatchRecordView();
        dev.hangar.spi.dispatch.DispatchRequest r = view.wrap(encodeStamped(first, STORE_V4, 7, 3000, 1L), 0);
        java.util.List<String> keys = new java.util.ArrayList<>();
        r.forEachKey((bytes, offset, length) -> {
            byte[] key = new byte[length];
            bytes.get(offset, key);
            keys.add(new String(key, StandardCharsets.UTF_8));
        });
        assertEquals(java.util.List.of("k-1", "ключ", "k-3"), keys, "each key, split in place");
        byte[] uniq = new byte[r.uniqKeyLength()];
        r.bytes().get(r.uniqKeyOffset(), uniq);
        assertEquals("U-1", new String(uniq, StandardCharsets.UTF_8));
        byte[] topic = new byte[r.topicLength()];
        r.bytes().get(r.topicOffset(), topic);
        assertEquals("Orders", new String(topic, StandardCharsets.UTF_8));
        assertEquals(true, r.bytes().isReadOnly(), "a dispatcher cannot write into the CommitLog");
        assertEquals("3", r.property("DELAY"));
        assertEquals(null, r.property("NOPE"));
        // what a dispatcher keeps past dispatch(): the Strings, the map and copy() are copies that never change
        String keptKeys = r.keys();
        String keptUniq = r.uniqKey();
        java.util.Map<String, String> keptProperties = r.properties();
        dev.hangar.spi.dispatch.DispatchRequest kept = r.copy();
        assertEquals(true, view.wrap(encodeStamped(second, STORE_V4, 8, 4000, 2L), 0) == r, "one view, re-pointed");
        assertEquals("other", r.keys());
        assertEquals(null, r.uniqKey());
        assertEquals(0, r.uniqKeyLength());
        assertEquals("k-1 ключ k-3", keptKeys);
        assertEquals("U-1", keptUniq);
        assertEquals("T1", keptProperties.get("TAGS"));
        assertEquals(3000, kept.commitLogOffset());
        assertEquals(7, kept.consumeQueueOffset());
        assertEquals("T1".hashCode(), kept.tagsCode());
        assertEquals("k-1 ключ k-3", kept.keys());
        java.util.List<String> keptKeyBytes = new java.util.ArrayList<>();
        kept.forEachKey((bytes, offset, length) -> {
            byte[] key = new byte[length];
            bytes.get(offset, key);
            keptKeyBytes.add(new String(key, StandardCharsets.UTF_8));
        });
        assertEquals(java.util.List.of("k-1", "ключ", "k-3"), keptKeyBytes, "a copy offers the same byte view");
    }
}
