package dev.hangar.ha;

import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ReplicatedLog;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.ha.ReplicationStatus;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;

/**
 * A slave: one {@link HaClient} copying the master's log. A slave takes no puts (the engine refuses them), so
 * {@link #handle} is never asked to wait.
 */
final class SlaveReplicationService implements ReplicationService {
    private final HaSettings settings;
    private final ReplicatedLog log;
    private final HaClient client;

    SlaveReplicationService(HaSettings settings, ReplicatedLog log) {
        this.settings = settings;
        this.log = log;
        this.client = new HaClient(settings, log);
    }

    @Override
    public void start() {
        client.start();
    }

    @Override
    public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForReplica) {
        return SettledOutcomes.PUT_OK;
    }

    @Override
    public ReplicationStatus status() {
        return new ReplicationStatus(BrokerRole.SLAVE, "", settings.masterAddress(), 0, log.maxOffset(),
                client.lagBytes(), client.lagMillis(), client.bytesPerSecond(), client.rejectedFrames(),
                client.problem());
    }

    @Override
    public void shutdown() {
        client.shutdown();
    }
}
