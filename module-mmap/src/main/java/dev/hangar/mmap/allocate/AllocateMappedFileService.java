package dev.hangar.mmap.allocate;

import dev.hangar.mmap.file.DefaultMappedFile;
import dev.hangar.mmap.file.MappedFileFactory;
import dev.hangar.mmap.file.MappedFileNames;
import dev.hangar.mmap.pool.TransientStorePool;
import dev.hangar.spi.mapped.MappedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.PriorityBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates CommitLog files ahead of need on its own daemon thread, so rolling to a new file under the put lock
 * finds it mapped (and, when built with {@code warmUp}, touched and mlocked: the storage providers no longer ask
 * for that, {@code warmMapedFileEnable} runs the {@code CommitLogPretoucher} instead) already. Each roll asks for the
 * next file and queues the one after it; the requester waits up to {@code waitMillis} (5 s by default) and then
 * creates the file itself, unless the service is already creating it (then it asks the service to hurry and
 * waits once more, so a file is never mapped twice).
 *
 * <p>With a write-buffer pool and {@code fastFailIfNoBufferInStorePool}, a request is refused (null) when no
 * pooled buffer would be left for it. At shutdown, files created ahead but never handed out are deleted.
 *
 * <p>Thread-safe: any number of requesting threads; one service thread.
 */
public final class AllocateMappedFileService {
    private static final Logger LOG = LoggerFactory.getLogger(AllocateMappedFileService.class);
    public static final long DEFAULT_WAIT_MILLIS = 5000;
    private static final long SHUTDOWN_JOIN_MILLIS = 10_000;
    private static final long DESTROY_INTERVAL_FORCIBLY = 1000;

    private final MappedFileFactory factory;
    private final TransientStorePool pool;
    private final boolean fastFailIfNoBuffer;
    private final boolean warmUp;
    private final int warmUpFlushLeastPages;
    private final long waitMillis;
    private final ConcurrentMap<Path, AllocateRequest> requestTable = new ConcurrentHashMap<>();
    private final PriorityBlockingQueue<AllocateRequest> requestQueue = new PriorityBlockingQueue<>();
    private Thread thread;
    private volatile boolean running;

