package dev.hangar.raft;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One raft node in a child process ({@link RaftNodeChild}) for the process tests ({@link RaftFailoverTest},
 * {@link RaftPartitionTest}): started, signalled, killed and asked to pause or dump through its stdin; and what the
 * children write beside their stores ({@code <id>.status}, {@code <id>.acks}) read back.
 */
final class RaftChildProcess {
    static final int QUEUES = 4;
    static final int WRITERS = 4;

    final Path base;
    final String peers;
    final String id;
    final String provider;
    /** More store settings, {@code key=value}, given to the child as arguments. */
    final List<String> settings;
    /** Called with the child's process as soon as it exists, before it has started its store. */
    java.util.function.Consumer<Process> onLaunch = p -> { };
    Process process;
    PrintWriter in;
    /** Every line the child prints, read on a thread of its own: a full pipe would block the child's loggers. */
    java.util.concurrent.BlockingQueue<String> lines;

    RaftChildProcess(Path base, String peers, String id, String provider, String... settings) {
        this.base = base;
        this.peers = peers;
        this.id = id;
        this.provider = provider;
        this.settings = List.of(settings);
    }

    /** Starts the child and waits until its store has started. */
    void start() throws IOException {
        launch();
        awaitStarted();
    }

    /** Starts the child without waiting for its store (several children start at once this way). */
    void launch() throws IOException {
        try {
            Files.deleteIfExists(base.resolve(id + ".status"));
        } catch (IOException e) {
            // a stale status is overwritten within 50 ms
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-Dtinylog.writer.stream=err", "-cp",
                System.getProperty("java.class.path"), RaftNodeChild.class.getName(), base.resolve(id).toString(),
                peers, id, provider, Integer.toString(WRITERS), Integer.toString(QUEUES)));
        command.addAll(settings);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(base.resolve(id + ".log").toFile());
        process = pb.start();
        onLaunch.accept(process);
        in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        java.util.concurrent.BlockingQueue<String> queue = new java.util.concurrent.LinkedBlockingQueue<>();
        lines = queue;
        Thread reader = new Thread(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    queue.add(line);
                }
            } catch (IOException e) {
                // the child is gone
            }
            queue.add("EOF");
        }, id + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    void awaitStarted() throws IOException {
        expect("STARTED");
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    void kill() throws InterruptedException {
        process.destroyForcibly(); // SIGKILL
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}) to the child. */
    void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** Sends {@code command} and returns the child's answer: its first line that starts with {@code answer}. */
    String send(String command, String answer) throws IOException {
        in.println(command);
        return expect(answer);
    }

    private String expect(String prefix) throws IOException {
        while (true) {
            String line;
            try {
                line = lines.poll(180, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new AssertionError(id + ": interrupted waiting for " + prefix);
            }
            if (line == null || line.equals("EOF")) {
                throw new AssertionError(id + (line == null ? " did not answer " : " exited before answering ")
                        + prefix + "; see " + base.resolve(id + ".log"));
            }
            if (line.startsWith(prefix)) {
                return line;
            }
            if (line.startsWith("DUMP-TIMEOUT")) {
                throw new AssertionError(id + ": " + line);
            }
        }
    }

    void stop() {
        if (alive()) {
            in.println("stop");
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
            }
        }
    }

    /**
     * Stops every node's writers and returns the highest committed offset they answer with: once the leader's puts
     * are all answered, its committed offset covers every acknowledged put (the status files may lag by 50 ms).
     */
    static long pauseAll(RaftChildProcess[] nodes) throws IOException {
        long committed = -1;
        for (RaftChildProcess n : nodes) {
            String answer = n.send("pause", "PAUSED");
            committed = Math.max(committed, Long.parseLong(answer.substring("PAUSED ".length()).trim()));
        }
        return committed;
    }

    /** The acknowledged puts the children of {@code base} (n0..n2) have recorded so far. */
    static long ackLines(Path base) {
        long n = 0;
        for (int i = 0; i < 3; i++) {
            Path f = base.resolve("n" + i + ".acks");
            try {
                if (Files.exists(f)) {
                    n += Files.readAllLines(f).size();
                }
            } catch (IOException e) {
                // being written: counted next time
            }
        }
        return n;
    }

    /** A child's view ({@code <id>.status}); {@code maxOffset}: the end of its CommitLog, committed or not. */
    record Status(String role, boolean ready, long term, long committed, long maxOffset) {
    }

    static Status status(Path base, String id) {
        try {
            String[] p = Files.readString(base.resolve(id + ".status")).trim().split(" ");
            return new Status(p[0], Boolean.parseBoolean(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]),
                    Long.parseLong(p[4]));
        } catch (IOException | RuntimeException e) {
            return new Status("UNKNOWN", false, -1, -1, -1);
        }
    }

    /** The index of a live node that leads and takes puts, other than {@code not}. */
    static int awaitLeader(Path base, RaftChildProcess[] nodes, int not) {
        int[] found = {-1};
        try {
            awaitLeaderOnce(base, nodes, not, found);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + explain(base, nodes));
        }
        return found[0];
    }

    /** Each node's liveness, status and the tail of its log, and where the whole log is: for a failure's message. */
    static String explain(Path base, RaftChildProcess[] nodes) {
        StringBuilder why = new StringBuilder();
        for (RaftChildProcess n : nodes) {
            if (n == null) {
                continue;
            }
            why.append("\n").append(n.id).append(": alive ").append(n.alive()).append(", ")
                    .append(status(base, n.id)).append(", log ").append(base.resolve(n.id + ".log"))
                    .append(", its tail:\n").append(tail(base.resolve(n.id + ".log")));
        }
        return why.toString();
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static void awaitLeaderOnce(Path base, RaftChildProcess[] nodes, int not, int[] found) {
        RaftStores.await("a ready leader", () -> {
            for (int i = 0; i < nodes.length; i++) {
                if (i != not && nodes[i].alive() && status(base, nodes[i].id).ready()) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        });
    }
}
