package dev.hangar.store;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.commitlog.LiveAppend;
import dev.hangar.store.format.MessageEncoder;
import dev.hangar.store.put.BlockingFlushWait;
import dev.hangar.store.put.DelayLevels;
import dev.hangar.store.put.MessageValidator;
import dev.hangar.store.put.PendingPut;
import dev.hangar.store.put.PutCompletion;
import dev.hangar.store.clean.DiskSpaceMonitor;
import dev.hangar.store.put.StoredPut;
import dev.hangar.store.reput.ReputMessageService;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.service.StoreStats;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The put path of {@link DefaultMessageStore}: admission, checks, encoding and the CommitLog append, then the wait
 * for durability: a blocking put parks in its thread's {@link BlockingFlushWait} slot, an asynchronous one returns a
 * {@link PendingPut} that the flush service completes. Each allocates one object per put: its result
 * ({@link StoredPut}, or the {@link PendingPut} that is both the future and the result), made under the put lock
 * from the CommitLog's reused {@link LiveAppend}.
 *
 * <p>Thread-safe: any number of put threads; the append itself is serialised by the CommitLog's put lock.
 */
final class PutPipeline {
    private static final long JOIN_GRACE_MILLIS = 30_000;
    private static final long DISPATCH_WAIT_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long DISPATCH_WAIT_STEP_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long OUTLASTED_LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final Logger LOG = LoggerFactory.getLogger(PutPipeline.class);

    private final PutAdmission admission;
    private final PutCompletion completion;
    private final RunningFlags flags;
    private final DelayLevels delayLevels;
    private final InetSocketAddress storeHost;
    private final int maxMessageSize;
    private final long maxDispatchBehind;
    private final long backstopNanos;
    private final StoreStats stats;
    private final BooleanSupplier shutdown;
    private final CommitLog.AppendOutcome<PutMessageResult> blocking;
    private final CommitLog.AppendOutcome<PutMessageResult> asynchronous;
    /** When the last outlasted wait was logged (nanoTime), 0 before the first. */
    private volatile long lastOutlastedLog;

    /**
     * @param maxDispatchBehind   bytes the dispatcher may lag before puts wait for it (0 = never)
     * @param syncFlushTimeoutMillis the flush service's deadline; a blocking put gives up 30 s after it
     * @param stats               counts the puts that waited for dispatch
     * @param shutdown            whether the store is shut down
     */
    PutPipeline(PutAdmission admission, PutCompletion completion, RunningFlags flags, DelayLevels delayLevels,
                InetSocketAddress storeHost, int maxMessageSize, long maxDispatchBehind, long syncFlushTimeoutMillis,
                StoreStats stats, BooleanSupplier shutdown) {
        this.admission = admission;
        this.completion = completion;
        this.flags = flags;
        this.delayLevels = delayLevels;
        this.storeHost = storeHost;
        this.maxMessageSize = maxMessageSize;
        this.maxDispatchBehind = maxDispatchBehind;
        this.backstopNanos = TimeUnit.MILLISECONDS.toNanos(syncFlushTimeoutMillis + JOIN_GRACE_MILLIS);
        this.stats = stats;
        this.shutdown = shutdown;
        this.blocking = new ResultOf(false);
        this.asynchronous = new ResultOf(true);
    }

    /** Makes the put's result under the put lock; a failed append comes back as a provisional detached result. */
    private final class ResultOf implements CommitLog.AppendOutcome<PutMessageResult> {
        private final boolean async;

        ResultOf(boolean async) {
            this.async = async;
        }

        @Override
        public PutMessageResult appended(LiveAppend append) {
            return async ? new PendingPut(completion, append) : new StoredPut(completion, append);
        }

        @Override
        public PutMessageResult failed(AppendMessageResult failure) {
            return PutMessageResult.of(PutMessageStatus.UNKNOWN_ERROR, failure);
        }
    }

    /**
     * Admits, checks, encodes and appends one message. Returns its {@link PendingPut} ({@code async}) or
     * {@link StoredPut} when it was written, else the (counted) refusal.
     */
    PutMessageResult appendOne(StoreRuntime rt, Message message, long begin, boolean async) {
        PutMessageResult refused = admission.refusal(rt, shutdown.getAsBoolean());
        if (refused == null) {
            String problem = MessageValidator.check(message);
            if (problem != null) {
                refused = PutMessageResult.refused(PutMessageStatus.MESSAGE_ILLEGAL, problem);
            }
        }
        if (refused != null) {
            return completion.record(refused, begin);
        }
        Message m = delayLevels.divert(message);
        MessageEncoder encoder = MessageEncoder.forCurrentThread(maxMessageSize);
        PutMessageStatus encoded = encoder.encode(m, storeHost);
        if (encoded != PutMessageStatus.PUT_OK) {
            return completion.record(PutMessageResult.refused(encoded, encoder.failureReason()), begin);
        }
        return append(rt, encoder, m.topic(), m.queueId(), m.sysFlag(), begin, async, null);
    }

