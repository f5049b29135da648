package dev.hangar.flush;

import dev.hangar.spi.flush.FlushTarget;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

/**
 * A CommitLog stand-in on a real file: appends write to a {@link FileChannel} (or, with a write buffer, to
 * memory until {@link #commit}), and {@link #flush} really calls {@code force}. Switches let a test make the
 * force fail, hang or do nothing.
 */
final class FileChannelFlushTarget implements FlushTarget, AutoCloseable {
    static final int PAGE = 4096;

    private final FileChannel channel;
    private final boolean writeBuffered;
    private final Object appendLock = new Object();
    private final Object flushLock = new Object();
    private final ByteArrayOutputStream writeBuffer = new ByteArrayOutputStream();
    private volatile long maxWrote;
    private volatile long committed;
    private volatile long flushed;
    private volatile long storeTimestamp;

    /** Forces throw IOException while this is above 0 (counting down), or always when negative. */
    final AtomicInteger failingForces = new AtomicInteger();
    /** Commits throw while true. */
    volatile boolean failCommits;
    /** Forces return without flushing anything while true. */
    volatile boolean stalled;
    /** When set, a force waits for it to open. */
    volatile CountDownLatch forceGate;
    /** Runs inside a force, after fsync and before the flushed position moves. */
    volatile Runnable duringForce = () -> { };
    final AtomicInteger forces = new AtomicInteger();
    /** Runs just before each real fsync with the position it will cover (it may block, holding the force). */
    volatile LongConsumer forceStarting = end -> { };
    /** When above 0, one force covers at most this many bytes, as a mapped file queue stops at a file end. */
    volatile long maxBytesPerForce;

    FileChannelFlushTarget(Path file, boolean writeBuffered) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        this.writeBuffered = writeBuffered;
    }

    /** Appends like a put under the put lock; returns the offset one past the record (the put's nextOffset). */
    long append(byte[] record, long timestamp) throws IOException {
        synchronized (appendLock) {
            if (writeBuffered) {
                writeBuffer.write(record);
            } else {
                writeFully(record, maxWrote);
            }
            maxWrote += record.length;
            storeTimestamp = timestamp;
            return maxWrote;
        }
    }

    long append(int bytes, long timestamp) throws IOException {
        byte[] record = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            record[i] = (byte) ('a' + i % 26);
        }
        return append(record, timestamp);
    }

    /** Changes the store timestamp as a concurrent append would, without data. */
    void storeTimestamp(long timestamp) {
        storeTimestamp = timestamp;
    }

    @Override
    public boolean flush(int leastPages) throws IOException {
        synchronized (flushLock) {
            CountDownLatch gate = forceGate;
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while the force was held", e);
                }
            }
            int failing = failingForces.get();
            if (failing < 0 || (failing > 0 && failingForces.compareAndSet(failing, failing - 1))) {
                throw new IOException("simulated force failure: Input/output error");
            }
            long end = committedWhere();
            if (stalled || end <= flushed) {
                return true;
            }
            if (leastPages > 0 && end / PAGE - flushed / PAGE < leastPages) {
                return true;
            }
            forceStarting.accept(end);
            channel.force(false);
            forces.incrementAndGet();
            duringForce.run();
            long limit = maxBytesPerForce;
            flushed = limit > 0 ? Math.min(end, flushed + limit) : end;
            return false;
        }
    }

    @Override
    public boolean commit(int leastPages) throws IOException {
        if (!writeBuffered) {
            return true;
        }
        synchronized (appendLock) {
            if (failCommits) {
                throw new IOException("simulated commit failure: No space left on device");
            }
            if (maxWrote <= committed) {
                return true;
            }
            if (leastPages > 0 && maxWrote / PAGE - committed / PAGE < leastPages) {
                return true;
            }
            writeFully(writeBuffer.toByteArray(), committed);
            writeBuffer.reset();
            committed = maxWrote;
            return false;
        }
    }

    @Override
    public long flushedWhere() {
        return flushed;
    }

    @Override
    public long committedWhere() {
        return writeBuffered ? committed : maxWrote;
    }

    @Override
    public long maxWrotePosition() {
        return maxWrote;
    }

    @Override
    public long storeTimestamp() {
        return storeTimestamp;
    }

    long fileSize() throws IOException {
        return channel.size();
    }

    private void writeFully(byte[] bytes, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            position += channel.write(buffer, position);
        }
    }

    @Override
    public void close() throws IOException {
        CountDownLatch gate = forceGate;
        if (gate != null) {
            gate.countDown();
        }
        channel.close();
    }
}
