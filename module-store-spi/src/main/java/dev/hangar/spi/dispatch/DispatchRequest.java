package dev.hangar.spi.dispatch;

import java.util.Map;

/**
 * One CommitLog record as the reput loop hands it to dispatchers.
 *
 * @param topic              the stored topic
 * @param queueId            the stored queue id
 * @param commitLogOffset    physical offset of the record
 * @param msgSize            record size in bytes
 * @param tagsCode           the tag's hash, or the deliver time for a delayed message on SCHEDULE_TOPIC_XXXX
 * @param storeTimestamp     store time of the record
 * @param consumeQueueOffset queue offset assigned at append (0 for PREPARED/ROLLBACK)
 * @param keys               the KEYS property (space-separated), or null
 * @param uniqKey            the UNIQ_KEY property, or null
 * @param sysFlag            the record's sysflag
 * @param preparedTransactionOffset the prepared transaction offset
 * @param properties         all properties
 * @param bornTimestamp      born time of the record
 */
public record DispatchRequest(
        String topic,
        int queueId,
        long commitLogOffset,
        int msgSize,
        long tagsCode,
        long storeTimestamp,
        long consumeQueueOffset,
        String keys,
        String uniqKey,
        int sysFlag,
        long preparedTransactionOffset,
        Map<String, String> properties,
        long bornTimestamp) {

    /** Commit-log offset one past this record. */
    public long nextOffset() {
        return commitLogOffset + msgSize;
    }
}
