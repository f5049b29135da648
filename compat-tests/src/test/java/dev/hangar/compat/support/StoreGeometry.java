package dev.hangar.compat.support;

import java.net.InetSocketAddress;

/**
 * The file sizes and settings both engines must share to read each other's directories: RocketMQ refuses a
 * CommitLog or ConsumeQueue file whose length differs from its configured size, and the index geometry is
 * part of the IndexFile layout.
 */
public final class StoreGeometry {
    /** Small CommitLog files, so a few hundred messages roll many files and leave BLANK records. */
    public static final int COMMIT_LOG_FILE_SIZE = 64 * 1024;
    /** 100 units of 20 bytes per ConsumeQueue file, so busy queues roll too. */
    public static final int CONSUME_QUEUE_FILE_SIZE = 100 * 20;
    /** Index geometry: 400 entries a file (399 keys), so a dataset fills several index files. */
    public static final int HASH_SLOTS = 500;
    public static final int INDEX_ENTRIES = 400;
    /** RocketMQ's default table; a message of level n waits on SCHEDULE_TOPIC_XXXX queue n-1. */
    public static final String DELAY_LEVELS = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h";
    /** Most messages one key query returns in both engines (RocketMQ's maxMsgsNumBatch). */
    public static final int MAX_QUERY = 64;

    public static final String IPV4_STORE_HOST = "127.0.0.1:10911";
    public static final String IPV6_STORE_HOST = "[2001:db8::5]:10911";

    private StoreGeometry() {
    }

    /** "host:port" or "[v6]:port" as an address (no name lookup: the hosts are literals). */
    public static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
        return new InetSocketAddress(host, Integer.parseInt(hostPort.substring(colon + 1)));
    }
}