    /**
     * Appends the record that deletes {@code deletedTopic} (built by the consumer-offset format) and, under the same
     * hold of the put lock, starts the topic's queue offsets again at 0. Waits as a put with waitStoreMsgOk does.
     */
    PutMessageResult appendTopicDeletion(StoreRuntime rt, Message record, String deletedTopic) {
        long begin = System.nanoTime();
        long cuts = rt.commitLog().cuts();
        PutMessageResult refused = admission.refusal(rt, shutdown.getAsBoolean());
        if (refused != null) {
            return completion.record(refused, begin);
        }
        MessageEncoder encoder = MessageEncoder.forCurrentThread(maxMessageSize);
        PutMessageStatus encoded = encoder.encode(record, storeHost);
        if (encoded != PutMessageStatus.PUT_OK) {
            return completion.record(PutMessageResult.refused(encoded, encoder.failureReason()), begin);
        }
        PutMessageResult r = append(rt, encoder, record.topic(), record.queueId(), record.sysFlag(), begin, false,
                deletedTopic);
        return r instanceof StoredPut stored ? awaitDurable(rt, stored, true, begin, cuts) : r;
    }

    /** {@link #appendOne} for a batch. */
    PutMessageResult appendBatch(StoreRuntime rt, List<Message> batch, long begin, boolean async) {
        PutMessageResult refused = admission.refusal(rt, shutdown.getAsBoolean());
        if (refused == null) {
            String problem = MessageValidator.checkBatch(batch);
            if (problem != null) {
                refused = PutMessageResult.refused(PutMessageStatus.MESSAGE_ILLEGAL, problem);
            }
        }
        if (refused != null) {
            return completion.record(refused, begin);
        }
        Message first = batch.get(0);
        MessageEncoder encoder = MessageEncoder.forCurrentThread(maxMessageSize);
        PutMessageStatus encoded = encoder.encodeBatch(batch, storeHost);
        if (encoded != PutMessageStatus.PUT_OK) {
            return completion.record(PutMessageResult.refused(encoded, encoder.failureReason()), begin);
        }
        return append(rt, encoder, first.topic(), first.queueId(), first.sysFlag(), begin, async, null);
    }

