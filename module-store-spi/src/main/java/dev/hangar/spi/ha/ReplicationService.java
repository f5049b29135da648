package dev.hangar.spi.ha;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Copies a master's CommitLog to its slaves.
 *
 * <p>Contract:
 * <ul>
 *   <li>The engine calls {@link #start()} once after recovery (a master starts listening, a slave connects) and
 *       {@link #shutdown()} once before it closes the log; shutdown stops every thread and completes every
 *       pending request with {@code FLUSH_SLAVE_TIMEOUT}.</li>
 *   <li>{@link #handle(long, boolean)} is called by a master's put threads right after their append, outside the
 *       put lock, and must not block. It also tells the service new bytes exist. The future completes
 *       {@code PUT_OK} once a slave has acknowledged an offset at or past {@code nextOffset} (SYNC_MASTER and
 *       {@code waitForReplica}); {@code FLUSH_SLAVE_TIMEOUT} after {@code syncFlushTimeout};
 *       {@code SLAVE_NOT_AVAILABLE} at once when no slave is connected or the best one is more than
 *       {@code haSlaveFallbehindMax} bytes behind. An ASYNC_MASTER completes it {@code PUT_OK} at once. One
 *       acknowledgement completes every request it covers; no thread waits per request. The caller only reads
 *       the future: an answer known at once may be one shared, already completed instance.</li>
 *   <li>On a slave, the service appends through {@link ReplicatedLog#appendAt} and never rewrites bytes the
 *       log already holds; when the master's offsets do not follow its own it stops and says why.</li>
 * </ul>
 */
public interface ReplicationService {

    void start();

    CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForReplica);

    /**
     * {@link #handle(long, boolean)} for a put that read {@link ReplicatedLog#cuts()} before its append: the engine
     * calls this one. A provider whose log a new leader cuts back must refuse a put whose log was cut since then (its
     * bytes may be gone and the offset it waits for filled by other puts). The default ignores the count (a fixed
     * master never cuts its log).
     */
    default CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForReplica,
                                                       long logCutsBeforeAppend) {
        return handle(nextOffset, waitForReplica);
    }

    /**
     * A master's readable end moved without a put: its CommitLog has a write buffer ({@code transient-pool},
     * {@code write-window}), whose appends become readable, and so can be shipped, only when the committer writes
     * them to the file. The engine calls this from the committing thread after each commit that moved data; it must
     * not block. The default does nothing (a service that polls the log's end needs no signal).
     */
    default void readableEndMoved() {
    }

    /** A consistent snapshot for stats and health. */
    ReplicationStatus status();

    void shutdown();

    /**
     * The end of what a quorum holds: dispatch (ConsumeQueue, index, plugins, long polls) never passes it, so a read
     * never returns a message a later writer may cut. Read by the dispatch thread on every pass: must be cheap.
     * Before {@link #start()} it is what the service knew when it was created (the engine's recovery re-dispatches up
     * to it). The default (a fixed master/slave role): unbounded.
     */
    default long committedOffset() {
        return Long.MAX_VALUE;
    }

    /**
     * Why this node takes no puts now (it is not the leader, or not ready yet), or null when it does. Read on every
     * put: must be cheap. The default (a fixed role, which the engine checks itself): null.
     */
    default String putRefusal() {
        return null;
    }

    /** A group that elects its writer (Raft): who leads, each peer's progress, and changes to the group. */
    default Optional<ConsensusGroup> consensus() {
        return Optional.empty();
    }

    /**
     * The lowest CommitLog offset a peer still needs (a follower behind the leader): retention deletes no file that
     * holds bytes at or past it unless the disk is about to fill, and then says so naming it. Read once per retention
     * pass. The default: unbounded (a master/slave slave that lost its files is re-seeded by hand).
     */
    default long retainFrom() {
        return Long.MAX_VALUE;
    }
}
