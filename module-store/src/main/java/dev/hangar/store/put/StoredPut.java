package dev.hangar.store.put;

import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.commitlog.LiveAppend;

/**
 * The result of an appended blocking put ({@code putMessage}, {@code putMessages}): the appended figures, copied
 * under the put lock, and one {@link PutDetail} slot. 48 bytes, the only object such a put allocates. Written only
 * by the put's own thread until it is returned; read-only afterwards.
 */
public final class StoredPut implements AppendedPut {
    private Object slot;
    private final int wroteBytes;
    private final long wroteOffset;
    private final long storeTimestamp;
    private final long logicsOffset;

    /** Copies {@code append}'s figures; call under the put lock. */
    public StoredPut(PutCompletion completion, LiveAppend append) {
        this.slot = PutDetail.appended(completion, append.relativeStarts());
        this.wroteBytes = append.wroteBytes();
        this.wroteOffset = append.wroteOffset();
        this.storeTimestamp = append.storeTimestamp();
        this.logicsOffset = append.logicsOffset();
    }

    /** Names the outcome from what the flush service and replication said, counts the put and returns it. */
    public StoredPut settle(PutMessageStatus flushed, PutMessageStatus replicated, ReplicationService replication,
                            long beginNanos) {
        slot = PutDetail.completion(slot).finish(slot, flushed, replicated, replication, wroteBytes,
                (System.nanoTime() - beginNanos) / 1000);
        return this;
    }

    @Override
    public PutMessageStatus status() {
        return PutDetail.status(slot);
    }

    @Override
    public Object slot() {
        return slot;
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
    public long storeTimestamp() {
        return storeTimestamp;
    }

    @Override
    public long logicsOffset() {
        return logicsOffset;
    }

    @Override
    public String toString() {
        return describe();
    }
}
