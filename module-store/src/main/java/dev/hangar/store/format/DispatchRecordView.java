package dev.hangar.store.format;

import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.message.MessageConst;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;

/**
 * The engine's {@link DispatchRequest}: a reusable view over one CommitLog record in place, so that dispatching a
 * record allocates nothing. {@link #wrap} reads the fixed fields and finds, in one pass over the properties, the
 * tags hash and the byte ranges of the keys and the unique key; Strings and the property map are built only when
 * a dispatcher asks for them (each an immutable copy, kept for the rest of this record).
 *
 * <p>The view is valid only until the next {@link #wrap} (see the lifetime rule of {@link DispatchRequest}).
 * Not thread-safe: each CommitLog cursor (the reput thread, each plugin's thread) owns one.
 */
public final class DispatchRecordView implements DispatchRequest {
    private static final byte[] TAGS_NAME = MessageConst.TAGS.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEYS_NAME = MessageConst.KEYS.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNIQ_KEY_NAME = MessageConst.UNIQ_KEY.getBytes(StandardCharsets.US_ASCII);
    /** Marks a property range that is absent (as opposed to present and empty). */
    private static final int ABSENT = -1;

    private ByteBuffer source;
    private ByteBuffer readOnly;
    private int queueId;
    private long commitLogOffset;
    private int msgSize;
    private long tagsCode;
    private long storeTimestamp;
    private long consumeQueueOffset;
    private int sysFlag;
    private long preparedTransactionOffset;
    private long bornTimestamp;
    private int topicOffset;
    private int topicLength;
    private int propertiesOffset;
    private int propertiesLength;
    private int keysOffset;
    private int keysLength;
    private int uniqKeyOffset;
    private int uniqKeyLength;
    // built on demand, for this record only
    private String topic;
    private String keys;
    private String uniqKey;
    private Map<String, String> properties;

