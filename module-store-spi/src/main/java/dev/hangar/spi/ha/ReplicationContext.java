package dev.hangar.spi.ha;

import dev.hangar.spi.config.StoreConfig;

/**
 * What a replication service is built with.
 *
 * @param role   this store's role
 * @param config the store configuration (ha* keys, syncFlushTimeout)
 * @param log    the CommitLog to ship from or append to
 */
public record ReplicationContext(BrokerRole role, StoreConfig config, ReplicatedLog log) {
}
