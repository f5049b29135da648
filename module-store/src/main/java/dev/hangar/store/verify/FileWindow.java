package dev.hangar.store.verify;

import dev.hangar.spi.dispatch.DispatcherVerification;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A read-only window over a file: positional {@link FileChannel} reads into one reusable heap buffer, so a
 * 1 GiB CommitLog file is checked without mapping it (a mapping could be writable, and would pin address space).
 * The file is opened with {@link StandardOpenOption#READ} only and never written.
 *
 * <p>Not thread-safe: one reader.
 */
final class FileWindow implements DispatcherVerification.ReadWindow {
    private final FileChannel channel;
    private final long size;
    private ByteBuffer buffer;
    private long windowStart;
    private int windowLength;

    private FileWindow(FileChannel channel, long size, int capacity) {
        this.channel = channel;
        this.size = size;
        this.buffer = ByteBuffer.allocate((int) Math.max(1, Math.min(capacity, size)));
        this.windowStart = 0;
        this.windowLength = 0;
    }

    /** Opens {@code file} for reading with a window of at most {@code capacity} bytes. */
    static FileWindow open(Path file, int capacity) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            return new FileWindow(ch, ch.size(), capacity);
        } catch (RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public long size() {
        return size;
    }

    /** The buffer holding the window; index {@code i} is file position {@code windowStart() + i}. */
    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    /**
     * Makes {@code [position, position + needed)} readable (as far as the file reaches) and returns the buffer
     * index of {@code position}. Refills the window starting at {@code position} when needed, growing the buffer
     * when {@code needed} exceeds it.
     */
    @Override
    public int ensure(long position, int needed) throws IOException {
        long want = Math.min(needed, size - position);
        if (position >= windowStart && position + want <= windowStart + windowLength) {
            return (int) (position - windowStart);
        }
        if (needed > buffer.capacity()) {
            buffer = ByteBuffer.allocate((int) Math.min(needed, size));
        }
        buffer.clear();
        int target = (int) Math.min(buffer.capacity(), size - position);
        buffer.limit(target);
        long at = position;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, at);
            if (n < 0) {
                break;
            }
            at += n;
        }
        windowStart = position;
        windowLength = buffer.position();
        buffer.clear();
        return 0;
    }

    /** Bytes readable in the window from {@code position} (0 when outside the window). */
    @Override
    public int available(long position) {
        if (position < windowStart || position > windowStart + windowLength) {
            return 0;
        }
        return (int) (windowStart + windowLength - position);
    }

    /** The first position at or after {@code from} holding a non-zero byte, or -1 when the rest is zeros. */
    @Override
    public long firstNonZero(long from) throws IOException {
        long pos = from;
        while (pos < size) {
            int idx = ensure(pos, buffer.capacity());
            int n = available(pos);
            if (n <= 0) {
                return -1;
            }
            for (int i = 0; i < n; i++) {
                if (buffer.get(idx + i) != 0) {
                    return pos + i;
                }
            }
            pos += n;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
