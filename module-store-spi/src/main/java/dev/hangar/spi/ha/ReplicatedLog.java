package dev.hangar.spi.ha;

import java.nio.ByteBuffer;

/**
 * The engine's CommitLog as a replication provider sees it: raw bytes by physical offset, both ways. A master's
 * provider reads what it ships; a slave's provider appends what it receives at exactly the master's offsets, and
 * the engine dispatches it (ConsumeQueue, index, plugins) as it does its own puts.
 *
 * <p>A consensus provider (one whose {@link ReplicationService#committedOffset()} is not unbounded) also cuts the
 * log back ({@link #truncate}), forces it ({@link #force}), tells the engine that its committed offset moved
 * ({@link #committedMoved}) and readies a node for puts when it becomes the leader ({@link #prepareForPuts}); the
 * engine's CommitLog does all four, the defaults (for a log that only ships and appends) refuse.
 *
 * <p>Thread-safety: every method from any thread; {@link #appendAt} and {@link #truncate} are serialised with puts
 * by the put lock.
 */
public interface ReplicatedLog {

    /** Size of one CommitLog file: frames never need to cross a file boundary. */
    int fileSize();

    /** Start offset of the oldest retained byte, or -1 when the log is empty. */
    long minOffset();

    /** One past the last written byte (0 for an empty log). */
    long maxOffset();

    /**
     * Copies bytes starting at {@code offset} into {@code target} (at most {@code target.remaining()}, never past
     * the end of the file holding {@code offset} nor past {@link #maxOffset()}).
     *
     * @return bytes copied; 0 when nothing is readable there yet, -1 when {@code offset} is no longer retained
     */
    int read(long offset, ByteBuffer target);

    /**
     * Where a range that starts at the record boundary {@code start} may end so that it holds whole records and at
     * most {@code atMost} bytes past {@code start}: the end of the last record that ends there or before (a BLANK
     * filler at a file's end counts as a record). When the first record alone is longer, its end: a range never
     * splits a record, so a replica that holds whole ranges holds whole records. Never past {@link #maxOffset()}.
     * The default refuses (a log that only ships and appends never needs it).
     *
     * @throws IllegalStateException naming the offset when {@code start} is not the start of a record
     */
    default long wholeRecordsEnd(long start, long atMost) {
        throw new UnsupportedOperationException("this log cannot tell its record boundaries");
    }

    /**
     * Appends the remaining bytes of {@code data} verbatim at {@code offset}, which must equal
     * {@link #maxOffset()}, or (for an empty log) start a file: a log copied from a master may begin past 0.
     * The bytes may span a file boundary (they are split); the master's BLANK end records keep the files aligned.
     * The engine wakes its dispatcher afterwards.
     *
     * @throws IllegalStateException naming both offsets when {@code offset} is not where the log ends, or when a
     *                               file cannot be created; nothing is written then
     */
    void appendAt(long offset, ByteBuffer data);

    /**
     * A master's put waits until a slave holds the bytes before {@code nextOffset}. A log with a write buffer
     * ({@code transient-pool}, {@code write-window}) makes appends readable, and so shippable, only when its committer
     * commits them, which by default waits for {@code commitCommitLogLeastPages} pages or
     * {@code commitCommitLogThoroughInterval}: such a log commits them now instead. Called by put threads; must not
     * block. The default does nothing (appends are readable at once).
     */
    default void readableWanted(long nextOffset) {
    }

    /**
     * Cuts the log back so that it ends at {@code offset}: the bytes at and past it are dropped (files wholly past it
     * are deleted), and a later {@link #appendAt} continues there. Only bytes dispatch has not passed may be cut:
     * under a consensus provider dispatch stops at {@link ReplicationService#committedOffset()}, which never covers
     * bytes a new leader can remove. Nothing happens when the log already ends at or before {@code offset}.
     *
     * @throws IllegalStateException naming both offsets when {@code offset} is below what dispatch has passed (those
     *                               records are visible in queues and the index), or not on a record boundary the
     *                               log can end at
     */
    default void truncate(long offset) {
        throw new UnsupportedOperationException("this log cannot be cut back");
    }

    /**
     * Why appends must stop now (the disk is past {@code diskSpaceWarningLevelRatio}, or a write into the log found it
     * full), or null while they may go on. A consensus follower asks before it takes an entry and refuses the entry
     * rather than acknowledge bytes it may not be able to store; the leader sends it again later. Cheap: read once
     * per entry. The default: never refused.
     */
    default String appendRefusal() {
        return null;
    }

    /**
     * How many times {@link #truncate} removed bytes since the log was opened: a put reads it before its append and
     * hands it to {@link ReplicationService#handle(long, boolean, long)}, which can so tell that its bytes may have
     * been cut. The default (a log never cut): 0.
     */
    default long cuts() {
        return 0;
    }

    /** Blocks until the bytes before {@code offset} (at most {@link #maxOffset()}) are forced to the disk. */
    default void force(long offset) {
        throw new UnsupportedOperationException("this log cannot be forced");
    }

    /**
     * The provider's {@link ReplicationService#committedOffset()} moved: wakes the dispatcher so the newly committed
     * records become readable. Must not block.
     */
    default void committedMoved() {
    }

    /**
     * Readies this log for puts on a node that has just become the writer: waits until dispatch has passed every
     * byte of the log (the caller has cut the log to its committed end first, so all of it is committed), then takes
     * each queue's next offset from the dispatched queues, so the first put continues every queue where the log
     * ends. Blocks at most {@code timeoutMillis}.
     *
     * @return false when dispatch did not catch up in time (puts must stay refused)
     */
    default boolean prepareForPuts(long timeoutMillis) {
        throw new UnsupportedOperationException("this log cannot be readied for puts");
    }
}
