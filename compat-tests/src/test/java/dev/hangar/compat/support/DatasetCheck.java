package dev.hangar.compat.support;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Checks a {@link StoreSnapshot} against the {@link Dataset} that was written, field by field, independent of
 * the engine that wrote or read it: record order and offsets from the file walk, queue offsets counted per
 * stored queue, sysflag bits, body CRC, msgId, ConsumeQueue tags codes (tag hash, or deliver time on the
 * schedule topic), and key queries.
 */
public final class DatasetCheck {
    private static final long[] DELAY_MILLIS = parseDelays(StoreGeometry.DELAY_LEVELS);

    private DatasetCheck() {
    }

    /**
     * Every way {@code s} disagrees with {@code ds}, at most {@code limit} lines. {@code records} are the
     * CommitLog records found by {@link CommitLogFiles#records}, the snapshot's {@code byOffset} read at them.
     * With {@code exactQueries} false a query may miss messages (an engine may drop index files on a crash
     * recovery) but must never return a message that does not carry the key.
     */
    public static List<String> problems(StoreSnapshot s, Dataset ds, List<CommitLogFiles.Entry> records,
                                        boolean exactQueries, int limit) {
        List<String> out = new ArrayList<>();
        List<MessageSpec> specs = ds.messages();
        if (records.size() != specs.size()) {
            out.add(s.engine() + ": the commit log holds " + records.size() + " records, the dataset "
                    + specs.size() + " messages");
        }
        InetSocketAddress storeHost = StoreGeometry.address(ds.storeHost());
        Map<String, Long> nextQueueOffset = new HashMap<>();
        Map<String, List<Integer>> queueMembers = new HashMap<>();
        for (int i = 0; i < Math.min(specs.size(), records.size()); i++) {
            MessageSpec spec = specs.get(i);
            CommitLogFiles.Entry e = records.get(i);
            StoredRecord r = s.byOffset().get(i);
            String where = s.engine() + " record #" + i + " at commit log offset " + e.offset() + ": ";
            if (r == null) {
                out.add(where + "lookMessageByOffset found nothing");
                continue;
            }
            String q = Dataset.queueName(spec.storedTopic(), spec.storedQueueId());
            long queueOffset = 0;
            if (spec.takesQueueOffset()) {
                queueOffset = nextQueueOffset.merge(q, 1L, Long::sum) - 1;
                queueMembers.computeIfAbsent(q, k -> new ArrayList<>()).add(i);
            }
            int sysFlag = spec.transactionType()
                    | (spec.bornHost().getAddress() instanceof Inet6Address ? 0x10 : 0)
                    | (storeHost.getAddress() instanceof Inet6Address ? 0x20 : 0);
            check(out, where, "topic", spec.storedTopic(), r.topic());
            check(out, where, "queueId", spec.storedQueueId(), r.queueId());
            check(out, where, "queueOffset", queueOffset, r.queueOffset());
            check(out, where, "commitLogOffset", e.offset(), r.commitLogOffset());
            check(out, where, "storeSize", e.size(), r.storeSize());
            check(out, where, "bodyCrc", crc(spec.body()), r.bodyCrc());
            check(out, where, "flag", spec.flag(), r.flag());
            check(out, where, "sysFlag", sysFlag, r.sysFlag());
            check(out, where, "bornTimestamp", spec.bornTimestamp(), r.bornTimestamp());
            check(out, where, "bornHost", StoredRecord.host(spec.bornHost()), r.bornHost());
            check(out, where, "storeHost", StoredRecord.host(storeHost), r.storeHost());
            check(out, where, "reconsumeTimes", spec.reconsumeTimes(), r.reconsumeTimes());
            check(out, where, "preparedTransactionOffset", spec.preparedTransactionOffset(),
                    r.preparedTransactionOffset());
            check(out, where, "body", StoredRecord.bodyDigest(spec.body()), r.body());
            check(out, where, "properties", new java.util.TreeMap<>(spec.storedProperties()), r.properties());
            check(out, where, "msgId", msgId(storeHost, e.offset()), r.msgId());
            check(out, where, "lookMessageByMsgId", r, s.byMsgId().get(i));
        }
        for (Map.Entry<String, List<Integer>> qe : queueMembers.entrySet()) {
            checkQueue(out, s, qe.getKey(), qe.getValue(), specs, s.byOffset());
        }
        checkQueries(out, s, ds, records, exactQueries);
        return out.size() > limit ? out.subList(0, limit) : out;
    }

