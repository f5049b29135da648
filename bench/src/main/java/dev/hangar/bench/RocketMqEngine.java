package dev.hangar.bench;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.QueryMessageResult;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * Apache RocketMQ 4.9.8's {@code DefaultMessageStore}, configured for a {@link Workload} as a broker would
 * configure it. Messages are handed over the way a broker's send processor hands them: the properties string
 * (and a batch's encoded body) built in {@link Putter#prepare}, outside the timed and measured put call.
 */
public final class RocketMqEngine implements BenchEngine {
    private static final InetSocketAddress BORN_HOST = new InetSocketAddress("127.0.0.1", 50000);
    private static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    private final DefaultMessageStore store;
    private final BrokerStatsManager stats;
    private final Workload workload;
    /**
     * The workload's topics, built once: the readable check polls every millisecond, and building 12 500 names per
     * poll made the bench's main thread the largest allocator of the 100 000-queue row (45 MB in its timed part).
     */
    private final java.util.List<String> topicNames;

    public RocketMqEngine(Path dir, Workload w, int commitLogFileSize) throws Exception {
        this.workload = w;
        this.topicNames = w.topicNames();
        MessageStoreConfig c = new MessageStoreConfig();
        c.setStorePathRootDir(dir.toString());
        c.setStorePathCommitLog(dir.resolve("commitlog").toString());
        c.setMappedFileSizeCommitLog(commitLogFileSize);
        c.setFlushDiskType(w.syncFlush() ? FlushDiskType.SYNC_FLUSH : FlushDiskType.ASYNC_FLUSH);
        if (w.lock() != Workload.Lock.DEFAULT) {
            // RocketMQ has no adaptive lock: the ADAPTIVE row runs its pure spin lock
            c.setUseReentrantLockWhenPutMessage(w.lock() == Workload.Lock.REENTRANT);
        }
        if (w.transientPool()) {
            c.setTransientStorePoolEnable(true);
            c.setTransientStorePoolSize(3);
        }
        c.setHaListenPort(0);
        stats = new BrokerStatsManager("bench", true);
        store = new DefaultMessageStore(c, stats, null, new BrokerConfig());
        if (!store.load()) {
            throw new IllegalStateException("RocketMQ could not load " + dir);
        }
        store.start();
    }

    @Override
    public String name() {
        return "rocketmq";
    }

    @Override
    public Putter putter(int thread) {
        byte[] body = Bodies.of(workload.messageSize(), thread);
        if (workload.batchSize() == 1) {
            Map<String, String> props = new LinkedHashMap<>();
            props.put(MessageConst.PROPERTY_KEYS, "");
            props.put(MessageConst.PROPERTY_TAGS, Workload.TAG);
            MessageExtBrokerInner m = new MessageExtBrokerInner();
            m.setTopic(Workload.TOPIC);
            m.setBody(body);
            Map<String, String> tagOnly = new HashMap<>();
            tagOnly.put(MessageConst.PROPERTY_TAGS, Workload.TAG);
            MessageAccessor.setProperties(m, tagOnly);
            m.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(Workload.TAG));
            m.setBornHost(BORN_HOST);
            m.setStoreHost(STORE_HOST);
            return new Putter() {
                @Override
                public void prepare(int first) {
                    // what the broker's send processor hands the store: the properties already a string
                    props.put(MessageConst.PROPERTY_KEYS, Workload.key(first));
                    m.setPropertiesString(MessageDecoder.messageProperties2String(props));
                    m.setTopic(workload.topicOf(first));
                    m.setQueueId(workload.queueOf(first));
                    m.setBornTimestamp(System.currentTimeMillis());
                }

                @Override
                public boolean put(int first) {
                    PutMessageResult r = store.putMessage(m);
                    return r != null && r.isOk();
                }

                @Override
                public java.util.concurrent.CompletableFuture<?> putAsync(int first) {
                    return store.asyncPutMessage(m);
                }

                @Override
                public boolean answeredOk(Object answer) {
                    return answer instanceof PutMessageResult r && r.isOk();
                }
            };
        }
        return batchPutter(body);
    }

    private Putter batchPutter(byte[] body) {
        List<Message> batch = new ArrayList<>();
        for (int j = 0; j < workload.batchSize(); j++) {
            batch.add(new Message(Workload.TOPIC, Workload.TAG, "", body));
        }
        MessageExtBatch b = new MessageExtBatch();
        b.setTopic(Workload.TOPIC);
        MessageAccessor.setProperties(b, new HashMap<>());
        b.setBornHost(BORN_HOST);
        b.setStoreHost(STORE_HOST);
        return new Putter() {
            @Override
            public void prepare(int first) {
                // what the broker's batch send processor hands the store: the batch already encoded
                for (int j = 0; j < batch.size(); j++) {
                    batch.get(j).setKeys(Workload.key(first + j));
                }
                b.setBody(MessageDecoder.encodeMessages(batch));
                b.setTopic(workload.topicOf(first));
                b.setQueueId(workload.queueOf(first));
                b.setBornTimestamp(System.currentTimeMillis());
            }

            @Override
            public boolean put(int first) {
                PutMessageResult r = store.putMessages(b);
                return r != null && r.isOk();
            }

            @Override
            public java.util.concurrent.CompletableFuture<?> putAsync(int first) {
                return store.asyncPutMessages(b);
            }

            @Override
            public boolean answeredOk(Object answer) {
                return answer instanceof PutMessageResult r && r.isOk();
            }
        };
    }

    @Override
    public long readableByOffset() {
        return sumOfQueueMaxOffsets(topicNames);
    }

    @Override
    public boolean readsByQueue() {
        return true;
    }

    @Override
    public long maxOffsetInQueue(String topic, int queue) {
        return store.getMaxOffsetInQueue(topic, queue);
    }

    @Override
    public boolean findsKey(int message) {
        QueryMessageResult r = store.queryMessage(workload.topicOf(message), Workload.key(message), 1, 0,
                Long.MAX_VALUE);
        try {
            return !r.getMessageBufferList().isEmpty();
        } finally {
            r.release();
        }
    }

    @Override
    public long commitLogWrittenBytes() {
        return store.getMaxPhyOffset();
    }

    @Override
    public void close() {
        store.shutdown();
        stats.shutdown();
    }
}
