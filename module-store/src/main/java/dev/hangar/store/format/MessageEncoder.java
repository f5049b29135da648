package dev.hangar.store.format;

import static dev.hangar.store.format.CommitLogRecordFormat.MAX_PROPERTIES_LENGTH;
import static dev.hangar.store.format.CommitLogRecordFormat.MAX_TOPIC_LENGTH;
import static dev.hangar.store.format.CommitLogRecordFormat.MESSAGE_MAGIC_CODE;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.store.PutMessageStatus;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Encodes messages into complete CommitLog records outside the put lock. Queue offset, physical offset and
 * store timestamp are left as placeholders; {@link #stamp} fills them in under the lock. One encoder per
 * thread (see {@link #forCurrentThread}); its buffer is reused, so the hot path allocates only the encoded
 * properties.
 */
public final class MessageEncoder {
    private static final int INITIAL_CAPACITY = 64 * 1024;

    private final int maxMessageSize;
    private final CRC32 crc = new CRC32();
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
        byte[] topic = m.topic().getBytes(StandardCharsets.UTF_8);
        if (topic.length > MAX_TOPIC_LENGTH) {
            failure = "topic of " + topic.length + " bytes exceeds " + MAX_TOPIC_LENGTH;
            return PutMessageStatus.MESSAGE_ILLEGAL;
        }
        byte[] props = MessagePropertiesCodec.encode(m.properties());
        if (props.length > MAX_PROPERTIES_LENGTH) {
            failure = "properties of " + props.length + " bytes exceed " + MAX_PROPERTIES_LENGTH;
            return PutMessageStatus.PROPERTIES_SIZE_EXCEEDED;
        }
        int sysFlag = m.sysFlag() | extraFlags;
        sysFlag = m.bornHost().getAddress() instanceof Inet6Address
                ? sysFlag | MessageSysFlag.BORNHOST_V6_FLAG : sysFlag & ~MessageSysFlag.BORNHOST_V6_FLAG;
        sysFlag = storeHost.getAddress() instanceof Inet6Address
                ? sysFlag | MessageSysFlag.STOREHOST_V6_FLAG : sysFlag & ~MessageSysFlag.STOREHOST_V6_FLAG;
        int length = CommitLogRecordFormat.recordLength(sysFlag, body.length, topic.length, props.length);
        ensureCapacity(length);

        crc.reset();
        crc.update(body, 0, body.length);
        int bodyCrc = (int) (crc.getValue() & 0x7FFFFFFF);

        int start = buffer.position();
        buffer.putInt(length)
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
                .put((byte) topic.length)
                .put(topic)
                .putShort((short) props.length)
                .put(props);
        remember(start, sysFlag);
        return PutMessageStatus.PUT_OK;
    }

    private void putHost(InetSocketAddress host) {
        buffer.put(host.getAddress().getAddress()).putInt(host.getPort());
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

    /** Copies all encoded records into {@code target} at its position. */
    public void copyTo(ByteBuffer target) {
        target.put(buffer.array(), 0, buffer.position());
    }
}
