package dev.hangar.bench;

/**
 * The figures of one run of one workload on one engine. Times in nanoseconds, sizes in bytes.
 *
 * @param elapsedNanos   from the first put until every message was readable by queue offset and by key
 * @param putNanos       from the first put until the last put returned
 * @param dispatchNanos  from the last put's return until every message was readable
 * @param putsOver20ms   put calls that took longer than {@link #STALL_NANOS} (a stall)
 * @param allocPerMessage bytes the writer threads allocated inside the store's put calls, per message
 * @param allocAllThreadsPerMessage the same plus every other thread of the process but the bench's own (the
 *                       store's dispatch, flush, group-commit, allocation threads), from the start until readable
 * @param diskBytes      blocks the store directory takes on disk once the store closed ({@code du}, not file lengths)
 * @param commitLogDiskBytes blocks of the store's {@code commitlog/} directory ({@code du}); -1 when it has none
 * @param commitLogWrittenBytes bytes appended to the CommitLog (its max physical offset); -1 when it has none
 * @param heapUsed       heap in use after a full GC with the store still open
 * @param failures       puts that did not return PUT_OK
 * @param error          why the run did not complete, or null when it did (then every figure is 0)
 */
public record RunResult(String engine, String workload, int round, int messages, int messageSize, long elapsedNanos,
                        long putNanos, long dispatchNanos, long p50Nanos, long p99Nanos, long p999Nanos,
                        long p9999Nanos, long maxNanos, long putsOver20ms, double allocPerMessage,
                        double allocAllThreadsPerMessage, long diskBytes, long commitLogDiskBytes,
                        long commitLogWrittenBytes, long heapUsed, long failures, String error) {

    /** A put call longer than this is a stall (issue 13: no put may stall more than 20 ms). */
    public static final long STALL_NANOS = 20_000_000L;

    /** The same result with the disk figures measured again (after the store closed). */
    public RunResult withDisk(long newDiskBytes, long newCommitLogDiskBytes) {
        return new RunResult(engine, workload, round, messages, messageSize, elapsedNanos, putNanos, dispatchNanos,
                p50Nanos, p99Nanos, p999Nanos, p9999Nanos, maxNanos, putsOver20ms, allocPerMessage,
                allocAllThreadsPerMessage, newDiskBytes, newCommitLogDiskBytes, commitLogWrittenBytes, heapUsed,
                failures, error);
    }

    /** A run that threw: recorded so the report says so, and the rest of the benchmark goes on. */
    public static RunResult failed(String engine, String workload, int round, int messages, int messageSize,
                                   String error) {
        return new RunResult(engine, workload, round, messages, messageSize, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1,
                -1, 0, 0, error == null ? "failed" : error);
    }

    public boolean ok() {
        return error == null;
    }

    public double messagesPerSecond() {
        return messages * 1e9 / elapsedNanos;
    }

    /** Body megabytes (10^6 bytes) per second. */
    public double megabytesPerSecond() {
        return (double) messages * messageSize * 1e3 / elapsedNanos;
    }

    /**
     * Disk used, the CommitLog counted by the bytes written to it rather than its blocks (both engines reserve
     * or pre-fault whole CommitLog files on purpose, so a run smaller than one file would otherwise be charged
     * the whole file); -1 when the engine has no CommitLog figures.
     */
    public double diskUsedCommitLogByContent() {
        if (commitLogDiskBytes < 0 || commitLogWrittenBytes < 0 || diskBytes < 0) {
            return -1;
        }
        return diskBytes - commitLogDiskBytes + commitLogWrittenBytes;
    }

    /**
     * The data the store wrote: the CommitLog bytes plus one 20-byte ConsumeQueue unit and one 20-byte index entry
     * per message (both formats' unit sizes); -1 when the engine has no CommitLog figures.
     */
    public double dataWritten() {
        return commitLogWrittenBytes < 0 ? -1 : commitLogWrittenBytes + 40.0 * messages;
    }
}
