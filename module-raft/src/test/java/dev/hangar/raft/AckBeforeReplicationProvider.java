package dev.hangar.raft;

import dev.hangar.spi.ha.ConsensusGroup;
import dev.hangar.spi.ha.ReplicationContext;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.ha.ReplicationServiceProvider;
import dev.hangar.spi.ha.ReplicationStatus;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The negative control of the failover harness ({@code haService=raft-ack-early}): the raft provider, except that a
 * leader acknowledges a put 2 ms after it is in its own CommitLog, whether or not a majority has it by then. Killing such a
 * leader must lose acknowledged puts, and {@link RaftFailoverTest} must see it.
 */
public final class AckBeforeReplicationProvider implements ReplicationServiceProvider {
    @Override
    public String name() {
        return "raft-ack-early";
    }

    @Override
    public boolean electsWriter() {
        return true;
    }

    @Override
    public ReplicationService create(ReplicationContext context) {
        ReplicationService raft = new RaftReplicationService(RaftSettings.from(context.config()), context.log());
        return new ReplicationService() {
            @Override
            public void start() {
                raft.start();
            }

            @Override
            public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForReplica) {
                // still replicates, but answers PUT_OK after 2 ms whatever the group holds by then (a round trip
                // with two fsyncs takes longer here); the pause keeps the writers at a pace the followers can
                // follow, as real acknowledgements would, so the leader is killed, not voted out by starved peers
                return raft.handle(nextOffset, waitForReplica).thenApply(s -> PutMessageStatus.PUT_OK)
                        .completeOnTimeout(PutMessageStatus.PUT_OK, 2, java.util.concurrent.TimeUnit.MILLISECONDS);
            }

            @Override
            public ReplicationStatus status() {
                return raft.status();
            }

            @Override
            public long committedOffset() {
                return raft.committedOffset();
            }

            @Override
            public String putRefusal() {
                return raft.putRefusal();
            }

            @Override
            public Optional<ConsensusGroup> consensus() {
                return raft.consensus();
            }

            @Override
            public void shutdown() {
                raft.shutdown();
            }
        };
    }
}
