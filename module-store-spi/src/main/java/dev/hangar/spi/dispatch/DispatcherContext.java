package dev.hangar.spi.dispatch;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.flush.Checkpoint;
import dev.hangar.spi.mapped.MappedStorage;
import java.nio.file.Path;

/**
 * What a dispatcher is built with.
 *
 * @param storeRoot          the store directory; a dispatcher keeps its files in its own sub-directory
 * @param config             the store configuration
 * @param mappedStorage      builds mapped-file queues (use {@code QueueRole.CONSUME_QUEUE} or {@code OTHER})
 * @param checkpoint         where to record the store time of what was durably dispatched
 * @param commitLog          read access to the CommitLog
 * @param lastShutdownClean  false when the store is recovering from a crash (the abort file was there)
 * @param readOnly           true when the store is opened read-only ({@code stat}, {@code get}, ...): the
 *                           dispatcher only reads; {@code mappedStorage} then hands out read-only queues, and a
 *                           file the dispatcher maps itself must be opened for reading and mapped {@code READ_ONLY}
 */
public record DispatcherContext(Path storeRoot, StoreConfig config, MappedStorage mappedStorage,
                                Checkpoint checkpoint, CommitLogLookup commitLog, boolean lastShutdownClean,
                                boolean readOnly) {

    /** A context of a store opened for writing. */
    public DispatcherContext(Path storeRoot, StoreConfig config, MappedStorage mappedStorage, Checkpoint checkpoint,
                             CommitLogLookup commitLog, boolean lastShutdownClean) {
        this(storeRoot, config, mappedStorage, checkpoint, commitLog, lastShutdownClean, false);
    }
}
