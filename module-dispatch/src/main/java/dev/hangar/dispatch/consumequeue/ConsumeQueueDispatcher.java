package dev.hangar.dispatch.consumequeue;

import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogLookup;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.flush.Checkpoint;
import dev.hangar.spi.format.ConsumeQueueFormat;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.QueueRole;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code consume-queue} dispatcher: one {@link ConsumeQueue} per topic and queue id under
 * {@code <storeRoot>/consumequeue/<topic>/<queueId>/}, and their read side.
 *
 * <p>Thread-safety: {@link #dispatch} and {@link #deleteTopic} from the one reput thread, in log order; {@link #load}
 * and {@link #truncate} while nothing dispatches; {@link #flush} from the flush thread and {@link #deleteExpired} from
 * the clean thread, concurrently with dispatch; every {@link ConsumeQueueView} method from any thread.
 */
public final class ConsumeQueueDispatcher implements CommitLogDispatcher, ConsumeQueueView {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumeQueueDispatcher.class);

    /** Attempts at one unit before giving up (RocketMQ tries 30 times a second apart; the reput thread waits). */
    static final int WRITE_ATTEMPTS = 5;
    private static final long RETRY_PAUSE_MS = 200;
    /**
     * Unit bytes all new queues together hold in memory before their files exist (see {@link PendingUnits}): 16 MiB
     * is 800 000 units, four times the units of a 200 000-message run across 100 000 queues.
     */
    static final long PENDING_UNIT_BYTES = 16L << 20;
    /**
     * Time a regular (not full) flush spends creating files for held units, of its 1 s interval: file creation
     * competes with dispatch for the file system and the two cores (100 000 new queues: readable after 26 s with
     * no file made during the run, 59-136 s with every flush making all it could; docs/PERFORMANCE.md). A full
     * flush makes them all.
     */
    static final long MATERIALIZE_NANOS_PER_FLUSH = 100_000_000L;

    private final Path root;
    private final int fileSize;
    private final MappedStorage storage;
    private final Checkpoint checkpoint;
    private final CommitLogLookup commitLog;
    private final long destroyIntervalForcibly;
    private final boolean lastShutdownClean;
    private final ConcurrentMap<String, TopicQueues> queues = new ConcurrentHashMap<>();
    private final PendingUnits.Budget pendingUnits;
    /** Opens a queue's files; one instance for all queues, so a new queue allocates no opener of its own. */
    private final ConsumeQueue.FileQueues fileQueues = this::openFiles;
    /** The dispatch thread's unit encoding buffer, shared by every queue (only that thread puts). */
    private final byte[] unitBuffer = new byte[ConsumeQueueFormat.UNIT_SIZE];

    public ConsumeQueueDispatcher(DispatcherContext context) {
        this.root = context.storeRoot().resolve("consumequeue");
        this.fileSize = context.config().consumeQueueFileSize();
        this.storage = context.mappedStorage();
        this.checkpoint = context.checkpoint();
        this.commitLog = context.commitLog();
        this.destroyIntervalForcibly = context.config().get(StoreConfigKeys.DESTROY_MAPPED_FILE_INTERVAL_FORCIBLY);
        this.lastShutdownClean = context.lastShutdownClean();
        this.pendingUnits = new PendingUnits.Budget(PENDING_UNIT_BYTES);
    }

    /** Opens every {@code <topic>/<queueId>} directory, recovers each queue and corrects its min offset. */
    @Override
    public void load() {
        if (!Files.isDirectory(root)) {
            return;
        }
        try {
            loadQueues();
        } catch (RuntimeException e) {
            // leave nothing mapped behind a failed start
            forEach(queue -> queue.shutdown(0));
            queues.clear();
            throw e;
        }
    }

    private void loadQueues() {
        int loaded = 0;
        for (Path topicDir : listDirectories(root)) {
            String topic = topicDir.getFileName().toString();
            for (Path queueDir : listDirectories(topicDir)) {
                Integer queueId = parseQueueId(queueDir);
                if (queueId == null) {
                    continue;
                }
                ConsumeQueue queue = new ConsumeQueue(topic, queueId, openFiles(topic, queueId), unitBuffer);
                if (!queue.load(!lastShutdownClean)) {
                    String problem = queue.loadProblem();
                    throw new IllegalStateException("cannot load ConsumeQueue " + queueDir + ": " + (problem != null
                            ? problem + " (mappedFileSizeConsumeQueue makes files of " + fileSize + " bytes)"
                            : "a file's length is not mappedFileSizeConsumeQueue (" + fileSize
                            + " bytes); fix the setting or the files"));
                }
                queue.recover();
                queue.correctMinOffset(commitLog.minOffset());
                queues.computeIfAbsent(topic, t -> new TopicQueues()).add(queueId, queue);
                loaded++;
            }
        }
        LOG.info("loaded {} ConsumeQueues from {}", loaded, root);
    }

    private static List<Path> listDirectories(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(Files::isDirectory).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static Integer parseQueueId(Path queueDir) {
        String name = queueDir.getFileName().toString();
        try {
            int id = Integer.parseInt(name);
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        LOG.warn("ignoring {}: not a queue id directory", queueDir);
        return null;
    }

    /** The file queue of {@code <root>/<topic>/<queueId>/}; touches no file until one is made or loaded. */
    private MappedFileQueue openFiles(String topic, int queueId) {
        Path dir = root.resolve(topic).resolve(Integer.toString(queueId));
        return storage.openQueue(dir, fileSize, QueueRole.CONSUME_QUEUE);
    }

    /**
     * Writes the record's unit; PREPARED and ROLLBACK records take no queue offset and are skipped. Retries a
     * failing write, then throws (the engine marks a logic-queue write error).
     */
    @Override
    public void dispatch(DispatchRequest request) {
        if (!MessageSysFlag.takesQueueOffset(request.sysFlag())) {
            return;
        }
        ConsumeQueue queue = findOrCreate(request.topic(), request.queueId());
        RuntimeException lastFailure = null;
        for (int attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
            try {
                if (queue.put(request.commitLogOffset(), request.msgSize(), request.tagsCode(),
                        request.consumeQueueOffset())) {
                    checkpoint.logicsMsgTimestamp(request.storeTimestamp());
                    return;
                }
            } catch (RuntimeException e) {
                lastFailure = e;
            }
            LOG.warn("ConsumeQueue {}-{}: write of queue offset {} failed (attempt {} of {}){}", request.topic(),
                    request.queueId(), request.consumeQueueOffset(), attempt, WRITE_ATTEMPTS,
                    lastFailure == null ? "" : ": " + lastFailure);
            if (attempt < WRITE_ATTEMPTS) {
                pauseBeforeRetry();
            }
        }
        throw new IllegalStateException("could not write ConsumeQueue " + request.topic() + "-" + request.queueId()
                + " queue offset " + request.consumeQueueOffset() + " after " + WRITE_ATTEMPTS + " attempts",
                lastFailure);
    }

    private static void pauseBeforeRetry() {
        try {
            Thread.sleep(RETRY_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying a ConsumeQueue write", e);
        }
    }

    private ConsumeQueue findOrCreate(String topic, int queueId) {
        if (queueId < 0) {
            throw new IllegalArgumentException("negative queue id " + queueId + " for topic " + topic);
        }
        TopicQueues byId = queues.get(topic);
        ConsumeQueue queue = byId == null ? null : byId.get(queueId);
        if (queue != null) {
            return queue;
        }
        checkTopicIsDirectoryName(topic);
        if (byId == null) {
            byId = queues.computeIfAbsent(topic, t -> new TopicQueues());
        }
        // only this (the dispatch) thread creates queues, so nothing added this one since the get above
        queue = new ConsumeQueue(topic, queueId, fileSize, fileQueues, pendingBudgetFor(topic), unitBuffer);
        byId.add(queueId, queue);
        return queue;
    }

    /**
     * Where a new queue of {@code topic} holds its first units: nowhere for the schedule topic, whose units go to
     * the file at once. RocketMQ 4.9.8 recovers a store after a crash before it loads its delay-level table, so
     * re-dispatching a delayed record there it writes the tag hash as the unit's tags code instead of the deliver
     * time (and its schedule service then delivers the message at once). Units in the file (page cache) survive a
     * process crash and a copy of the running store, and that recovery keeps them; held units would not be there.
     * The schedule topic has at most one queue per delay level, so its files cost the dispatch thread nothing
     * that matters.
     */
    private PendingUnits.Budget pendingBudgetFor(String topic) {
        return MessageConst.SCHEDULE_TOPIC.equals(topic) ? null : pendingUnits;
    }

    /** A topic names a directory: refuse anything that would leave {@code consumequeue/}. */
    private static void checkTopicIsDirectoryName(String topic) {
        if (topic == null || topic.isEmpty() || topic.equals(".") || topic.equals("..") || topic.indexOf('/') >= 0
                || topic.indexOf('\\') >= 0 || topic.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("topic '" + topic + "' cannot name a ConsumeQueue directory");
        }
    }

    private ConsumeQueue find(String topic, int queueId) {
        TopicQueues byId = queueId < 0 ? null : queues.get(topic);
        return byId == null ? null : byId.get(queueId);
    }

    /** The largest commit-log offset one past a unit's record, over every queue (0 when none). */
    @Override
    public long durableOffset() {
        long max = 0;
        for (TopicQueues byId : queues.values()) {
            for (ConsumeQueue queue : byId) {
                max = Math.max(max, queue.maxPhysicOffset());
            }
        }
        return max;
    }

    @Override
    public void truncate(long commitLogOffset) {
        forEach(queue -> queue.truncate(commitLogOffset));
    }

    /**
     * Flushes every queue; a failing queue does not stop the others, the first failure is thrown at the end. First
     * new queues whose units are held in memory get their files: a regular flush makes files for
     * {@link #MATERIALIZE_NANOS_PER_FLUSH}, a full flush for all of them, so it never leaves a unit the checkpoint
     * may claim off the disk. A full flush ({@code leastPages == 0}) then asks the storage to force every written
     * ConsumeQueue file at once (one {@code fdatasync} per file while at most 64 wait, one {@code syncfs} above
     * that, see {@code UnforcedFiles}); the queue-by-queue
     * pass then finds only what that did not cover.
     */
    @Override
    public void flush(int leastPages) {
        long begin = System.nanoTime();
        long heldBefore = pendingUnits.heldBytes();
        // nothing held: no pass over every queue (flushes may run every 10 ms; each pass allocates its iterators).
        // A full flush still writes any unit held after this read: each queue's own flush(0) below materializes.
        IOException first = heldBefore == 0 ? null
                : materializeHeldUnits(leastPages == 0 ? Long.MAX_VALUE : MATERIALIZE_NANOS_PER_FLUSH);
        if (heldBefore > 0) {
            LOG.info("wrote {} units held in memory to new ConsumeQueue files in {} ms; {} units still held",
                    (heldBefore - pendingUnits.heldBytes()) / ConsumeQueueFormat.UNIT_SIZE,
                    (System.nanoTime() - begin) / 1_000_000, pendingUnits.heldBytes() / ConsumeQueueFormat.UNIT_SIZE);
        }
        if (leastPages == 0) {
            try {
                storage.forceWrittenFiles(QueueRole.CONSUME_QUEUE);
            } catch (IOException e) {
                LOG.error("forcing the written ConsumeQueue files failed: {}", e.toString());
                throw new UncheckedIOException("ConsumeQueue flush failed", e);
            }
        }
        for (TopicQueues byId : queues.values()) {
            for (ConsumeQueue queue : byId) {
                try {
                    queue.flush(leastPages);
                } catch (IOException e) {
                    LOG.error("flush of ConsumeQueue {}-{} failed: {}", queue.topic(), queue.queueId(), e.toString());
                    if (first == null) {
                        first = e;
                    }
                }
            }
        }
        if (first != null) {
            throw new UncheckedIOException("ConsumeQueue flush failed: " + first.getMessage(), first);
        }
    }

    /**
     * Writes the units held in memory to new files, queue by queue, until {@code budgetNanos} have passed (at least
     * one queue is tried); the first failure, or null.
     */
    private IOException materializeHeldUnits(long budgetNanos) {
        long begin = System.nanoTime();
        IOException first = null;
        for (TopicQueues byId : queues.values()) {
            for (ConsumeQueue queue : byId) {
                if (!queue.holdsUnitsInMemory()) {
                    continue;
                }
                if (!queue.materialize()) {
                    LOG.error("ConsumeQueue {}-{}: could not create its file for the units held in memory",
                            queue.topic(), queue.queueId());
                    if (first == null) {
                        first = new IOException("ConsumeQueue " + queue.topic() + "-" + queue.queueId()
                                + ": could not create its file for the units held in memory");
                    }
                }
                if (System.nanoTime() - begin >= budgetNanos) {
                    return first;
                }
            }
        }
        return first;
    }

    /** The queue of {@code topic} and {@code queueId}, or null (for tests). */
    ConsumeQueue queue(String topic, int queueId) {
        return find(topic, queueId);
    }

    /** Unit bytes new queues hold in memory now (for tests and stats). */
    long heldUnitBytes() {
        return pendingUnits.heldBytes();
    }

    @Override
    public void deleteExpired(long minCommitLogOffset) {
        int[] deleted = {0};
        forEach(queue -> deleted[0] += queue.deleteExpired(minCommitLogOffset));
        if (deleted[0] > 0) {
            LOG.info("deleted {} ConsumeQueue files below commit-log offset {}", deleted[0], minCommitLogOffset);
        }
    }

    /**
     * Forgets every queue of {@code topic} and deletes its files and directory (dispatch thread). Readers that found a
     * queue before it left the map keep reading it safely: its files are unmapped only once no reader holds them
     * (see {@code ReferenceCounted} in module-mmap), and a queue still holding units in memory never makes a file.
     */
    @Override
    public void deleteTopic(String topic) {
        TopicQueues byId = queues.remove(topic);
        if (byId == null) {
            return;
        }
        int[] count = {0};
        byId.forEach(queue -> {
            queue.destroy();
            count[0]++;
        });
        Path dir = root.resolve(topic);
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            LOG.warn("could not delete {} after deleting topic {}: {}", dir, topic, e.toString());
        }
        LOG.info("deleted topic {}: {} ConsumeQueues destroyed", topic, count[0]);
    }

    /** Flushes everything, then releases every queue's files. */
    @Override
    public void close() {
        try {
            flush(0);
        } catch (RuntimeException e) {
            LOG.error("final ConsumeQueue flush failed", e);
        }
        forEach(queue -> queue.shutdown(destroyIntervalForcibly));
        queues.clear();
    }

    /** A read-only open ends: unmap without flushing (nothing was written). */
    @Override
    public void closeWithoutWriting() {
        forEach(queue -> queue.shutdown(0));
        queues.clear();
    }

    private void forEach(java.util.function.Consumer<ConsumeQueue> action) {
        for (TopicQueues byId : queues.values()) {
            byId.forEach(action);
        }
    }

    // --- ConsumeQueueView

    @Override
    public boolean exists(String topic, int queueId) {
        return find(topic, queueId) != null;
    }

    @Override
    public long minOffset(String topic, int queueId) {
        ConsumeQueue queue = find(topic, queueId);
        return queue == null ? 0 : queue.minOffset();
    }

    @Override
    public long maxOffset(String topic, int queueId) {
        ConsumeQueue queue = find(topic, queueId);
        return queue == null ? 0 : queue.maxOffset();
    }

    @Override
    public List<CqUnit> read(String topic, int queueId, long offset, int max) {
        ConsumeQueue queue = find(topic, queueId);
        return queue == null ? List.of() : queue.read(offset, max);
    }

    @Override
    public long rollNextFile(String topic, int queueId, long offset) {
        long unitsPerFile = fileSize / ConsumeQueueFormat.UNIT_SIZE;
        return offset + unitsPerFile - Math.floorMod(offset, unitsPerFile);
    }

    @Override
    public long offsetByTime(String topic, int queueId, long timestamp) {
        ConsumeQueue queue = find(topic, queueId);
        return queue == null ? 0 : ConsumeQueueTimeSearch.offsetByTime(queue, commitLog, timestamp);
    }

    /** Visits the queues sorted by topic and queue id. */
    @Override
    public void forEachQueue(QueueVisitor visitor) {
        Map<String, TopicQueues> sorted = new TreeMap<>(queues);
        sorted.forEach((topic, byId) -> byId.forEach(
                queue -> visitor.visit(topic, queue.queueId(), queue.minOffset(), queue.maxOffset())));
    }
}
