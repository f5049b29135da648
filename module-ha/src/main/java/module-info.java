/**
 * Replication by RocketMQ 4.x's master/slave HA protocol ({@code rocketmq-ha}): a master ships its CommitLog to
 * slaves over a plain TCP port, a slave appends it at the master's offsets. Wire-compatible with RocketMQ 4.9's
 * HAService both ways. Exports nothing: the engine reaches it only through
 * {@link dev.hangar.spi.ha.ReplicationServiceProvider}.
 *
 * @provides dev.hangar.spi.ha.ReplicationServiceProvider
 */
module dev.hangar.ha {
    requires dev.hangar.spi;
    requires org.slf4j;

    provides dev.hangar.spi.ha.ReplicationServiceProvider with dev.hangar.ha.RocketMqHaProvider;
}
