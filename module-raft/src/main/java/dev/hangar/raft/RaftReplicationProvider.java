package dev.hangar.raft;

import dev.hangar.spi.config.ConfigKey;
import dev.hangar.spi.ha.ReplicationContext;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.ha.ReplicationServiceProvider;
import java.util.List;

/**
 * {@code haService=raft}: three or five stores elect their writer with Apache Ratis; no manual promotion. See
 * {@link RaftReplicationService}.
 */
public final class RaftReplicationProvider implements ReplicationServiceProvider {

    @Override
    public String name() {
        return "raft";
    }

    @Override
    public String description() {
        return "Raft on Apache Ratis: 3 or 5 stores elect the writer, an acknowledged put survives any minority";
    }

    @Override
    public List<ConfigKey<?>> configKeys() {
        return RaftSettings.keys();
    }

    @Override
    public boolean electsWriter() {
        return true;
    }

    @Override
    public ReplicationService create(ReplicationContext context) {
        return new RaftReplicationService(RaftSettings.from(context.config()), context.log());
    }
}
