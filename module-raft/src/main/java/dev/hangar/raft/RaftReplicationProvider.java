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
    public void validate(dev.hangar.spi.config.StoreConfig config) {
        RaftSettings.from(config);
        int maxMessageSize = config.get(dev.hangar.spi.config.StoreConfigKeys.MAX_MESSAGE_SIZE);
        if (maxMessageSize > RatisSetup.MAX_MESSAGE_BYTES) {
            throw new dev.hangar.spi.config.ConfigException("maxMessageSize " + maxMessageSize + " is too large with "
                    + "haService=raft: a Raft entry carries at least one whole message, and entries are limited to "
                    + RatisSetup.MAX_MESSAGE_BYTES + " bytes of message body; lower maxMessageSize");
        }
    }

    @Override
    public ReplicationService create(ReplicationContext context) {
        return new RaftReplicationService(RaftSettings.from(context.config()), context.log());
    }
}
