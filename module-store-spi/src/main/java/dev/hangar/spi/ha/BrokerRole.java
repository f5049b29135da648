package dev.hangar.spi.ha;

/**
 * A store's part in replication, by RocketMQ's {@code brokerRole} names. An {@code ASYNC_MASTER} answers puts at
 * once and streams its log to slaves in the background; a {@code SYNC_MASTER} answers a put that waits for the
 * store only once a slave has acknowledged it; a {@code SLAVE} refuses puts and copies its master's log.
 */
public enum BrokerRole {
    ASYNC_MASTER,
    SYNC_MASTER,
    SLAVE;

    public boolean isMaster() {
        return this != SLAVE;
    }
}
