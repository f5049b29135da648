package dev.hangar.compat.support;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A decoded CommitLog record as either engine returns it, in one engine-neutral shape so two reads can be
 * compared field by field. The body is kept as its size and SHA-256 (bodies reach 30 KiB); properties are
 * sorted by name (RocketMQ returns a HashMap). Immutable.
 */
public record StoredRecord(String topic, int queueId, long queueOffset, long commitLogOffset, int storeSize,
                           int bodyCrc, int flag, int sysFlag, long bornTimestamp, String bornHost,
                           long storeTimestamp, String storeHost, int reconsumeTimes, long preparedTransactionOffset,
                           String body, Map<String, String> properties, String msgId) {

    public StoredRecord {
        properties = new TreeMap<>(properties);
    }

    /** "size:sha256" of a body; null or empty bodies are the same thing on disk. */
    public static String bodyDigest(byte[] body) {
        byte[] b = body == null ? new byte[0] : body;
        try {
            return b.length + ":" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String host(SocketAddress address) {
        InetSocketAddress a = (InetSocketAddress) address;
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** "field: this vs other" for every field that differs; empty when equal. */
    public List<String> differences(StoredRecord other, String thisName, String otherName) {
        List<String> out = new ArrayList<>();
        diff(out, "topic", topic, other.topic, thisName, otherName);
        diff(out, "queueId", queueId, other.queueId, thisName, otherName);
        diff(out, "queueOffset", queueOffset, other.queueOffset, thisName, otherName);
        diff(out, "commitLogOffset", commitLogOffset, other.commitLogOffset, thisName, otherName);
        diff(out, "storeSize", storeSize, other.storeSize, thisName, otherName);
        diff(out, "bodyCrc", bodyCrc, other.bodyCrc, thisName, otherName);
        diff(out, "flag", flag, other.flag, thisName, otherName);
        diff(out, "sysFlag", sysFlag, other.sysFlag, thisName, otherName);
        diff(out, "bornTimestamp", bornTimestamp, other.bornTimestamp, thisName, otherName);
        diff(out, "bornHost", bornHost, other.bornHost, thisName, otherName);
        diff(out, "storeTimestamp", storeTimestamp, other.storeTimestamp, thisName, otherName);
        diff(out, "storeHost", storeHost, other.storeHost, thisName, otherName);
        diff(out, "reconsumeTimes", reconsumeTimes, other.reconsumeTimes, thisName, otherName);
        diff(out, "preparedTransactionOffset", preparedTransactionOffset, other.preparedTransactionOffset,
                thisName, otherName);
        diff(out, "body", body, other.body, thisName, otherName);
        diff(out, "properties", properties, other.properties, thisName, otherName);
        diff(out, "msgId", msgId, other.msgId, thisName, otherName);
        return out;
    }

    private static void diff(List<String> out, String field, Object a, Object b, String an, String bn) {
        if (!java.util.Objects.equals(a, b)) {
            out.add(field + ": " + an + "=" + a + " vs " + bn + "=" + b);
        }
    }

    @Override
    public String toString() {
        return "StoredRecord{" + topic + "/" + queueId + "@" + queueOffset + ", commitLogOffset=" + commitLogOffset
                + ", size=" + storeSize + ", msgId=" + msgId + '}';
    }
}
