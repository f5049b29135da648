package dev.hangar.store.read;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.QueryMessageResult;
import dev.hangar.store.commitlog.CommitLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The read side of the store: by queue offset (through the ConsumeQueue view), by time, by key (through the
 * key index view, re-checking topic and key on the decoded message so hash collisions never answer), by
 * commit-log offset. Thread-safe; stateless beyond its collaborators.
 */
public final class MessageReader {
    private static final int MAX_UNITS_SCANNED = 16_000;
    private static final long BLANK_UNIT_SIZE = Integer.MAX_VALUE;

    private final CommitLog commitLog;
    private final ConsumeQueueView queues;
    private final KeyIndexView index;
    private final int maxTransferCount;
    private final int maxTransferBytes;
    private final int maxQueryNum;

    /** {@code queues} or {@code index} may be null when no dispatcher offers them. */
    public MessageReader(CommitLog commitLog, ConsumeQueueView queues, KeyIndexView index, StoreConfig config) {
        this.commitLog = commitLog;
        this.queues = queues;
        this.index = index;
        this.maxTransferCount = config.get(StoreConfigKeys.MAX_TRANSFER_COUNT_ON_MESSAGE_IN_MEMORY);
        this.maxTransferBytes = config.get(StoreConfigKeys.MAX_TRANSFER_BYTES_ON_MESSAGE_IN_MEMORY);
        this.maxQueryNum = config.get(StoreConfigKeys.MAX_MSGS_NUM_BATCH);
    }

    public GetMessageResult getMessage(String topic, int queueId, long offset, int maxMsgNums, MessageFilter filter) {
        MessageFilter f = filter == null ? MessageFilter.ALL : filter;
        if (queues == null || !queues.exists(topic, queueId)) {
            return new GetMessageResult(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE, 0, 0, 0, List.of());
        }
        long min = queues.minOffset(topic, queueId);
        long max = queues.maxOffset(topic, queueId);
        if (max == 0) {
            return new GetMessageResult(GetMessageStatus.NO_MESSAGE_IN_QUEUE, 0, min, max, List.of());
        }
        if (offset < min) {
            return new GetMessageResult(GetMessageStatus.OFFSET_TOO_SMALL, min, min, max, List.of());
        }
        if (offset == max) {
            return new GetMessageResult(GetMessageStatus.OFFSET_OVERFLOW_ONE, offset, min, max, List.of());
        }
        if (offset > max) {
            return new GetMessageResult(GetMessageStatus.OFFSET_OVERFLOW_BADLY, min == 0 ? min : max, min, max, List.of());
        }
        int wanted = Math.max(1, Math.min(maxMsgNums, maxTransferCount));
        List<StoredMessage> found = new ArrayList<>();
        GetMessageStatus status = GetMessageStatus.NO_MATCHED_MESSAGE;
        long next = offset;
        long bytes = 0;
        long minPhy = commitLog.getMinOffset();
        int scanned = 0;
        outer:
        while (next < max && found.size() < wanted && scanned < MAX_UNITS_SCANNED) {
            List<CqUnit> units = queues.read(topic, queueId, next, Math.min(wanted * 4 + 16, MAX_UNITS_SCANNED));
            if (units.isEmpty()) {
                if (found.isEmpty()) {
                    long rolled = queues.rollNextFile(topic, queueId, next);
                    return new GetMessageResult(GetMessageStatus.OFFSET_FOUND_NULL, rolled, min, max, List.of());
                }
                break;
            }
            for (CqUnit u : units) {
                scanned++;
                if (u.size() == BLANK_UNIT_SIZE || u.size() <= 0) {
                    next = u.queueOffset() + 1;
                    continue;
                }
                if (!found.isEmpty() && bytes + u.size() > maxTransferBytes) {
                    break outer;
                }
                next = u.queueOffset() + 1;
                if (u.commitLogOffset() < minPhy) {
                    status = found.isEmpty() ? GetMessageStatus.MESSAGE_WAS_REMOVING : status;
                    continue;
                }
                if (!f.matchesTagsCode(u.tagsCode())) {
                    continue;
                }
                StoredMessage m = commitLog.lookMessageByOffset(u.commitLogOffset(), u.size());
                if (m == null) {
                    status = found.isEmpty() ? GetMessageStatus.MESSAGE_WAS_REMOVING : status;
                    continue;
                }
                if (!f.matchesMessage(m)) {
                    continue;
                }
                found.add(m);
                bytes += u.size();
                status = GetMessageStatus.FOUND;
                if (found.size() >= wanted) {
                    break outer;
                }
            }
        }
        return new GetMessageResult(status, next, min, max, List.copyOf(found));
    }

    public long minOffset(String topic, int queueId) {
        return queues == null ? 0 : queues.minOffset(topic, queueId);
    }

    public long maxOffset(String topic, int queueId) {
        return queues == null ? 0 : queues.maxOffset(topic, queueId);
    }

    public long offsetByTime(String topic, int queueId, long timestamp) {
        return queues == null ? 0 : queues.offsetByTime(topic, queueId, timestamp);
    }

    /** Store time of the message at a queue offset, or -1. */
    public long storeTimestamp(String topic, int queueId, long queueOffset) {
        if (queues == null || queueOffset < 0) {
            return -1;
        }
        List<CqUnit> units = queues.read(topic, queueId, queueOffset, 1);
        if (units.isEmpty() || units.get(0).queueOffset() != queueOffset || units.get(0).commitLogOffset() < 0) {
            return -1;
        }
        return commitLog.storeTimestampAt(units.get(0).commitLogOffset(), units.get(0).size());
    }

    /** Messages of {@code topic} with key (or unique key) {@code key}, oldest first, hash collisions removed. */
    public QueryMessageResult query(String topic, String key, int maxNum, long begin, long end) {
        if (index == null) {
            return new QueryMessageResult(List.of(), 0, 0);
        }
        int limit = Math.max(1, Math.min(maxNum, maxQueryNum));
        List<StoredMessage> out = new ArrayList<>();
        List<Long> offsets = index.queryOffsets(topic, key, limit * 4, begin, end);
        for (long off : offsets.stream().distinct().sorted().toList()) {
            StoredMessage m = commitLog.lookMessageByOffset(off);
            if (m != null && m.topic().equals(topic) && hasKey(m, key)) {
                out.add(m);
            }
        }
        out.sort(Comparator.comparingLong(StoredMessage::commitLogOffset));
        List<StoredMessage> limited = out.size() > limit ? out.subList(out.size() - limit, out.size()) : out;
        return new QueryMessageResult(List.copyOf(limited), index.lastUpdateTimestamp(), index.lastUpdatePhyOffset());
    }

    private static boolean hasKey(StoredMessage m, String key) {
        if (key.equals(m.uniqKey())) {
            return true;
        }
        String keys = m.keys();
        if (keys == null) {
            return false;
        }
        for (String k : keys.split(" ")) {
            if (k.equals(key)) {
                return true;
            }
        }
        return false;
    }
}
