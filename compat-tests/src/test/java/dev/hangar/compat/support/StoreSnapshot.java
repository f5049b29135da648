package dev.hangar.compat.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one engine reads back from a store directory, for a set of queues, record offsets and keys: per
 * queue the min/max offsets, each message by queue offset and each ConsumeQueue unit; each record by commit-log
 * offset and by msgId; each key query. Two snapshots of the same directory taken through different engines
 * must be equal. Immutable once taken.
 */
public record StoreSnapshot(String engine, Map<String, long[]> queueRanges,
                            Map<String, List<StoredRecord>> queueRecords, Map<String, List<QueueUnit>> queueUnits,
                            Map<String, List<Long>> queueStoreTimes, Map<String, List<Long>> offsetsByTime,
                            List<StoredRecord> byOffset, List<StoredRecord> byMsgId,
                            Map<String, List<Long>> queries, long minPhyOffset, long maxPhyOffset) {

    /**
     * Reads through {@code reader}: the queues named in {@code queueNames} ("topic/queueId"), the records at
     * {@code recordOffsets}, and the "topic#key" queries in {@code queryNames}.
     */
    public static StoreSnapshot take(StoreReader reader, Iterable<String> queueNames, List<Long> recordOffsets,
                                     Iterable<String> queryNames) {
        Map<String, long[]> ranges = new LinkedHashMap<>();
        Map<String, List<StoredRecord>> records = new LinkedHashMap<>();
        Map<String, List<QueueUnit>> units = new LinkedHashMap<>();
        Map<String, List<Long>> storeTimes = new LinkedHashMap<>();
        Map<String, List<Long>> byTime = new LinkedHashMap<>();
        for (String q : queueNames) {
            String topic = Dataset.topicOf(q);
            int queueId = Dataset.queueIdOf(q);
            long min = reader.minOffset(topic, queueId);
            long max = reader.maxOffset(topic, queueId);
            ranges.put(q, new long[] {min, max});
            List<StoredRecord> rs = new ArrayList<>();
            List<QueueUnit> us = new ArrayList<>();
            List<Long> ts = new ArrayList<>();
            for (long off = min; off < max; off++) {
                rs.add(reader.get(topic, queueId, off));
                us.add(reader.unit(topic, queueId, off));
                ts.add(reader.storeTimeAt(topic, queueId, off));
            }
            records.put(q, rs);
            units.put(q, us);
            storeTimes.put(q, ts);
            List<Long> found = new ArrayList<>();
            if (!ts.isEmpty()) {
                // before the first message, at the first, the middle and the last, after the last
                for (long t : new long[] {ts.get(0) - 60_000, ts.get(0), ts.get(ts.size() / 2), ts.get(ts.size() - 1),
                    ts.get(ts.size() - 1) + 60_000}) {
                    // many messages share a millisecond and RocketMQ's binary search lands on any of them:
                    // compare the store time of the offset found, not the offset
                    long off = reader.offsetByTime(topic, queueId, t);
                    found.add(off >= min && off < max ? ts.get((int) (off - min)) : -off - 1);
                }
            }
            byTime.put(q, found);
        }
        List<StoredRecord> byOffset = new ArrayList<>();
        List<StoredRecord> byMsgId = new ArrayList<>();
        for (long off : recordOffsets) {
            StoredRecord r = reader.lookByOffset(off);
            byOffset.add(r);
            byMsgId.add(r == null ? null : reader.lookByMsgId(r.msgId()));
        }
        Map<String, List<Long>> queries = new LinkedHashMap<>();
        for (String q : queryNames) {
            int hash = q.indexOf('#');
            queries.put(q, reader.query(q.substring(0, hash), q.substring(hash + 1)).stream()
                    .map(StoredRecord::commitLogOffset).toList());
        }
        return new StoreSnapshot(reader.engine(), ranges, records, units, storeTimes, byTime, byOffset, byMsgId, queries,
                reader.minPhyOffset(), reader.maxPhyOffset());
    }

    /**
     * Where this engine's getOffsetInQueueByTime misses: asked for a time before the first message it must
     * answer the first; for the first, middle and last message's own store time, an offset stored at exactly
     * that time; for a time after the last, the last offset or the end. (Not compared across engines: RocketMQ
     * 4.9.8 picks its ConsumeQueue file by modification time and can answer a neighbour a few ms off.)
     */
    public List<String> timeSearchProblems() {
        List<String> out = new ArrayList<>();
        for (String q : offsetsByTime.keySet()) {
            List<Long> ts = queueStoreTimes.get(q);
            List<Long> found = offsetsByTime.get(q);
            if (ts.isEmpty()) {
                continue;
            }
            long max = queueRanges.get(q)[1];
            long[] wanted = {ts.get(0), ts.get(0), ts.get(ts.size() / 2), ts.get(ts.size() - 1), ts.get(ts.size() - 1)};
            String[] names = {"first-60s", "first", "middle", "last", "last+60s"};
            for (int i = 0; i < wanted.length; i++) {
                boolean ok = found.get(i) == wanted[i] || (i == 4 && found.get(i) == -max - 1);
                if (!ok) {
                    out.add(engine + ": queue " + q + " getOffsetInQueueByTime(" + names[i] + ") answered an offset stored at "
                            + found.get(i) + ", expected " + wanted[i]);
                }
            }
        }
        return out;
    }

    /** Every difference between this snapshot and {@code other}, one line each, at most {@code limit}. */
    public List<String> differences(StoreSnapshot other, int limit) {
        List<String> out = new ArrayList<>();
        String a = engine;
        String b = other.engine;
        if (minPhyOffset != other.minPhyOffset || maxPhyOffset != other.maxPhyOffset) {
            out.add("commit log range: " + a + "=[" + minPhyOffset + ", " + maxPhyOffset + ") vs " + b + "=["
                    + other.minPhyOffset + ", " + other.maxPhyOffset + ")");
        }
        for (String q : queueRanges.keySet()) {
            long[] ra = queueRanges.get(q);
            long[] rb = other.queueRanges.get(q);
            if (rb == null || ra[0] != rb[0] || ra[1] != rb[1]) {
                out.add("queue " + q + " offsets: " + a + "=[" + ra[0] + ", " + ra[1] + ") vs " + b + "="
                        + (rb == null ? "absent" : "[" + rb[0] + ", " + rb[1] + ")"));
                continue;
            }
            compareLists(out, "queue " + q + " message at queue offset ", ra[0], queueRecords.get(q),
                    other.queueRecords.get(q), a, b);
            if (!Objects.equals(queueStoreTimes.get(q), other.queueStoreTimes.get(q))) {
                out.add("queue " + q + " getMessageStoreTimeStamp by offset: " + a + "=" + queueStoreTimes.get(q) + " vs "
                        + b + "=" + other.queueStoreTimes.get(q));
            }
            List<QueueUnit> ua = queueUnits.get(q);
            List<QueueUnit> ub = other.queueUnits.get(q);
            for (int i = 0; i < ua.size(); i++) {
                if (!Objects.equals(ua.get(i), ub.get(i))) {
                    out.add("queue " + q + " ConsumeQueue unit " + (ra[0] + i) + ": " + a + "=" + ua.get(i) + " vs "
                            + b + "=" + ub.get(i));
                }
            }
        }
        compareLists(out, "lookMessageByOffset #", 0, byOffset, other.byOffset, a, b);
        compareLists(out, "lookMessageByMsgId #", 0, byMsgId, other.byMsgId, a, b);
        for (String q : queries.keySet()) {
            if (!Objects.equals(queries.get(q), other.queries.get(q))) {
                out.add("queryMessage " + q + ": " + a + "=" + queries.get(q) + " vs " + b + "=" + other.queries.get(q));
            }
        }
        return out.size() > limit ? out.subList(0, limit) : out;
    }

    private static void compareLists(List<String> out, String what, long base, List<StoredRecord> la,
                                     List<StoredRecord> lb, String a, String b) {
        for (int i = 0; i < la.size(); i++) {
            StoredRecord ra = la.get(i);
            StoredRecord rb = i < lb.size() ? lb.get(i) : null;
            if (ra == null || rb == null) {
                if (ra != rb) {
                    out.add(what + (base + i) + ": " + a + "=" + ra + " vs " + b + "=" + rb);
                }
                continue;
            }
            for (String d : ra.differences(rb, a, b)) {
                out.add(what + (base + i) + " (commit log offset " + ra.commitLogOffset() + ") " + d);
            }
        }
    }
}
