package dev.hangar.raft;

import dev.hangar.spi.ha.ReplicatedLog;
import java.nio.ByteBuffer;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two writers of a raft node's CommitLog besides its own puts, under one lock: a follower appending an entry's bytes
 * at exactly their offset, and a new leader cutting the bytes past its committed offset. The leader's cut runs on the
 * leadership thread after Ratis' ready notice; by then the node may have stepped down and appended a newer leader's
 * entries (acknowledged, perhaps counted in a majority). A cut then would leave Ratis' log naming bytes the CommitLog
 * lost. So the cut happens only while the node still leads the term it was ready in, checked under the lock: a
 * follower append begun after the check waits for the cut and then continues the log from there.
 */
final class FollowerAppends {
    private static final Logger LOG = LoggerFactory.getLogger(FollowerAppends.class);
    /** How often an append cuts a late put of this node's last leadership and tries again (one per writer). */
    private static final int STRAY_PUT_RETRIES = 64;

    private final ReplicatedLog log;
    /** Whether this node leads in the given term right now (Ratis' division info; a stub in a unit test). */
    private final LongPredicate leadsInTerm;
    private final Object appendOrCut = new Object();

    FollowerAppends(ReplicatedLog log, LongPredicate leadsInTerm) {
        this.log = log;
        this.leadsInTerm = leadsInTerm;
    }

    /**
     * Cuts the log back to {@code offset} (read under the lock) if this node still leads in {@code term}; returns that
     * offset, or -1 (and no cut) when it no longer leads in that term.
     */
    long cutIfLeading(long term, LongSupplier offset) {
        synchronized (appendOrCut) {
            if (!leadsInTerm.test(term)) {
                return -1;
            }
            long to = offset.getAsLong();
            log.truncate(to);
            return to;
        }
    }

    /** A follower appends entry {@code index}'s bytes at exactly their offset, {@code r.start()}. */
    void append(long index, RaftEntryFormat.Range r, ByteBuffer data) {
        synchronized (appendOrCut) {
            for (int attempt = 1; ; attempt++) {
                long end = log.maxOffset();
                if (end > r.start()) {
                    // bytes no entry of this log covers (a cut whose overwrite a crash lost, an old leader's tail, or
                    // the part of a range a full disk stopped)
                    log.truncate(r.start());
                } else if (end < r.start() && !(end <= 0 && log.minOffset() < 0)) {
                    throw new IllegalStateException("entry " + index + " starts at " + r.start()
                            + " but this CommitLog ends at " + end + ": bytes are missing");
                }
                try {
                    log.appendAt(r.start(), data.duplicate());
                    return;
                } catch (IllegalStateException e) {
                    // a put admitted just before this node stopped leading took the put lock between the cut and the
                    // append (puts are refused from the step-down on, so only those few): cut it too and append
                    // again. A failed write would stop Ratis' log worker for good
                    if (attempt >= STRAY_PUT_RETRIES || log.maxOffset() <= r.start()) {
                        throw e;
                    }
                    LOG.info("entry {}: a put of this node's last leadership landed at {} before the entry's bytes; "
                            + "cut it and append again", index, r.start());
                }
            }
        }
    }
}
