package dev.hangar.compat.ha;

import dev.hangar.compat.support.CommitLogFiles;
import dev.hangar.compat.support.RocketSide;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/** RocketMQ 4.9.8 stores in a replication role, and byte comparisons of two commit logs. */
final class HaPeers {
    static final String HEARTBEAT_MILLIS = "200";

    private HaPeers() {
    }

    /** RocketMQ's HA service binds haListenPort as given (0 is not reported back), so pick a free one first. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static MessageStoreConfig rocketConfig(Path dir, BrokerRole role, int haPort) {
        MessageStoreConfig c = RocketSide.config(dir);
        c.setBrokerRole(role);
        c.setHaListenPort(haPort);
        c.setHaSendHeartbeatInterval(Integer.parseInt(HEARTBEAT_MILLIS));
        return c;
    }

    /** The commit-log files of both stores that hold bytes in [from, end) are byte-identical there. */
    static String differences(Path a, Path b, long from, long end, int fileSize) {
        StringBuilder out = new StringBuilder();
        for (long start = from - from % fileSize; start < end; start += fileSize) {
            String name = String.format("%020d", start);
            byte[] x = CommitLogFiles.read(a.resolve("commitlog").resolve(name));
            byte[] y = CommitLogFiles.read(b.resolve("commitlog").resolve(name));
            int lo = (int) Math.max(0, from - start);
            int hi = (int) Math.min(fileSize, end - start);
            if (x == null || y == null || x.length < hi || y.length < hi
                    || !Arrays.equals(x, lo, hi, y, lo, hi)) {
                out.append("commit-log file ").append(name).append(" differs in [").append(lo).append(", ")
                        .append(hi).append(")\n");
            }
        }
        return out.toString();
    }

    static List<CommitLogFiles.Entry> recordsFrom(Path root, long from) {
        return CommitLogFiles.records(root).stream().filter(e -> e.offset() >= from).toList();
    }
}
