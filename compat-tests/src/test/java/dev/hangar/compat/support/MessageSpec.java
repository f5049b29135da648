package dev.hangar.compat.support;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One message of a dataset, engine-neutral: each engine's writer turns it into its own message type. The
 * properties hold everything, keys ({@code KEYS}), tag ({@code TAGS}), unique key ({@code UNIQ_KEY}) and delay
 * level ({@code DELAY}) included, in the order they are written. Immutable.
 */
public record MessageSpec(String topic, int queueId, int flag, byte[] body, Map<String, String> properties,
                          int transactionType, long bornTimestamp, InetSocketAddress bornHost, int reconsumeTimes,
                          long preparedTransactionOffset) {
    public static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    public static final int TX_NOT = 0;
    public static final int TX_PREPARED = 0x4;
    public static final int TX_COMMIT = 0x8;
    public static final int TX_ROLLBACK = 0xC;

    public MessageSpec {
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    public String tags() {
        return properties.get("TAGS");
    }

    public String uniqKey() {
        return properties.get("UNIQ_KEY");
    }

    /** The KEYS tokens, then the unique key: everything the index files hold for this message. */
    public List<String> indexKeys() {
        List<String> keys = new ArrayList<>();
        String k = properties.get("KEYS");
        if (k != null) {
            for (String token : k.split(" ")) {
                if (!token.isEmpty() && !keys.contains(token)) {
                    keys.add(token);
                }
            }
        }
        if (uniqKey() != null && !keys.contains(uniqKey())) {
            keys.add(uniqKey());
        }
        return keys;
    }

    public int delayLevel() {
        String v = properties.get("DELAY");
        return v == null ? 0 : Integer.parseInt(v);
    }

    /** NOT and COMMIT messages take a queue offset and reach the ConsumeQueue; PREPARED and ROLLBACK do not. */
    public boolean takesQueueOffset() {
        return transactionType == TX_NOT || transactionType == TX_COMMIT;
    }

    /** Every type but ROLLBACK is indexed by key. */
    public boolean indexed() {
        return transactionType != TX_ROLLBACK;
    }

    private boolean delayed() {
        return delayLevel() > 0 && takesQueueOffset();
    }

    /** The topic as stored: a delayed message waits on the schedule topic. */
    public String storedTopic() {
        return delayed() ? SCHEDULE_TOPIC : topic;
    }

    public int storedQueueId() {
        return delayed() ? delayLevel() - 1 : queueId;
    }

    /** The properties a reader finds in the record: a delayed message also carries its real topic and queue. */
    public Map<String, String> storedProperties() {
        if (!delayed()) {
            return properties;
        }
        Map<String, String> stored = new LinkedHashMap<>(properties);
        stored.put("REAL_TOPIC", topic);
        stored.put("REAL_QID", Integer.toString(queueId));
        return stored;
    }

    @Override
    public String toString() {
        return "MessageSpec{" + topic + "/" + queueId + ", tx=" + transactionType + ", body=" + body.length
                + " B, properties=" + properties + ", bornHost=" + bornHost + '}';
    }
}
