package dev.hangar.bench;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.assembly.ProviderRegistry;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * A Hangar store replicating with the {@code raft} provider ({@code haService=raft}, the {@code raft.*} keys at
 * their defaults but the peers and this node's id). {@code -Dbench.hangar.set=key=value,...} adds settings, as for
 * the other Hangar rows.
 */
final class HangarRaftNodeStore implements RaftNodeStore {
    private final DefaultMessageStore store;
    private final byte[] body;
    private final Path dir;

    /** {@code peers}: {@code n0@127.0.0.1:P0,n1@127.0.0.1:P1,...}; {@code ack}: {@code MAJORITY} or {@code ALL}. */
    HangarRaftNodeStore(Path dir, String peers, String selfId, String ack, int fileSize, int messageSize) {
        this.dir = dir;
        this.body = Bodies.of(messageSize, 0);
        StoreConfig.Builder b = StoreConfig.builder();
        // the raft.* keys are the provider's own: found on the class path, declared as the launcher does
        ProviderRegistry.discover(null).declaredKeys().forEach(b::declare);
        b.set("storePathRootDir", dir.toString(), "bench")
                .set("mappedFileSizeCommitLog", Integer.toString(fileSize), "bench")
                .set("haService", "raft", "bench")
                .set("raft.peers", peers, "bench")
                .set("raft.selfId", selfId, "bench")
                .set("raft.ack", ack, "bench");
        store = new DefaultMessageStore(HangarEngine.applyOverrides(b).build());
        store.start();
    }

    private ConsensusStatus status() {
        return store.consensus().orElseThrow(() -> new IllegalStateException(
                "haService=raft gave the store no consensus group")).status();
    }

    @Override
    public boolean leader() {
        return status().isLeader();
    }

    @Override
    public boolean ready() {
        return store.consensus().map(g -> g.status().leaderReady()).orElse(false);
    }

    @Override
    public CompletableFuture<Integer> put(int n) {
        Message m = new Message(Workload.TOPIC, body).tags(Workload.TAG).keys(Workload.key(n))
                .queueId(n % Workload.QUEUES);
        return store.asyncPutMessage(m).thenApply(HangarRaftNodeStore::bytesOf);
    }

    private static int bytesOf(PutMessageResult r) {
        return r.isOk() ? r.wroteBytes() : -1;
    }

    @Override
    public long maxOffset() {
        return store.getMaxPhyOffset();
    }

    @Override
    public Path messageLogDir() {
        return dir.resolve("commitlog");
    }

    @Override
    public Path raftLogDir() {
        return dir.resolve("raft");
    }

    @Override
    public void close() {
        store.shutdown();
    }
}
