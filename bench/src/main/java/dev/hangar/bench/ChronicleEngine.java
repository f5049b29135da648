package dev.hangar.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Chronicle Queue (open source) as the raw-append reference: each writer thread appends to one queue through its
 * own {@link ExcerptAppender}. It builds no ConsumeQueue and no index, so a run is timed until every message is
 * written (an appended excerpt is readable by a tailer as soon as its document closes) and a key query is not
 * asked of it. Only the raw-append workloads ({@link Workload#engines()}) run it.
 *
 * <p>What one excerpt holds, so the append carries what a store record carries besides its body: the topic, the
 * queue id, the born timestamp, the tag, the unique key and the body, each byte form prepared in
 * {@link Putter#prepare} outside the timed call, as the other engines get their message prepared there.
 */
public final class ChronicleEngine implements BenchEngine {
    private final ChronicleQueue queue;
    private final Workload workload;
    private final List<ChroniclePutter> putters = new CopyOnWriteArrayList<>();

    public ChronicleEngine(Path dir, Workload w) {
        this.workload = w;
        this.queue = ChronicleQueue.singleBuilder(dir.resolve("chronicle")).build();
    }

    @Override
    public String name() {
        return "chronicle";
    }

    @Override
    public Putter putter(int thread) {
        if (workload.batchSize() != 1 || workload.inflight() != 1) {
            throw new IllegalArgumentException("Chronicle runs only single synchronous raw appends, not workload "
                    + workload.name());
        }
        ChroniclePutter p = new ChroniclePutter(Bodies.of(workload.messageSize(), thread));
        putters.add(p);
        return p;
    }

    /** One writer's appender; created by the writer thread itself (appenders are single-threaded). */
    private final class ChroniclePutter implements Putter {
        private static final byte[] TAG = Workload.TAG.getBytes(StandardCharsets.US_ASCII);
        private final byte[] body;
        private ExcerptAppender appender;
        private byte[] topic;
        private String topicName;
        private byte[] key;
        private int queueId;
        private long bornTimestamp;
        /** Excerpts appended; read by the measuring thread only after the writer ended (join orders it). */
        private long written;

        ChroniclePutter(byte[] body) {
            this.body = body;
        }

        @Override
        public void prepare(int first) {
            if (appender == null) {
                appender = queue.createAppender();
            }
            String t = workload.topicOf(first);
            if (!t.equals(topicName)) {
                topicName = t;
                topic = t.getBytes(StandardCharsets.US_ASCII);
            }
            key = Workload.key(first).getBytes(StandardCharsets.US_ASCII);
            queueId = workload.queueOf(first);
            bornTimestamp = System.currentTimeMillis();
        }

        @Override
        public boolean put(int first) {
            try (DocumentContext dc = appender.writingDocument()) {
                Bytes<?> b = dc.wire().bytes();
                b.writeUnsignedByte(topic.length).write(topic);
                b.writeInt(queueId);
                b.writeLong(bornTimestamp);
                b.writeUnsignedByte(TAG.length).write(TAG);
                b.writeUnsignedByte(key.length).write(key);
                b.writeInt(body.length).write(body);
            }
            written++;
            return true;
        }

        @Override
        public CompletableFuture<?> putAsync(int first) {
            throw new UnsupportedOperationException("Chronicle Queue has no asynchronous append");
        }
    }

    /** Excerpts appended by every writer: Chronicle has no queues to be dispatched to. */
    @Override
    public long readableByOffset() {
        long sum = 0;
        for (ChroniclePutter p : putters) {
            sum += p.written;
        }
        return sum;
    }

    /** Chronicle keeps no key index; the raw-append rows are labelled so and not asked for keys. */
    @Override
    public boolean findsKey(int message) {
        return true;
    }

    @Override
    public void close() {
        putters.forEach(p -> {
            if (p.appender != null) {
                p.appender.singleThreadedCheckReset();
                p.appender.close();
            }
        });
        queue.close();
    }
}
