package dev.hangar.dispatch.consumequeue;

import static dev.hangar.spi.format.ConsumeQueueFormat.UNIT_SIZE;

import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.format.ConsumeQueueFormat;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The first units of a new ConsumeQueue, held in memory until its file exists. Creating a queue's directory and
 * file costs some 370 us of file-system work on this project's build machines (docs/PERFORMANCE.md); with 100 000
 * new queues that is half a minute on the one dispatch thread. A new queue therefore keeps its units here,
 * readable at once in the same {@link ConsumeQueueFormat} bytes they will have on disk, and the flush side creates
 * the file and writes them with one {@code pwrite} (see {@link ConsumeQueue#materialize()}).
 *
 * <p>Bounded twice: a queue holds at most {@link #MAX_UNITS} units here (past that its file is created on the
 * dispatch thread, as before), and all queues together at most {@link Budget#limitBytes()} bytes.
 *
 * <p>Not thread-safe: its {@link ConsumeQueue} guards it with its monitor.
 */
final class PendingUnits {
    /** Units a new queue holds in memory before its file is made on the dispatch thread (about a quarter page). */
    static final int MAX_UNITS = 51;
    private static final int FIRST_CAPACITY_UNITS = 4;

    private final Budget budget;
    /** {@link #MAX_UNITS}, or fewer when a file holds fewer: held units all go to the queue's first file. */
    private final int maxUnits;
    private byte[] bytes;
    private int units;

    /** @param unitsPerFile units a ConsumeQueue file holds */
    PendingUnits(Budget budget, int unitsPerFile) {
        this.budget = budget;
        this.maxUnits = Math.min(MAX_UNITS, unitsPerFile);
        this.bytes = new byte[Math.min(FIRST_CAPACITY_UNITS, maxUnits) * UNIT_SIZE];
    }

    /** True when one more unit may be held: this queue and all queues are within their bounds. */
    boolean hasRoom() {
        return units < maxUnits && budget.mayTake(UNIT_SIZE);
    }

    /** Appends one encoded unit (the caller checked {@link #hasRoom()}). */
    void add(byte[] unit) {
        int at = units * UNIT_SIZE;
        if (at + UNIT_SIZE > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.min(bytes.length * 2, maxUnits * UNIT_SIZE));
        }
        System.arraycopy(unit, 0, bytes, at, UNIT_SIZE);
        units++;
        budget.take(UNIT_SIZE);
    }

    /** Units held; also the queue offset of the next one (a held queue starts at 0). */
    int units() {
        return units;
    }

    /** The held units' bytes, {@code [0, length())}: what the file's head will be. */
    byte[] bytes() {
        return bytes;
    }

    int length() {
        return units * UNIT_SIZE;
    }

    /** The held units are in the file now: give their bytes back to the budget. */
    void written() {
        budget.give(length());
        units = 0;
    }

    /** Up to {@code max} units from {@code queueOffset}. */
    List<CqUnit> read(long queueOffset, int max) {
        if (queueOffset < 0 || queueOffset >= units || max <= 0) {
            return List.of();
        }
        int count = (int) Math.min(max, units - queueOffset);
        List<CqUnit> result = new ArrayList<>(count);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        for (int i = 0; i < count; i++) {
            int p = (int) (queueOffset + i) * UNIT_SIZE;
            result.add(new CqUnit(queueOffset + i, ConsumeQueueFormat.commitLogOffset(buffer, p),
                    ConsumeQueueFormat.size(buffer, p), ConsumeQueueFormat.tagsCode(buffer, p)));
        }
        return result;
    }

    /** Bytes held in memory by all new queues of one dispatcher. */
    static final class Budget {
        private final long limitBytes;
        private final AtomicLong held = new AtomicLong();

        /** @param limitBytes at most this many unit bytes are held at once; past it new files are made at once */
        Budget(long limitBytes) {
            if (limitBytes < 0) {
                throw new IllegalArgumentException("negative pending-unit budget: " + limitBytes);
            }
            this.limitBytes = limitBytes;
        }

        long limitBytes() {
            return limitBytes;
        }

        long heldBytes() {
            return held.get();
        }

        boolean mayTake(int bytes) {
            return held.get() + bytes <= limitBytes;
        }

        void take(int bytes) {
            held.addAndGet(bytes);
        }

        void give(int bytes) {
            held.addAndGet(-bytes);
        }
    }
}