    private PutMessageResult append(StoreRuntime rt, MessageEncoder encoder, String topic, int queueId, int sysFlag,
                                    long begin, boolean async, String deletedTopic) {
        if (encoder.encodedLength() > rt.commitLog().maxAppendLength()) {
            return completion.record(PutMessageResult.refused(PutMessageStatus.MESSAGE_ILLEGAL, "a record of "
                    + encoder.encodedLength() + " bytes does not fit in a commit-log file of "
                    + rt.commitLog().queue().mappedFileSize() + " bytes"), begin);
        }
        if (maxDispatchBehind > 0 && rt.reput().lagBehindWrittenBytes() > maxDispatchBehind) {
            waitForDispatch(rt);
        }
        PutMessageResult r;
        try {
            r = deletedTopic != null
                    ? rt.commitLog().appendTopicDeletion(encoder, topic, queueId, deletedTopic, blocking)
                    : rt.commitLog().append(encoder, topic, queueId, MessageSysFlag.takesQueueOffset(sysFlag),
                    async ? asynchronous : blocking);
        } catch (InternalError e) {
            if (!DiskSpaceMonitor.isMappedWriteFault(e)) {
                throw e;
            }
            // a SIGBUS on a mapped page: the file system could not back it, the disk is full
            rt.retention().diskMonitor().onWriteFault(e);
            return completion.record(PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, flags.reason()),
                    begin);
        }
        if (!(r instanceof StoredPut || r instanceof PendingPut)) {
            AppendMessageResult failure = r.appendResult();
            boolean diskFull = rt.retention().diskMonitor().onFileCreationFailed(rt.commitLog().queue().mappedFileSize());
            // a full disk is the store refusing service (as past the 90% line), not a file-creation bug
            return completion.record(diskFull ? PutMessageResult.of(PutMessageStatus.SERVICE_NOT_AVAILABLE, failure,
                    flags.reason()) : PutMessageResult.of(PutMessageStatus.CREATE_MAPPED_FILE_FAILED, failure,
                    "could not create a commit-log file (not writable?)"), begin);
        }
        rt.retention().diskMonitor().onAppended(r.wroteBytes());
        rt.reput().appended();
        return r;
    }

    /**
     * Blocks until the appended put is as durable as the flush policy (and replication) promise: the thread parks in
     * its own reusable slot, which the flush service tells; bounded by syncFlushTimeout + a grace, the flush
     * service's own deadline being syncFlushTimeout. {@code logCutsBeforeAppend}: the CommitLog's cut count read
     * before the append (ReplicationService.handle refuses the put when a new raft leader cut the log since).
     */
    PutMessageResult awaitDurable(StoreRuntime rt, StoredPut r, boolean waitForFlush, long begin,
                                  long logCutsBeforeAppend) {
        long nextOffset = r.wroteOffset() + r.wroteBytes();
        ReplicationService replication = rt.replication();
        CompletableFuture<PutMessageStatus> replicated = replication == null ? null
                : replication.handle(nextOffset, waitForFlush, logCutsBeforeAppend);
        PutMessageStatus flushed = PutMessageStatus.PUT_OK;
        long deadline = System.nanoTime() + backstopNanos;
        if (waitForFlush) {
            BlockingFlushWait slot = BlockingFlushWait.forCurrentThread();
            flushed = rt.flushService().awaitFlush(nextOffset, slot);
            if (flushed == null) {
                flushed = slot.await(backstopNanos);
                if (flushed == null) {
                    return completion.record(unanswered(), begin);
                }
            }
        } else {
            rt.flushService().handle(nextOffset, false);
        }
        PutMessageStatus replicatedStatus = PutMessageStatus.PUT_OK;
        if (replicated != null) {
            try {
                replicatedStatus = replicated.isDone() ? PutCompletion.statusOf(replicated)
                        : replicated.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return completion.record(unanswered(), begin);
            } catch (TimeoutException e) {
                return completion.record(unanswered(), begin);
            } catch (ExecutionException e) {
                replicatedStatus = PutMessageStatus.UNKNOWN_ERROR;
            }
        }
        return r.settle(flushed, replicatedStatus, replication, begin);
    }

    private PutMessageResult unanswered() {
        if (Thread.currentThread().isInterrupted()) {
            return PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, "interrupted while waiting for the flush");
        }
        return PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR,
                "the flush service did not answer within syncFlushTimeout + " + JOIN_GRACE_MILLIS + " ms");
    }

    /**
     * The one future an asynchronous put returns: completed here when the flush service answers at once (async
     * flush, or a put that does not wait), else a {@link PendingPut} the flush service completes.
     */
    CompletableFuture<PutMessageResult> whenDurable(StoreRuntime rt, PendingPut put, boolean waitForFlush,
                                                    long begin, long logCutsBeforeAppend) {
        long nextOffset = put.wroteOffset() + put.wroteBytes();
        ReplicationService replication = rt.replication();
        put.awaiting(begin, replication, replication == null ? null
                : replication.handle(nextOffset, waitForFlush, logCutsBeforeAppend));
        FlushCommitLogService flush = rt.flushService();
        if (!waitForFlush || flush.acknowledgesAtOnce()) {
            CompletableFuture<PutMessageStatus> flushed = flush.handle(nextOffset, waitForFlush);
            if (flushed.isDone()) {
                put.flushed(PutCompletion.statusOf(flushed));
            } else {
                flushed.whenComplete((s, e) -> put.flushed(PutCompletion.statusOf(flushed)));
            }
            return put;
        }
        PutMessageStatus flushed = flush.awaitFlush(nextOffset, put);
        if (flushed != null) {
            put.flushed(flushed);
        }
        return put;
    }

    /**
     * Back-pressure: when writers outrun the dispatcher by more than {@code maxDispatchBehindBytes}, a put waits
     * (at most {@link #DISPATCH_WAIT_LIMIT_NANOS}) for dispatch to catch up, so the lag stays bounded and messages
     * become readable soon after they are written. The lag counts from the written end: with a write buffer it
     * includes what the committer has not made readable yet ({@link ReputMessageService#lagBehindWrittenBytes}),
     * which it publishes in 1 MiB steps, so a waiting put is released as commit and dispatch move on.
     */
    private void waitForDispatch(StoreRuntime rt) {
        long deadline = System.nanoTime() + DISPATCH_WAIT_LIMIT_NANOS;
        rt.reput().wakeup();
        if (rt.commitLog().queue().getMaxWrotePosition() > rt.commitLog().getMaxOffset()) {
            // part of the lag waits for a write buffer's committer, which puts wake and waiting puts do not
            rt.flushService().wakeup();
        }
        boolean behind;
        while ((behind = rt.reput().lagBehindWrittenBytes() > maxDispatchBehind) && System.nanoTime() < deadline
                && !shutdown.getAsBoolean()) {
            LockSupport.parkNanos(DISPATCH_WAIT_STEP_NANOS);
        }
        boolean outlasted = behind && !shutdown.getAsBoolean();
        stats.recordDispatchWait(outlasted);
        if (outlasted) {
            reportOutlasted(rt);
        }
    }

    /** At most one warning per {@link #OUTLASTED_LOG_INTERVAL_NANOS}: under overload every put outlasts. */
    private void reportOutlasted(StoreRuntime rt) {
        long now = System.nanoTime();
        long last = lastOutlastedLog;
        if (last != 0 && now - last < OUTLASTED_LOG_INTERVAL_NANOS) {
            return;
        }
        lastOutlastedLog = now;
        long readable = rt.commitLog().getMaxOffset();
        long written = rt.commitLog().queue().getMaxWrotePosition();
        LOG.warn("a put waited {} ms for dispatch and went on with it still {} bytes behind (maxDispatchBehindBytes "
                        + "{}): dispatched to {}, readable to {}, written to {} ({} puts so far outlasted the wait)",
                TimeUnit.NANOSECONDS.toMillis(DISPATCH_WAIT_LIMIT_NANOS), rt.reput().lagBehindWrittenBytes(), maxDispatchBehind,
                rt.reput().reputFromOffset(), readable, written, stats.dispatchWaitsOutlasted());
    }
}
