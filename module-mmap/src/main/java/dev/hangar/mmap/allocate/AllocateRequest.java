package dev.hangar.mmap.allocate;

import dev.hangar.spi.mapped.MappedFile;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One file to create ahead of need. States: PENDING → CLAIMED (the service is creating it) → DONE / FAILED, or
 * PENDING → CANCELLED (the requester gave up before the service started, and creates the file itself). Once
 * claimed it cannot be cancelled, so a file is never mapped by both at once; a requester in a hurry asks the
 * service to {@link #hurry()} (skip the rest of the warm-up) instead.
 *
 * <p>Ordered by offset, lowest first, so the file needed next is created first. Thread-safe.
 */
final class AllocateRequest implements Comparable<AllocateRequest> {
    private static final int PENDING = 0;
    private static final int CLAIMED = 1;
    private static final int CANCELLED = 2;

    /** Tells the service thread to stop; sorts before every real request. */
    static final AllocateRequest STOP = new AllocateRequest(null, Long.MIN_VALUE, 0);

    private final Path path;
    private final long offset;
    private final int fileSize;
    private final AtomicInteger state = new AtomicInteger(PENDING);
    private final CompletableFuture<MappedFile> result = new CompletableFuture<>();
    private volatile boolean hurry;

    AllocateRequest(Path path, long offset, int fileSize) {
        this.path = path;
        this.offset = offset;
        this.fileSize = fileSize;
    }

    Path path() {
        return path;
    }

    long offset() {
        return offset;
    }

    int fileSize() {
        return fileSize;
    }

    /** The service starts work on it; false when the requester cancelled first. */
    boolean claim() {
        return state.compareAndSet(PENDING, CLAIMED);
    }

    /** The requester gives up; true only when the service has not started, so nobody else maps the file. */
    boolean cancel() {
        return state.compareAndSet(PENDING, CANCELLED);
    }

    void hurry() {
        hurry = true;
    }

    boolean isHurried() {
        return hurry;
    }

    void complete(MappedFile file) {
        result.complete(file);
    }

    void fail(Throwable cause) {
        result.completeExceptionally(cause);
    }

    /** The created file, null on timeout; throws the service's failure. */
    MappedFile await(long timeoutMillis) throws InterruptedException, ExecutionException {
        try {
            return result.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        }
    }

    /** The created file if the service finished successfully, else null. */
    MappedFile createdFile() {
        return result.isDone() && !result.isCompletedExceptionally() ? result.getNow(null) : null;
    }

    @Override
    public int compareTo(AllocateRequest other) {
        return Long.compare(offset, other.offset);
    }
}
