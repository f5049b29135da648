package dev.hangar.spi.message;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message to put: what a producer hands the store. Mutable, with fluent setters, and not thread-safe:
 * build it on one thread, hand it to the store, do not touch it while the put runs.
 *
 * <p>Keys and the tag are properties ({@link MessageConst#KEYS}, {@link MessageConst#TAGS}); the convenience
 * setters write them.
 */
public final class Message {
    private static final InetSocketAddress DEFAULT_HOST = new InetSocketAddress(
            java.net.InetAddress.getLoopbackAddress(), 0);

    private String topic;
    private int queueId;
    private int flag;
    private byte[] body = new byte[0];
    private final Map<String, String> properties = new LinkedHashMap<>();
    private int sysFlag;
    private long bornTimestamp = System.currentTimeMillis();
    private InetSocketAddress bornHost = DEFAULT_HOST;
    private int reconsumeTimes;
    private long preparedTransactionOffset;

    public Message() {
    }

    public Message(String topic, byte[] body) {
        this.topic = topic;
        this.body = Objects.requireNonNull(body, "body");
    }

    public String topic() {
        return topic;
    }

    public Message topic(String topic) {
        this.topic = topic;
        return this;
    }

    public int queueId() {
        return queueId;
    }

    public Message queueId(int queueId) {
        this.queueId = queueId;
        return this;
    }

    public int flag() {
        return flag;
    }

    public Message flag(int flag) {
        this.flag = flag;
        return this;
    }

    public byte[] body() {
        return body;
    }

    public Message body(byte[] body) {
        this.body = Objects.requireNonNull(body, "body");
        return this;
    }

    /** The live property map, in insertion order. */
    public Map<String, String> properties() {
        return properties;
    }

    public String property(String name) {
        return properties.get(name);
    }

    public Message property(String name, String value) {
        if (value == null) {
            properties.remove(name);
        } else {
            properties.put(name, value);
        }
        return this;
    }

    /** Sets the space-separated {@link MessageConst#KEYS} property. */
    public Message keys(String... keys) {
        return property(MessageConst.KEYS, keys.length == 0 ? null : String.join(" ", keys));
    }

    public String keys() {
        return properties.get(MessageConst.KEYS);
    }

    public Message tags(String tags) {
        return property(MessageConst.TAGS, tags);
    }

    public String tags() {
        return properties.get(MessageConst.TAGS);
    }

    /** Delay level 1..18 (0 = none). */
    public Message delayLevel(int level) {
        return property(MessageConst.DELAY_TIME_LEVEL, level <= 0 ? null : Integer.toString(level));
    }

    public int delayLevel() {
        String v = properties.get(MessageConst.DELAY_TIME_LEVEL);
        if (v == null) {
            return 0;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** False when the producer does not want to wait for a sync flush. */
    public boolean waitStoreMsgOk() {
        return !"false".equals(properties.get(MessageConst.WAIT_STORE_MSG_OK));
    }

    public Message waitStoreMsgOk(boolean wait) {
        return property(MessageConst.WAIT_STORE_MSG_OK, wait ? null : "false");
    }

    public int sysFlag() {
        return sysFlag;
    }

    public Message sysFlag(int sysFlag) {
        this.sysFlag = sysFlag;
        return this;
    }

    /** Sets the transaction type bits ({@link MessageSysFlag#TRANSACTION_PREPARED_TYPE} and friends). */
    public Message transactionType(int type) {
        this.sysFlag = MessageSysFlag.withTransactionType(sysFlag, type);
        return this;
    }

    public long bornTimestamp() {
        return bornTimestamp;
    }

    public Message bornTimestamp(long bornTimestamp) {
        this.bornTimestamp = bornTimestamp;
        return this;
    }

    public InetSocketAddress bornHost() {
        return bornHost;
    }

    public Message bornHost(InetSocketAddress bornHost) {
        this.bornHost = Objects.requireNonNull(bornHost, "bornHost");
        return this;
    }

    public int reconsumeTimes() {
        return reconsumeTimes;
    }

    public Message reconsumeTimes(int reconsumeTimes) {
        this.reconsumeTimes = reconsumeTimes;
        return this;
    }

    public long preparedTransactionOffset() {
        return preparedTransactionOffset;
    }

    public Message preparedTransactionOffset(long offset) {
        this.preparedTransactionOffset = offset;
        return this;
    }

    @Override
    public String toString() {
        return "Message{topic=" + topic + ", queueId=" + queueId + ", bodySize=" + body.length
                + ", properties=" + properties + ", sysFlag=" + sysFlag + '}';
    }

    /** A shallow copy: same body array, copied property map. */
    public Message copy() {
        Message m = new Message(topic, body);
        m.queueId = queueId;
        m.flag = flag;
        m.properties.putAll(properties);
        m.sysFlag = sysFlag;
        m.bornTimestamp = bornTimestamp;
        m.bornHost = bornHost;
        m.reconsumeTimes = reconsumeTimes;
        m.preparedTransactionOffset = preparedTransactionOffset;
        return m;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Message m)) {
            return false;
        }
        return queueId == m.queueId && flag == m.flag && sysFlag == m.sysFlag && bornTimestamp == m.bornTimestamp
                && Objects.equals(topic, m.topic) && Arrays.equals(body, m.body) && properties.equals(m.properties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, queueId, Arrays.hashCode(body));
    }
}
