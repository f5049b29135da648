package dev.hangar.store.service;

import dev.hangar.spi.flush.LatencyHistogram;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Put and read counters of a store. Thread-safe; recording allocates nothing. */
public final class StoreStats {
    private final LongAdder putMessages = new LongAdder();
    private final LongAdder putBytes = new LongAdder();
    private final EnumMap<PutMessageStatus, LongAdder> putFailures = new EnumMap<>(PutMessageStatus.class);
    private final LatencyHistogram putLatency = new LatencyHistogram();
    private final LongAdder getFound = new LongAdder();
    private final LongAdder getMiss = new LongAdder();
    private final LongAdder dispatched = new LongAdder();
    private final LongAdder dispatchWaits = new LongAdder();
    private final LongAdder dispatchWaitsOutlasted = new LongAdder();
    private final long startMillis = System.currentTimeMillis();

    public StoreStats() {
        for (PutMessageStatus s : PutMessageStatus.values()) {
            putFailures.put(s, new LongAdder());
        }
    }

    public void recordPut(PutMessageStatus status, int messages, long bytes, long micros) {
        if (status == PutMessageStatus.PUT_OK) {
            putMessages.add(messages);
            putBytes.add(bytes);
            putLatency.record(micros);
        } else {
            putFailures.get(status).increment();
        }
    }

    public void recordGet(boolean found) {
        (found ? getFound : getMiss).increment();
    }

    public void recordDispatched() {
        dispatched.increment();
    }

    /**
     * A put waited for dispatch (back-pressure); {@code outlasted} when it gave up at the wait's limit with dispatch
     * still too far behind.
     */
    public void recordDispatchWait(boolean outlasted) {
        dispatchWaits.increment();
        if (outlasted) {
            dispatchWaitsOutlasted.increment();
        }
    }

    /** Puts that waited for dispatch to catch up ({@code maxDispatchBehindBytes}). */
    public long dispatchWaits() {
        return dispatchWaits.sum();
    }

    /** Of {@link #dispatchWaits()}, those that waited the whole limit and went on with dispatch still behind. */
    public long dispatchWaitsOutlasted() {
        return dispatchWaitsOutlasted.sum();
    }

    public long putMessages() {
        return putMessages.sum();
    }

    public long putBytes() {
        return putBytes.sum();
    }

    public long dispatched() {
        return dispatched.sum();
    }

    public LatencyHistogram putLatency() {
        return putLatency;
    }

    /** Failures by status name (only statuses that happened). */
    public Map<String, Long> putFailures() {
        Map<String, Long> out = new LinkedHashMap<>();
        putFailures.forEach((s, n) -> {
            if (n.sum() > 0) {
                out.put(s.name(), n.sum());
            }
        });
        return out;
    }

    public long getFound() {
        return getFound.sum();
    }

    public long getMiss() {
        return getMiss.sum();
    }

    public long uptimeMillis() {
        return System.currentTimeMillis() - startMillis;
    }
}
