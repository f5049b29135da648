package dev.hangar.store.put;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import java.util.Locale;

/**
 * The delay levels ({@code messageDelayLevel}, "1s 5s 10s ... 2h"): level n waits the n-th duration. A delayed
 * message is put on {@link MessageConst#SCHEDULE_TOPIC}, queue {@code level - 1}, its real topic and queue kept
 * in properties, and its ConsumeQueue tags code is its deliver time.
 */
public final class DelayLevels {
    private final long[] delayMillis;

    public DelayLevels(String spec) {
        String[] parts = spec.trim().split("\\s+");
        delayMillis = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            delayMillis[i] = parse(parts[i]);
        }
    }

    private static long parse(String d) {
        String s = d.toLowerCase(Locale.ROOT);
        long n = Long.parseLong(s.substring(0, s.length() - 1));
        return switch (s.charAt(s.length() - 1)) {
            case 's' -> n * 1000L;
            case 'm' -> n * 60_000L;
            case 'h' -> n * 3_600_000L;
            case 'd' -> n * 86_400_000L;
            default -> throw new IllegalArgumentException("bad delay " + d);
        };
    }

    public int maxLevel() {
        return delayMillis.length;
    }

    /** The delay of a level (1-based), clamped to the table. */
    public long delayMillis(int level) {
        return delayMillis[Math.max(1, Math.min(level, delayMillis.length)) - 1];
    }

    /**
     * When {@code m} asks for a delay (and is not a transaction half/rollback), returns a copy moved to the
     * schedule topic; otherwise {@code m} itself.
     */
    public Message divert(Message m) {
        int level = m.delayLevel();
        int tx = MessageSysFlag.transactionType(m.sysFlag());
        if (level <= 0 || MessageConst.SCHEDULE_TOPIC.equals(m.topic())
                || (tx != MessageSysFlag.TRANSACTION_NOT_TYPE && tx != MessageSysFlag.TRANSACTION_COMMIT_TYPE)) {
            return m;
        }
        int clamped = Math.min(level, maxLevel());
        Message copy = m.copy();
        copy.property(MessageConst.REAL_TOPIC, m.topic());
        copy.property(MessageConst.REAL_QUEUE_ID, Integer.toString(m.queueId()));
        copy.property(MessageConst.DELAY_TIME_LEVEL, Integer.toString(clamped));
        copy.topic(MessageConst.SCHEDULE_TOPIC).queueId(clamped - 1);
        return copy;
    }

    /** The deliver time of a message stored at {@code storeTimestamp} with {@code level}. */
    public long deliverTimestamp(int level, long storeTimestamp) {
        return storeTimestamp + delayMillis(level);
    }
}
