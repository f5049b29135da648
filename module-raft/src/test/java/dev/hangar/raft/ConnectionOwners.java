package dev.hangar.raft;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Which of the test's child processes opened a loopback TCP connection, found through Linux' /proc: the client's
 * port names a line of /proc/net/tcp (or tcp6) whose local port it is and whose remote port is the one it
 * connected to; that line names the socket's inode; the process holding that inode has a
 * {@code /proc/PID/fd/N -> socket:[inode]} link. Raft peers share one address each (raft.peers), so this is the only
 * way a relay in front of a node can tell the leader's outgoing connections from the others'.
 */
final class ConnectionOwners {
    private final Map<String, Long> pids = new ConcurrentHashMap<>();

    /**
     * Fails (never skips) unless /proc shows this machine's TCP sockets and the file descriptors of {@code pid}: the
     * partition test cannot cut anything without them.
     */
    static void requireProc(long pid) {
        try {
            if (!Files.isReadable(Path.of("/proc/net/tcp")) || Files.readAllLines(Path.of("/proc/net/tcp")).isEmpty()) {
                throw new AssertionError("/proc/net/tcp is not readable here: the partition relay needs Linux' /proc "
                        + "to tell which node opened a connection");
            }
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
                if (fds.findAny().isEmpty()) {
                    throw new AssertionError("/proc/" + pid + "/fd is empty: cannot see a child's sockets");
                }
            }
        } catch (IOException e) {
            throw new AssertionError("the partition relay needs Linux' /proc (net/tcp and PID/fd): " + e, e);
        }
    }

    void register(String node, long pid) {
        pids.put(node, pid);
    }

    /**
     * The node whose process holds the client end of the connection from {@code clientPort} to {@code serverPort} on
     * loopback, or null when no registered process holds it (gone already, or not one of ours).
     */
    String ownerOf(int clientPort, int serverPort) throws IOException {
        long inode = inode(clientPort, serverPort);
        if (inode <= 0) {
            return null;
        }
        String link = "socket:[" + inode + "]";
        for (Map.Entry<String, Long> e : pids.entrySet()) {
            if (holds(e.getValue(), link)) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The inode of the socket on local port {@code clientPort} connected to remote port {@code serverPort}. */
    private static long inode(int clientPort, int serverPort) throws IOException {
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(table);
            if (!Files.exists(p)) {
                continue;
            }
            List<String> lines = Files.readAllLines(p);
            // columns: sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && port(f[1]) == clientPort && port(f[2]) == serverPort) {
                    return Long.parseLong(f[9]);
                }
            }
        }
        return -1;
    }

    /** The port of a /proc/net/tcp address ({@code 0100007F:1F90}, or 32 hex digits and the port for tcp6). */
    private static int port(String address) {
        return Integer.parseInt(address.substring(address.indexOf(':') + 1), 16);
    }

    private static boolean holds(long pid, String link) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (link.equals(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException e) {
                    // closed while we looked: not the one we seek
                }
            }
            return false;
        } catch (java.nio.file.NoSuchFileException e) {
            return false; // the process is gone
        }
    }
}
