package dev.hangar.store.offsets;

import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.format.DispatchRecordView;
import dev.hangar.store.reput.CommitLogCursor;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps {@link ConsumerOffsetTable} and {@code config/consumerOffset.json} together: at open it loads the file and
 * replays the commit records the file does not cover; while the store runs it saves the table every
 * {@code flushConsumerOffsetInterval} when it changed; at close it saves it once more.
 *
 * <p>The position a saved table covers is the dispatch position read before the table is copied: every commit
 * record below it was applied by the dispatch thread, so the copy holds at least their effect (and possibly some
 * later commits, which a replay applies again harmlessly). Under SYNC_FLUSH dispatch never passes the forced end, so
 * the file never covers a record a power cut can take away.
 *
 * <p>Thread-safety: {@link #recover} on the opening thread before dispatch starts; {@link #start} and
 * {@link #close} from the store's lifecycle; the saver thread is the only other writer of the file.
 */
public final class ConsumerOffsetSnapshots implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerOffsetSnapshots.class);

    private final ConsumerOffsetTable table;
    private final ConsumerOffsetFile file;
    private final long intervalNanos;
    private volatile LongSupplier appliedThrough;
    private volatile boolean stopped;
    private volatile Thread thread;
    private long savedVersion = -1;
    private long savedPosition = -1;

    public ConsumerOffsetSnapshots(ConsumerOffsetTable table, ConsumerOffsetFile file, long intervalMillis) {
        this.table = table;
        this.file = file;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
    }

    public ConsumerOffsetTable table() {
        return table;
    }

    /**
     * Loads the file (a file without Hangar's covered position, RocketMQ's, is taken over as the state at the log's
     * end) and applies the commit records in {@code [covered, logEnd)}. Unless {@code readOnly}, saves the result
     * covering {@code logEnd}, so a new store has its file before its first commit is acknowledged.
     *
     * @return commit records replayed
     */
    public long recover(CommitLog commitLog, long logEnd, boolean readOnly) {
        ConsumerOffsetFile.Content content = file.read();
        long covered;
        Map<ConsumerOffsetTable.Key, Long> offsets = Map.of();
        if (content == null) {
            covered = logEnd;
        } else {
            offsets = content.offsets();
            if (content.coveredPosition().isEmpty()) {
                covered = logEnd;
                LOG.info("taking over {} ({} offsets, written by RocketMQ or without Hangar's position): it is the "
                        + "state at the log's end {}", content.source(), offsets.size(), logEnd);
            } else {
                covered = content.coveredPosition().getAsLong();
                if (covered > logEnd) {
                    LOG.warn("{} covers the commit log up to {} but the log ends at {} (a power cut under ASYNC_FLUSH "
                            + "took its tail): offsets committed in the lost tail stay", content.source(), covered,
                            logEnd);
                    covered = logEnd;
                }
            }
        }
        long min = Math.max(0, commitLog.getMinOffset());
        if (covered < min) {
            LOG.warn("{} covers the commit log only up to {}, but retention deleted it up to {}: commits in between "
                    + "are lost", file.path(), covered, min);
        }
        table.load(offsets, covered);
        long[] replayed = {0};
        CommitLogCursor cursor = new CommitLogCursor(commitLog, "consumer-offset replay", Math.max(covered, min));
        cursor.advance(() -> logEnd, view -> {
            if (apply(view)) {
                replayed[0]++;
            }
        }, () -> false);
        if (replayed[0] > 0 || covered < logEnd) {
            LOG.info("consumer offsets: {} commit records replayed from {} to {}", replayed[0], covered, logEnd);
        }
        if (!readOnly) {
            save(logEnd);
        }
        return replayed[0];
    }

    /** The dispatch thread's hook: applies a record of the internal topic. True when it was one. */
    public boolean apply(DispatchRecordView record) {
        if (!record.topicIs(OffsetRecordFormat.TOPIC_BYTES)) {
            return false;
        }
        String deletedTopic = OffsetRecordFormat.deletedTopic(record);
        if (deletedTopic != null) {
            table.deleteTopic(deletedTopic, record.commitLogOffset());
            return true;
        }
        OffsetRecordFormat.Change change = OffsetRecordFormat.decode(record);
        if (change == null) {
            LOG.warn("a record of {} at {} carries no offset change this version understands; ignored",
                    dev.hangar.spi.store.ConsumerOffsets.TOPIC, record.commitLogOffset());
            return false;
        }
        table.apply(change);
        return true;
    }

    /** Starts saving every interval; {@code appliedThrough}: the dispatch position (every record below it applied). */
    public void start(LongSupplier appliedThrough) {
        this.appliedThrough = appliedThrough;
        Thread t = new Thread(this::run, "hangar-consumer-offsets");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void run() {
        while (!stopped) {
            LockSupport.parkNanos(this, intervalNanos);
            if (!stopped) {
                saveIfChanged();
            }
        }
    }

    private synchronized void saveIfChanged() {
        try {
            long position = appliedThrough.getAsLong();
            if (table.version() != savedVersion || position != savedPosition) {
                save(position);
            }
        } catch (RuntimeException e) {
            LOG.warn("cannot save the consumer offsets (they stay durable in the commit log): {}", e.toString());
        }
    }

    private synchronized void save(long position) {
        long version = table.version();
        file.write(table.copy(), position);
        savedVersion = version;
        savedPosition = position;
    }

    /** Stops the saver and saves once more; call after dispatch caught up, so the file covers the whole log. */
    @Override
    public void close() {
        stopped = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            saveIfChanged();
        }
    }
}
