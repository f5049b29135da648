package dev.hangar.store;

import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.offsets.OffsetRecordFormat;
import dev.hangar.store.put.MessageValidator;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Deletes a topic's queues ({@link DefaultMessageStore#deleteTopic}). The deletion is a record of the consumer-offset
 * topic ({@code delete-topic}, see {@link OffsetRecordFormat}), appended while the put lock is held by the same hold
 * that starts the topic's queue offsets again at 0 ({@code CommitLog.appendTopicDeletion}). Every record of the topic
 * before it in the log has an old queue offset, every one after it a new one; the dispatch thread forgets the old
 * queues when it passes the record ({@code CommitLogDispatcher.deleteTopic}), the consumer-offset table drops the
 * topic's offsets there, and recovery's scan of the log counts the topic's offsets from 0 after it. So a restart,
 * after a clean shutdown or a crash, re-dispatching old records of the topic, deletes them again at the record,
 * and the new queue never holds two units at one queue offset. A slave dispatches the same record.
 */
final class TopicDeletion {
    /** How long the call waits for the dispatch thread to pass the record before it returns anyway. */
    private static final long DISPATCH_WAIT_MILLIS = 30_000;

    private final StoreRuntime runtime;
    private final PutPipeline puts;

    TopicDeletion(StoreRuntime runtime, PutPipeline puts) {
        this.runtime = runtime;
        this.puts = puts;
    }

    int delete(String topic) {
        String problem = MessageValidator.checkTopic(topic);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (OffsetRecordFormat.isInternal(topic) || MessageConst.SCHEDULE_TOPIC.equals(topic)) {
            throw new IllegalArgumentException("topic " + topic + " is the store's own and cannot be deleted");
        }
        int queues = queueCount(topic);
        if (queues == 0) {
            throw new NoSuchElementException("no such topic: " + topic);
        }
        PutMessageResult r = puts.appendTopicDeletion(runtime, OffsetRecordFormat.deleteTopic(topic), topic);
        // appended but not durable in time (a flush timeout) still deletes: the record is in the log
        if (!r.appended()) {
            throw new IllegalStateException("the deletion of topic " + topic + " was not stored: " + r.status()
                    + (r.reason() == null ? "" : " (" + r.reason() + ")"));
        }
        awaitDispatch(r.wroteOffset() + r.wroteBytes());
        return queues;
    }

    /** Queues of {@code topic}: in the ConsumeQueues, or put and not yet dispatched. */
    private int queueCount(String topic) {
        int[] count = {0};
        runtime.dispatchers().view(ConsumeQueueView.class).ifPresent(view -> view.forEachQueue(
                (t, queueId, min, max) -> {
                    if (t.equals(topic)) {
                        count[0]++;
                    }
                }));
        if (count[0] == 0) {
            var started = runtime.commitLog().queueOffsets().snapshot().get(topic);
            count[0] = started == null ? 0 : started.size();
        }
        return count[0];
    }

    private void awaitDispatch(long end) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DISPATCH_WAIT_MILLIS);
        while (runtime.reput().publishedOffset() < end && System.nanoTime() < deadline) {
            runtime.reput().wakeup();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
