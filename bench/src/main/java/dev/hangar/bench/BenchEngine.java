package dev.hangar.bench;

/**
 * One store engine opened on a fresh directory for one workload run. Writer threads each get their own
 * {@link Putter}, built before the clock starts; the read methods are polled to decide when every message is
 * readable. Implementations are thread-safe as their store is.
 */
public interface BenchEngine extends AutoCloseable {

    /** One of the engine names of {@link Workload} ({@link Workload#HANGAR}, ...). */
    String name();

    /** A putter for writer thread {@code thread}; prepares whatever messages that thread will put. */
    Putter putter(int thread);

    /** Messages readable by queue offset: the queues' max offsets summed. */
    long readableByOffset();

    /** True when the engine has queues, so that {@link #maxOffsetInQueue} answers ({@link ReadableCursor}). */
    default boolean readsByQueue() {
        return false;
    }

    /** The max offset of one queue: how many of its messages are readable. Only when {@link #readsByQueue()}. */
    default long maxOffsetInQueue(String topic, int queue) {
        throw new UnsupportedOperationException(name() + " has no queues");
    }

    /** For an engine with queues: {@link #maxOffsetInQueue} summed over every queue of {@code topics}. */
    default long sumOfQueueMaxOffsets(java.util.List<String> topics) {
        long sum = 0;
        for (String topic : topics) {
            for (int q = 0; q < Workload.QUEUES; q++) {
                sum += maxOffsetInQueue(topic, q);
            }
        }
        return sum;
    }

    /** True when a key query (in its topic) finds message number {@code message} by its key. */
    boolean findsKey(int message);

    /** Bytes appended to the engine's CommitLog (its max physical offset); -1 when it has none. */
    default long commitLogWrittenBytes() {
        return -1;
    }

    @Override
    void close();

    /** Puts for one writer thread; not thread-safe. */
    interface Putter {
        /** Puts the message (or the batch) starting at message index {@code first}; true when PUT_OK. */
        boolean put(int first);

        /** Called before each timed put: sets what varies per message, outside the measured window. */
        void prepare(int first);

        /**
         * Starts the put of {@code first} without waiting: the engine's {@code asyncPutMessage} future itself, so
         * the measured call counts no adapter stage of the bench's own; {@link #answeredOk} reads its answer. The
         * message may be prepared again once this returns: both engines encode it within the call.
         */
        java.util.concurrent.CompletableFuture<?> putAsync(int first);

        /** Whether {@code answer}, what a {@link #putAsync} future completed with, says PUT_OK. */
        default boolean answeredOk(Object answer) {
            throw new UnsupportedOperationException("no asynchronous put");
        }
    }
}
