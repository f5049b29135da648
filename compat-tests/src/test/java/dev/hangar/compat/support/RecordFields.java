package dev.hangar.compat.support;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Splits a CommitLog record (RocketMQ message version V1) into named fields, for difference reports.
 *
 * <pre>
 *  0 TOTALSIZE 4 | 4 MAGICCODE 4 | 8 BODYCRC 4 | 12 QUEUEID 4 | 16 FLAG 4 | 20 QUEUEOFFSET 8 | 28 PHYSICALOFFSET 8
 * 36 SYSFLAG 4 | 40 BORNTIMESTAMP 8 | 48 BORNHOST 8 (IPv6: 20) | STORETIMESTAMP 8 | STOREHOST 8 (IPv6: 20)
 * RECONSUMETIMES 4 | PREPAREDTRANSACTIONOFFSET 8 | BODYLENGTH 4 | BODY | TOPICLENGTH 1 | TOPIC
 * PROPERTIESLENGTH 2 | PROPERTIES
 * </pre>
 */
public final class RecordFields {
    public static final int SYSFLAG_OFFSET = 36;
    public static final int BORN_HOST_OFFSET = 48;
    private static final int BORNHOST_V6 = 0x10;
    private static final int STOREHOST_V6 = 0x20;

    private RecordFields() {
    }

    /** Offset of STORETIMESTAMP in a record whose SYSFLAG is {@code sysFlag}. */
    public static int storeTimestampOffset(int sysFlag) {
        return BORN_HOST_OFFSET + ((sysFlag & BORNHOST_V6) != 0 ? 20 : 8);
    }

    /**
     * The fields of the record at {@code start}, by name, as printable values (numbers in decimal, hosts and
     * magic in hex, the body as size:sha256, properties with the separators shown as \u0001 and \u0002).
     */
    public static Map<String, String> decode(ByteBuffer b, int start) {
        Map<String, String> f = new LinkedHashMap<>();
        int sysFlag = b.getInt(start + SYSFLAG_OFFSET);
        int bornHostLength = (sysFlag & BORNHOST_V6) != 0 ? 20 : 8;
        int storeHostLength = (sysFlag & STOREHOST_V6) != 0 ? 20 : 8;
        int p = start;
        f.put("TOTALSIZE", Integer.toString(b.getInt(p)));
        f.put("MAGICCODE", Integer.toHexString(b.getInt(p + 4)));
        f.put("BODYCRC", Integer.toString(b.getInt(p + 8)));
        f.put("QUEUEID", Integer.toString(b.getInt(p + 12)));
        f.put("FLAG", Integer.toString(b.getInt(p + 16)));
        f.put("QUEUEOFFSET", Long.toString(b.getLong(p + 20)));
        f.put("PHYSICALOFFSET", Long.toString(b.getLong(p + 28)));
        f.put("SYSFLAG", Integer.toString(sysFlag));
        f.put("BORNTIMESTAMP", Long.toString(b.getLong(p + 40)));
        p += BORN_HOST_OFFSET;
        f.put("BORNHOST", hex(b, p, bornHostLength));
        p += bornHostLength;
        f.put("STORETIMESTAMP", Long.toString(b.getLong(p)));
        p += 8;
        f.put("STOREHOST", hex(b, p, storeHostLength));
        p += storeHostLength;
        f.put("RECONSUMETIMES", Integer.toString(b.getInt(p)));
        f.put("PREPAREDTRANSACTIONOFFSET", Long.toString(b.getLong(p + 4)));
        int bodyLength = b.getInt(p + 12);
        f.put("BODYLENGTH", Integer.toString(bodyLength));
        p += 16;
        byte[] body = new byte[Math.max(0, bodyLength)];
        b.get(p, body);
        f.put("BODY", StoredRecord.bodyDigest(body));
        p += body.length;
        int topicLength = b.get(p) & 0xFF;
        f.put("TOPICLENGTH", Integer.toString(topicLength));
        f.put("TOPIC", text(b, p + 1, topicLength));
        p += 1 + topicLength;
        int propsLength = b.getShort(p);
        f.put("PROPERTIESLENGTH", Integer.toString(propsLength));
        f.put("PROPERTIES", text(b, p + 2, Math.max(0, propsLength)));
        return f;
    }

    private static String hex(ByteBuffer b, int at, int length) {
        byte[] x = new byte[length];
        b.get(at, x);
        return HexFormat.of().formatHex(x);
    }

    private static String text(ByteBuffer b, int at, int length) {
        byte[] x = new byte[length];
        b.get(at, x);
        String s = new String(x, StandardCharsets.UTF_8);
        return s.replace("\u0001", "\\u0001").replace("\u0002", "\\u0002");
    }
}
