package dev.hangar.store.service;

import dev.hangar.spi.flush.StoreHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's state bits, with RocketMQ's values, and the reason the store last stopped accepting writes.
 * Thread-safe.
 */
public final class RunningFlags implements StoreHealth {
    public static final int NOT_READABLE = 1;
    public static final int NOT_WRITEABLE = 1 << 1;
    public static final int WRITE_LOGICS_QUEUE_ERROR = 1 << 2;
    public static final int WRITE_INDEX_FILE_ERROR = 1 << 3;
    public static final int DISK_FULL = 1 << 4;

    private static final Logger LOG = LoggerFactory.getLogger(RunningFlags.class);
    private static final int WRITE_BLOCKERS = NOT_WRITEABLE | WRITE_LOGICS_QUEUE_ERROR | WRITE_INDEX_FILE_ERROR | DISK_FULL;

    private final AtomicInteger bits = new AtomicInteger();
    private volatile String reason;

    public int bits() {
        return bits.get();
    }

    public boolean isWritable() {
        return (bits.get() & WRITE_BLOCKERS) == 0;
    }

    public boolean isReadable() {
        return (bits.get() & NOT_READABLE) == 0;
    }

    /** Why writes are refused, or null. */
    public String reason() {
        return reason;
    }

    public void set(int flag, String why) {
        int before = bits.getAndUpdate(b -> b | flag);
        if ((before & flag) == 0) {
            reason = why;
            LOG.error("store no longer writable: {}", why);
        }
    }

    public void clear(int flag) {
        int before = bits.getAndUpdate(b -> b & ~flag);
        if ((before & flag) != 0) {
            LOG.info("store flag {} cleared", names(flag));
            if (isWritable()) {
                reason = null;
            }
        }
    }

    @Override
    public void markNotWritable(String why, Throwable cause) {
        set(NOT_WRITEABLE, cause == null ? why : why + ": " + cause);
    }

    /** Names of the set bits, for {@code stat}. */
    public List<String> names() {
        return names(bits.get());
    }

    static List<String> names(int b) {
        List<String> out = new ArrayList<>();
        if ((b & NOT_READABLE) != 0) {
            out.add("NOT_READABLE");
        }
        if ((b & NOT_WRITEABLE) != 0) {
            out.add("NOT_WRITEABLE");
        }
        if ((b & WRITE_LOGICS_QUEUE_ERROR) != 0) {
            out.add("WRITE_LOGICS_QUEUE_ERROR");
        }
        if ((b & WRITE_INDEX_FILE_ERROR) != 0) {
            out.add("WRITE_INDEX_FILE_ERROR");
        }
        if ((b & DISK_FULL) != 0) {
            out.add("DISK_FULL");
        }
        return out;
    }
}
