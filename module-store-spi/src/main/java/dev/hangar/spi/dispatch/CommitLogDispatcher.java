package dev.hangar.spi.dispatch;

import java.util.Optional;

/**
 * Builds something behind the CommitLog (a ConsumeQueue, an index, a plugin's own files).
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #load()} is called once, before CommitLog recovery, on the engine's start thread: open files.</li>
 *   <li>{@link #dispatch(DispatchRequest)} is called from one thread, in commit-log order, for every record: the
 *       reput loop for the built-in dispatchers, a thread of its own (with its own cursor, starting at its
 *       {@link #durableOffset()}) for a third-party one. Records it already has may come again: ignore them.
 *       It may throw; the engine counts and logs the exception of a third-party dispatcher and goes on; an
 *       {@link Error} disables that dispatcher (with the reason in {@code stat}). The request is a reusable view,
 *       valid only during the call: keep its Strings or {@link DispatchRequest#copy()}, never the request itself
 *       (see {@link DispatchRequest}).</li>
 *   <li>{@link #endBatch()} follows every run of {@code dispatch} calls (a few hundred records at most), on the
 *       same thread, before that thread waits for more records: what a dispatcher holds back to save work per
 *       record (a lock, a published count) must be visible to readers once it returns.</li>
 *   <li>{@link #durableOffset()} tells recovery how far this dispatcher has durably dispatched (commit-log
 *       offset one past the last record it holds); built-ins are re-dispatched from the smallest of theirs, a
 *       third-party dispatcher from its own. If it throws (or {@link #load()} does), a third-party dispatcher is
 *       disabled.</li>
 *   <li>{@link #truncate(long)} drops everything at or past a commit-log offset (recovery trimmed the log).</li>
 *   <li>{@link #flush(int)} is called from the consume-queue flush thread; {@link #close()} at shutdown after the
 *       last dispatch.</li>
 * </ul>
 */
public interface CommitLogDispatcher extends AutoCloseable {

    /** Opens existing files. */
    default void load() {
    }

    void dispatch(DispatchRequest request);

    /**
     * The records dispatched since the last call form one batch: publish them to readers now. A dispatcher may keep
     * a lock or its readers' view of a header from the first record of a batch to this call, so that it pays for
     * them once per batch, not per record. Called on the dispatching thread, also when a {@code dispatch} call of
     * the batch threw. The default does nothing.
     */
    default void endBatch() {
    }

    /** Commit-log offset one past the last record this dispatcher holds durably (0 when none). */
    long durableOffset();

    /** Drops everything at or past {@code commitLogOffset}. */
    void truncate(long commitLogOffset);

    /**
     * Forgets every queue of {@code topic} (RocketMQ's {@code deleteTopics}): its files and directories are deleted
     * and a later record of the topic starts it again. Called on the dispatching thread, in commit-log order, when it
     * passes the record that deletes the topic (so after every earlier record of the topic and before every later
     * one), also when recovery dispatches that record again. Readers that still hold the topic's files must keep
     * working until they let go. The default does nothing (a dispatcher that keeps nothing per topic).
     */
    default void deleteTopic(String topic) {
    }

    /** Forces at least {@code leastPages} dirty pages (0 = everything). */
    default void flush(int leastPages) {
    }

    /** Deletes data for commit-log offsets below {@code minCommitLogOffset} (retention). */
    default void deleteExpired(long minCommitLogOffset) {
    }

    @Override
    default void close() {
    }

    /**
     * Called instead of {@link #close()} when the store was opened read-only ({@code stat}, {@code get},
     * {@code query}): release what {@link #load()} opened and write nothing - no flush, no saved state. Nothing was
     * dispatched to this dispatcher. The default does nothing.
     */
    default void closeWithoutWriting() {
    }

    /** The read side this dispatcher offers, e.g. {@link ConsumeQueueView} or {@link KeyIndexView}. */
    default <T> Optional<T> view(Class<T> type) {
        return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
    }
}
