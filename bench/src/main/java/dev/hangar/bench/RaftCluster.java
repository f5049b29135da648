package dev.hangar.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Three {@link RaftNode} JVMs of one engine on loopback, started by the parent ({@link RaftBench}): commands to a
 * node and its reply, a kill -9, and what /proc says each node used. Each node's stderr goes to node-ID.log in the
 * cluster's directory.
 */
final class RaftCluster implements AutoCloseable {
    static final int NODES = 3;
    private final String engine;
    private final List<Node> nodes = new ArrayList<>();

    /** One node: its process, the replies it printed, and the times of the writer's acknowledged puts. */
    static final class Node {
        final String id;
        final Process process;
        final long pid;
        private final Writer commands;
        private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
        private final List<Long> acks = new ArrayList<>();
        /** Set once the node's stdout ended: it printed everything it will. */
        private volatile boolean ended;

        Node(String id, Process process) {
            this.id = id;
            this.process = process;
            this.pid = process.pid();
            this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            Thread reader = new Thread(this::read, "raft-bench-read-" + id);
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (!line.startsWith(RaftNode.REPLY)) {
                        continue;
                    }
                    String reply = line.substring(RaftNode.REPLY.length());
                    if (reply.startsWith("ACK ")) {
                        synchronized (acks) {
                            acks.add(Long.parseLong(reply.substring(4)));
                        }
                    } else {
                        replies.add(reply);
                    }
                }
            } catch (IOException e) {
                // the node died: a command waiting for a reply sees it ended
            } finally {
                ended = true;
            }
        }

        /** Sends {@code command} and returns the node's reply, whose first word must be {@code expect}. */
        String call(String command, String expect, long timeoutSeconds) {
            try {
                commands.write(command + "\n");
                commands.flush();
                String reply = null;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
                // a node that died answers nothing: stop waiting once its output ended and is read
                while (reply == null && System.nanoTime() < deadline && (!ended || !replies.isEmpty())) {
                    reply = replies.poll(100, TimeUnit.MILLISECONDS);
                }
                if (reply == null || !reply.startsWith(expect + " ") && !reply.equals(expect)) {
                    throw new IllegalStateException("node " + id + " answered \"" + command + "\" with " + reply
                            + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
                }
                return reply;
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("node " + id + " did not take \"" + command + "\": " + e, e);
            }
        }

        /** The earliest acknowledgement after {@code nanos}, or -1. */
        long firstAckAfter(long nanos) {
            synchronized (acks) {
                return acks.stream().filter(t -> t > nanos).mapToLong(Long::longValue).min().orElse(-1);
            }
        }

        int ackCount() {
            synchronized (acks) {
                return acks.size();
            }
        }

        /** {leader, ready, maxOffset}. */
        String[] status() {
            return call("status", "STATUS", 30).split(" ");
        }

        ProcStats stats() {
            return ProcStats.of(pid);
        }
    }

    RaftCluster(String engine, Path dir, int fileSize, int messageSize, String ack, List<String> jvmOptions)
            throws IOException {
        this.engine = engine;
        StringBuilder peers = new StringBuilder();
        for (int i = 0; i < NODES; i++) {
            peers.append(i == 0 ? "" : ",").append("n").append(i).append("@127.0.0.1:").append(freePort());
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try {
            for (int i = 0; i < NODES; i++) {
                String id = "n" + i;
                Path nodeDir = Files.createDirectories(dir.resolve(id));
                List<String> cmd = new ArrayList<>(List.of(java));
                cmd.addAll(jvmOptions);
                cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), RaftNode.class.getName(), engine,
                        nodeDir.resolve("store").toString(), id, peers.toString(), Integer.toString(fileSize),
                        Integer.toString(messageSize), ack));
                Process p = new ProcessBuilder(cmd).redirectError(dir.resolve(id + ".log").toFile()).start();
                nodes.add(new Node(id, p));
            }
            for (Node n : nodes) {
                n.call("", "READY", 120); // an empty line: the node ignores it and its first reply is READY
            }
        } catch (RuntimeException e) {
            close();
            throw new IllegalStateException(engine + " nodes did not start (see the n*.log files in " + dir
                    + "): " + e.getMessage(), e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    String engine() {
        return engine;
    }

    List<Node> nodes() {
        return nodes;
    }

    List<Node> alive() {
        return nodes.stream().filter(n -> n.process.isAlive()).toList();
    }

    /** Waits until one live node is a leader that takes puts; returns it. */
    Node awaitReadyLeader(long timeoutSeconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            for (Node n : alive()) {
                if (Boolean.parseBoolean(n.status()[2])) {
                    return n;
                }
            }
            LockSupport.parkNanos(20_000_000);
        }
        throw new IllegalStateException("no " + engine + " leader took puts within " + timeoutSeconds + " s");
    }

    /**
     * Waits until every live node's CommitLog ends where the leader's does (replication has no backlog), for
     * {@code allSeconds}; then settles for a majority (the leader and enough followers) until {@code majoritySeconds}.
     * Returns the ids of the nodes still behind (empty when all caught up); a group that commits with a majority
     * goes on without the one behind, and the report says so.
     *
     * @throws IllegalStateException when not even a majority caught up
     */
    List<String> awaitCaughtUp(Node leader, long allSeconds, long majoritySeconds) {
        long start = System.nanoTime();
        while (true) {
            long end = Long.parseLong(leader.status()[3]);
            List<String> behind = alive().stream().filter(n -> Long.parseLong(n.status()[3]) < end)
                    .map(n -> n.id).toList();
            long waited = System.nanoTime() - start;
            if (behind.isEmpty()) {
                return behind;
            }
            if (waited > TimeUnit.SECONDS.toNanos(allSeconds) && NODES - behind.size() > NODES / 2) {
                return behind;
            }
            if (waited > TimeUnit.SECONDS.toNanos(majoritySeconds)) {
                throw new IllegalStateException(engine + " nodes " + behind + " did not catch up with the leader "
                        + leader.id + " within " + majoritySeconds + " s");
            }
            LockSupport.parkNanos(20_000_000);
        }
    }

    /** kill -9 of {@code n}; returns System.nanoTime() just before the signal. */
    long kill(Node n) throws InterruptedException {
        long at = System.nanoTime();
        n.process.destroyForcibly(); // SIGKILL on Linux
        if (!n.process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("node " + n.id + " outlived kill -9");
        }
        return at;
    }

    /**
     * Ends every node with kill -9: a group's files are thrown away after its round, and a graceful stop of three
     * stores (Ratis' and DLedger's shutdowns wait out timeouts) cost tens of seconds a round on this host.
     */
    @Override
    public void close() {
        for (Node n : nodes) {
            n.process.destroyForcibly();
        }
        for (Node n : nodes) {
            try {
                n.process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
