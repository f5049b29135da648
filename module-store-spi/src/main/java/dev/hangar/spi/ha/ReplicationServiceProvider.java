package dev.hangar.spi.ha;

import dev.hangar.spi.NamedProvider;

/**
 * Provides a {@link ReplicationService}; selected by {@code haService} ({@code auto} picks {@code rocketmq-ha}
 * for a SYNC_MASTER, a SLAVE or an explicitly configured ASYNC_MASTER). A provider built on a consensus engine
 * (Raft) fits the same shape: it completes {@link ReplicationService#handle} once a quorum holds the offset and
 * appends on followers through {@link ReplicatedLog#appendAt}.
 */
public interface ReplicationServiceProvider extends NamedProvider {

    ReplicationService create(ReplicationContext context);

    /**
     * True for a provider whose nodes elect the writer among themselves (Raft): the store's role is not configured,
     * so the launcher refuses {@code brokerRole} beside it, and puts are gated by
     * {@link ReplicationService#putRefusal()}.
     */
    default boolean electsWriter() {
        return false;
    }
}
