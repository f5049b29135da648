package dev.hangar.launcher.http;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Answers by HTTP status (for {@code /metrics}) and the requests received but not yet answered (so a stopping
 * server can wait for them). Thread-safe; recording allocates nothing once a status was seen.
 */
final class HttpCounters {
    private final Map<Integer, LongAdder> responses = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    void recordResponse(int status) {
        responses.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    void exchangeStarted() {
        inFlight.incrementAndGet();
    }

    void exchangeFinished() {
        inFlight.decrementAndGet();
    }

    /** Requests received and not answered yet: running, waiting for a flush, or parked. */
    int inFlight() {
        return inFlight.get();
    }

    /** Answers so far by status, in status order. */
    Map<Integer, Long> responses() {
        Map<Integer, Long> out = new TreeMap<>();
        responses.forEach((status, count) -> out.put(status, count.sum()));
        return out;
    }
}
