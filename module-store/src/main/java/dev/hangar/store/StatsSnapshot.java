package dev.hangar.store;

import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.flush.LatencyHistogram;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.store.recovery.RecoveryReport;
import dev.hangar.store.service.StoreStats;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the JSON-ready description of a store for {@code stat} and {@code /v1/stats}. */
final class StatsSnapshot {
    private StatsSnapshot() {
    }

    /** Role, peers, acknowledged offset, lag in bytes and time, throughput; just the role when not replicating. */
    static Map<String, Object> replication(DefaultMessageStore store) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("role", store.role().name());
        dev.hangar.spi.ha.ReplicationStatus s = store.replicationStatus();
        m.put("enabled", s != null);
        if (s != null) {
            m.put("listenAddress", s.listenAddress());
            m.put("masterAddress", s.masterAddress());
            m.put("connectedSlaves", s.connectedSlaves());
            m.put("ackedOffset", s.ackedOffset());
            m.put("lagBytes", s.lagBytes());
            m.put("lagMillis", s.lagMillis());
            m.put("bytesPerSecond", s.bytesPerSecond());
            m.put("rejectedConnections", s.rejectedConnections());
            m.put("problem", s.problem());
        }
        return m;
    }

    static Map<String, Object> of(DefaultMessageStore store) {
        Map<String, Object> out = new LinkedHashMap<>();
        StoreRuntime rt = store.runtime();
        out.put("storePath", store.config().get(dev.hangar.spi.config.StoreConfigKeys.STORE_PATH_ROOT_DIR));
        out.put("providers", store.chosenProviders());
        out.put("runningFlags", store.runningFlags().names());
        out.put("writable", store.runningFlags().isWritable());
        if (store.runningFlags().reason() != null) {
            out.put("notWritableReason", store.runningFlags().reason());
        }
        out.put("puts", puts(store.stats()));
        if (rt == null) {
            out.put("started", false);
            return out;
        }
        out.put("started", true);
        MappedFileQueue q = rt.commitLog().queue();
        Map<String, Object> cl = new LinkedHashMap<>();
        cl.put("minOffset", rt.commitLog().getMinOffset());
        cl.put("maxOffset", rt.commitLog().getMaxOffset());
        cl.put("flushedOffset", q.getFlushedWhere());
        cl.put("committedOffset", q.getCommittedWhere());
        cl.put("files", q.mappedFiles().size());
        cl.put("fileSize", q.mappedFileSize());
        cl.put("mappedBytes", q.getMappedMemorySize());
        out.put("commitLog", cl);
        Map<String, Object> dispatch = new LinkedHashMap<>();
        dispatch.put("dispatchedOffset", rt.reput().reputFromOffset());
        dispatch.put("behindBytes", rt.reput().behindBytes());
        dispatch.put("dispatched", store.stats().dispatched());
        dispatch.put("dispatchers", rt.dispatchers().names());
        dispatch.put("failures", rt.dispatchers().failures());
        dispatch.put("plugins", rt.plugins().snapshot());
        out.put("dispatch", dispatch);
        out.put("flush", flush(rt.flushStatistics()));
        out.put("queues", queues(rt.dispatchers().view(ConsumeQueueView.class).orElse(null)));
        Map<String, Object> disk = disk(rt.root().toFile());
        disk.putAll(rt.retention().diskSnapshot());
        out.put("disk", disk);
        out.put("retention", rt.retention().snapshot());
        out.put("replication", replication(store));
        RecoveryReport r = rt.recoveryReport();
        if (r != null) {
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("abnormal", r.abnormal());
            rec.put("filesScanned", r.filesScanned());
            rec.put("messagesScanned", r.messagesScanned());
            rec.put("endOffset", r.endOffset());
            rec.put("filesDropped", r.filesDropped());
            rec.put("redispatched", r.redispatched());
            rec.put("millis", r.millis());
            if (r.truncatedAtReason() != null) {
                rec.put("truncatedAt", r.truncatedAtReason());
            }
            out.put("lastRecovery", rec);
        }
        return out;
    }

    private static Map<String, Object> puts(StoreStats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("messages", s.putMessages());
        m.put("bytes", s.putBytes());
        m.put("failures", s.putFailures());
        m.put("latencyMicros", latency(s.putLatency()));
        m.put("getFound", s.getFound());
        m.put("getMiss", s.getMiss());
        return m;
    }

    static Map<String, Object> latency(LatencyHistogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.count());
        m.put("p50", h.percentileMicros(0.5));
        m.put("p99", h.percentileMicros(0.99));
        m.put("p999", h.percentileMicros(0.999));
        m.put("max", h.maxMicros());
        return m;
    }

    private static Map<String, Object> flush(FlushStatistics f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flushes", f.flushes());
        m.put("flushedBytes", f.flushedBytes());
        m.put("bytesPerFlush", Math.round(f.bytesPerFlush()));
        m.put("failures", f.flushFailures());
        m.put("commits", f.commits());
        m.put("groupCommits", f.groupCommits());
        m.put("requestsPerGroupCommit", Math.round(f.requestsPerGroupCommit() * 100) / 100.0);
        m.put("fsyncLatencyMicros", latency(f.fsyncLatency()));
        return m;
    }

    private static List<Map<String, Object>> queues(ConsumeQueueView view) {
        List<Map<String, Object>> out = new java.util.ArrayList<>();
        if (view == null) {
            return out;
        }
        view.forEachQueue((topic, queueId, min, max) -> {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("topic", topic);
            q.put("queueId", queueId);
            q.put("minOffset", min);
            q.put("maxOffset", max);
            out.add(q);
        });
        return out;
    }

    private static Map<String, Object> disk(File root) {
        Map<String, Object> m = new LinkedHashMap<>();
        long total = root.getTotalSpace();
        long free = root.getUsableSpace();
        m.put("totalBytes", total);
        m.put("usableBytes", free);
        m.put("usedRatio", total == 0 ? 0 : Math.round((1.0 - (double) free / total) * 1000) / 1000.0);
        return m;
    }
}
