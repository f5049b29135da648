package dev.hangar.spi.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * A comma-separated list of IP addresses and CIDR ranges, IPv4 and IPv6 ({@code 10.0.0.5,10.1.0.0/16,::1,fd00::/8}),
 * as a value: the allow-list of {@code haAllowedSlaves}. Parsed without any name lookup (a host name is refused, so
 * the list means the same whatever DNS answers later); host bits past a prefix are ignored ({@code 10.1.2.3/16} is
 * {@code 10.1.0.0/16}). An empty list is {@link #isEmpty() empty}, which its users read as "no restriction".
 * Immutable and thread-safe.
 */
public final class AddressRanges {
    private static final AddressRanges NONE = new AddressRanges(List.of(), "");

    private final List<Range> ranges;
    private final String text;

    private AddressRanges(List<Range> ranges, String text) {
        this.ranges = ranges;
        this.text = text;
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} naming the first bad entry and what is wrong. */
    public static AddressRanges parse(String text) {
        String all = text.trim();
        if (all.isEmpty()) {
            return NONE;
        }
        List<Range> out = new ArrayList<>();
        for (String raw : all.split(",", -1)) {
            String entry = raw.trim();
            String problem = parseEntry(entry, out);
            if (problem != null) {
                throw new IllegalArgumentException("'" + entry + "' " + problem);
            }
        }
        return new AddressRanges(List.copyOf(out), all);
    }

    /** Why {@code text} is not a valid list (naming the bad entry), or null when it is. */
    public static String problem(String text) {
        try {
            parse(text);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** True when the list names no address at all. */
    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** True when {@code address} lies in one of the ranges; an IPv4 address never matches an IPv6 range. */
    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        for (Range r : ranges) {
            if (r.contains(a)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }

    /** Adds the range {@code entry} names to {@code out}; returns what is wrong with it, or null. */
    private static String parseEntry(String entry, List<Range> out) {
        if (entry.isEmpty()) {
            return "is empty (two commas in a row, or one at an end)";
        }
        int slash = entry.indexOf('/');
        String host = slash < 0 ? entry : entry.substring(0, slash);
        byte[] address;
        boolean fromIpv6Text = host.indexOf(':') >= 0;
        if (fromIpv6Text) {
            address = ipv6(host);
            if (address == null) {
                return "is not an IPv6 address";
            }
        } else {
            address = ipv4(host);
            if (address == null) {
                return "is not an IPv4 address (four numbers 0-255 joined by dots) or an IPv6 address";
            }
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String p = entry.substring(slash + 1);
            // an IPv4-mapped IPv6 text (::ffff:10.0.0.0/104) gives a 4-byte address: its prefix counts 128 bits
            int textBits = fromIpv6Text ? 128 : 32;
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(p) > textBits) {
                return "has a bad prefix length: '" + p + "' (allowed: 0 to " + textBits + ")";
            }
            prefix = Integer.parseInt(p) - (textBits - bits);
            if (prefix < 0) {
                return "has a prefix shorter than its IPv4-mapped part (at least " + (textBits - bits) + ")";
            }
        }
        out.add(new Range(address, prefix));
        return null;
    }

    /** Four decimal numbers 0-255 joined by dots, strictly (no octal, no shortened forms), or null. */
    private static byte[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    /**
     * An IPv6 literal, or null. Only hex digits, colons and dots get to {@link InetAddress#getByName}: a text holding a
     * colon that starts with a hex digit or a colon is parsed as a literal there and never looked up by name.
     */
    private static byte[] ipv6(String s) {
        if (s.isEmpty() || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
            return null;
        }
        try {
            return InetAddress.getByName(s).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** The addresses whose first {@code prefix} bits equal {@code network}'s. */
    private record Range(byte[] network, int prefix) {
        boolean contains(byte[] a) {
            if (a.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (a[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (a[full] & mask) == (network[full] & mask);
        }
    }
}
