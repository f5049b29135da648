package dev.hangar.store.format;

import static dev.hangar.store.format.CommitLogRecordFormat.MAX_PROPERTIES_LENGTH;
import static dev.hangar.store.format.CommitLogRecordFormat.MAX_TOPIC_LENGTH;
import static dev.hangar.store.format.CommitLogRecordFormat.MESSAGE_MAGIC_CODE;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.store.PutMessageStatus;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.zip.CRC32;

/**
 * Encodes messages into complete CommitLog records outside the put lock. Queue offset, physical offset and
 * store timestamp are left as placeholders; {@link #stamp} fills them in under the lock. One encoder per
 * thread (see {@link #forCurrentThread}); its buffer is reused and properties are written straight into it, so
 * encoding an ASCII message allocates nothing.
 */
public final class MessageEncoder {
    /**
     * Room for a 1 KiB message and its properties; grows for bigger ones. Each put thread holds an encoder (see
     * {@link #forCurrentThread}), so every new put thread pays for this start.
     */
    private static final int INITIAL_CAPACITY = 4 * 1024;

    private final int maxMessageSize;
    private static final int TOPIC_CACHE_LIMIT = 1024;
    private final CRC32 crc = new CRC32();
    private final Map<String, byte[]> topicCache = new HashMap<>();
    private final PropertyWriter propertyWriter = new PropertyWriter();
    private InetSocketAddress lastHostA;
    private byte[] lastHostABytes;
    private InetSocketAddress lastHostB;
    private byte[] lastHostBBytes;
    private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_CAPACITY);
    private int[] starts = new int[16];
    private int[] sysFlags = new int[16];
    private int count;
    private String failure;

    public MessageEncoder(int maxMessageSize) {
        this.maxMessageSize = maxMessageSize;
    }

    private static final ThreadLocal<MessageEncoder> LOCAL = new ThreadLocal<>();

    /** The calling thread's encoder, created for {@code maxMessageSize} (re-created when that changes). */
    public static MessageEncoder forCurrentThread(int maxMessageSize) {
        MessageEncoder e = LOCAL.get();
        if (e == null || e.maxMessageSize != maxMessageSize) {
            e = new MessageEncoder(maxMessageSize);
            LOCAL.set(e);
        }
        return e;
    }

    /** Encodes one message; PUT_OK or the status that refuses it (see {@link #failureReason()}). */
    public PutMessageStatus encode(Message message, InetSocketAddress storeHost) {
        reset();
        return append(message, storeHost, 0);
    }

    /** Encodes a batch as consecutive records; every message is checked, the first failure refuses the batch. */
    public PutMessageStatus encodeBatch(List<Message> batch, InetSocketAddress storeHost) {
        reset();
        for (Message m : batch) {
            PutMessageStatus s = append(m, storeHost, 0);
            if (s != PutMessageStatus.PUT_OK) {
                return s;
            }
        }
        return PutMessageStatus.PUT_OK;
    }

    private void reset() {
        buffer.clear();
        count = 0;
        failure = null;
    }

    private PutMessageStatus append(Message m, InetSocketAddress storeHost, int extraFlags) {
        byte[] body = m.body();
        if (body.length > maxMessageSize) {
            failure = "body of " + body.length + " bytes exceeds maxMessageSize " + maxMessageSize;
            return PutMessageStatus.MESSAGE_ILLEGAL;
        }
        String topicName = m.topic();
        int topicLength = asciiLength(topicName);
        // ASCII topics (all RocketMQ allows) are copied char by char; others go through the per-thread cache
        byte[] topicUtf8 = topicLength < 0 ? topicBytes(topicName) : null;
        if (topicUtf8 != null) {
            topicLength = topicUtf8.length;
        }
        if (topicLength > MAX_TOPIC_LENGTH) {
            failure = "topic of " + topicLength + " bytes exceeds " + MAX_TOPIC_LENGTH;
            return PutMessageStatus.MESSAGE_ILLEGAL;
        }
        int sysFlag = m.sysFlag() | extraFlags;
        sysFlag = m.bornHost().getAddress() instanceof Inet6Address
                ? sysFlag | MessageSysFlag.BORNHOST_V6_FLAG : sysFlag & ~MessageSysFlag.BORNHOST_V6_FLAG;
        sysFlag = storeHost.getAddress() instanceof Inet6Address
                ? sysFlag | MessageSysFlag.STOREHOST_V6_FLAG : sysFlag & ~MessageSysFlag.STOREHOST_V6_FLAG;
        ensureCapacity(CommitLogRecordFormat.recordLength(sysFlag, body.length, topicLength, 0));

        crc.reset();
        crc.update(body, 0, body.length);
        int bodyCrc = (int) (crc.getValue() & 0x7FFFFFFF);

        int start = buffer.position();
        buffer.putInt(0)                 // total size, known once the properties are written
                .putInt(MESSAGE_MAGIC_CODE)
                .putInt(bodyCrc)
                .putInt(m.queueId())
                .putInt(m.flag())
                .putLong(0L)             // queue offset, stamped under the lock
                .putLong(0L)             // physical offset, stamped under the lock
                .putInt(sysFlag)
                .putLong(m.bornTimestamp());
        putHost(m.bornHost());
        buffer.putLong(0L);              // store timestamp, stamped under the lock
        putHost(storeHost);
        buffer.putInt(m.reconsumeTimes())
                .putLong(m.preparedTransactionOffset())
                .putInt(body.length)
                .put(body)
                .put((byte) topicLength);
        if (topicUtf8 == null) {
            putAscii(topicName, topicLength);
        } else {
            buffer.put(topicUtf8);
        }
        int propsLengthAt = buffer.position();
        buffer.putShort((short) 0);
        propertyWriter.reset();
        m.properties().forEach(propertyWriter); // forEach, not an iterator: no allocation per put
        if (propertyWriter.problem != null) {
            buffer.position(start);
            failure = propertyWriter.problem;
            return PutMessageStatus.MESSAGE_ILLEGAL;
        }
        int propsLength = buffer.position() - propsLengthAt - 2;
        if (propsLength > MAX_PROPERTIES_LENGTH) {
            buffer.position(start);
            failure = "properties of " + propsLength + " bytes exceed " + MAX_PROPERTIES_LENGTH;
            return PutMessageStatus.PROPERTIES_SIZE_EXCEEDED;
        }
        buffer.putShort(propsLengthAt, (short) propsLength);
        buffer.putInt(start, buffer.position() - start);
        remember(start, sysFlag);
        return PutMessageStatus.PUT_OK;
    }

    /** The UTF-8 length of {@code s} when it is all ASCII (one byte per char), else -1. */
    private static int asciiLength(String s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                return -1;
            }
        }
        return n;
    }

    /**
     * UTF-8 bytes of a non-ASCII topic, cached per thread. ASCII topics never come here: a cache of them thrashed
     * once a producer used more than {@link #TOPIC_CACHE_LIMIT} topics (12 500 in the 100 000-queue bench row), and
     * each miss allocated the topic's bytes.
     */
    private byte[] topicBytes(String topic) {
        byte[] cached = topicCache.get(topic);
        if (cached == null) {
            cached = topic.getBytes(StandardCharsets.UTF_8);
            if (topicCache.size() > TOPIC_CACHE_LIMIT) {
                topicCache.clear();
            }
            topicCache.put(topic, cached);
        }
        return cached;
    }

    /**
     * Writes a string as UTF-8 without allocating when it is ASCII: its chars go straight into the buffer's array
     * and the position moves once, not once per byte (a {@code ByteBuffer.put(byte)} per char was a tenth of the
     * put thread's compiled-code time with two properties; docs/PERFORMANCE.md). A non-ASCII rest is encoded after
     * the ASCII head.
     */
    private void putUtf8(String s) {
        int n = s.length();
        ensureCapacity(3 * n);
        byte[] array = buffer.array();
        int at = buffer.arrayOffset() + buffer.position();
        int i = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            array[at + i] = (byte) c;
        }
        buffer.position(buffer.position() + i);
        if (i < n) {
            buffer.put(s.substring(i).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Writes the first {@code length} chars of {@code s}, all ASCII (checked by the caller), one byte each. */
    private void putAscii(String s, int length) {
        byte[] array = buffer.array();
        int at = buffer.arrayOffset() + buffer.position();
        for (int i = 0; i < length; i++) {
            array[at + i] = (byte) s.charAt(i);
        }
        buffer.position(buffer.position() + length);
    }

    /**
     * Writes properties as RocketMQ does - {@code name\u0001value}, joined by {@code \u0002}, none after the last -
     * and notes the first property that cannot be encoded (empty name, null value, a separator inside).
     */
    private final class PropertyWriter implements BiConsumer<String, String> {
        private boolean first;
        private String problem;

        void reset() {
            first = true;
            problem = null;
        }

        @Override
        public void accept(String name, String value) {
            if (problem != null) {
                return;
            }
            if (name == null || name.isEmpty() || value == null || hasSeparator(name) || hasSeparator(value)) {
                problem = "property '" + name + "' is empty or contains a separator character (\\u0001 or \\u0002)";
                return;
            }
            ensureCapacity(2);
            if (!first) {
                buffer.put((byte) MessageConst.PROPERTY_SEPARATOR);
            }
            first = false;
            putUtf8(name);
            ensureCapacity(1);
            buffer.put((byte) MessageConst.NAME_VALUE_SEPARATOR);
            putUtf8(value);
        }

        private static boolean hasSeparator(String s) {
            return s.indexOf(MessageConst.NAME_VALUE_SEPARATOR) >= 0 || s.indexOf(MessageConst.PROPERTY_SEPARATOR) >= 0;
        }
    }

    private void putHost(InetSocketAddress host) {
        ensureCapacity(CommitLogRecordFormat.IPV6_HOST_LENGTH);
        buffer.put(hostAddress(host)).putInt(host.getPort());
    }

    /** The address bytes of a host; InetAddress.getAddress() copies, so the last two hosts seen are kept. */
    private byte[] hostAddress(InetSocketAddress host) {
        if (host == lastHostA) {
            return lastHostABytes;
        }
        if (host == lastHostB) {
            return lastHostBBytes;
        }
        lastHostB = lastHostA;
        lastHostBBytes = lastHostABytes;
        lastHostA = host;
        lastHostABytes = host.getAddress().getAddress();
        return lastHostABytes;
    }

    private void remember(int start, int sysFlag) {
        if (count == starts.length) {
            starts = java.util.Arrays.copyOf(starts, count * 2);
            sysFlags = java.util.Arrays.copyOf(sysFlags, count * 2);
        }
        starts[count] = start;
        sysFlags[count] = sysFlag;
        count++;
    }

    private void ensureCapacity(int more) {
        if (buffer.remaining() < more) {
            int needed = buffer.position() + more;
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(needed, buffer.capacity() * 2));
            buffer.flip();
            bigger.put(buffer);
            buffer = bigger;
        }
    }

    /** Why the last encode refused the message. */
    public String failureReason() {
        return failure;
    }

    /** Records encoded by the last call. */
    public int recordCount() {
        return count;
    }

    /** Total bytes encoded. */
    public int encodedLength() {
        return buffer.position();
    }

    public int recordStart(int i) {
        return starts[i];
    }

    public int sysFlag(int i) {
        return sysFlags[i];
    }

    /**
     * Stamps record {@code i} with its queue offset, physical offset and store timestamp. Called under the lock.
     */
    public void stamp(int i, long queueOffset, long physicalOffset, long storeTimestamp) {
        int start = starts[i];
        buffer.putLong(start + CommitLogRecordFormat.QUEUE_OFFSET_OFFSET, queueOffset);
        buffer.putLong(start + CommitLogRecordFormat.PHYSICAL_OFFSET_OFFSET, physicalOffset);
        buffer.putLong(start + CommitLogRecordFormat.storeTimestampOffset(sysFlags[i]), storeTimestamp);
    }

    /** Record starts relative to the first record, or null for a single record (for the append result's message ids). */
    public int[] relativeStarts() {
        if (count == 1) {
            return null;
        }
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = starts[i] - starts[0];
        }
        return out;
    }

    /** Copies all encoded records into {@code target} at its position. */
    public void copyTo(ByteBuffer target) {
        target.put(buffer.array(), 0, buffer.position());
    }

    /**
     * Copies all encoded records into {@code target} at index {@code at}, leaving its position alone: for a view
     * that other threads write into at the same time (concurrent appends), where a relative put would race.
     */
    public void copyTo(ByteBuffer target, int at) {
        target.put(at, buffer.array(), 0, buffer.position());
    }
}
