package dev.hangar.spi.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class AddressRangesTest {
    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void singleAddressesMatchOnlyThemselves() {
        AddressRanges r = AddressRanges.parse(" 10.0.0.5 , ::1 ");
        assertTrue(r.contains(ip("10.0.0.5")));
        assertFalse(r.contains(ip("10.0.0.6")));
        assertFalse(r.contains(ip("10.0.0.4")));
        assertTrue(r.contains(ip("0:0:0:0:0:0:0:1")));
        assertFalse(r.contains(ip("::2")));
        assertFalse(r.contains(ip("127.0.0.1")), "an IPv4 address never matches an IPv6 entry");
    }

    @Test
    void cidrRangesMatchTheirPrefixAtAnyBitBoundary() {
        AddressRanges r = AddressRanges.parse("10.1.0.0/16,192.168.7.64/27,fd00::/8,2001:db8::/33");
        assertTrue(r.contains(ip("10.1.0.0")));
        assertTrue(r.contains(ip("10.1.255.255")));
        assertFalse(r.contains(ip("10.2.0.0")));
        assertFalse(r.contains(ip("10.0.255.255")));
        assertTrue(r.contains(ip("192.168.7.64")));
        assertTrue(r.contains(ip("192.168.7.95")));
        assertFalse(r.contains(ip("192.168.7.96")));
        assertFalse(r.contains(ip("192.168.7.63")));
        assertTrue(r.contains(ip("fdab:1234::9")));
        assertFalse(r.contains(ip("fe80::1")));
        assertTrue(r.contains(ip("2001:db8:7fff:ffff::1")));
        assertFalse(r.contains(ip("2001:db8:8000::1")));
    }

    @Test
    void hostBitsPastThePrefixAreIgnoredAndZeroAndFullPrefixesWork() {
        assertTrue(AddressRanges.parse("10.1.2.3/16").contains(ip("10.1.200.9")));
        assertTrue(AddressRanges.parse("0.0.0.0/0").contains(ip("203.0.113.7")));
        assertFalse(AddressRanges.parse("0.0.0.0/0").contains(ip("::1")));
        assertTrue(AddressRanges.parse("::/0").contains(ip("2001:db8::1")));
        assertTrue(AddressRanges.parse("127.0.0.2/32").contains(ip("127.0.0.2")));
        assertFalse(AddressRanges.parse("127.0.0.2/32").contains(ip("127.0.0.1")));
    }

    @Test
    void anIpv4MappedEntryMatchesTheIpv4Address() {
        // Java hands a dual-stack socket's IPv4 peer over as an Inet4Address: the entry must mean the same
        assertTrue(AddressRanges.parse("::ffff:10.0.0.5").contains(ip("10.0.0.5")));
        assertTrue(AddressRanges.parse("::ffff:10.0.0.0/104").contains(ip("10.200.0.1")));
        assertFalse(AddressRanges.parse("::ffff:10.0.0.0/104").contains(ip("11.0.0.1")));
    }

    @Test
    void emptyMeansNoRestrictionForTheCaller() {
        assertTrue(AddressRanges.parse("").isEmpty());
        assertTrue(AddressRanges.parse("  ").isEmpty());
        assertFalse(AddressRanges.parse("::1").isEmpty());
        assertNull(AddressRanges.problem(""));
    }

    @Test
    void eachMalformedEntryIsNamedWithWhatIsWrong() {
        String[][] cases = {
            {"10.0.0.5,10.0.0.256", "'10.0.0.256'"},
            {"10.0.0", "'10.0.0'"},
            {"10.0.0.0.1", "'10.0.0.0.1'"},
            {"10.0.0.5,,::1", "'' is empty"},
            {"10.0.0.5,", "'' is empty"},
            {"10.1.0.0/33", "bad prefix length: '33'"},
            {"::1/129", "bad prefix length: '129'"},
            {"10.1.0.0/", "bad prefix length: ''"},
            {"10.1.0.0/-1", "bad prefix length: '-1'"},
            {"10.1.0.0/8/9", "bad prefix length: '8/9'"},
            {"::ffff:10.0.0.0/8", "IPv4-mapped"},
            {"localhost", "'localhost' is not an IPv4 address"},
            {"example.com", "'example.com'"},
            {"1:2:3:4:5:6:7:8:9", "'1:2:3:4:5:6:7:8:9' is not an IPv6 address"},
            {"fe80::1%eth0", "'fe80::1%eth0' is not an IPv6 address"},
            {"[::1]", "'[::1]' is not an IPv6 address"},
            {"g::1", "'g::1' is not an IPv6 address"},
            {"1.2.3.4 5.6.7.8", "'1.2.3.4 5.6.7.8'"},
            {"0x0a.0.0.1", "'0x0a.0.0.1'"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AddressRanges.parse(c[0]),
                    c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
            assertEquals(e.getMessage(), AddressRanges.problem(c[0]));
        }
    }

    @Test
    void aBadHaAllowedSlavesIsRefusedAtConfigurationNamingKeyAndEntry() {
        ConfigException e = assertThrows(ConfigException.class, () -> StoreConfig.builder()
                .set("haAllowedSlaves", "10.0.0.5, 10.1.0.0/40 ,::1", "file:broker.conf"));
        assertTrue(e.getMessage().contains("haAllowedSlaves") && e.getMessage().contains("'10.1.0.0/40'")
                && e.getMessage().contains("broker.conf") && e.getMessage().contains("CIDR"), e.getMessage());
        ConfigException typed = assertThrows(ConfigException.class, () -> StoreConfig.builder()
                .set(StoreConfigKeys.HA_ALLOWED_SLAVES, "slave-host"));
        assertTrue(typed.getMessage().contains("haAllowedSlaves") && typed.getMessage().contains("'slave-host'"),
                typed.getMessage());
        StoreConfig ok = StoreConfig.builder().set("haAllowedSlaves", "10.0.0.5,10.1.0.0/16,::1", "-D").build();
        assertEquals("10.0.0.5,10.1.0.0/16,::1", ok.get(StoreConfigKeys.HA_ALLOWED_SLAVES));
        assertEquals("", StoreConfig.defaults().get(StoreConfigKeys.HA_ALLOWED_SLAVES));
    }
}
