package dev.hangar.raft;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay in front of one Raft node for the partition test: the others reach the node at the relay's port (its
 * address in raft.peers) and the relay forwards each connection to the port the node binds (raft.listen). Each
 * connection is attributed to the process that opened it ({@link ConnectionOwners}), so a {@link Partition} can cut
 * one node off both ways: the relay closes the connections that cross the cut and refuses new ones until healed.
 */
final class TcpRelay implements AutoCloseable {
    /** Which nodes are cut off from the rest; shared by every relay of a group. */
    static final class Partition {
        private final Set<String> isolated = new HashSet<>();
        private final List<TcpRelay> relays = new CopyOnWriteArrayList<>();

        /** Cuts {@code node} off from every other node: the connections between them close at once. */
        void isolate(String node) {
            synchronized (this) {
                isolated.add(node);
            }
            relays.forEach(TcpRelay::closeForbidden);
        }

        synchronized void heal() {
            isolated.clear();
        }

        synchronized boolean allows(String from, String to) {
            return isolated.contains(from) == isolated.contains(to);
        }
    }

    private final String node;
    private final int targetPort;
    private final ConnectionOwners owners;
    private final Partition partition;
    private final ServerSocket server;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    /** What went wrong in the relay itself (an unreadable /proc, say): the test fails on any. */
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong unattributed = new AtomicLong();
    private volatile boolean closed;

    /** A relayed connection: from {@code owner}'s process to the node, and the relay's own one on to the node. */
    private record Link(String owner, Socket client, Socket upstream) {
        void close() {
            quietly(client);
            quietly(upstream);
        }
    }

    TcpRelay(String node, int port, int targetPort, ConnectionOwners owners, Partition partition) throws IOException {
        this.node = node;
        this.targetPort = targetPort;
        this.owners = owners;
        this.partition = partition;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        partition.relays.add(this);
        Thread acceptor = new Thread(this::acceptLoop, "relay-" + node);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    List<String> problems() {
        return problems;
    }

    /** Connections refused or closed because they crossed the cut. */
    long refused() {
        return refused.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    problems.add(node + " relay: accept failed: " + e);
                }
                return;
            }
            try {
                admit(client);
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    problems.add(node + " relay: cannot relay a connection from port " + client.getPort() + ": " + e);
                }
                quietly(client);
            }
        }
    }

    private void admit(Socket client) throws IOException {
        String owner = owners.ownerOf(client.getPort(), server.getLocalPort());
        for (int tries = 0; owner == null && tries < 20 && !client.isClosed(); tries++) {
            sleep(5); // a child that connects while the harness registers its pid
            owner = owners.ownerOf(client.getPort(), server.getLocalPort());
        }
        if (owner == null) {
            // the client closed before we looked (its socket is gone from /proc): nothing to relay
            unattributed.incrementAndGet();
            quietly(client);
            return;
        }
        if (!partition.allows(owner, node)) {
            refused.incrementAndGet();
            quietly(client);
            return;
        }
        Socket upstream;
        try {
            upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        } catch (java.net.ConnectException e) {
            quietly(client); // the node is not listening yet (or any more): as a direct connection would, refuse
            return;
        }
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        Link link = new Link(owner, client, upstream);
        links.add(link);
        pump(link, client, upstream, owner + "->" + node);
        pump(link, upstream, client, node + "->" + owner);
        // the partition may have changed while we connected: the same check as Partition.isolate's
        closeForbidden();
    }

    private void pump(Link link, Socket from, Socket to, String name) throws IOException {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // closed by the cut, the peer or close(): the other direction ends too
            } finally {
                links.remove(link);
                link.close();
            }
        }, "relay-" + name);
        t.setDaemon(true);
        t.start();
    }

    /** Closes every relayed connection that the partition no longer allows. */
    private void closeForbidden() {
        for (Link link : new ArrayList<>(links)) {
            if (!partition.allows(link.owner(), node)) {
                refused.incrementAndGet();
                links.remove(link);
                link.close();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        quietly(server);
        partition.relays.remove(this);
        for (Link link : links) {
            link.close();
        }
    }

    @Override
    public String toString() {
        return node + " relay: " + links.size() + " open, " + refused.get() + " refused, " + unattributed.get()
                + " unattributed, problems " + problems;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void quietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing: nothing to do
        }
    }
}