    /** Points this view at the record at {@code pos} of {@code buf}, already {@link RecordDecoder#check checked}. */
    public DispatchRecordView wrap(ByteBuffer buf, int pos) {
        if (buf != source) {
            source = buf;
            readOnly = null;
        }
        topic = null;
        keys = null;
        uniqKey = null;
        properties = null;
        msgSize = buf.getInt(pos);
        sysFlag = buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET);
        queueId = buf.getInt(pos + CommitLogRecordFormat.QUEUE_ID_OFFSET);
        commitLogOffset = buf.getLong(pos + CommitLogRecordFormat.PHYSICAL_OFFSET_OFFSET);
        consumeQueueOffset = buf.getLong(pos + CommitLogRecordFormat.QUEUE_OFFSET_OFFSET);
        storeTimestamp = buf.getLong(pos + CommitLogRecordFormat.storeTimestampOffset(sysFlag));
        bornTimestamp = buf.getLong(pos + CommitLogRecordFormat.BORN_TIMESTAMP_OFFSET);
        preparedTransactionOffset = buf.getLong(pos + CommitLogRecordFormat.preparedTransactionOffsetOffset(sysFlag));
        int bodyLenAt = CommitLogRecordFormat.bodyLengthOffset(sysFlag);
        int topicLenAt = bodyLenAt + 4 + buf.getInt(pos + bodyLenAt);
        topicLength = buf.get(pos + topicLenAt);
        topicOffset = pos + topicLenAt + 1;
        int propsLenAt = topicLenAt + 1 + topicLength;
        propertiesLength = buf.getShort(pos + propsLenAt);
        propertiesOffset = pos + propsLenAt + 2;
        findDispatchProperties();
        return this;
    }

    /** One pass over the properties for the three values dispatch needs. */
    private void findDispatchProperties() {
        ByteBuffer buf = source;
        int to = propertiesOffset + propertiesLength;
        tagsCode = 0;
        keysOffset = 0;
        keysLength = ABSENT;
        uniqKeyOffset = 0;
        uniqKeyLength = ABSENT;
        for (int start = propertiesOffset; start < to; ) {
            int end = PropertyBytes.propertyEnd(buf, start, to);
            int sep = PropertyBytes.nameEnd(buf, start, end);
            if (sep < end) {
                if (PropertyBytes.nameIs(buf, start, sep, TAGS_NAME)) {
                    tagsCode = PropertyBytes.stringHash(buf, sep + 1, end);
                } else if (PropertyBytes.nameIs(buf, start, sep, KEYS_NAME)) {
                    keysOffset = sep + 1;
                    keysLength = end - sep - 1;
                } else if (PropertyBytes.nameIs(buf, start, sep, UNIQ_KEY_NAME)) {
                    uniqKeyOffset = sep + 1;
                    uniqKeyLength = end - sep - 1;
                }
            }
            start = end + 1;
        }
    }

    /** Replaces the tags code for this record (a delayed message carries its delivery time there). */
    public void tagsCode(long code) {
        this.tagsCode = code;
    }

    @Override
    public String topic() {
        if (topic == null) {
            topic = TopicNames.decode(source, topicOffset, topicLength);
        }
        return topic;
    }

    /** Whether this record's topic is {@code name} (its bytes), without building the topic String. */
    public boolean topicIs(byte[] name) {
        return PropertyBytes.nameIs(source, topicOffset, topicOffset + topicLength, name);
    }

    @Override
    public int queueId() {
        return queueId;
    }

    @Override
    public long commitLogOffset() {
        return commitLogOffset;
    }

    @Override
    public int msgSize() {
        return msgSize;
    }

    @Override
    public long tagsCode() {
        return tagsCode;
    }

    @Override
    public long storeTimestamp() {
        return storeTimestamp;
    }

    @Override
    public long consumeQueueOffset() {
        return consumeQueueOffset;
    }

    @Override
    public int sysFlag() {
        return sysFlag;
    }

    @Override
    public long preparedTransactionOffset() {
        return preparedTransactionOffset;
    }

    @Override
    public long bornTimestamp() {
        return bornTimestamp;
    }

    @Override
    public String keys() {
        if (keys == null && keysLength != ABSENT) {
            keys = PropertyBytes.string(source, keysOffset, keysLength);
        }
        return keys;
    }

    @Override
    public String uniqKey() {
        if (uniqKey == null && uniqKeyLength != ABSENT) {
            uniqKey = PropertyBytes.string(source, uniqKeyOffset, uniqKeyLength);
        }
        return uniqKey;
    }

    @Override
    public Map<String, String> properties() {
        if (properties == null) {
            properties = Collections.unmodifiableMap(PropertyBytes.decode(source, propertiesOffset, propertiesLength));
        }
        return properties;
    }

    @Override
    public String property(String name) {
        if (properties != null) {
            return properties.get(name);
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) >= 0x80) {
                return properties().get(name);
            }
        }
        return PropertyBytes.find(source, propertiesOffset, propertiesOffset + propertiesLength,
                name.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public ByteBuffer bytes() {
        if (readOnly == null) {
            readOnly = source.isReadOnly() ? source : source.asReadOnlyBuffer();
        }
        return readOnly;
    }

    @Override
    public int topicOffset() {
        return topicOffset;
    }

    @Override
    public int topicLength() {
        return topicLength;
    }

    @Override
    public int keysOffset() {
        return keysOffset;
    }

    @Override
    public int keysLength() {
        return Math.max(keysLength, 0);
    }

    @Override
    public int uniqKeyOffset() {
        return uniqKeyOffset;
    }

    @Override
    public int uniqKeyLength() {
        return Math.max(uniqKeyLength, 0);
    }

    @Override
    public String toString() {
        return "DispatchRecordView[topic=" + topic() + ", queueId=" + queueId + ", commitLogOffset=" + commitLogOffset
                + ", msgSize=" + msgSize + ", consumeQueueOffset=" + consumeQueueOffset + "]";
    }
}
