package dev.hangar.bench;

import java.util.concurrent.CompletableFuture;

/**
 * A master and its slave, both in this JVM and connected over loopback, for the replication benchmark. Puts go to
 * the master; the slave's end offset tells how far replication got.
 */
interface HaPair extends AutoCloseable {

    /** "hangar" or "rocketmq". */
    String name();

    /** Puts message {@code n} (1 KiB body); completes with the offset its bytes end at, or -1 when not PUT_OK. */
    CompletableFuture<Long> put(int n);

    /** One past the slave's last byte. */
    long slaveMaxOffset();

    @Override
    void close();
}
