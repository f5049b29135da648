package dev.hangar.ha;

import dev.hangar.spi.ha.ReplicatedLog;
import java.nio.ByteBuffer;

/**
 * A {@link ReplicatedLog} in memory, one file of {@link #FILE_SIZE} bytes from offset 0: lets a test drive a master's
 * connection thread and a slave's client directly, and count what they do, without two stores' threads around them.
 */
final class MemoryLog implements ReplicatedLog {
    static final int FILE_SIZE = 4 * 1024 * 1024;
    private final byte[] bytes = new byte[FILE_SIZE];
    private volatile long end;
    private volatile int appends;

    @Override
    public int fileSize() {
        return FILE_SIZE;
    }

    @Override
    public long minOffset() {
        return end == 0 ? -1 : 0;
    }

    @Override
    public long maxOffset() {
        return end;
    }

    @Override
    public synchronized int read(long offset, ByteBuffer target) {
        int n = (int) Math.min(target.remaining(), end - offset);
        target.put(bytes, (int) offset, Math.max(0, n));
        return Math.max(0, n);
    }

    @Override
    public synchronized void appendAt(long offset, ByteBuffer data) {
        if (offset != end) {
            throw new IllegalStateException("append at " + offset + " but this log ends at " + end);
        }
        int n = data.remaining();
        data.get(bytes, (int) offset, n);
        end = offset + n;
        appends++;
    }

    /** Calls of {@link #appendAt} so far. */
    int appends() {
        return appends;
    }

    /** A master's put: appends {@code n} bytes of {@code value}; returns the new end. */
    synchronized long put(int n, byte value) {
        for (int i = 0; i < n; i++) {
            bytes[(int) end + i] = value;
        }
        end += n;
        return end;
    }

    // the consensus seams of ReplicatedLog: rocketmq-ha never calls them; they act as an in-memory log would

    @Override
    public synchronized void truncate(long offset) {
        end = Math.min(end, Math.max(0, offset));
    }

    @Override
    public void force(long offset) {
        // memory: nothing to force
    }

    @Override
    public void committedMoved() {
        // nothing dispatches from this log
    }

    @Override
    public boolean prepareForPuts(long timeoutMillis) {
        return true;
    }

    synchronized byte[] copy() {
        return java.util.Arrays.copyOf(bytes, (int) end);
    }
}