    /**
     * @param factory               creates each file (pooled or plain)
     * @param pool                  the write-buffer pool the factory borrows from, or null
     * @param fastFailIfNoBuffer    refuse a request when the pool would have no buffer for it
     * @param warmUp                touch every page of a new file and mlock it
     * @param warmUpFlushLeastPages pages between forces while warming (0 = no forces)
     * @param waitMillis            how long a requester waits for the service before creating the file itself
     */
    public AllocateMappedFileService(MappedFileFactory factory, TransientStorePool pool, boolean fastFailIfNoBuffer,
                                     boolean warmUp, int warmUpFlushLeastPages, long waitMillis) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.pool = pool;
        this.fastFailIfNoBuffer = fastFailIfNoBuffer;
        this.warmUp = warmUp;
        this.warmUpFlushLeastPages = Math.max(0, warmUpFlushLeastPages);
        if (waitMillis <= 0) {
            throw new IllegalArgumentException("waitMillis must be positive: " + waitMillis);
        }
        this.waitMillis = waitMillis;
    }

    public synchronized void start() {
        if (running || thread != null) {
            return;
        }
        thread = new Thread(this::run, "AllocateMappedFileService");
        thread.setDaemon(true);
        running = true;
        thread.start();
    }

    public boolean isRunning() {
        return running;
    }

    /**
     * The file at {@code nextOffset}, created by the service (or in place when the service is not running or too
     * slow), after queueing {@code nextNextOffset} to be created ahead. Null when the file could not be created
     * or the pool fast-failed.
     */
    public MappedFile putRequestAndReturnMappedFile(Path directory, long nextOffset, long nextNextOffset,
                                                    int fileSize) {
        if (!running) {
            return createInPlace(directory, nextOffset, fileSize);
        }
        int canSubmit = 2;
        if (pool != null && fastFailIfNoBuffer) {
            canSubmit = pool.availableBufferNums() - requestQueue.size();
        }
        AllocateRequest next = new AllocateRequest(directory.resolve(MappedFileNames.of(nextOffset)), nextOffset,
                fileSize);
        AllocateRequest queued = requestTable.putIfAbsent(next.path(), next);
        if (queued == null) {
            if (canSubmit <= 0) {
                requestTable.remove(next.path(), next);
                LOG.warn("[NOTIFYME] no write buffer left in the pool for {} (fastFailIfNoBufferInStorePool): "
                        + "{} free, {} requests queued", next.path(), pool.availableBufferNums(), requestQueue.size());
                return null;
            }
            requestQueue.offer(next);
            canSubmit--;
            queued = next;
        }
        AllocateRequest ahead = new AllocateRequest(directory.resolve(MappedFileNames.of(nextNextOffset)),
                nextNextOffset, fileSize);
        if (requestTable.putIfAbsent(ahead.path(), ahead) == null) {
            if (canSubmit <= 0) {
                requestTable.remove(ahead.path(), ahead);
                LOG.warn("not creating {} ahead: no write buffer would be left for it", ahead.path());
            } else {
                requestQueue.offer(ahead);
            }
        }
        return await(queued, directory);
    }

    private MappedFile await(AllocateRequest request, Path directory) {
        try {
            MappedFile file = request.await(waitMillis);
            if (file == null) {
                if (request.cancel()) {
                    requestTable.remove(request.path(), request);
                    LOG.warn("{} was not created ahead within {} ms; creating it in place", request.path(), waitMillis);
                    return createInPlace(directory, request.offset(), request.fileSize());
                }
                request.hurry();
                LOG.warn("{} is still being created after {} ms; waiting once more", request.path(), waitMillis);
                file = request.await(waitMillis);
                if (file == null) {
                    LOG.error("{} could not be created in {} ms", request.path(), 2 * waitMillis);
                    return null;
                }
            }
            requestTable.remove(request.path(), request);
            return file;
        } catch (ExecutionException e) {
            requestTable.remove(request.path(), request);
            LOG.warn("creating {} ahead failed ({}); creating it in place", request.path(), e.getCause().toString());
            return createInPlace(directory, request.offset(), request.fileSize());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (request.cancel()) {
                requestTable.remove(request.path(), request);
            }
            LOG.warn("interrupted while waiting for {}", request.path());
            return null;
        }
    }

    private MappedFile createInPlace(Path directory, long offset, int fileSize) {
        try {
            return factory.create(directory, offset, fileSize);
        } catch (IOException | RuntimeException e) {
            LOG.error("could not create mapped file {} in {}: {}", MappedFileNames.of(offset), directory, e.toString());
            return null;
        }
    }

    private void run() {
        LOG.info("{} started", Thread.currentThread().getName());
        while (true) {
            AllocateRequest request;
            try {
                request = requestQueue.take();
            } catch (InterruptedException e) {
                break;
            }
            if (request == AllocateRequest.STOP) {
                break;
            }
            if (requestTable.get(request.path()) != request || !request.claim()) {
                continue;
            }
            create(request);
        }
        LOG.info("{} stopped", Thread.currentThread().getName());
    }

    private void create(AllocateRequest request) {
        MappedFile file = null;
        try {
            long begin = System.currentTimeMillis();
            file = factory.create(request.path().getParent(), request.offset(), request.fileSize());
            if (warmUp) {
                if (file instanceof DefaultMappedFile mapped) {
                    mapped.warmUp(warmUpFlushLeastPages, request::isHurried);
                } else {
                    file.warmUp(warmUpFlushLeastPages);
                }
            }
            LOG.debug("created {} ahead in {} ms", request.path(), System.currentTimeMillis() - begin);
            request.complete(file);
        } catch (Throwable e) {
            LOG.warn("creating {} ahead failed: {}", request.path(), e.toString());
            if (file != null) {
                // unmap only: the requester creates the same file in place next
                file.shutdown(0);
            }
            // the requester falls back to creating the file itself; this thread keeps serving
            request.fail(e);
        }
    }

    /** Stops the thread and deletes files created ahead that nobody took. */
    public synchronized void shutdown() {
        if (!running) {
            return;
        }
        running = false;
        requestTable.values().forEach(AllocateRequest::hurry);
        requestQueue.offer(AllocateRequest.STOP);
        try {
            thread.join(SHUTDOWN_JOIN_MILLIS);
            if (thread.isAlive()) {
                LOG.warn("{} did not stop within {} ms; interrupting it", thread.getName(), SHUTDOWN_JOIN_MILLIS);
                thread.interrupt();
                thread.join(SHUTDOWN_JOIN_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (AllocateRequest request : requestTable.values()) {
            if (request.cancel()) {
                continue;
            }
            MappedFile unused = request.createdFile();
            if (unused != null && unused.destroy(DESTROY_INTERVAL_FORCIBLY)) {
                LOG.info("deleted {}: created ahead, never used", unused.path());
            }
        }
        requestTable.clear();
        requestQueue.clear();
    }

    /**
     * The file at {@code path} if this service has created it ahead and no queue has taken it yet, else null. For
     * the pretoucher, which prepares the head of the next file before the roll; the file is the queue's to use.
     */
    public MappedFile createdAhead(Path path) {
        AllocateRequest request = requestTable.get(path);
        return request == null ? null : request.createdFile();
    }

    /** Requests queued and not yet taken by the service (for tests and stats). */
    public int queuedRequests() {
        return requestQueue.size();
    }
}
