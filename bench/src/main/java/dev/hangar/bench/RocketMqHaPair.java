package dev.hangar.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/** RocketMQ 4.9.8 master and slave stores replicating with RocketMQ's own HAService. */
final class RocketMqHaPair implements HaPair {
    private static final InetSocketAddress BORN_HOST = new InetSocketAddress("127.0.0.1", 50000);
    private static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    private final DefaultMessageStore master;
    private final DefaultMessageStore slave;
    private final BrokerStatsManager stats = new BrokerStatsManager("ha-bench", true);
    private final byte[] body;

    RocketMqHaPair(Path dir, String role, int fileSize, int messageSize) throws Exception {
        this.body = Bodies.of(messageSize, 0);
        int port = freePort();
        master = open(dir.resolve("master"), BrokerRole.valueOf(role), port, fileSize);
        slave = open(dir.resolve("slave"), BrokerRole.SLAVE, freePort(), fileSize);
        slave.updateHaMasterAddress("127.0.0.1:" + port);
        HaBench.await("the RocketMQ slave connects", () -> master.getHaService().getConnectionCount().get() == 1);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private DefaultMessageStore open(Path dir, BrokerRole role, int haPort, int fileSize) throws Exception {
        MessageStoreConfig c = new MessageStoreConfig();
        c.setStorePathRootDir(dir.toString());
        c.setStorePathCommitLog(dir.resolve("commitlog").toString());
        c.setMappedFileSizeCommitLog(fileSize);
        c.setBrokerRole(role);
        c.setHaListenPort(haPort);
        DefaultMessageStore store = new DefaultMessageStore(c, stats, null, new BrokerConfig());
        if (!store.load()) {
            throw new IllegalStateException("RocketMQ could not load " + dir);
        }
        store.start();
        return store;
    }

    @Override
    public String name() {
        return "rocketmq";
    }

    @Override
    public CompletableFuture<Long> put(int n) {
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
        return master.asyncPutMessage(m).thenApply(RocketMqHaPair::endOf);
    }

    private static long endOf(PutMessageResult r) {
        return r != null && r.isOk() ? r.getAppendMessageResult().getWroteOffset()
                + r.getAppendMessageResult().getWroteBytes() : -1;
    }

    @Override
    public long slaveMaxOffset() {
        return slave.getMaxPhyOffset();
    }

    @Override
    public void close() {
        slave.shutdown();
        master.shutdown();
        stats.shutdown();
    }
}
