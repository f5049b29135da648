package dev.hangar.compat.support;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.GetMessageStatus;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.QueryMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * A loaded and started Apache RocketMQ 4.9.8 {@code DefaultMessageStore} over a directory, with the geometry of
 * {@link StoreGeometry}; writes datasets as a broker would hand them to its store, and reads through the
 * store's API, decoding with RocketMQ's own {@link MessageDecoder}. Key queries are re-checked on topic and key
 * as RocketMQ's client does (the store returns raw hash matches).
 */
public final class RocketSide implements StoreReader, AutoCloseable {
    private final DefaultMessageStore store;
    private final BrokerStatsManager stats;
    private final InetSocketAddress storeHost;

    private RocketSide(DefaultMessageStore store, BrokerStatsManager stats, InetSocketAddress storeHost) {
        this.store = store;
        this.stats = stats;
        this.storeHost = storeHost;
    }

    public static MessageStoreConfig config(Path dir) {
        MessageStoreConfig c = new MessageStoreConfig();
        c.setStorePathRootDir(dir.toString());
        c.setStorePathCommitLog(dir.resolve("commitlog").toString());
        c.setMappedFileSizeCommitLog(StoreGeometry.COMMIT_LOG_FILE_SIZE);
        c.setMappedFileSizeConsumeQueue(StoreGeometry.CONSUME_QUEUE_FILE_SIZE);
        c.setMaxHashSlotNum(StoreGeometry.HASH_SLOTS);
        c.setMaxIndexNum(StoreGeometry.INDEX_ENTRIES);
        c.setMessageDelayLevel(StoreGeometry.DELAY_LEVELS);
        c.setMaxMsgsNumBatch(StoreGeometry.MAX_QUERY);
        c.setFlushIntervalCommitLog(10);
        c.setFlushIntervalConsumeQueue(10);
        // an ephemeral port: the HA acceptor must not clash with another store in this JVM or on this machine
        c.setHaListenPort(0);
        return c;
    }

    /** Loads (recovers) and starts RocketMQ on {@code dir}; {@code storeHost} is stamped on what it writes. */
    public static RocketSide open(Path dir, String storeHost) throws Exception {
        return open(config(dir), storeHost);
    }

    public static RocketSide open(MessageStoreConfig config, String storeHost) throws Exception {
        BrokerStatsManager stats = new BrokerStatsManager("compat", true);
        DefaultMessageStore store = new DefaultMessageStore(config, stats, null, new BrokerConfig());
        if (!store.load()) {
            store.shutdown();
            stats.shutdown();
            throw new AssertionError("RocketMQ 4.9.8 could not load " + config.getStorePathRootDir());
        }
        store.start();
        return new RocketSide(store, stats, StoreGeometry.address(storeHost));
    }

    public DefaultMessageStore store() {
        return store;
    }

    /** Puts every message of {@code dataset}; fails on the first put that is not PUT_OK. */
    public List<PutMessageResult> write(Dataset dataset) {
        List<PutMessageResult> results = new ArrayList<>();
        for (PutSpec put : dataset.puts()) {
            PutMessageResult r = put.batch() ? store.putMessages(toBatch(put.messages()))
                    : store.putMessage(toInner(put.messages().get(0)));
            if (r == null || !r.isOk()) {
                throw new AssertionError("RocketMQ refused " + put.messages() + ": " + r);
            }
            results.add(r);
        }
        return results;
    }

    private MessageExtBrokerInner toInner(MessageSpec spec) {
        MessageExtBrokerInner m = new MessageExtBrokerInner();
        m.setTopic(spec.topic());
        m.setQueueId(spec.queueId());
        m.setFlag(spec.flag());
        m.setBody(spec.body());
        Map<String, String> props = new LinkedHashMap<>(spec.properties());
        MessageAccessor.setProperties(m, props);
        m.setPropertiesString(MessageDecoder.messageProperties2String(props));
        m.setTagsCode(spec.tags() == null ? 0 : MessageExtBrokerInner.tagsString2tagsCode(spec.tags()));
        m.setSysFlag(spec.transactionType());
        m.setBornTimestamp(spec.bornTimestamp());
        m.setBornHost(spec.bornHost());
        m.setStoreHost(storeHost);
        m.setReconsumeTimes(spec.reconsumeTimes());
        m.setPreparedTransactionOffset(spec.preparedTransactionOffset());
        markV6(m, spec.bornHost());
        return m;
    }

    private MessageExtBatch toBatch(List<MessageSpec> specs) {
        List<Message> inner = new ArrayList<>();
        for (MessageSpec spec : specs) {
            Message m = new Message(spec.topic(), spec.body());
            m.setFlag(spec.flag());
            MessageAccessor.setProperties(m, new LinkedHashMap<>(spec.properties()));
            inner.add(m);
        }
        MessageSpec first = specs.get(0);
        MessageExtBatch batch = new MessageExtBatch();
        batch.setTopic(first.topic());
        batch.setQueueId(first.queueId());
        batch.setBody(MessageDecoder.encodeMessages(inner));
        MessageAccessor.setProperties(batch, new LinkedHashMap<>());
        batch.setBornTimestamp(first.bornTimestamp());
        batch.setBornHost(first.bornHost());
        batch.setStoreHost(storeHost);
        batch.setReconsumeTimes(first.reconsumeTimes());
        batch.setSysFlag(0);
        markV6(batch, first.bornHost());
        return batch;
    }

