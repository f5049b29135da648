package dev.hangar.spi.dispatch;

import java.util.List;

/** The read side of the key index. Thread-safe. */
public interface KeyIndexView {

    /**
     * Commit-log offsets whose {@code topic#key} hash matches and whose store time lies in [begin, end], newest
     * index files first, at most {@code maxNum}. Hash matches only: the caller re-checks topic and key.
     */
    List<Long> queryOffsets(String topic, String key, int maxNum, long begin, long end);

    /** End timestamp of the newest index file, 0 when none. */
    long lastUpdateTimestamp();

    /** End commit-log offset of the newest index file, 0 when none. */
    long lastUpdatePhyOffset();
}
