package dev.hangar.raft;

import dev.hangar.spi.ha.ReplicatedLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A follower's entries that arrive while its disk is full ({@link ReplicatedLog#appendRefusal}): their bytes are not
 * appended and their write futures stay pending, in arrival order, until a check finds room; then they are appended
 * and completed. Ratis forces and acknowledges an entry only once its write completed, and queues the leader's later
 * appends behind it, so the node acknowledges nothing it has not stored, and catches up by itself once space is freed.
 *
 * <p>Why not refuse the entry instead: a failed write future fails Ratis' log worker for good, and an exception thrown
 * by the write fails Ratis' chain of follower appends for good (both until a restart).
 *
 * <p>Thread-safety: Ratis calls {@link #holdIfNeeded} in log order from its appending thread; the checks run on a
 * timer of their own; the queue is guarded by this object's lock, and held entries are appended under it.
 */
final class HeldWrites {
    private static final Logger LOG = LoggerFactory.getLogger(HeldWrites.class);
    static final long CHECK_EVERY_MILLIS = 100;
    private static final long REPEAT_ERROR_MILLIS = 10_000;

    /** Appends one entry's bytes at their offset (what {@code CommitLogStateMachine.write} does with room). */
    interface Appender {
        void append(long index, RaftEntryFormat.Range range, ByteBuffer data);
    }

    private record Held(long index, RaftEntryFormat.Range range, ByteBuffer data, CompletableFuture<Void> done) {
    }

    private final ReplicatedLog log;
    private final Appender appender;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private final AtomicLong checksWhileFull = new AtomicLong();
    private ScheduledExecutorService timer;
    private long lastErrorMillis = -REPEAT_ERROR_MILLIS;
    private boolean closed;

    HeldWrites(ReplicatedLog log, Appender appender) {
        this.log = log;
        this.appender = appender;
    }

    /**
     * Holds the entry when the disk is full or earlier entries wait; returns the future that completes once its bytes
     * are appended, or null when the caller appends it now.
     */
    synchronized CompletableFuture<Void> holdIfNeeded(long index, RaftEntryFormat.Range range, ByteBuffer data) {
        if (held.isEmpty()) {
            String full = log.appendRefusal();
            if (full == null) {
                return null;
            }
            long now = System.currentTimeMillis();
            if (now - lastErrorMillis >= REPEAT_ERROR_MILLIS) {
                lastErrorMillis = now;
                LOG.error("holding Raft entries from entry {} ([{}, {})) unacknowledged until space is freed: {}", index,
                        range.start(), range.end(), full);
            }
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (closed) {
            done.completeExceptionally(new IOException("the raft node is closing"));
            return done;
        }
        held.add(new Held(index, range, data, done));
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "raft-held-writes");
                t.setDaemon(true);
                return t;
            });
            timer.scheduleWithFixedDelay(this::appendIfRoom, CHECK_EVERY_MILLIS, CHECK_EVERY_MILLIS,
                    TimeUnit.MILLISECONDS);
        }
        return done;
    }

    /** Entries waiting for space now. */
    synchronized int waiting() {
        return held.size();
    }

    /** Checks that found the disk still full while entries waited. */
    long checksWhileFull() {
        return checksWhileFull.get();
    }

    /** Ratis removes entries from {@code index} on: those held are dropped (their write counts as done). */
    synchronized void dropFrom(long index) {
        held.removeIf(h -> {
            if (h.index() >= index) {
                h.done().complete(null);
                return true;
            }
            return false;
        });
    }

    synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
        }
        for (Held h : held) {
            h.done().completeExceptionally(new IOException("the raft node closed before space was freed"));
        }
        held.clear();
    }

    private synchronized void appendIfRoom() {
        int appended = 0;
        while (!held.isEmpty()) {
            if (log.appendRefusal() != null) {
                checksWhileFull.incrementAndGet();
                return;
            }
            Held h = held.peek();
            try {
                appender.append(h.index(), h.range(), h.data().duplicate());
            } catch (RuntimeException e) {
                if (log.appendRefusal() != null) {
                    continue; // the append found the disk full again: keep it and wait
                }
                held.poll();
                LOG.error("cannot append held entry {} ([{}, {})) to the CommitLog: {}", h.index(), h.range().start(),
                        h.range().end(), e.getMessage());
                h.done().completeExceptionally(e);
                continue;
            }
            held.poll();
            h.done().complete(null);
            appended++;
        }
        if (appended > 0) {
            LOG.info("space was freed: appended {} held Raft entries", appended);
        }
    }
}
