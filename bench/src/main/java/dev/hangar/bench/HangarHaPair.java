package dev.hangar.bench;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** Hangar master ({@code SYNC_MASTER} or {@code ASYNC_MASTER}) and slave, replicating with {@code rocketmq-ha}. */
final class HangarHaPair implements HaPair {
    private final DefaultMessageStore master;
    private final DefaultMessageStore slave;
    private final byte[] body;

    HangarHaPair(Path dir, String role, int fileSize, int messageSize) {
        this(dir, role, fileSize, messageSize, new String[0]);
    }

    /** {@code masterSettings}: extra key, value pairs for the master only (the bench's labelled variant rows). */
    HangarHaPair(Path dir, String role, int fileSize, int messageSize, String[] masterSettings) {
        this.body = Bodies.of(messageSize, 0);
        String[] pairs = new String[4 + masterSettings.length];
        pairs[0] = "brokerRole";
        pairs[1] = role;
        pairs[2] = "haListenPort";
        pairs[3] = "0";
        System.arraycopy(masterSettings, 0, pairs, 4, masterSettings.length);
        master = new DefaultMessageStore(config(dir.resolve("master"), fileSize, pairs).build());
        master.start();
        // -Dbench.hangar.slave.set=key=value,...: overrides for the slave only, after -Dbench.hangar.set
        slave = new DefaultMessageStore(HangarEngine.applyOverrides(config(dir.resolve("slave"), fileSize,
                "brokerRole", "SLAVE", "haMasterAddress", master.replicationStatus().listenAddress()),
                "bench.hangar.slave.set").build());
        slave.start();
        HaBench.await("the Hangar slave connects", () -> master.replicationStatus().connectedSlaves() == 1
                && master.replicationStatus().ackedOffset() >= 0);
    }

    private static StoreConfig.Builder config(Path dir, int fileSize, String... pairs) {
        StoreConfig.Builder b = StoreConfig.builder()
                .set("storePathRootDir", dir.toString(), "bench")
                .set("mappedFileSizeCommitLog", Integer.toString(fileSize), "bench");
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            b.set(pairs[i], pairs[i + 1], "bench");
        }
        return HangarEngine.applyOverrides(b);
    }

    @Override
    public String name() {
        return "hangar";
    }

    @Override
    public CompletableFuture<Long> put(int n) {
        Message m = new Message(Workload.TOPIC, body).tags(Workload.TAG).keys(Workload.key(n))
                .queueId(n % Workload.QUEUES);
        return master.asyncPutMessage(m).thenApply(HangarHaPair::endOf);
    }

    private static long endOf(PutMessageResult r) {
        return r.isOk() ? r.wroteOffset() + r.wroteBytes() : -1;
    }

    @Override
    public long slaveMaxOffset() {
        return slave.getMaxPhyOffset();
    }

    @Override
    public void close() {
        slave.shutdown();
        master.shutdown();
    }
}
