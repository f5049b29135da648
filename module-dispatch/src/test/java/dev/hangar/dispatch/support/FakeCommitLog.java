package dev.hangar.dispatch.support;

import dev.hangar.spi.dispatch.CommitLogLookup;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A commit log that only knows the store times the test gave it. Thread-safe. */
public final class FakeCommitLog implements CommitLogLookup {
    private final Map<Long, Long> storeTimes = new ConcurrentHashMap<>();
    private volatile long minOffset;
    private volatile long maxOffset;

    /** Records that the record at {@code offset} was stored at {@code timestamp}. */
    public void record(long offset, int size, long timestamp) {
        storeTimes.put(offset, timestamp);
        maxOffset = Math.max(maxOffset, offset + size);
    }

    public void minOffset(long offset) {
        minOffset = offset;
    }

    @Override
    public long storeTimestampAt(long commitLogOffset, int size) {
        if (commitLogOffset < minOffset) {
            return -1;
        }
        return storeTimes.getOrDefault(commitLogOffset, -1L);
    }

    @Override
    public long minOffset() {
        return minOffset;
    }

    @Override
    public long maxOffset() {
        return maxOffset;
    }
}
