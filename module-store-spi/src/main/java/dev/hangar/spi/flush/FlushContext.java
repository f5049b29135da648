package dev.hangar.spi.flush;

import dev.hangar.spi.config.StoreConfig;

/**
 * What a flush service is built with.
 *
 * @param target     the CommitLog positions and operations
 * @param config     the store configuration (intervals, least pages, sync timeout)
 * @param checkpoint where to record the store time of what was flushed
 * @param health     where to report a failed force
 * @param statistics counters to keep
 */
public record FlushContext(FlushTarget target, StoreConfig config, Checkpoint checkpoint, StoreHealth health,
                           FlushStatistics statistics) {
}
