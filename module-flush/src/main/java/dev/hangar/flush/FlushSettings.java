package dev.hangar.flush;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.util.Objects;

/**
 * The configuration values the flush services read, taken once from the {@link StoreConfig} at creation
 * (already validated there). Immutable, so thread-safe.
 *
 * @param flushIntervalMillis          async flush period ({@code flushIntervalCommitLog})
 * @param flushLeastPages              dirty 4 KiB pages needed for an async flush ({@code flushCommitLogLeastPages})
 * @param flushThoroughIntervalMillis  flush everything at least this often ({@code flushCommitLogThoroughInterval})
 * @param flushTimed                   true: the async flusher only sleeps; false: puts wake it ({@code flushCommitLogTimed})
 * @param commitIntervalMillis         write-buffer commit period ({@code commitIntervalCommitLog})
 * @param commitLeastPages             dirty pages needed for a commit ({@code commitCommitLogLeastPages})
 * @param commitThoroughIntervalMillis commit everything at least this often ({@code commitCommitLogThoroughInterval})
 * @param syncFlushTimeoutMillis       deadline of a sync-flush request ({@code syncFlushTimeout})
 * @param gatherPercent                group commit's wait for released writers, in % of the last force's time
 *                                     ({@code groupCommitGatherPercent}; by default 0 when appends go straight
 *                                     into the mapping, see {@link #gatherPercent(StoreConfig)})
 */
record FlushSettings(int flushIntervalMillis, int flushLeastPages, int flushThoroughIntervalMillis, boolean flushTimed,
                     int commitIntervalMillis, int commitLeastPages, int commitThoroughIntervalMillis,
                     int syncFlushTimeoutMillis, int gatherPercent) {

    /** The {@code mappedFile} value whose appends go straight into the shared mapping (no write buffer). */
    static final String MAPPING_STORAGE = "mmap";

    static FlushSettings from(StoreConfig config) {
        Objects.requireNonNull(config, "FlushContext.config must not be null");
        return new FlushSettings(
                config.get(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG),
                config.get(StoreConfigKeys.FLUSH_COMMIT_LOG_LEAST_PAGES),
                config.get(StoreConfigKeys.FLUSH_COMMIT_LOG_THOROUGH_INTERVAL),
                config.get(StoreConfigKeys.FLUSH_COMMIT_LOG_TIMED),
                config.get(StoreConfigKeys.COMMIT_INTERVAL_COMMIT_LOG),
                config.get(StoreConfigKeys.COMMIT_COMMIT_LOG_LEAST_PAGES),
                config.get(StoreConfigKeys.COMMIT_COMMIT_LOG_THOROUGH_INTERVAL),
                config.get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT),
                gatherPercent(config));
    }

    /**
     * The configured gather, except that it is off by default where appends go straight into the shared mapping
     * ({@code mappedFile=mmap}): forcing pages dirtied through the mapping costs in proportion to the pages, so a
     * larger group does not pay for the wait (measured: 3 of 3 interleaved pairs slower with it, each force 23-28 %
     * longer for 38 % more bytes). Over a write buffer a force ({@code pwrite} + {@code fdatasync}) costs about the
     * same for 12 or 17 KiB, and the gather was faster in 3 of 3 pairs. Set explicitly, the key applies to any storage.
     */
    static int gatherPercent(StoreConfig config) {
        boolean explicit = !"default".equals(config.source(StoreConfigKeys.GROUP_COMMIT_GATHER_PERCENT));
        if (!explicit && MAPPING_STORAGE.equals(config.get(StoreConfigKeys.MAPPED_FILE))) {
            return 0;
        }
        return config.get(StoreConfigKeys.GROUP_COMMIT_GATHER_PERCENT);
    }
}
