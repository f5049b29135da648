package dev.hangar.bench;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Hangar's {@link DefaultMessageStore} with the built-in providers, configured for a {@link Workload}. */
public final class HangarEngine implements BenchEngine {
    private final DefaultMessageStore store;
    private final Workload workload;
    /**
     * The workload's topics, built once: the readable check polls every millisecond, and building 12 500 names per
     * poll made the bench's main thread the largest allocator of the 100 000-queue row (45 MB in its timed part).
     */
    private final java.util.List<String> topicNames;
    private final Boolean pretouch;

    /**
     * @param pretouch {@code warmMapedFileEnable}: true runs the CommitLog pretoucher, which faults the pages ahead
     *                 of the write position in on its own thread, false runs without it, null keeps the store's
     *                 default (on)
     */
    /** pageCacheKeepBehindBytes of the put-stall row's pretoucher run: 1 GiB, ~4 s of its appends. */
    static final long PUT_STALL_PAGE_CACHE_KEEP_BYTES = 1L << 30;

    public HangarEngine(Path dir, Workload w, int commitLogFileSize, Boolean pretouch) {
        this.workload = w;
        this.topicNames = w.topicNames();
        this.pretouch = pretouch;
        StoreConfig.Builder b = StoreConfig.builder()
                .set("storePathRootDir", dir.toString(), "bench")
                .set("mappedFileSizeCommitLog", Integer.toString(commitLogFileSize), "bench")
                .set("flushDiskType", w.syncFlush() ? "SYNC_FLUSH" : "ASYNC_FLUSH", "bench");
        if (pretouch != null) {
            b.set("warmMapedFileEnable", pretouch.toString(), "bench");
        }
        if (Boolean.TRUE.equals(pretouch) && w.name().equals(Workload.PUT_STALL)) {
            // the put-stall row writes ~17 GB in 60 s: new page cache from reused memory (docs/PERFORMANCE.md)
            b.set("pageCacheKeepBehindBytes", Long.toString(PUT_STALL_PAGE_CACHE_KEEP_BYTES), "bench");
        }
        if (w.lock() != Workload.Lock.DEFAULT) {
            b.set("putMessageLock", w.lock().name().toLowerCase(java.util.Locale.ROOT), "bench");
        }
        if (w.transientPool()) {
            b.set("mappedFile", "transient-pool", "bench").set("transientStorePoolSize", "3", "bench");
        }
        applyOverrides(b);
        store = new DefaultMessageStore(b.build());
        store.start();
    }

    @Override
    public String name() {
        return Boolean.TRUE.equals(pretouch) ? Workload.HANGAR_PRETOUCH : Workload.HANGAR;
    }

    @Override
    public Putter putter(int thread) {
        byte[] body = Bodies.of(workload.messageSize(), thread);
        if (workload.batchSize() == 1) {
            Message m = new Message(Workload.TOPIC, body).tags(Workload.TAG).keys("placeholder");
            return new Putter() {
                @Override
                public void prepare(int first) {
                    m.topic(workload.topicOf(first)).queueId(workload.queueOf(first))
                            .property(MessageConst.KEYS, Workload.key(first))
                            .bornTimestamp(System.currentTimeMillis());
                }

                @Override
                public boolean put(int first) {
                    return store.putMessage(m).isOk();
                }

                @Override
                public java.util.concurrent.CompletableFuture<?> putAsync(int first) {
                    return store.asyncPutMessage(m);
                }

                @Override
                public boolean answeredOk(Object answer) {
                    return ((PutMessageResult) answer).isOk();
                }
            };
        }
        List<Message> batch = new ArrayList<>();
        for (int j = 0; j < workload.batchSize(); j++) {
            batch.add(new Message(Workload.TOPIC, body).tags(Workload.TAG).keys("placeholder"));
        }
        return new Putter() {
            @Override
            public void prepare(int first) {
                int queue = workload.queueOf(first);
                String topic = workload.topicOf(first);
                for (int j = 0; j < batch.size(); j++) {
                    batch.get(j).topic(topic).queueId(queue).property(MessageConst.KEYS, Workload.key(first + j));
                }
            }

            @Override
            public boolean put(int first) {
                return store.putMessages(batch).isOk();
            }

            @Override
            public java.util.concurrent.CompletableFuture<?> putAsync(int first) {
                return store.asyncPutMessages(batch);
            }

            @Override
            public boolean answeredOk(Object answer) {
                return ((PutMessageResult) answer).isOk();
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
        return !store.queryMessage(workload.topicOf(message), Workload.key(message), 1, 0, Long.MAX_VALUE).messages()
                .isEmpty();
    }

    @Override
    public long commitLogWrittenBytes() {
        return store.getMaxPhyOffset();
    }

    @Override
    public void close() {
        store.shutdown();
    }

    /**
     * A/B runs of one build: {@code BENCH_JAVA_OPTS=-Dbench.hangar.set=key=value,key=value} overrides a Hangar
     * store's config (every store of a run, the replication pairs' masters and slaves too).
     */
    static StoreConfig.Builder applyOverrides(StoreConfig.Builder b) {
        return applyOverrides(b, "bench.hangar.set");
    }

    /** The overrides of one system property ({@code key=value,key=value}); {@code bench.hangar.set} for every store. */
    static StoreConfig.Builder applyOverrides(StoreConfig.Builder b, String property) {
        for (String pair : System.getProperty(property, "").split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                b.set(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip(), property);
                System.err.println(property + ": " + pair.strip());
            }
        }
        return b;
    }
}
