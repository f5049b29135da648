package dev.hangar.store.format;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The offset message id: store host address (4 or 16 bytes) + port (4) + commit-log offset (8), upper-case
 * hex: 32 characters for IPv4, 56 for IPv6, as RocketMQ's {@code MessageDecoder.createMessageId}.
 */
public final class MessageIdCodec {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private MessageIdCodec() {
    }

    /** A reusable prefix (address + port) for a store host, so ids cost one hex conversion each. */
    public static byte[] hostPrefix(InetSocketAddress host) {
        byte[] addr = host.getAddress().getAddress();
        ByteBuffer b = ByteBuffer.allocate(addr.length + 4);
        b.put(addr).putInt(host.getPort());
        return b.array();
    }

    public static String create(byte[] hostPrefix, long commitLogOffset) {
        byte[] id = new byte[hostPrefix.length + 8];
        System.arraycopy(hostPrefix, 0, id, 0, hostPrefix.length);
        for (int i = 0; i < 8; i++) {
            id[hostPrefix.length + i] = (byte) (commitLogOffset >>> (56 - 8 * i));
        }
        return HEX.formatHex(id);
    }

    /** Decoded parts of a message id. */
    public record Decoded(InetSocketAddress storeHost, long commitLogOffset) {
    }

    /** Parses a 32- or 56-character id; throws IllegalArgumentException with a reason when malformed. */
    public static Decoded decode(String msgId) {
        if (msgId == null || (msgId.length() != 32 && msgId.length() != 56)) {
            throw new IllegalArgumentException("a message id has 32 or 56 hex characters");
        }
        byte[] bytes;
        try {
            bytes = HEX.parseHex(msgId.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a message id is hexadecimal");
        }
        int addrLen = bytes.length - 12;
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte[] addr = new byte[addrLen];
        b.get(addr);
        int port = b.getInt();
        long offset = b.getLong();
        try {
            return new Decoded(new InetSocketAddress(InetAddress.getByAddress(addr), port), offset);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad address in message id");
        }
    }
}
