package dev.hangar.store.commitlog;

import dev.hangar.spi.flush.FlushTarget;
import dev.hangar.spi.ha.ReplicatedLog;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.store.format.CommitLogRecordFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The CommitLog as a replication provider sees it ({@link ReplicatedLog}): raw reads for a master's shipping,
 * verbatim appends for a slave, and for a consensus provider the cut, the force and the hand-over to puts. After a
 * slave's append it runs {@code onAppended} (wakes the dispatcher and the flusher), so replicated messages become
 * readable as the master's own do.
 */
public final class CommitLogReplicaPort implements ReplicatedLog {
    private final CommitLog commitLog;
    private final Runnable onAppended;
    private final LongConsumer commitThrough;
    private final Dispatch dispatch;
    private final CommitLogFlushTarget flush;
    private final DiskWatch disk;

    /**
     * What the port needs of the dispatch side.
     *
     * @param dispatchedOffset  the offset below which every record is dispatched (a cut may not go below it)
     * @param wake              wakes the dispatcher (and the plugins' cursors)
     * @param takeQueueOffsets  sets every queue's next offset from the dispatched ConsumeQueues
     */
    public record Dispatch(LongSupplier dispatchedOffset, Runnable wake, Runnable takeQueueOffsets) {
    }

    /**
     * The disk watch (the store's {@code DiskSpaceMonitor}) as a replica's appends need it: they bypass the put path,
     * which otherwise spends the disk budget and turns a full disk into DISK_FULL.
     */
    public interface DiskWatch {
        /** The DISK_FULL reason, or null while the disk has room. */
        String fullReason();

        /** {@code bytes} were appended: the append that exhausts the budget checks the disk at once. */
        void appended(long bytes);

        /** A write faulted ({@code fault}) or a file could not be created: sets DISK_FULL when that is the cause. */
        void appendFailed(Throwable fault, long fileSize);
    }

    public CommitLogReplicaPort(CommitLog commitLog, Runnable onAppended) {
        this(commitLog, onAppended, offset -> { }, null, null, null);
    }

    /**
     * @param commitThrough asked (on a master with a write buffer) to commit through an offset a put waits to see
     *                      replicated; the appends before it are not readable, so not shippable, until then
     * @param dispatch      the dispatch side, for {@link #truncate}, {@link #committedMoved} and
     *                      {@link #prepareForPuts}; null where no consensus provider runs (they then fail)
     * @param flush         forces the log for {@link #force}; null likewise
     * @param disk          the disk watch for {@link #appendRefusal} and appends; null: appends never refused
     */
    public CommitLogReplicaPort(CommitLog commitLog, Runnable onAppended, LongConsumer commitThrough,
                                Dispatch dispatch, CommitLogFlushTarget flush, DiskWatch disk) {
        this.disk = disk;
        this.commitLog = commitLog;
        this.onAppended = onAppended;
        this.commitThrough = commitThrough;
        this.dispatch = dispatch;
        this.flush = flush;
    }

    @Override
    public int fileSize() {
        return commitLog.queue().mappedFileSize();
    }

    @Override
    public long minOffset() {
        return commitLog.getMinOffset();
    }

    @Override
    public long maxOffset() {
        return commitLog.getMaxOffset();
    }

    @Override
    public int read(long offset, ByteBuffer target) {
        long min = commitLog.getMinOffset();
        if (min >= 0 && offset < min) {
            return -1;
        }
        MappedFile file = commitLog.queue().findMappedFileByOffset(offset, false);
        if (file == null) {
            return 0;
        }
        try (SelectedRegion region = file.selectMappedBuffer((int) (offset - file.fileFromOffset()))) {
            if (region == null) {
                return 0;
            }
            int n = Math.min(region.size(), target.remaining());
            target.put(region.buffer().duplicate().limit(n));
            return n;
        }
    }

    @Override
    public long wholeRecordsEnd(long start, long atMost) {
        long written = commitLog.getMaxOffset();
        long limit = Math.min(written, start + atMost);
        ByteBuffer size = ByteBuffer.allocate(Integer.BYTES);
        long at = start;
        while (at < written) {
            size.clear();
            if (read(at + CommitLogRecordFormat.TOTAL_SIZE_OFFSET, size) != Integer.BYTES) {
                throw new IllegalStateException("cannot read the size of the record at commit-log offset " + at);
            }
            int total = size.getInt(0);
            long end = at + total;
            if (total <= 0 || end > written) {
                throw new IllegalStateException("commit-log offset " + at + " is not the start of a whole record "
                        + "(its size field says " + total + ", the log ends at " + written + ")");
            }
            if (end > limit && at > start) {
                break;
            }
            at = end;
            if (at >= limit) {
                break;
            }
        }
        return at;
    }

    @Override
    public void appendAt(long offset, ByteBuffer data) {
        int bytes = data.remaining();
        try {
            commitLog.appendReplicated(offset, data);
        } catch (IllegalStateException | InternalError e) {
            // a file the full disk could not create, or a mapped page it could not back (SIGBUS, as InternalError)
            if (disk != null) {
                disk.appendFailed(e, fileSize());
                String full = disk.fullReason();
                if (full != null) {
                    throw new IllegalStateException("cannot append " + bytes + " replicated bytes at " + offset + ": "
                            + full, e);
                }
            }
            throw e;
        }
        if (disk != null) {
            disk.appended(bytes);
        }
        onAppended.run();
    }

    @Override
    public String appendRefusal() {
        return disk == null ? null : disk.fullReason();
    }

    @Override
    public void readableWanted(long nextOffset) {
        commitThrough.accept(nextOffset);
    }

    @Override
    public void truncate(long offset) {
        long dispatched = consensus().dispatchedOffset().getAsLong();
        if (offset < dispatched) {
            throw new IllegalStateException("cannot cut the commit log back to " + offset + ": records up to "
                    + dispatched + " are dispatched (readable in queues and the index)");
        }
        commitLog.truncate(offset);
    }

    @Override
    public long cuts() {
        return commitLog.cuts();
    }

    /**
     * Flushes {@code target} until it is forced through {@code offset}, or through its end where that is lower. The end
     * is read again on every turn: a consensus follower appends and cuts on one thread while Ratis' log worker forces
     * on another, and a cut below {@code offset} (a new leader's entries replacing the tail) leaves the file being
     * forced shut down, its flushed position short of the old end for good. With the end read once, the log worker
     * spun here forever: the follower never acknowledged again and its committed offset stood still.
     */
    static void forceThrough(FlushTarget target, long offset) throws IOException {
        while (target.flushedWhere() < Math.min(offset, target.maxWrotePosition())) {
            target.flush(0);
        }
    }

    @Override
    public void force(long offset) {
        if (flush == null) {
            throw new UnsupportedOperationException("this commit log is not set up for a consensus provider");
        }
        try {
            forceThrough(flush, offset);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force the commit log through " + offset, e);
        }
    }

    @Override
    public void committedMoved() {
        consensus().wake().run();
    }

    @Override
    public boolean prepareForPuts(long timeoutMillis) {
        Dispatch d = consensus();
        long end = commitLog.getMaxOffset();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (d.dispatchedOffset().getAsLong() < end) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            d.wake().run();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        d.takeQueueOffsets().run();
        return true;
    }

    private Dispatch consensus() {
        if (dispatch == null) {
            throw new UnsupportedOperationException("this commit log is not set up for a consensus provider");
        }
        return dispatch;
    }
}
