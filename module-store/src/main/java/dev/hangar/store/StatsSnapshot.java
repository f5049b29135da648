package dev.hangar.store;

import dev.hangar.spi.flush.LatencyHistogram;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 */
public record StatsSnapshot(String storePath, Map<String, String> providers, List<String> runningFlags,
                            boolean writable, String notWritableReason, Puts puts, boolean started,
                            CommitLog commitLog, Dispatch dispatch, Flush flush, List<QueueRange> queues, Disk disk,
                            Retention retention, Replication replication, Recovery lastRecovery) {

    /** Durations in microseconds: percentiles for people, power-of-two buckets for Prometheus. */
    public record Latency(long count, long p50, long p99, long p999, long max, long sumMicros,
                          List<Long> cumulativeBelowPowerOfTwo) {
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

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("count", count);
            m.put("p50", p50);
            m.put("p99", p99);
            m.put("p999", p999);
            m.put("max", max);
            return m;
        }
    }

    /** @param failures refused or failed puts by {@code PutMessageStatus} name (only those that happened) */
    public record Puts(long messages, long bytes, Map<String, Long> failures, Latency latencyMicros, long getFound,
                       long getMiss, long dispatched) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("messages", messages);
            m.put("bytes", bytes);
            m.put("failures", failures);
            m.put("latencyMicros", latencyMicros.toMap());
            m.put("getFound", getFound);
            m.put("getMiss", getMiss);
            return m;
        }
    }

    /**
     * @param maxOffset     one past the last readable record
     * @param writtenOffset one past the last appended record, readable or not: above {@code maxOffset} only while a
     *                      write buffer's committer has not yet made the appends readable
     */
    public record CommitLog(long minOffset, long maxOffset, long writtenOffset, long flushedOffset,
                            long committedOffset, int files, long fileSize, long mappedBytes) {
        /** Appended but not yet readable: what the write buffer's committer still has to commit. */
        public long commitLagBytes() {
            return Math.max(0, writtenOffset - maxOffset);
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("minOffset", minOffset);
            m.put("maxOffset", maxOffset);
            m.put("writtenOffset", writtenOffset);
            m.put("commitLagBytes", commitLagBytes());
            m.put("flushedOffset", flushedOffset);
            m.put("committedOffset", committedOffset);
            m.put("files", files);
            m.put("fileSize", fileSize);
            m.put("mappedBytes", mappedBytes);
            return m;
        }
    }

    /** A third-party dispatcher on its own thread. @param state running, disabled or not started */
    public record Plugin(String state, long offset, long lagBytes, long skippedBytes, long failures,
                         String disabledReason) {
        public boolean disabled() {
            return "disabled".equals(state);
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("state", state);
            m.put("offset", offset);
            m.put("lagBytes", lagBytes);
            m.put("skippedBytes", skippedBytes);
            m.put("failures", failures);
            if (disabledReason != null) {
                m.put("disabledReason", disabledReason);
            }
            return m;
        }
    }

    /**
     * @param backPressureWaits          puts that found dispatch more than {@code maxDispatchBehindBytes} behind the
     *                                   written end and waited for it
     * @param backPressureWaitsOutlasted of those, the puts that waited the whole limit and went on with dispatch still
     *                                   behind (each period of them is also logged as a warning)
     */
    public record Dispatch(long dispatchedOffset, long behindBytes, long dispatched, long backPressureWaits,
                           long backPressureWaitsOutlasted, List<String> dispatchers, Map<String, Long> failures,
                           Map<String, Plugin> plugins) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("dispatchedOffset", dispatchedOffset);
            m.put("behindBytes", behindBytes);
            m.put("dispatched", dispatched);
            m.put("backPressureWaits", backPressureWaits);
            m.put("backPressureWaitsOutlasted", backPressureWaitsOutlasted);
            m.put("dispatchers", dispatchers);
            m.put("failures", failures);
            Map<String, Object> p = new LinkedHashMap<>();
            plugins.forEach((name, plugin) -> p.put(name, plugin.toMap()));
            m.put("plugins", p);
            return m;
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
                        Latency fsyncLatencyMicros) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("flushes", flushes);
            m.put("flushedBytes", flushedBytes);
            m.put("bytesPerFlush", bytesPerFlush);
            m.put("failures", failures);
            m.put("commits", commits);
            m.put("groupCommits", groupCommits);
            m.put("requestsPerGroupCommit", requestsPerGroupCommit);
            m.put("groupCommitPuts", groupCommitPuts);
            m.put("groupCommitPutsWaitedMoreThanOneForce", groupCommitPutsWaitedMoreThanOneForce);
            m.put("gathers", gathers);
            m.put("gathersBoundRanOut", gathersBoundRanOut);
            m.put("fsyncLatencyMicros", fsyncLatencyMicros.toMap());
            return m;
        }
    }

    public record QueueRange(String topic, int queueId, long minOffset, long maxOffset) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("topic", topic);
            m.put("queueId", queueId);
            m.put("minOffset", minOffset);
            m.put("maxOffset", maxOffset);
            return m;
        }
    }

    /**
     * The file system under the store and the retention thresholds; {@code full}, {@code cleanImmediately} and
     * {@code spaceToDelete} are null until the first disk check. {@code usedRatio} is counted as {@code df} and
     * retention count it ({@link dev.hangar.store.clean.DiskUsage#usedRatio()}), unrounded here, to 3 places in JSON.
     */
    public record Disk(long totalBytes, long freeBytes, long usableBytes, double usedRatio, int maxUsedPercent,
                       int cleanForciblyPercent, int warningPercent, Boolean full, Boolean cleanImmediately,
                       Boolean spaceToDelete) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("totalBytes", totalBytes);
            m.put("freeBytes", freeBytes);
            m.put("usableBytes", usableBytes);
            m.put("usedRatio", Math.round(usedRatio * 1000) / 1000.0);
            m.put("maxUsedPercent", maxUsedPercent);
            m.put("cleanForciblyPercent", cleanForciblyPercent);
            m.put("warningPercent", warningPercent);
            if (full != null) {
                m.put("full", full);
                m.put("cleanImmediately", cleanImmediately);
                m.put("spaceToDelete", spaceToDelete);
            }
            return m;
        }
    }

    public record Retention(long fileReservedHours, List<Integer> deleteHours, long cleanIntervalMillis,
                            boolean cleanFileForciblyEnable, long filesDeleted, long lastPassMillis,
                            int lastPassDeleted, int manualPassesLeft) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("fileReservedHours", fileReservedHours);
            m.put("deleteHours", deleteHours);
            m.put("cleanIntervalMillis", cleanIntervalMillis);
            m.put("cleanFileForciblyEnable", cleanFileForciblyEnable);
            m.put("filesDeleted", filesDeleted);
            m.put("lastPassMillis", lastPassMillis);
            m.put("lastPassDeleted", lastPassDeleted);
            m.put("manualPassesLeft", manualPassesLeft);
            return m;
        }
    }

    /**
     * Replication as operators see it; every field after {@code enabled} is meaningless (zero, null) when it is
     * false. {@code lagBytes} is -1 on a slave.
     */
    public record Replication(String role, boolean enabled, String listenAddress, String masterAddress,
                              int connectedSlaves, long ackedOffset, long lagBytes, long lagMillis,
                              long bytesPerSecond, long rejectedConnections, String problem) {
        public boolean isSlave() {
            return "SLAVE".equals(role);
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("role", role);
            m.put("enabled", enabled);
            if (enabled) {
                m.put("listenAddress", listenAddress);
                m.put("masterAddress", masterAddress);
                m.put("connectedSlaves", connectedSlaves);
                m.put("ackedOffset", ackedOffset);
                m.put("lagBytes", lagBytes);
                m.put("lagMillis", lagMillis);
                m.put("bytesPerSecond", bytesPerSecond);
                m.put("rejectedConnections", rejectedConnections);
                m.put("problem", problem);
            }
            return m;
        }
    }

    /** @param truncatedAt why the log was cut where it was, or null when it ended cleanly */
    public record Recovery(boolean abnormal, long scanStartOffset, int filesScanned, long messagesScanned,
                           long endOffset, int filesDropped, long redispatched, long millis, String truncatedAt) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("abnormal", abnormal);
            m.put("filesScanned", filesScanned);
            m.put("messagesScanned", messagesScanned);
            m.put("endOffset", endOffset);
            m.put("filesDropped", filesDropped);
            m.put("redispatched", redispatched);
            m.put("millis", millis);
            if (truncatedAt != null) {
                m.put("truncatedAt", truncatedAt);
            }
            return m;
        }
    }

    /**
     * Nested maps, lists and numbers with the field names of {@code stat --json} and {@code /v1/stats} (a contract
     * with users: keep them).
     */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("storePath", storePath);
        out.put("providers", providers);
        out.put("runningFlags", runningFlags);
        out.put("writable", writable);
        if (notWritableReason != null) {
            out.put("notWritableReason", notWritableReason);
        }
        out.put("puts", puts.toMap());
        out.put("started", started);
        if (!started) {
            return out;
        }
        out.put("commitLog", commitLog.toMap());
        out.put("dispatch", dispatch.toMap());
        out.put("flush", flush.toMap());
        List<Map<String, Object>> q = new ArrayList<>();
        queues.forEach(range -> q.add(range.toMap()));
        out.put("queues", q);
        out.put("disk", disk.toMap());
        out.put("retention", retention.toMap());
        out.put("replication", replication.toMap());
        if (lastRecovery != null) {
            out.put("lastRecovery", lastRecovery.toMap());
        }
        return out;
    }
}
