package dev.hangar.store.reput;

import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.format.CommitLogScanner;
import dev.hangar.store.format.DispatchRecordView;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A read position in the CommitLog that walks records in order and hands each one on: the reput loop has one for
 * the built-in dispatchers, each third-party dispatcher has its own. Reads while holding the file it reads,
 * so retention may delete a file under it; a position below the first remaining offset jumps to it, and the
 * bytes jumped over are counted.
 *
 * <p>Each record is handed on as the same {@link DispatchRecordView}, valid only until the sink returns (the
 * lifetime rule of {@code DispatchRequest}); a cursor is read by one thread, so no view is shared between threads.
 *
 * <p>Thread-safety: {@link #advance} from one thread at a time; {@link #offset()} and {@link #skippedBytes()}
 * from any thread.
 */
public final class CommitLogCursor {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogCursor.class);
    /**
     * Records read under one hold of a file: a slow reader (a plugin) lets go of its file this often, so it never
     * keeps retention from deleting that file for longer than this many of its records take.
     */
    static final int MAX_RECORDS_PER_HOLD = 1024;

    private final CommitLog commitLog;
    private final String owner;
    /** The one view this cursor hands on, re-pointed at every record: dispatch allocates nothing per record. */
    private final DispatchRecordView view = new DispatchRecordView();
    /** Hands one scanned record on; made once, not per pass (a pass may carry a single record). */
    private final CommitLogScanner.RecordHandler handOn = this::handOn;
    /** Reused by every scan: a pass may carry a single record, so what a pass allocates counts per record. */
    private final CommitLogScanner.Result scanResult = new CommitLogScanner.Result();
    /** The file a pass reads, held for the pass, through a view kept per file: a pass allocates nothing. */
    private final HeldFileWindow window;
    // the pass under way in advance(): where to hand records, when to stop, where the scanned region starts
    private Consumer<DispatchRecordView> passSink;
    private BooleanSupplier passStop;
    /** Commit-log offset of index 0 of the buffer the pass under way scans. */
    private long passBufferOffset;
    private volatile long offset;
    private volatile long skippedBytes;

    /** @param owner who reads (for log lines) */
    public CommitLogCursor(CommitLog commitLog, String owner, long offset) {
        this.commitLog = commitLog;
        this.owner = owner;
        this.offset = offset;
        this.window = new HeldFileWindow(commitLog.queue());
    }

    /** Commit-log offset of the next record to hand on. */
    public long offset() {
        return offset;
    }

    public void offset(long newOffset) {
        this.offset = newOffset;
    }

    /** Bytes jumped over because retention deleted them before they were read. */
    public long skippedBytes() {
        return skippedBytes;
    }

    /**
     * Hands on every whole record between the position and {@code end} (read again per file), stopping early when
     * {@code stop} says so. The position moves past a record only once {@code sink} returned; a sink that throws
     * leaves it on that record. The view handed to {@code sink} is valid only until it returns.
     *
     * @return records handed on plus file rolls (0 = no progress)
     */
    public long advance(LongSupplier end, Consumer<DispatchRecordView> sink, BooleanSupplier stop) {
        long progress = 0;
        while (!stop.getAsBoolean()) {
            long limitOffset = end.getAsLong();
            long from = offset;
            if (from >= limitOffset) {
                break;
            }
            long min = commitLog.getMinOffset();
            if (from < min) {
                LOG.warn("{}: offset {} is below the commit log's first offset {} (deleted by retention); jumping",
                        owner, from, min);
                skippedBytes += min - from;
                offset = min;
                continue;
            }
            long before = progress;
            if (!window.open(from)) {
                break;
            }
            try {
                int limit = (int) Math.min(window.limit(), window.start() + (limitOffset - from));
                passSink = sink;
                passStop = stop;
                passBufferOffset = window.bufferOffset();
                CommitLogScanner.Result r;
                try {
                    r = CommitLogScanner.scan(window.buffer(), window.start(), limit, false, MAX_RECORDS_PER_HOLD,
                            handOn, scanResult);
                } finally {
                    passSink = null;
                    passStop = null;
                }
                progress += r.records();
                switch (r.stop()) {
                    case BLANK -> {
                        offset = commitLog.rollNextFile(passBufferOffset + r.index());
                        progress++;
                    }
                    case INVALID, CUT -> {
                        if (!isCopyInProgress(r)) {
                            LOG.error("{}: cannot read the record at {}: {}", owner, passBufferOffset + r.index(),
                                    r.reason());
                        }
                        return progress;
                    }
                    case END -> {
                        return progress;
                    }
                    default -> {
                        // LIMIT or PAUSED: read again from the new position (a new file, a new end, a new hold)
                    }
                }
            } finally {
                window.close();
            }
            if (progress == before) {
                break;
            }
        }
        return progress;
    }

    private boolean handOn(ByteBuffer buffer, int index, int size) {
        passSink.accept(view.wrap(buffer, index));
        offset = passBufferOffset + index + size;
        return !passStop.getAsBoolean();
    }

    /**
     * A slave receives its master's log in chunks that may end inside a record: a record cut by the visible end (a
     * header, or a message whose length runs past the end but fits its file) is waited for, not reported.
     */
    private boolean isCopyInProgress(CommitLogScanner.Result r) {
        if (r.stop() != CommitLogScanner.Stop.CUT) {
            return false;
        }
        long fileSize = commitLog.queue().mappedFileSize();
        return r.recordSize() == 0 || passBufferOffset % fileSize + r.index() + (long) r.recordSize() <= fileSize;
    }
}
