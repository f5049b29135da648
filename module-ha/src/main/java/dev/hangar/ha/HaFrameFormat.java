package dev.hangar.ha;

import java.nio.ByteBuffer;

/**
 * The two messages of RocketMQ 4.x's HA protocol, big-endian, no other framing.
 *
 * <pre>
 * slave -> master, a report (on connect, every haSendHeartbeatInterval, after each append):
 *   0               8
 *   +---------------+
 *   | maxPhyOffset  |   long: one past the slave's last CommitLog byte; also its acknowledgement
 *   +---------------+
 *
 * master -> slave, a frame (data, or a heartbeat with bodySize 0):
 *   0               8          12
 *   +---------------+----------+---------------------------+
 *   | phyOffset     | bodySize | body: CommitLog bytes      |
 *   +---------------+----------+---------------------------+
 *   phyOffset: CommitLog offset of the body's first byte (for a heartbeat: the next offset to be sent)
 *   bodySize:  int, 0..haTransferBatchSize; the body never crosses a CommitLog file boundary
 * </pre>
 */
final class HaFrameFormat {
    static final int REPORT_SIZE = 8;
    static final int PHY_OFFSET_AT = 0;
    static final int BODY_SIZE_AT = 8;
    static final int HEADER_SIZE = 12;

    private HaFrameFormat() {
    }

    static void putHeader(ByteBuffer header, long phyOffset, int bodySize) {
        header.clear();
        header.putLong(PHY_OFFSET_AT, phyOffset).putInt(BODY_SIZE_AT, bodySize);
        header.limit(HEADER_SIZE);
    }

    static long phyOffset(byte[] header) {
        return ByteBuffer.wrap(header).getLong(PHY_OFFSET_AT);
    }

    static int bodySize(byte[] header) {
        return ByteBuffer.wrap(header).getInt(BODY_SIZE_AT);
    }

    static byte[] report(long maxPhyOffset) {
        return ByteBuffer.allocate(REPORT_SIZE).putLong(0, maxPhyOffset).array();
    }
}