    private static void checkQueue(List<String> out, StoreSnapshot s, String q, List<Integer> members,
                                   List<MessageSpec> specs, List<StoredRecord> byOffset) {
        long[] range = s.queueRanges().get(q);
        if (range == null) {
            out.add(s.engine() + ": queue " + q + " was not read");
            return;
        }
        if (range[0] != 0 || range[1] != members.size()) {
            StringBuilder extra = new StringBuilder();
            for (long off = Math.max(range[0], members.size()); off < range[1]; off++) {
                int k = (int) (off - range[0]);
                extra.append("; unit at queue offset ").append(off).append(" = ").append(s.queueUnits().get(q).get(k))
                        .append(", getMessage returns ").append(s.queueRecords().get(q).get(k));
            }
            out.add(s.engine() + ": queue " + q + " offsets [" + range[0] + ", " + range[1] + "), expected [0, "
                    + members.size() + ")" + extra);
            return;
        }
        for (int k = 0; k < members.size(); k++) {
            StoredRecord expected = byOffset.get(members.get(k));
            StoredRecord got = s.queueRecords().get(q).get(k);
            String where = s.engine() + ": queue " + q + " offset " + k + ": ";
            check(out, where, "getMessage", expected, got);
            check(out, where, "getMessageStoreTimeStamp", expected == null ? null : expected.storeTimestamp(),
                    s.queueStoreTimes().get(q).get(k));
            QueueUnit unit = s.queueUnits().get(q).get(k);
            if (unit == null || expected == null) {
                out.add(where + "ConsumeQueue unit " + unit + " for record " + expected);
                continue;
            }
            MessageSpec spec = specs.get(members.get(k));
            long tagsCode = MessageSpec.SCHEDULE_TOPIC.equals(spec.storedTopic())
                    ? expected.storeTimestamp() + DELAY_MILLIS[spec.delayLevel() - 1]
                    : spec.tags() == null ? 0 : spec.tags().hashCode();
            check(out, where, "unit", new QueueUnit(expected.commitLogOffset(), expected.storeSize(), tagsCode), unit);
        }
    }

    private static void checkQueries(List<String> out, StoreSnapshot s, Dataset ds,
                                     List<CommitLogFiles.Entry> records, boolean exact) {
        for (Map.Entry<String, List<Integer>> qe : ds.keyQueries().entrySet()) {
            List<Long> expected = new ArrayList<>();
            qe.getValue().forEach(i -> expected.add(i < records.size() ? records.get(i).offset() : -1));
            if (expected.size() > StoreGeometry.MAX_QUERY) {
                expected.subList(0, expected.size() - StoreGeometry.MAX_QUERY).clear();
            }
            List<Long> got = s.queries().get(qe.getKey());
            if (got == null) {
                out.add(s.engine() + ": query " + qe.getKey() + " was not run");
            } else if (exact ? !got.equals(expected) : !expected.containsAll(got)) {
                out.add(s.engine() + ": queryMessage " + qe.getKey() + " returned " + got + ", expected " + expected);
            }
        }
    }

    private static void check(List<String> out, String where, String field, Object expected, Object actual) {
        if (!java.util.Objects.equals(expected, actual)) {
            out.add(where + field + " expected " + expected + " but was " + actual);
        }
    }

    static int crc(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }

    /** Store host (4 or 16 bytes) + port + offset in upper-case hex, as RocketMQ's createMessageId. */
    public static String msgId(InetSocketAddress storeHost, long offset) {
        byte[] addr = storeHost.getAddress().getAddress();
        ByteBuffer b = ByteBuffer.allocate(addr.length + 12);
        b.put(addr).putInt(storeHost.getPort()).putLong(offset);
        return HexFormat.of().withUpperCase().formatHex(b.array());
    }

    static long[] parseDelays(String table) {
        String[] parts = table.trim().split("\\s+");
        long[] millis = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            long n = Long.parseLong(p.substring(0, p.length() - 1));
            millis[i] = switch (p.charAt(p.length() - 1)) {
                case 's' -> n * 1000;
                case 'm' -> n * 60_000;
                case 'h' -> n * 3_600_000;
                default -> n * 86_400_000;
            };
        }
        return millis;
    }
}
