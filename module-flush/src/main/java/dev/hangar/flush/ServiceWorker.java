package dev.hangar.flush;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One named daemon thread running a service loop, with a wakeup cheap enough for the put path.
 *
 * <p>The loop body polls {@link #isStopping()} and calls {@link #await(long, boolean)} between rounds; when
 * it sees the stop it does its final work (flush everything) and returns. {@link #wakeup()} costs one CAS
 * and, only when it flips the flag, one {@code unpark}: many puts between two rounds wake the thread once.
 *
 * <p>Thread-safety: {@link #wakeup()}, {@link #isStopping()} and {@link #stop()} may be called from any
 * thread; {@link #await(long, boolean)} only from the worker's own thread; {@link #start()} once.
 */
final class ServiceWorker {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceWorker.class);

    private final String name;
    private final Runnable body;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean notified = new AtomicBoolean();
    private volatile boolean stopping;
    private volatile Thread thread;

    ServiceWorker(String name, Runnable body) {
        this.name = Objects.requireNonNull(name, "name");
        this.body = Objects.requireNonNull(body, "body");
    }

    String name() {
        return name;
    }

    void start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException(name + " was already started");
        }
        Thread t = new Thread(this::runGuarded, name);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    boolean isStarted() {
        return started.get();
    }

    boolean isStopping() {
        return stopping;
    }

    /** Ends the current or next {@link #await} early if it is wakeable; a no-op when a wakeup is already pending. */
    void wakeup() {
        if (notified.compareAndSet(false, true)) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /**
     * Waits up to {@code millis}; returns early when stopping or, if {@code wakeable}, when woken (a wakeup
     * that came during the last round returns at once). A wakeable wait consumes the wakeup: the caller then
     * looks for work, which the waker published before waking.
     */
    void await(long millis, boolean wakeable) {
        awaitNanos(TimeUnit.MILLISECONDS.toNanos(Math.max(0, millis)), wakeable);
    }

    /** As {@link #await(long, boolean)}, bounded in nanoseconds (for waits well under a millisecond). */
    void awaitNanos(long nanos, boolean wakeable) {
        long deadline = System.nanoTime() + Math.max(0, nanos);
        while (!stopping && !(wakeable && notified.get())) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            LockSupport.parkNanos(this, remaining);
            // Nobody should interrupt a service thread; clearing it keeps parkNanos from spinning.
            Thread.interrupted();
        }
        if (wakeable) {
            notified.set(false);
        }
    }

    /** Asks the loop to finish; its final work runs on the worker thread. */
    void stop() {
        stopping = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Waits up to {@code millis} for the thread to end; true when it ended (or never started). */
    boolean join(long millis) {
        Thread t = thread;
        if (t == null) {
            return true;
        }
        try {
            t.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            LOG.warn("{} did not end within {} ms of shutdown; leaving it behind (daemon)", name, millis);
            return false;
        }
        return true;
    }

    private void runGuarded() {
        LOG.debug("{} started", name);
        try {
            body.run();
        } catch (Throwable t) {
            // The loops catch their own failures; reaching this means a bug, and the service is now dead.
            LOG.error("{} died unexpectedly", name, t);
        }
        LOG.debug("{} ended", name);
    }
}
