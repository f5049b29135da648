package dev.hangar.bench;

import io.openmessaging.storage.dledger.DLedgerLeaderElector;
import io.openmessaging.storage.dledger.DLedgerServer;
import io.openmessaging.storage.dledger.MemberState;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.dledger.DLedgerCommitLog;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * A RocketMQ 4.9.8 store on its DLedger CommitLog ({@code enableDLegerCommitLog=true}, DLedger 0.3.1.2 at its
 * defaults). Without a broker nothing switches the store's role when DLedger elects this node, so a role-change
 * handler does what the broker's does (reference/rocketmq-store-facts.md section 7): a new leader becomes
 * SYNC_MASTER once its whole log is committed and dispatched; any other role makes it a SLAVE, which refuses puts.
 */
final class DLedgerNodeStore implements RaftNodeStore {
    static final String GROUP = "bench";
    private static final InetSocketAddress BORN_HOST = new InetSocketAddress("127.0.0.1", 50000);
    private static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    private final DefaultMessageStore store;
    private final DLedgerServer server;
    private final BrokerStatsManager stats = new BrokerStatsManager("raft-bench", true);
    private final ExecutorService roleChanges = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bench-dledger-role");
        t.setDaemon(true);
        return t;
    });
    private final byte[] body;
    private final Path dir;
    private final String selfId;

    /** {@code peers}: DLedger's form, {@code n0-127.0.0.1:P0;n1-127.0.0.1:P1;...}. */
    DLedgerNodeStore(Path dir, String peers, String selfId, int fileSize, int messageSize) {
        this.dir = dir;
        this.selfId = selfId;
        this.body = Bodies.of(messageSize, 0);
        MessageStoreConfig c = new MessageStoreConfig();
        c.setStorePathRootDir(dir.toString());
        c.setStorePathCommitLog(dir.resolve("commitlog").toString());
        c.setMappedFileSizeCommitLog(fileSize);
        c.setEnableDLegerCommitLog(true);
        c.setdLegerGroup(GROUP);
        c.setdLegerPeers(peers);
        c.setdLegerSelfId(selfId);
        c.setBrokerRole(BrokerRole.SLAVE); // until DLedger elects this node (the broker starts it the same way)
        try {
            store = new DefaultMessageStore(c, stats, null, new BrokerConfig());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        server = ((DLedgerCommitLog) store.getCommitLog()).getdLedgerServer();
        server.getdLedgerLeaderElector().addRoleChangeHandler(new RoleHandler());
        if (!store.load()) {
            throw new IllegalStateException("RocketMQ could not load " + dir);
        }
        try {
            store.start();
        } catch (Exception e) {
            throw new IllegalStateException("RocketMQ could not start " + dir, e);
        }
    }

    /** Makes the store master or slave as DLedger's role changes, in the order the changes come. */
    private final class RoleHandler implements DLedgerLeaderElector.RoleChangeHandler {
        @Override
        public void handle(long term, MemberState.Role role) {
            roleChanges.execute(() -> {
                if (role != MemberState.Role.LEADER) {
                    store.getMessageStoreConfig().setBrokerRole(BrokerRole.SLAVE);
                    return;
                }
                // a new leader serves puts only after it applied every entry of earlier terms (its CommitLog end
                // then equals the committed end) and its ConsumeQueues have caught up with it
                while (server.getMemberState().isLeader() && server.getMemberState().currTerm() == term) {
                    if (server.getdLedgerStore().getLedgerEndIndex() == server.getdLedgerStore().getCommittedIndex()
                            && store.dispatchBehindBytes() == 0) {
                        store.getMessageStoreConfig().setBrokerRole(BrokerRole.SYNC_MASTER);
                        return;
                    }
                    sleep(10);
                }
            });
        }

        @Override
        public void startup() {
        }

        @Override
        public void shutdown() {
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean leader() {
        return server.getMemberState().isLeader();
    }

    @Override
    public boolean ready() {
        return leader() && store.getMessageStoreConfig().getBrokerRole() != BrokerRole.SLAVE;
    }

    @Override
    public CompletableFuture<Integer> put(int n) {
        // a fresh message per put: RocketMQ encodes it under its put lock, after this call may have returned
        MessageExtBrokerInner m = new MessageExtBrokerInner();
        m.setTopic(Workload.TOPIC);
        m.setBody(body);
        Map<String, String> props = new LinkedHashMap<>();
        props.put(MessageConst.PROPERTY_KEYS, Workload.key(n));
        props.put(MessageConst.PROPERTY_TAGS, Workload.TAG);
        MessageAccessor.setProperties(m, new HashMap<>(props));
        m.setPropertiesString(MessageDecoder.messageProperties2String(props));
        m.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(Workload.TAG));
        m.setQueueId(n % Workload.QUEUES);
        m.setBornTimestamp(System.currentTimeMillis());
        m.setBornHost(BORN_HOST);
        m.setStoreHost(STORE_HOST);
        return store.asyncPutMessage(m).thenApply(DLedgerNodeStore::bytesOf);
    }

    private static int bytesOf(PutMessageResult r) {
        return r != null && r.isOk() ? r.getAppendMessageResult().getWroteBytes() : -1;
    }

    @Override
    public long maxOffset() {
        return store.getMaxPhyOffset();
    }

    @Override
    public Path messageLogDir() {
        return dir.resolve("dledger-" + selfId).resolve("data");
    }

    @Override
    public Path raftLogDir() {
        return dir.resolve("dledger-" + selfId).resolve("index");
    }

    @Override
    public void close() {
        roleChanges.shutdownNow();
        store.shutdown();
        stats.shutdown();
        try {
            roleChanges.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
