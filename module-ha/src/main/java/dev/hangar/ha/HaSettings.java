package dev.hangar.ha;

import dev.hangar.spi.config.AddressRanges;
import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.net.InetSocketAddress;

/** The ha* keys this provider reads, parsed once; {@code allowedSlaves} empty lets any address connect. */
record HaSettings(String listenHost, int listenPort, String masterAddress, long heartbeatMillis,
                  long housekeepingMillis, int transferBatchSize, long slaveFallBehindMax, long syncTimeoutMillis,
                  AddressRanges allowedSlaves) {

    static HaSettings from(StoreConfig c) {
        return new HaSettings(c.get(StoreConfigKeys.HA_LISTEN_HOST), c.get(StoreConfigKeys.HA_LISTEN_PORT),
                c.get(StoreConfigKeys.HA_MASTER_ADDRESS), c.get(StoreConfigKeys.HA_SEND_HEARTBEAT_INTERVAL),
                c.get(StoreConfigKeys.HA_HOUSEKEEPING_INTERVAL), c.get(StoreConfigKeys.HA_TRANSFER_BATCH_SIZE),
                c.get(StoreConfigKeys.HA_SLAVE_FALLBEHIND_MAX), c.get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT),
                AddressRanges.parse(c.get(StoreConfigKeys.HA_ALLOWED_SLAVES)));
    }

    /** The master's address, unresolved until connecting (a name may resolve differently later). */
    InetSocketAddress master() {
        int colon = masterAddress.lastIndexOf(':');
        if (colon <= 0) {
            throw new ConfigException("bad value for haMasterAddress: '" + masterAddress + "' (allowed: host:port)");
        }
        try {
            int port = Integer.parseInt(masterAddress.substring(colon + 1));
            String host = masterAddress.substring(0, colon).replace("[", "").replace("]", "");
            return InetSocketAddress.createUnresolved(host, port);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("bad value for haMasterAddress: '" + masterAddress + "' (allowed: host:port with "
                    + "a port 0..65535)");
        }
    }
}
