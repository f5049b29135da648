package dev.hangar.spi.dispatch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request that owns its values ({@link DispatchRequest#of}, {@link DispatchRequest#copy()}): immutable, safe to
 * keep and to share between threads. Its {@link #bytes()} hold the topic, the keys and the unique key, UTF-8, one
 * after the other, so the byte accessors work as on the engine's view.
 */
final class DetachedDispatchRequest implements DispatchRequest {
    private final String topic;
    private final int queueId;
    private final long commitLogOffset;
    private final int msgSize;
    private final long tagsCode;
    private final long storeTimestamp;
    private final long consumeQueueOffset;
    private final String keys;
    private final String uniqKey;
    private final int sysFlag;
    private final long preparedTransactionOffset;
    private final Map<String, String> properties;
    private final long bornTimestamp;
    private final byte[] bytes;
    private final int topicLength;
    private final int keysLength;
    private final int uniqKeyLength;

    DetachedDispatchRequest(String topic, int queueId, long commitLogOffset, int msgSize, long tagsCode,
                            long storeTimestamp, long consumeQueueOffset, String keys, String uniqKey, int sysFlag,
                            long preparedTransactionOffset, Map<String, String> properties, long bornTimestamp) {
        this.topic = topic;
        this.queueId = queueId;
        this.commitLogOffset = commitLogOffset;
        this.msgSize = msgSize;
        this.tagsCode = tagsCode;
        this.storeTimestamp = storeTimestamp;
        this.consumeQueueOffset = consumeQueueOffset;
        this.keys = keys;
        this.uniqKey = uniqKey;
        this.sysFlag = sysFlag;
        this.preparedTransactionOffset = preparedTransactionOffset;
        this.properties = properties == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        this.bornTimestamp = bornTimestamp;
        byte[] t = utf8(topic);
        byte[] k = utf8(keys);
        byte[] u = utf8(uniqKey);
        this.topicLength = t.length;
        this.keysLength = k.length;
        this.uniqKeyLength = u.length;
        this.bytes = new byte[t.length + k.length + u.length];
        System.arraycopy(t, 0, bytes, 0, t.length);
        System.arraycopy(k, 0, bytes, t.length, k.length);
        System.arraycopy(u, 0, bytes, t.length + k.length, u.length);
    }

    private static byte[] utf8(String s) {
        return s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String topic() {
        return topic;
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
    public String keys() {
        return keys;
    }

    @Override
    public String uniqKey() {
        return uniqKey;
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
    public Map<String, String> properties() {
        return properties;
    }

    @Override
    public long bornTimestamp() {
        return bornTimestamp;
    }

    @Override
    public ByteBuffer bytes() {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    @Override
    public int topicOffset() {
        return 0;
    }

    @Override
    public int topicLength() {
        return topicLength;
    }

    @Override
    public int keysOffset() {
        return topicLength;
    }

    @Override
    public int keysLength() {
        return keysLength;
    }

    @Override
    public int uniqKeyOffset() {
        return topicLength + keysLength;
    }

    @Override
    public int uniqKeyLength() {
        return uniqKeyLength;
    }

    @Override
    public DispatchRequest copy() {
        return this;
    }

    @Override
    public String toString() {
        return "DispatchRequest[topic=" + topic + ", queueId=" + queueId + ", commitLogOffset=" + commitLogOffset
                + ", msgSize=" + msgSize + ", tagsCode=" + tagsCode + ", consumeQueueOffset=" + consumeQueueOffset
                + ", keys=" + keys + ", uniqKey=" + uniqKey + ", sysFlag=" + sysFlag + "]";
    }
}
