package dev.hangar.raft;

import dev.hangar.spi.ha.ReplicatedLog;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forces the CommitLog on a thread of its own, so that a node's two forces for an entry run at once: this one for
 * the entry's bytes (the CommitLog) and Ratis' log worker's for its header (the Raft log segment). Ratis calls
 * {@code flush} of the state machine and then forces its segment; done serially, as with state-machine data "sync",
 * every Raft round paid both forces one after the other on every node. Ratis counts an entry durable only when both
 * are done (it waits for the future {@link #forceThrough} returns after forcing its segment).
 *
 * <p>The leader asks for its force as soon as it makes an entry ({@code CommitLogStateMachine.write}), before the
 * entry reaches Ratis' log worker. A truncation ({@link #cut}) lowers what counts as forced: bytes appended again
 * after a cut are new bytes, and a force that was under way across it does not vouch for them.
 *
 * <p>Thread-safety: every method from any thread; one monitor guards the offsets and the waiting futures.
 */
final class CommitLogForcer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogForcer.class);

    private record Waiter(long offset, CompletableFuture<Void> future) {
    }

    private final ReplicatedLog log;
    private final PriorityQueue<Waiter> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.offset, b.offset));
    private final Thread thread;
    /** The CommitLog is forced through here (and no cut happened since). */
    private long forced;
    /** The highest offset anyone asked to have forced. */
    private long requested;
    /** Raised by every cut: a force that started before one vouches for nothing after it. */
    private long cuts;
    private boolean closed;

    CommitLogForcer(ReplicatedLog log, String nodeId) {
        this.log = log;
        this.thread = new Thread(this::run, "raft-commitlog-force-" + nodeId);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** A future completed once the CommitLog bytes before {@code offset} are on the disk. */
    CompletableFuture<Void> forceThrough(long offset) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        synchronized (this) {
            if (closed) {
                f.completeExceptionally(new IllegalStateException("the CommitLog forcer is closed"));
                return f;
            }
            if (offset <= forced) {
                f.complete(null);
                return f;
            }
            waiting.add(new Waiter(offset, f));
            if (offset > requested) {
                requested = offset;
                notifyAll();
            }
        }
        return f;
    }

    /** Starts forcing through {@code offset} without anyone waiting for it yet. */
    void request(long offset) {
        synchronized (this) {
            if (offset > requested) {
                requested = offset;
                notifyAll();
            }
        }
    }

    /**
     * The CommitLog was cut back to {@code offset}: what lies past it is not forced, whatever was forced before, and
     * a wait for bytes past it fails (their entries were removed).
     */
    void cut(long offset) {
        List<Waiter> removed = new ArrayList<>();
        synchronized (this) {
            cuts++;
            forced = Math.min(forced, offset);
            requested = Math.min(requested, offset);
            waiting.removeIf(w -> w.offset > offset && removed.add(w));
        }
        removed.forEach(w -> w.future.completeExceptionally(new IllegalStateException(
                "the CommitLog was cut back to " + offset + " before its bytes through " + w.offset + " were forced")));
    }

    private void run() {
        while (true) {
            long target;
            long cutsAtStart;
            synchronized (this) {
                while (!closed && requested <= forced) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                target = requested;
                cutsAtStart = cuts;
            }
            List<Waiter> done = new ArrayList<>();
            RuntimeException failure = null;
            // a force vouches only for bytes written when it started
            long written = Math.min(target, log.maxOffset());
            try {
                log.force(written);
            } catch (RuntimeException e) {
                failure = e;
                LOG.error("cannot force the CommitLog through {}: {}", target, e.getMessage());
            }
            synchronized (this) {
                if (failure != null) {
                    done.addAll(waiting);
                    waiting.clear();
                    requested = forced;
                } else if (cuts == cutsAtStart) {
                    boolean progress = written > forced;
                    forced = Math.max(forced, written);
                    while (!waiting.isEmpty() && waiting.peek().offset <= forced) {
                        done.add(waiting.poll());
                    }
                    if (!progress && requested > forced) {
                        // asked for bytes not yet written: look again shortly rather than spin
                        try {
                            wait(1);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }
                // after a cut during the force, the loop forces again: the bytes appended since are not vouched for
            }
            for (Waiter w : done) {
                if (failure != null) {
                    w.future.completeExceptionally(failure);
                } else {
                    w.future.complete(null);
                }
            }
        }
    }

    @Override
    public void close() {
        List<Waiter> left;
        synchronized (this) {
            closed = true;
            left = new ArrayList<>(waiting);
            waiting.clear();
            notifyAll();
        }
        left.forEach(w -> w.future.completeExceptionally(new IllegalStateException("the raft node is closing")));
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
