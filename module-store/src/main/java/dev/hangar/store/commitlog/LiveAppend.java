package dev.hangar.store.commitlog;

import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import dev.hangar.spi.store.MessageIdSource;
import java.util.List;

/**
 * The append in progress, as {@link RecordAppender} wrote it: one object per {@link CommitLog}, rewritten by every
 * append, so an append allocates no result of its own. Valid only under the put lock: whatever must outlive the
 * append (the put's result) copies the figures in {@link CommitLog.AppendOutcome#appended}, or {@link #detach()}es.
 */
public final class LiveAppend implements AppendMessageResult {
    private final MessageIdSource idSource;
    private AppendMessageStatus status = AppendMessageStatus.UNKNOWN_ERROR;
    private long wroteOffset;
    private int wroteBytes;
    private long storeTimestamp;
    private long logicsOffset;
    private int messageCount;
    private int[] relativeStarts;

    LiveAppend(MessageIdSource idSource) {
        this.idSource = idSource;
    }

    void set(AppendMessageStatus status, long wroteOffset, int wroteBytes, long storeTimestamp, long logicsOffset,
             int messageCount, int[] relativeStarts) {
        this.status = status;
        this.wroteOffset = wroteOffset;
        this.wroteBytes = wroteBytes;
        this.storeTimestamp = storeTimestamp;
        this.logicsOffset = logicsOffset;
        this.messageCount = messageCount;
        this.relativeStarts = relativeStarts;
    }

    /** An immutable copy that may outlive the put lock. */
    public AppendMessageResult detach() {
        return status == AppendMessageStatus.PUT_OK
                ? AppendMessageResult.appended(wroteOffset, wroteBytes, idSource, relativeStarts, storeTimestamp,
                        logicsOffset, messageCount)
                : AppendMessageResult.of(status, wroteOffset, wroteBytes, List.of(), storeTimestamp, logicsOffset,
                        messageCount);
    }

    /**
     * Each record's start relative to {@link #wroteOffset()} for a batch (a fresh array per append, which a result
     * may keep), null for a single record.
     */
    public int[] relativeStarts() {
        return relativeStarts;
    }

    @Override
    public AppendMessageStatus status() {
        return status;
    }

    @Override
    public long wroteOffset() {
        return wroteOffset;
    }

    @Override
    public int wroteBytes() {
        return wroteBytes;
    }

    @Override
    public List<String> msgIds() {
        return status == AppendMessageStatus.PUT_OK ? idSource.idsAt(wroteOffset, relativeStarts) : List.of();
    }

    @Override
    public long storeTimestamp() {
        return storeTimestamp;
    }

    @Override
    public long logicsOffset() {
        return logicsOffset;
    }

    @Override
    public int messageCount() {
        return messageCount;
    }
}
