package dev.hangar.spi.flush;

import java.util.concurrent.atomic.LongAdder;

/** Counters a flush service keeps for {@code stat}, {@code /metrics} and {@code bench}. Thread-safe. */
public final class FlushStatistics {
    private final LongAdder flushes = new LongAdder();
    private final LongAdder flushedBytes = new LongAdder();
    private final LongAdder flushFailures = new LongAdder();
    private final LongAdder commits = new LongAdder();
    private final LongAdder groupCommits = new LongAdder();
    private final LongAdder groupCommitRequests = new LongAdder();
    private final LongAdder requestsThatWaitedMoreThanOneForce = new LongAdder();
    private final LongAdder gathers = new LongAdder();
    private final LongAdder gathersBoundRanOut = new LongAdder();
    private final LatencyHistogram fsyncLatency = new LatencyHistogram();

    /** One force that moved the flushed position by {@code bytes}, taking {@code micros}. */
    public void recordFlush(long bytes, long micros) {
        flushes.increment();
        flushedBytes.add(bytes);
        fsyncLatency.record(micros);
    }

    public void recordFlushFailure() {
        flushFailures.increment();
    }

    public void recordCommit() {
        commits.increment();
    }

    /** One group commit that completed {@code requests} waiting puts. */
    public void recordGroupCommit(int requests) {
        recordGroupCommit(requests, 0);
    }

    /**
     * One group commit that completed {@code requests} waiting puts, {@code waitedMoreThanOneForce} of which had
     * registered while an earlier force was running and so waited for two or more: the share a group commit
     * should keep low (a put that arrives during a force cannot be in it).
     */
    public void recordGroupCommit(int requests, int waitedMoreThanOneForce) {
        groupCommits.increment();
        groupCommitRequests.add(requests);
        requestsThatWaitedMoreThanOneForce.add(waitedMoreThanOneForce);
    }

    /**
     * One pause between two forces to let the writers just released put again, so the next force covers them
     * too; {@code boundRanOut} when it ended on its time bound rather than with everyone back.
     */
    public void recordGather(boolean boundRanOut) {
        gathers.increment();
        if (boundRanOut) {
            gathersBoundRanOut.increment();
        }
    }

    public long flushes() {
        return flushes.sum();
    }

    public long flushedBytes() {
        return flushedBytes.sum();
    }

    public long flushFailures() {
        return flushFailures.sum();
    }

    public long commits() {
        return commits.sum();
    }

    public long groupCommits() {
        return groupCommits.sum();
    }

    /** Puts completed by group commits, in all. */
    public long groupCommitRequests() {
        return groupCommitRequests.sum();
    }

    public long requestsThatWaitedMoreThanOneForce() {
        return requestsThatWaitedMoreThanOneForce.sum();
    }

    public long gathers() {
        return gathers.sum();
    }

    public long gathersBoundRanOut() {
        return gathersBoundRanOut.sum();
    }

    public double requestsPerGroupCommit() {
        long g = groupCommits.sum();
        return g == 0 ? 0 : (double) groupCommitRequests.sum() / g;
    }

    public double bytesPerFlush() {
        long f = flushes.sum();
        return f == 0 ? 0 : (double) flushedBytes.sum() / f;
    }

    public LatencyHistogram fsyncLatency() {
        return fsyncLatency;
    }
}
