package dev.hangar.compat.support;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A started Hangar store over a directory, with the compatibility geometry of {@link StoreGeometry}; writes
 * datasets and reads through Hangar's public API. Not thread-safe beyond the store itself.
 */
public final class HangarSide implements StoreReader, AutoCloseable {
    private final DefaultMessageStore store;

    private HangarSide(DefaultMessageStore store) {
        this.store = store;
    }

    /** The configuration for {@code dir}; {@code extra} are "key", "value" pairs that override it. */
    public static StoreConfig config(Path dir, String storeHost, String... extra) {
        StoreConfig.Builder b = StoreConfig.builder()
                .set("storePathRootDir", dir.toString(), "compat")
                .set("mappedFileSizeCommitLog", Integer.toString(StoreGeometry.COMMIT_LOG_FILE_SIZE), "compat")
                .set("mappedFileSizeConsumeQueue", Integer.toString(StoreGeometry.CONSUME_QUEUE_FILE_SIZE), "compat")
                .set("maxHashSlotNum", Integer.toString(StoreGeometry.HASH_SLOTS), "compat")
                .set("maxIndexNum", Integer.toString(StoreGeometry.INDEX_ENTRIES), "compat")
                .set("messageDelayLevel", StoreGeometry.DELAY_LEVELS, "compat")
                .set("maxMsgsNumBatch", Integer.toString(StoreGeometry.MAX_QUERY), "compat")
                .set("storeHost", storeHost, "compat")
                .set("flushIntervalCommitLog", "10", "compat")
                .set("flushIntervalConsumeQueue", "10", "compat");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            b.set(extra[i], extra[i + 1], "compat");
        }
        return b.build();
    }

    public static HangarSide open(Path dir, String storeHost, String... extra) {
        DefaultMessageStore store = new DefaultMessageStore(config(dir, storeHost, extra));
        store.start();
        return new HangarSide(store);
    }

    /** The store opened read-only ({@link DefaultMessageStore#startReadOnly()}): reads only, changes nothing. */
    public static HangarSide openReadOnly(Path dir, String storeHost, String... extra) {
        DefaultMessageStore store = new DefaultMessageStore(config(dir, storeHost, extra));
        store.startReadOnly();
        return new HangarSide(store);
    }

    public DefaultMessageStore store() {
        return store;
    }

    /** Puts every message of {@code dataset}; fails on the first put that is not PUT_OK. */
    public List<PutMessageResult> write(Dataset dataset) {
        List<PutMessageResult> results = new ArrayList<>();
        for (PutSpec put : dataset.puts()) {
            PutMessageResult r = put.batch()
                    ? store.putMessages(put.messages().stream().map(HangarSide::toMessage).toList())
                    : store.putMessage(toMessage(put.messages().get(0)));
            if (!r.isOk()) {
                throw new AssertionError("Hangar refused " + put.messages() + ": " + r.status() + " " + r.reason());
            }
            results.add(r);
        }
        return results;
    }

    public static Message toMessage(MessageSpec spec) {
        Message m = new Message(spec.topic(), spec.body())
                .queueId(spec.queueId())
                .flag(spec.flag())
                .transactionType(spec.transactionType())
                .bornTimestamp(spec.bornTimestamp())
                .bornHost(spec.bornHost())
                .reconsumeTimes(spec.reconsumeTimes())
                .preparedTransactionOffset(spec.preparedTransactionOffset());
        spec.properties().forEach(m::property);
        return m;
    }

    public static StoredRecord record(StoredMessage m) {
        if (m == null) {
            return null;
        }
        return new StoredRecord(m.topic(), m.queueId(), m.queueOffset(), m.commitLogOffset(), m.storeSize(),
                m.bodyCrc(), m.flag(), m.sysFlag(), m.bornTimestamp(), StoredRecord.host(m.bornHost()),
                m.storeTimestamp(), StoredRecord.host(m.storeHost()), m.reconsumeTimes(),
                m.preparedTransactionOffset(), StoredRecord.bodyDigest(m.body()), m.properties(), m.msgId());
    }

    @Override
    public String engine() {
        return "hangar";
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
        if (r.status() != GetMessageStatus.FOUND || r.messages().isEmpty()) {
            return null;
        }
        return record(r.messages().get(0));
    }

    @Override
    public QueueUnit unit(String topic, int queueId, long queueOffset) {
        ConsumeQueueView view = store.dispatcherView(ConsumeQueueView.class).orElseThrow();
        List<CqUnit> units = view.read(topic, queueId, queueOffset, 1);
        if (units.isEmpty() || units.get(0).queueOffset() != queueOffset) {
            return null;
        }
        CqUnit u = units.get(0);
        return new QueueUnit(u.commitLogOffset(), u.size(), u.tagsCode());
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
        return record(store.lookMessageByMsgId(msgId));
    }

    @Override
    public List<StoredRecord> query(String topic, String key) {
        return store.queryMessage(topic, key, StoreGeometry.MAX_QUERY, 0, Long.MAX_VALUE).messages().stream()
                .map(HangarSide::record)
                .sorted(Comparator.comparingLong(StoredRecord::commitLogOffset))
                .toList();
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
    }
}
