package dev.hangar.ha;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Decides which refusals of an address not in {@code haAllowedSlaves} are worth a warning: the first from each
 * address, then at most one per {@link #INTERVAL_NANOS} per address, saying how many were refused in between. A peer
 * that retries every 100 ms (a misconfigured slave does) or a port scan then cannot flood the log. At most
 * {@link #MAX_ADDRESSES} addresses are remembered; refusals from further new addresses share one warning per
 * interval, so the memory stays bounded whatever connects. Used by the acceptor thread only: not thread-safe.
 */
final class RefusedPeerWarnings {
    static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(10);
    static final int MAX_ADDRESSES = 1024;

    private final String allowed;
    private final LongSupplier nanoTime;
    private final Map<InetAddress, Seen> seen = new HashMap<>();
    private final Seen others = new Seen();

    /** {@code allowed}: the configured list, quoted in each warning; {@code nanoTime}: the clock (tests step it). */
    RefusedPeerWarnings(String allowed, LongSupplier nanoTime) {
        this.allowed = allowed;
        this.nanoTime = nanoTime;
    }

    /** Records a refusal of {@code address}; returns the warning to log now, or null when one was logged lately. */
    String refused(InetAddress address) {
        long now = nanoTime.getAsLong();
        Seen s = seen.get(address);
        if (s == null) {
            if (seen.size() >= MAX_ADDRESSES) {
                seen.values().removeIf(old -> now - old.warnedAt >= INTERVAL_NANOS);
            }
            if (seen.size() >= MAX_ADDRESSES) {
                return others.due(now) ? "refused " + others.take() + " HA connection(s) from addresses not in "
                        + "haAllowedSlaves (" + allowed + ") beyond the " + MAX_ADDRESSES + " warned about one by one, "
                        + address.getHostAddress() + " the latest; each was closed before a byte was read" : null;
            }
            s = new Seen();
            seen.put(address, s);
        }
        if (!s.due(now)) {
            return null;
        }
        long count = s.take();
        return "refused an HA connection from " + address.getHostAddress() + ": not in haAllowedSlaves (" + allowed
                + "); closed before a byte was read" + (count > 1 ? " (" + count + " refused from it since the last "
                + "warning; the next warning about it comes at most " + TimeUnit.NANOSECONDS.toMinutes(INTERVAL_NANOS)
                + " minutes after this one)" : "");
    }

    /** Refusals counted since the last warning, and when that warning was. */
    private static final class Seen {
        private long refusals;
        private long warnedAt;
        private boolean warned;

        /** Counts one refusal; true when a warning is due (the first, or the interval has passed). */
        boolean due(long now) {
            refusals++;
            if (warned && now - warnedAt < INTERVAL_NANOS) {
                return false;
            }
            warned = true;
            warnedAt = now;
            return true;
        }

        /** The refusals the warning now logged covers; starts counting afresh. */
        long take() {
            long n = refusals;
            refusals = 0;
            return n;
        }
    }
}
