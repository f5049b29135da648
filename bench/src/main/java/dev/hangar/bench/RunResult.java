package dev.hangar.bench;

/**
 * The figures of one run of one workload on one engine. Times in nanoseconds, sizes in bytes.
 *
 * @param elapsedNanos   from the first put until every message was readable by queue offset and by key
 * @param putNanos       from the first put until the last put returned
 * @param dispatchNanos  from the last put's return until every message was readable
 * @param allocPerMessage bytes the writer threads allocated inside the store's put calls, per message
 * @param allocAllThreadsPerMessage the same plus every other thread of the process but the bench's own (the
 *                       store's dispatch, flush, group-commit, allocation threads), from the start until readable
 * @param diskBytes      blocks the store directory takes on disk when readable ({@code du}, not file lengths)
 * @param heapUsed       heap in use after a full GC with the store still open
 * @param failures       puts that did not return PUT_OK
 */
public record RunResult(String engine, String workload, int round, int messages, int messageSize, long elapsedNanos,
                        long putNanos, long dispatchNanos, long p50Nanos, long p99Nanos, long p999Nanos,
                        long maxNanos, double allocPerMessage, double allocAllThreadsPerMessage, long diskBytes,
                        long heapUsed, long failures) {

    public double messagesPerSecond() {
        return messages * 1e9 / elapsedNanos;
    }

    /** Body megabytes (10^6 bytes) per second. */
    public double megabytesPerSecond() {
        return (double) messages * messageSize * 1e3 / elapsedNanos;
    }
}