    private void markV6(MessageExt m, InetSocketAddress bornHost) {
        if (bornHost.getAddress() instanceof Inet6Address) {
            m.setBornHostV6Flag();
        }
        if (storeHost.getAddress() instanceof Inet6Address) {
            m.setStoreHostAddressV6Flag();
        }
    }

    public static StoredRecord record(MessageExt m) {
        if (m == null) {
            return null;
        }
        return new StoredRecord(m.getTopic(), m.getQueueId(), m.getQueueOffset(), m.getCommitLogOffset(),
                m.getStoreSize(), m.getBodyCRC(), m.getFlag(), m.getSysFlag(), m.getBornTimestamp(),
                StoredRecord.host(m.getBornHost()), m.getStoreTimestamp(), StoredRecord.host(m.getStoreHost()),
                m.getReconsumeTimes(), m.getPreparedTransactionOffset(), StoredRecord.bodyDigest(m.getBody()),
                m.getProperties(), m.getMsgId());
    }

    private static StoredRecord decode(ByteBuffer buffer) {
        return record(MessageDecoder.decode(buffer.slice(), true, false));
    }

    @Override
    public String engine() {
        return "rocketmq";
    }

    @Override
    public long minOffset(String topic, int queueId) {
        return store.getMinOffsetInQueue(topic, queueId);
    }

    @Override
    public long maxOffset(String topic, int queueId) {
        return store.getMaxOffsetInQueue(topic, queueId);
    }

    @Override
    public StoredRecord get(String topic, int queueId, long queueOffset) {
        GetMessageResult r = store.getMessage("compat", topic, queueId, queueOffset, 1, null);
        try {
            if (r == null || r.getStatus() != GetMessageStatus.FOUND || r.getMessageBufferList().isEmpty()) {
                return null;
            }
            return decode(r.getMessageBufferList().get(0));
        } finally {
            if (r != null) {
                r.release();
            }
        }
    }

    @Override
    public QueueUnit unit(String topic, int queueId, long queueOffset) {
        ConsumeQueue cq = store.getConsumeQueue(topic, queueId);
        if (cq == null) {
            return null;
        }
        SelectMappedBufferResult r = cq.getIndexBuffer(queueOffset);
        if (r == null) {
            return null;
        }
        try {
            ByteBuffer b = r.getByteBuffer();
            return new QueueUnit(b.getLong(), b.getInt(), b.getLong());
        } finally {
            r.release();
        }
    }

    @Override
    public long offsetByTime(String topic, int queueId, long timestamp) {
        return store.getOffsetInQueueByTime(topic, queueId, timestamp);
    }

    @Override
    public long storeTimeAt(String topic, int queueId, long queueOffset) {
        return store.getMessageStoreTimeStamp(topic, queueId, queueOffset);
    }

    @Override
    public StoredRecord lookByOffset(long commitLogOffset) {
        return record(store.lookMessageByOffset(commitLogOffset));
    }

    @Override
    public StoredRecord lookByMsgId(String msgId) {
        try {
            return lookByOffset(MessageDecoder.decodeMessageId(msgId).getOffset());
        } catch (Exception e) {
            throw new AssertionError("RocketMQ cannot decode msgId " + msgId, e);
        }
    }

    @Override
    public List<StoredRecord> query(String topic, String key) {
        QueryMessageResult r = store.queryMessage(topic, key, StoreGeometry.MAX_QUERY, 0, Long.MAX_VALUE);
        try {
            List<StoredRecord> found = new ArrayList<>();
            for (ByteBuffer b : r.getMessageBufferList()) {
                StoredRecord rec = decode(b);
                if (rec.topic().equals(topic) && hasKey(rec, key)) {
                    found.add(rec);
                }
            }
            found.sort(Comparator.comparingLong(StoredRecord::commitLogOffset));
            return found;
        } finally {
            r.release();
        }
    }

    private static boolean hasKey(StoredRecord rec, String key) {
        if (key.equals(rec.properties().get("UNIQ_KEY"))) {
            return true;
        }
        String keys = rec.properties().get("KEYS");
        return keys != null && List.of(keys.split(" ")).contains(key);
    }

    @Override
    public long minPhyOffset() {
        return store.getMinPhyOffset();
    }

    @Override
    public long maxPhyOffset() {
        return store.getMaxPhyOffset();
    }

    @Override
    public long dispatchBehindBytes() {
        return store.dispatchBehindBytes();
    }

    @Override
    public void close() {
        store.shutdown();
        stats.shutdown();
    }
}
