package dev.hangar.spi.message;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * A message as it was decoded from the commit log: every field of the record, plus the offset message id.
 *
 * @param topic                     topic as stored (SCHEDULE_TOPIC_XXXX for a waiting delayed message)
 * @param queueId                   queue id as stored
 * @param queueOffset               logical offset in its ConsumeQueue (0 for PREPARED/ROLLBACK records)
 * @param commitLogOffset           physical offset of the record in the commit log
 * @param storeSize                 the whole record's size in bytes
 * @param bodyCrc                   CRC32 of the body as the store computed it
 * @param properties                decoded properties, in stored order
 * @param msgId                     the offset message id: store host + commit-log offset in upper-case hex
 */
public record StoredMessage(
        String topic,
        int queueId,
        long queueOffset,
        long commitLogOffset,
        int storeSize,
        int bodyCrc,
        int flag,
        int sysFlag,
        long bornTimestamp,
        InetSocketAddress bornHost,
        long storeTimestamp,
        InetSocketAddress storeHost,
        int reconsumeTimes,
        long preparedTransactionOffset,
        byte[] body,
        Map<String, String> properties,
        String msgId) {

    public String property(String name) {
        return properties.get(name);
    }

    public String keys() {
        return properties.get(MessageConst.KEYS);
    }

    public String tags() {
        return properties.get(MessageConst.TAGS);
    }

    public String uniqKey() {
        return properties.get(MessageConst.UNIQ_KEY);
    }

    @Override
    public String toString() {
        return "StoredMessage{topic=" + topic + ", queueId=" + queueId + ", queueOffset=" + queueOffset
                + ", commitLogOffset=" + commitLogOffset + ", storeSize=" + storeSize + ", msgId=" + msgId
                + ", properties=" + properties + '}';
    }
}
