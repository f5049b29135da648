package dev.hangar.spi.ha;

/**
 * What operators see of replication.
 *
 * @param role               this store's role
 * @param listenAddress      where a master accepts slaves ({@code host:port}), or empty
 * @param masterAddress      the master a slave copies from, or empty
 * @param connectedSlaves    slaves connected now (master)
 * @param ackedOffset        the highest offset a connected slave acknowledged (master), or the slave's own end
 * @param lagBytes           master: its end minus {@code ackedOffset}; slave: -1 (the protocol does not tell a
 *                           slave where its master ends)
 * @param lagMillis          master: how long since the slaves were last caught up, 0 when they are; slave: how
 *                           long since the last frame (data or heartbeat) from the master
 * @param bytesPerSecond     bytes shipped (master) or received (slave) per second, over the last seconds
 * @param rejectedConnections connections closed for bad input, a stalled peer, or an address not in
 *                           {@code haAllowedSlaves}
 * @param problem            why replication is degraded or stopped, or empty when it is healthy
 */
public record ReplicationStatus(BrokerRole role, String listenAddress, String masterAddress, int connectedSlaves,
                                long ackedOffset, long lagBytes, long lagMillis, long bytesPerSecond,
                                long rejectedConnections, String problem) {
}
