package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The refused-peer warning is logged once per address per interval, never once per attempt. */
class RefusedPeerWarningsTest {
    private final AtomicLong clock = new AtomicLong(1_000);
    private final RefusedPeerWarnings warnings = new RefusedPeerWarnings("10.0.0.0/8", clock::get);

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    @Test
    void theFirstRefusalOfAnAddressWarnsNamingItAndTheKeyAndRetriesDoNot() throws Exception {
        String first = warnings.refused(ip("192.0.2.7"));
        assertNotNull(first);
        assertTrue(first.contains("192.0.2.7") && first.contains("haAllowedSlaves") && first.contains("10.0.0.0/8"),
                first);
        for (int i = 0; i < 500; i++) {
            clock.addAndGet(100_000_000); // a slave retrying every 100 ms for 50 s
            assertNull(warnings.refused(ip("192.0.2.7")), "attempt " + i);
        }
        assertNotNull(warnings.refused(ip("192.0.2.8")), "another address gets its own warning");
        assertNotNull(warnings.refused(ip("::1")));
    }

    @Test
    void afterTheIntervalTheAddressWarnsAgainWithTheCountInBetween() throws Exception {
        assertNotNull(warnings.refused(ip("192.0.2.7")));
        for (int i = 0; i < 41; i++) {
            assertNull(warnings.refused(ip("192.0.2.7")));
        }
        clock.addAndGet(RefusedPeerWarnings.INTERVAL_NANOS - 1);
        assertNull(warnings.refused(ip("192.0.2.7")));
        clock.addAndGet(1);
        String again = warnings.refused(ip("192.0.2.7"));
        assertNotNull(again);
        assertTrue(again.contains("43 refused from it since the last warning"), again);
        assertNull(warnings.refused(ip("192.0.2.7")));
    }

    @Test
    void manyAddressesShareOneWarningOnceTheTableIsFull() throws Exception {
        int logged = 0;
        for (int i = 0; i < RefusedPeerWarnings.MAX_ADDRESSES; i++) {
            logged += warnings.refused(ip("10.1." + (i / 256) + "." + (i % 256))) != null ? 1 : 0;
        }
        assertEquals(RefusedPeerWarnings.MAX_ADDRESSES, logged);
        String shared = warnings.refused(ip("10.200.0.1"));
        assertNotNull(shared);
        assertTrue(shared.contains("refused 1 HA connection(s)") && shared.contains("10.200.0.1"), shared);
        for (int i = 0; i < 3000; i++) {
            assertNull(warnings.refused(ip("10.201." + (i / 256) + "." + (i % 256))), "scan " + i);
        }
        clock.addAndGet(RefusedPeerWarnings.INTERVAL_NANOS);
        // the old entries have aged out: a new address gets a warning of its own again
        String later = warnings.refused(ip("10.202.0.1"));
        assertNotNull(later);
        assertTrue(later.startsWith("refused an HA connection from 10.202.0.1"), later);
    }
}
