package dev.hangar.store.commitlog;

import dev.hangar.spi.ha.ReplicatedLog;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.SelectedRegion;
import java.nio.ByteBuffer;
import java.util.function.LongConsumer;

/**
 * The CommitLog as a replication provider sees it ({@link ReplicatedLog}): raw reads for a master's shipping,
 * verbatim appends for a slave. After a slave's append it runs {@code onAppended} (wakes the dispatcher and the
 * flusher), so replicated messages become readable as the master's own do.
 */
public final class CommitLogReplicaPort implements ReplicatedLog {
    private final CommitLog commitLog;
    private final Runnable onAppended;
    private final LongConsumer commitThrough;

    public CommitLogReplicaPort(CommitLog commitLog, Runnable onAppended) {
        this(commitLog, onAppended, offset -> { });
    }

    /**
     * @param commitThrough asked (on a master with a write buffer) to commit through an offset a put waits to see
     *                      replicated; the appends before it are not readable, so not shippable, until then
     */
    public CommitLogReplicaPort(CommitLog commitLog, Runnable onAppended, LongConsumer commitThrough) {
        this.commitLog = commitLog;
        this.onAppended = onAppended;
        this.commitThrough = commitThrough;
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
    public void appendAt(long offset, ByteBuffer data) {
        commitLog.appendReplicated(offset, data);
        onAppended.run();
    }

    @Override
    public void readableWanted(long nextOffset) {
        commitThrough.accept(nextOffset);
    }
}
