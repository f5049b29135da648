package dev.hangar.launcher.http;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The executor the JDK HTTP server runs requests on: a fixed number of workers and a bounded queue, so a flood of
 * requests costs bounded memory and threads.
 *
 * <p>Why a second, "shedding" thread: when the workers and the queue are full, the JDK server gives a rejected
 * request no answer at all (it closes the connection). So a rejected request is handed to one shedding thread
 * instead, which only parses its headers and answers 503 with {@code Retry-After} (the router asks
 * {@link #isShedding()}); its body is never read. Only when even the shedding queue is full is the connection
 * closed unanswered.
 *
 * <p>Thread-safe.
 */
final class WorkerPool implements Executor {
    private static final int SHED_QUEUE = 256;
    private static final ThreadLocal<Boolean> SHEDDING = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final ThreadPoolExecutor workers;
    private final ThreadPoolExecutor shedder;
    private final LongAdder shed = new LongAdder();
    private final int queueCapacity;

    WorkerPool(int workerCount, int queueCapacity) {
        this.queueCapacity = queueCapacity;
        this.shedder = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(SHED_QUEUE),
                threads("hangar-http-shed", true), new ThreadPoolExecutor.AbortPolicy());
        this.workers = new ThreadPoolExecutor(workerCount, workerCount, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queueCapacity), threads("hangar-http-worker", false), (task, pool) -> {
                    shed.increment();
                    shedder.execute(task);
                });
    }

    private static ThreadFactory threads(String name, boolean shedding) {
        AtomicInteger n = new AtomicInteger();
        return task -> {
            Thread t = new Thread(() -> {
                SHEDDING.set(shedding);
                task.run();
            }, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void execute(Runnable task) {
        workers.execute(task);
    }

    /** True on the shedding thread: the request must be answered 503 at once. */
    static boolean isShedding() {
        return SHEDDING.get();
    }

    /** Workers running a request now. */
    int busy() {
        return workers.getActiveCount();
    }

    /** Requests waiting for a worker. */
    int queued() {
        return workers.getQueue().size();
    }

    int workerCount() {
        return workers.getMaximumPoolSize();
    }

    int queueCapacity() {
        return queueCapacity;
    }

    /** Requests answered 503 because every worker was busy and the queue full. */
    long shedCount() {
        return shed.sum();
    }

    /** Lets running and queued requests finish, for at most {@code graceMillis}, then interrupts what is left. */
    void shutdown(long graceMillis) throws InterruptedException {
        workers.shutdown();
        if (!workers.awaitTermination(graceMillis, TimeUnit.MILLISECONDS)) {
            workers.shutdownNow();
        }
        shedder.shutdown();
        if (!shedder.awaitTermination(Math.min(graceMillis, 1000), TimeUnit.MILLISECONDS)) {
            shedder.shutdownNow();
        }
    }

    /** An executor for follow-up work that must run: when it rejects (shut down), the task runs on the caller. */
    static Executor orCaller(Executor executor) {
        return task -> {
            try {
                executor.execute(task);
            } catch (RejectedExecutionException e) {
                task.run();
            }
        };
    }
}
