package dev.hangar.compat.support;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The datasets the compatibility tests write: deterministic (derived from the message index only), so two
 * engines given the same dataset must produce the same records at the same offsets.
 *
 * <p>What {@link #mixed} covers: three topics (one with {@code %|-_} in its name) over 1, 2 and 4 queues;
 * bodies from 0 bytes to 30 KiB, so 64 KiB CommitLog files roll with BLANK records of many sizes; one or two
 * keys per message, keys shared by several messages, unique keys; tags (some non-ASCII, some absent); user
 * properties with Cyrillic, CJK and astral-plane characters; IPv4 and IPv6 born hosts; PREPARED, COMMIT and
 * ROLLBACK transaction records; delay levels 16..18 (far enough in the future that no schedule service
 * delivers them during a test); batches of 2..8 messages.
 */
public final class Datasets {
    public static final long BASE_BORN_TIME = 1_700_000_000_000L;
    private static final int[] BODY_SIZES = {17, 300, 1024, 4000, 200, 0, 2500, 64, 9000, 777};

    private Datasets() {
    }

    /** {@code count} puts (some of them batches) on topics named after {@code prefix}. */
    public static Dataset mixed(String name, String prefix, int count, String storeHost) {
        return mixed(name, prefix, count, storeHost, 0);
    }

    /** As {@link #mixed(String, String, int, String)}, numbering messages (keys, bodies) from {@code firstSerial}. */
    public static Dataset mixed(String name, String prefix, int count, String storeHost, int firstSerial) {
        String[] topics = {prefix + "Orders", prefix + "Audit_%|-x", prefix + "Big"};
        int[] queues = {4, 2, 1};
        List<PutSpec> puts = new ArrayList<>();
        int serial = firstSerial;
        for (int i = 0; i < count; i++) {
            int t = i % topics.length;
            int queue = (i / topics.length) % queues[t];
            if (i % 25 == 24) {
                int size = 2 + i % 7;
                List<MessageSpec> batch = new ArrayList<>();
                InetSocketAddress born = bornHost(i);
                for (int j = 0; j < size; j++) {
                    batch.add(message(prefix, serial++, topics[t], queue, MessageSpec.TX_NOT, 0, born,
                            BASE_BORN_TIME + i * 7L, false, true));
                }
                puts.add(PutSpec.batch(batch));
                continue;
            }
            int tx = switch (i % 40) {
                case 3 -> MessageSpec.TX_PREPARED;
                case 13 -> MessageSpec.TX_COMMIT;
                case 23 -> MessageSpec.TX_ROLLBACK;
                default -> MessageSpec.TX_NOT;
            };
            int delay = i % 50 == 10 || i % 50 == 36 ? 16 + (i / 50) % 3 : 0;
            puts.add(PutSpec.single(message(prefix, serial++, topics[t], queue, tx, delay, bornHost(i),
                    BASE_BORN_TIME + i * 7L, t == 2 && i % 9 == 2, false)));
        }
        return new Dataset(name, storeHost, puts);
    }

    private static MessageSpec message(String prefix, int n, String topic, int queue, int tx, int delay,
                                       InetSocketAddress bornHost, long bornTime, boolean huge, boolean batched) {
        Map<String, String> props = new LinkedHashMap<>();
        String keys = prefix + "k" + n + (n % 4 == 0 ? " " + prefix + "shared" + (n % 20) : "");
        props.put("KEYS", keys);
        if (n % 6 != 5) {
            props.put("TAGS", n % 11 == 7 ? "标签-" + (n % 3) : "tag" + (n % 5));
        }
        props.put("seq", Integer.toString(n));
        if (n % 7 == 0) {
            props.put("ключ", "значение-日本語-😀-" + n);
        }
        if (n % 3 == 0) {
            props.put("UNIQ_KEY", String.format("%sAC11000100%08X", prefix.toUpperCase(), n));
        }
        if (n % 97 == 5) {
            props.put("long", "x".repeat(1500));
        }
        if (delay > 0) {
            props.put("DELAY", Integer.toString(delay));
        }
        long prepared = tx == MessageSpec.TX_COMMIT || tx == MessageSpec.TX_ROLLBACK ? 4096L + n : 0L;
        // a RocketMQ batch carries one reconsume count for all its messages: keep it 0 in batches
        int reconsume = batched ? 0 : n % 4;
        return new MessageSpec(topic, queue, n % 1000, body(n, huge), props, tx, bornTime, bornHost, reconsume, prepared);
    }

    private static byte[] body(int n, boolean huge) {
        int size = huge ? 30_000 - n % 100 : BODY_SIZES[n % BODY_SIZES.length];
        byte[] body = new byte[size];
        byte[] text = ("message " + n + " ä€ ").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < size; i++) {
            body[i] = i < text.length ? text[i] : (byte) (n * 31 + i * 7);
        }
        return body;
    }

    /** Even indexes: an IPv4 born host; odd: IPv6. */
    static InetSocketAddress bornHost(int i) {
        try {
            if (i % 2 == 0) {
                return new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, (byte) (i % 256), 1}),
                        30_000 + i % 1000);
            }
            byte[] v6 = new byte[16];
            v6[0] = 0x20;
            v6[1] = 0x01;
            v6[2] = 0x0d;
            v6[3] = (byte) 0xb8;
            v6[14] = (byte) (i >> 8);
            v6[15] = (byte) i;
            return new InetSocketAddress(InetAddress.getByAddress(v6), 40_000 + i % 1000);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
