package dev.hangar.raft;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * Puts waiting on a leader for their range to be acknowledged by the group: one acknowledgement completes every put
 * it covers; a put whose deadline passes completes {@code FLUSH_SLAVE_TIMEOUT}; when this node stops leading, every
 * waiting put completes with a failure at once, because the next leader may cut its bytes, and the offsets it waits
 * for may then be reached by other bytes.
 *
 * <p>Thread-safety: every method from any thread (one monitor; the futures are completed outside it).
 */
final class CommitWaiters {
    private record Waiter(long offset, long deadlineNanos, CompletableFuture<PutMessageStatus> future) {
    }

    private final PriorityQueue<Waiter> byOffset = new PriorityQueue<>((a, b) -> Long.compare(a.offset, b.offset));
    private final long timeoutNanos;
    private long acknowledged;
    /** Raised when leadership ends: a waiter registered under an older generation is failed, never acknowledged. */
    private long generation;

    CommitWaiters(long timeoutMillis) {
        this.timeoutNanos = timeoutMillis * 1_000_000L;
    }

    /** The generation a put of this leadership registers under. */
    synchronized long generation() {
        return generation;
    }

    /**
     * A future completed {@code PUT_OK} once {@link #acknowledge} passes {@code offset}, or a failure; completed at
     * once when the generation moved on since {@code generation} was read.
     */
    CompletableFuture<PutMessageStatus> await(long offset, long generation) {
        CompletableFuture<PutMessageStatus> f = new CompletableFuture<>();
        synchronized (this) {
            if (generation != this.generation) {
                f.complete(PutMessageStatus.SERVICE_NOT_AVAILABLE);
                return f;
            }
            if (offset <= acknowledged) {
                f.complete(PutMessageStatus.PUT_OK);
                return f;
            }
            byOffset.add(new Waiter(offset, System.nanoTime() + timeoutNanos, f));
        }
        return f;
    }

    /** The group holds everything before {@code offset}. */
    void acknowledge(long offset) {
        List<Waiter> done = new ArrayList<>();
        synchronized (this) {
            if (offset <= acknowledged) {
                return;
            }
            acknowledged = offset;
            while (!byOffset.isEmpty() && byOffset.peek().offset <= offset) {
                done.add(byOffset.poll());
            }
        }
        done.forEach(w -> w.future.complete(PutMessageStatus.PUT_OK));
    }

    /** A new leadership starts acknowledging from {@code offset} (the committed end it readied its log at). */
    synchronized void restartAt(long offset) {
        acknowledged = offset;
    }

    /** Leadership ended: fails every waiting put with {@code status}; later registrations of it fail too. */
    void fail(PutMessageStatus status) {
        List<Waiter> all;
        synchronized (this) {
            generation++;
            all = new ArrayList<>(byOffset);
            byOffset.clear();
        }
        all.forEach(w -> w.future.complete(status));
    }

    /** Completes the puts whose deadline passed with {@code FLUSH_SLAVE_TIMEOUT}. */
    void expire() {
        long now = System.nanoTime();
        List<Waiter> late = new ArrayList<>();
        synchronized (this) {
            for (Iterator<Waiter> it = byOffset.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (now - w.deadlineNanos > 0) {
                    late.add(w);
                    it.remove();
                }
            }
        }
        late.forEach(w -> w.future.complete(PutMessageStatus.FLUSH_SLAVE_TIMEOUT));
    }

    synchronized int size() {
        return byOffset.size();
    }
}
