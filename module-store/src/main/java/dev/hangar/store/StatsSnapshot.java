package dev.hangar.store;

import dev.hangar.spi.flush.LatencyHistogram;
import dev.hangar.spi.ha.ConsensusStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One consistent-enough reading of a store's figures, typed: {@code stat}, {@code GET /v1/stats} (through
 * {@link #toMap()}, whose field names are the JSON contract) and {@code GET /metrics} (through the fields) all read
 * it, so they cannot drift apart. Built by {@link DefaultMessageStore#statsSnapshot()}; the parts that exist only
 * once the store is open ({@link #commitLog()} to {@link #lastRecovery()}) are null before {@code start}.
 *
 * @param notWritableReason why the store refuses writes, or null while it takes them
 * @param lastRecovery      null on a store that never recovered (not started)
 * @param raft              the consensus group's view (a {@code raft} node), or null on any other store
 */
public record StatsSnapshot(String storePath, Map<String, String> providers, List<String> runningFlags,
                            boolean writable, String notWritableReason, Puts puts, boolean started,
                            CommitLog commitLog, Dispatch dispatch, Flush flush, List<QueueRange> queues, Disk disk,
                            Retention retention, Replication replication, Raft raft, Recovery lastRecovery)
        implements StatsJson.Part {

    /** A snapshot of a store that belongs to no consensus group ({@code raft} is null). */
    public StatsSnapshot(String storePath, Map<String, String> providers, List<String> runningFlags,
                         boolean writable, String notWritableReason, Puts puts, boolean started,
                         CommitLog commitLog, Dispatch dispatch, Flush flush, List<QueueRange> queues, Disk disk,
                         Retention retention, Replication replication, Recovery lastRecovery) {
        this(storePath, providers, runningFlags, writable, notWritableReason, puts, started, commitLog, dispatch,
                flush, queues, disk, retention, replication, null, lastRecovery);
    }

    /** Durations in microseconds: percentiles for people, power-of-two buckets for Prometheus. */
    public record Latency(long count, long p50, long p99, long p999, long max, long sumMicros,
                          List<Long> cumulativeBelowPowerOfTwo) implements StatsJson.Part {
        /** Reads a live histogram; the buckets are kept non-decreasing though values are recorded meanwhile. */
        public static Latency of(LatencyHistogram h) {
            List<Long> buckets = new ArrayList<>();
            long cumulative = 0;
            for (int i = 0; i < 40; i++) {
                cumulative = Math.max(cumulative, h.cumulativeBelowPowerOfTwo(i));
                buckets.add(cumulative);
            }
            return new Latency(Math.max(cumulative, h.count()), h.percentile(0.5), h.percentile(0.99),
                    h.percentile(0.999), h.max(), h.sum(), List.copyOf(buckets));
        }

        /** Count of values below 2^i µs (so at most 2^i - 1): Prometheus' {@code le} bucket. */
        public long cumulativeBelow(int powerOfTwo) {
            return cumulativeBelowPowerOfTwo.get(Math.min(powerOfTwo, cumulativeBelowPowerOfTwo.size() - 1));
        }

        @Override
        public Map<String, Object> toMap() {
            return StatsJson.components(this, "sumMicros", "cumulativeBelowPowerOfTwo");
        }
    }

    /** @param failures refused or failed puts by {@code PutMessageStatus} name (only those that happened) */
    public record Puts(long messages, long bytes, Map<String, Long> failures, Latency latencyMicros, long getFound,
                       long getMiss, long dispatched) implements StatsJson.Part {
        @Override
        public Map<String, Object> toMap() {
            return StatsJson.components(this, "dispatched");
        }
    }

    /**
     * @param maxOffset     one past the last readable record
     * @param writtenOffset one past the last appended record, readable or not: above {@code maxOffset} only while a
     *                      write buffer's committer has not yet made the appends readable
     */
    public record CommitLog(long minOffset, long maxOffset, long writtenOffset, long flushedOffset,
                            long committedOffset, int files, long fileSize, long mappedBytes)
            implements StatsJson.Part {
        /** Appended but not yet readable: what the write buffer's committer still has to commit. */
        public long commitLagBytes() {
            return Math.max(0, writtenOffset - maxOffset);
        }

        @Override
        public Map<String, Object> toMap() {
            return StatsJson.insertAfter(StatsJson.components(this), "writtenOffset", "commitLagBytes",
                    commitLagBytes());
        }
    }

    /** A third-party dispatcher on its own thread. @param state running, disabled or not started */
    public record Plugin(String state, long offset, long lagBytes, long skippedBytes, long failures,
                         String disabledReason) implements StatsJson.Part {
        public boolean disabled() {
            return "disabled".equals(state);
        }

        @Override
        public Map<String, Object> toMap() {
            return StatsJson.withoutNulls(StatsJson.components(this), "disabledReason");
        }
    }

    /**
     * @param backPressureWaits          puts that found dispatch more than {@code maxDispatchBehindBytes} behind the
     *                                   written end and waited for it
     * @param backPressureWaitsOutlasted of those, the puts that waited the whole limit and went on with dispatch still
     *                                   behind (each period of them is also logged as a warning)
     * @param threads                    the threads that feed the built-in dispatchers ({@code dispatchThreads})
     */
    public record Dispatch(long dispatchedOffset, long behindBytes, long dispatched, long backPressureWaits,
                           long backPressureWaitsOutlasted, List<String> dispatchers, int threads,
                           Map<String, Long> failures,
                           Map<String, Plugin> plugins) implements StatsJson.Part {
        @Override
        public Map<String, Object> toMap() {
            return StatsJson.components(this);
        }
    }

    /**
     * The flush service's counters. The group-commit ones say how well SYNC_FLUSH puts share forces:
     * {@code groupCommitPutsWaitedMoreThanOneForce} of {@code groupCommitPuts} arrived while a force ran and waited
     * for the next as well; {@code gathers} are pauses between forces for the released writers to put again
     * (key {@code groupCommitGatherPercent}), {@code gathersBoundRanOut} of them ended on their time bound.
     */
    public record Flush(long flushes, long flushedBytes, long bytesPerFlush, long failures, long commits,
                        long groupCommits, double requestsPerGroupCommit, long groupCommitPuts,
                        long groupCommitPutsWaitedMoreThanOneForce, long gathers, long gathersBoundRanOut,
                        Latency fsyncLatencyMicros) implements StatsJson.Part {
        @Override
        public Map<String, Object> toMap() {
            return StatsJson.components(this);
        }
    }

    public record QueueRange(String topic, int queueId, long minOffset, long maxOffset) implements StatsJson.Part {
        @Override
        public Map<String, Object> toMap() {
            return StatsJson.components(this);
        }
    }

    /**
     * The file system under the store and the retention thresholds; {@code full}, {@code cleanImmediately} and
     * {@code spaceToDelete} are null until the first disk check. {@code usedRatio} is counted as {@code df} and
     * retention count it ({@link dev.hangar.store.clean.DiskUsage#usedRatio()}), unrounded here, to 3 places in JSON.
     */
    public record Disk(long totalBytes, long freeBytes, long usableBytes, double usedRatio, int maxUsedPercent,
                       int cleanForciblyPercent, int warningPercent, Boolean full, Boolean cleanImmediately,
                       Boolean spaceToDelete) implements StatsJson.Part {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = StatsJson.components(this);
            m.put("usedRatio", Math.round(usedRatio * 1000) / 1000.0);
            return StatsJson.withoutNulls(m, "full", "cleanImmediately", "spaceToDelete");
        }
    }

    public record Retention(long fileReservedHours, List<Integer> deleteHours, long cleanIntervalMillis,
                            boolean cleanFileForciblyEnable, long filesDeleted, long lastPassMillis,
                            int lastPassDeleted, int manualPassesLeft) implements StatsJson.Part {
        @Override
        public Map<String, Object> toMap() {
            return StatsJson.components(this);
        }
    }

    /**
     * Replication as operators see it; every field after {@code enabled} is meaningless (zero, null) when it is
     * false. {@code lagBytes} is -1 on a slave.
     */
    public record Replication(String role, boolean enabled, String listenAddress, String masterAddress,
                              int connectedSlaves, long ackedOffset, long lagBytes, long lagMillis,
                              long bytesPerSecond, long rejectedConnections, String problem) implements StatsJson.Part {
        public boolean isSlave() {
            return "SLAVE".equals(role);
        }

        @Override
        public Map<String, Object> toMap() {
            return enabled ? StatsJson.components(this) : StatsJson.upTo(StatsJson.components(this), "enabled");
        }
    }

    /**
     * One node's view of its consensus group ({@link ConsensusStatus}, as {@code raft status}, {@code /v1/raft} and
     * {@code /v1/stats} show it). {@code leaderId}, {@code leaderServeAddress} and {@code problem} are empty when
     * unknown or none.
     */
    public record Raft(String selfId, String role, boolean leaderReady, long term, String leaderId,
                       String leaderServeAddress, long committedOffset, long logEnd, List<RaftPeer> peers,
                       String problem) implements StatsJson.Part {
        public static Raft of(ConsensusStatus s) {
            List<RaftPeer> peers = new ArrayList<>();
            for (ConsensusStatus.Peer p : s.peers()) {
                peers.add(new RaftPeer(p.id(), p.address(), p.matchOffset(), p.lagBytes(), p.lastContactMillis()));
            }
            return new Raft(s.selfId(), s.role(), s.leaderReady(), s.term(), nonNull(s.leaderId()),
                    nonNull(s.leaderServeAddress()), s.committedOffset(), s.logEnd(), List.copyOf(peers),
                    nonNull(s.problem()));
        }

        public boolean isLeader() {
            return "LEADER".equals(role);
        }

        private static String nonNull(String s) {
            return s == null ? "" : s;
        }

        @Override
        public Map<String, Object> toMap() {
            return StatsJson.components(this);
        }
    }

    /**
     * A member of the group; {@code matchOffset}, {@code lagBytes} and {@code lastContactMillis} are -1 when unknown
     * (they are known on the leader only).
     */
    public record RaftPeer(String id, String address, long matchOffset, long lagBytes, long lastContactMillis)
            implements StatsJson.Part {
        @Override
        public Map<String, Object> toMap() {
            return StatsJson.components(this);
        }
    }

    /** @param truncatedAt why the log was cut where it was, or null when it ended cleanly */
    public record Recovery(boolean abnormal, long scanStartOffset, int filesScanned, long messagesScanned,
                           long endOffset, int filesDropped, long redispatched, long millis, String truncatedAt)
            implements StatsJson.Part {
        @Override
        public Map<String, Object> toMap() {
            return StatsJson.withoutNulls(StatsJson.components(this, "scanStartOffset"), "truncatedAt");
        }
    }

    /**
     * Nested maps, lists and numbers with the field names of {@code stat --json} and {@code /v1/stats} (a contract
     * with users: keep them): the record components (see {@link StatsJson}), the parts of an open store only once
     * it is started.
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> out = StatsJson.withoutNulls(StatsJson.components(this), "notWritableReason", "raft",
                "lastRecovery");
        return started ? out : StatsJson.upTo(out, "started");
    }
}
