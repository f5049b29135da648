package dev.hangar.ha;

import dev.hangar.spi.ha.ReplicationContext;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.ha.ReplicationServiceProvider;

/** {@code rocketmq-ha}: RocketMQ 4.x master/slave replication; a master listens, a slave connects. */
public final class RocketMqHaProvider implements ReplicationServiceProvider {
    public static final String NAME = "rocketmq-ha";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "RocketMQ 4.x master/slave replication (HAService wire protocol, haListenPort / haMasterAddress)";
    }

    @Override
    public ReplicationService create(ReplicationContext context) {
        HaSettings settings = HaSettings.from(context.config());
        return context.role().isMaster()
                ? new MasterReplicationService(context.role(), settings, context.log())
                : new SlaveReplicationService(settings, context.log());
    }
}
