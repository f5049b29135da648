package dev.hangar.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * The Raft replication benchmark: three Hangar nodes ({@code haService=raft}) against three RocketMQ 4.9.8 nodes on
 * their DLedger CommitLog ({@code enableDLegerCommitLog=true}, DLedger 0.3.1.2 at its defaults), each node a JVM of
 * its own ({@link RaftNode}) on loopback, 1 KiB messages, the load generated inside the leader's JVM.
 *
 * <pre>
 *   bench/run.sh --raft [--rounds N] [--messages N] [--closed-messages N] [--warmup N] [--closed-warmup N]
 *                       [--engines hangar,dledger] [--ack MAJORITY|ALL]
 *                       [--dir DIR] [--out FILE] [--docs FILE]
 * </pre>
 * Each round starts a fresh group per engine, in an order shuffled per round (seeded, so a run repeats it), and
 * measures: put throughput with 4 threads x 256 puts in flight and with 16 closed-loop threads (after an unrecorded
 * warm-up); CPU time and storage writes of every node over each row, from /proc; the logs' size on disk; then the
 * failover time: a writer in every node's JVM puts every 10 ms while its node is leader, the leader is killed with
 * kill -9, and the time runs from the kill to the first acknowledged put on the new leader. {@code --docs} writes
 * only the "Raft replication" section of that file; the full report (every round) goes to {@code --out}.
 */
public final class RaftBench {
    static final String HANGAR = "hangar";
    static final String DLEDGER = "dledger";
    static final String SECTION = "Raft replication";
    private static final int FILE_SIZE = 256 * 1024 * 1024;
    private static final int MESSAGE_SIZE = 1024;
    private static final long ORDER_SEED = 20261204L;
    private static final long WRITER_INTERVAL_MILLIS = 10;
    private static final long FAILOVER_TIMEOUT_SECONDS = 60;
    private static final long IDLE_SECONDS = 3;

    private RaftBench() {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        String loadBefore = RaftReport.loadAverage();
        Machine machine = Machine.describe();
        List<RaftReport.Round> rounds = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Random order = new Random(ORDER_SEED);
        for (int round = 1; round <= o.rounds; round++) {
            List<String> engines = new ArrayList<>(o.engines);
            Collections.shuffle(engines, order);
            for (String engine : engines) {
                System.err.printf("round %d of %d: %s%n", round, o.rounds, engine);
                try {
                    RaftReport.Round r = runRound(o, engine, round);
                    System.err.println("  " + r.summary());
                    rounds.add(r);
                } catch (IllegalStateException e) {
                    // a group that cannot go on (no leader, no majority caught up) fails its round, not the run
                    String why = e.getMessage() + (e.getCause() == null ? "" : ": " + e.getCause().getMessage());
                    System.err.println("  " + why);
                    failed.add(String.format("round %d, %s: %s", round, engine, why));
                }
            }
        }
        RaftReport report = new RaftReport(rounds, failed, o.engines, o.messages, o.closedMessages, o.warmup, o.closedWarmup,
                o.ack,
                machine, loadBefore, RaftReport.loadAverage());
        Files.createDirectories(o.out.toAbsolutePath().getParent());
        Files.writeString(o.out, report.fullReport());
        System.err.println("wrote " + o.out);
        if (o.docs != null) {
            Files.writeString(o.docs, BenchmarksSection.replace(Files.exists(o.docs) ? Files.readString(o.docs) : "",
                    SECTION, report.section()));
            System.err.println("wrote the \"" + SECTION + "\" section of " + o.docs);
        }
        System.out.println(report.section());
    }

    private static RaftReport.Round runRound(Options o, String engine, int round) throws Exception {
        Path dir = Files.createTempDirectory(o.dir, "raft-bench-" + engine + "-");
        boolean keep = false;
        long start = System.nanoTime();
        try (RaftCluster cluster = new RaftCluster(engine, dir, FILE_SIZE, MESSAGE_SIZE, o.ack, childJvmOptions())) {
            long started = System.nanoTime();
            RaftCluster.Node leader = cluster.awaitReadyLeader(120);
            double electedSeconds = (System.nanoTime() - started) / 1e9;
            // both row shapes warm up: a fresh node JVM spends its first minute compiling (Ratis, gRPC, Netty, the
            // store); with 5,000 in-flight puts only, the C2 threads still took ~40 % of the CPU in the closed-loop
            // row (docs/PERFORMANCE.md 54), which measured the JIT and not the engine
            leader.call("load " + o.warmup + " 4 256", "LOADED", 600);
            List<String> notes = new ArrayList<>();
            long warmedUp = o.warmup + warmUpUntilTheJitSettles(cluster, leader, o.closedWarmup, notes);
            RaftReport.Idle idle = idle(cluster, leader, notes);
            RaftReport.Row inFlight = row(cluster, leader, o.messages, 4, 256, notes);
            RaftReport.Row closed = row(cluster, leader, o.closedMessages, 16, 1, notes);
            RaftReport.Disk disk = disk(cluster, leader, notes,
                    warmedUp + o.messages + o.closedMessages - inFlight.failed() - closed.failed());
            RaftReport.Failover failover = failover(cluster, leader, notes);
            return new RaftReport.Round(engine, round, electedSeconds, idle, inFlight, closed, disk, failover,
                    (System.nanoTime() - start) / 1e9, notes);
        } catch (RuntimeException e) {
            keep = true;
            throw new IllegalStateException(engine + " round " + round + " failed; its node logs are in " + dir, e);
        } finally {
            // -Dbench.keepDirs=true (in BENCH_JAVA_OPTS) keeps every round's node logs for a diagnosis
            if (!keep && !Boolean.getBoolean("bench.keepDirs")) {
                deleteQuietly(dir);
            }
        }
    }

    /** A closed-loop warm-up run in which the nodes compiled for less than this share of their time ends it. */
    static final double WARMUP_SETTLED_COMPILE_SHARE = HaBench.WARMUP_SETTLED_COMPILE_SHARE;
    /** At most this many warm-up runs ({@code -Dbench.raftWarmupMaxRuns=N} in BENCH_JAVA_OPTS for another count). */
    static final int WARMUP_MAX_RUNS = Integer.getInteger("bench.raftWarmupMaxRuns", 15);

    /**
     * Closed-loop warm-up runs of {@code messages} until the group's JIT has settled: a run in which the three node
     * JVMs together compiled for less than {@link #WARMUP_SETTLED_COMPILE_SHARE} of their wall time (all compiler
     * threads, {@code CompilationMXBean}), at most {@link #WARMUP_MAX_RUNS}. On 2 cores C2 shares the CPUs with the
     * load and took minutes to finish; a fixed warm-up left both engines' closed-loop rows measuring it. Returns the
     * puts it made.
     */
    private static long warmUpUntilTheJitSettles(RaftCluster cluster, RaftCluster.Node leader, int messages,
                                                 List<String> notes) {
        for (int run = 1; run <= WARMUP_MAX_RUNS; run++) {
            long compiledBefore = compiledMillis(cluster);
            long from = System.nanoTime();
            leader.call("load " + messages + " 16 1", "LOADED", 600);
            double wallMillis = (System.nanoTime() - from) / 1e6 * cluster.nodes().size();
            double share = (compiledMillis(cluster) - compiledBefore) / wallMillis;
            System.err.printf("  warm-up %d: the nodes compiled for %.0f %% of their time%n", run, share * 100);
            if (share < WARMUP_SETTLED_COMPILE_SHARE) {
                notes.add(String.format(java.util.Locale.ROOT, "JIT settled after %d closed-loop warm-up runs of %d",
                        run, messages));
                return (long) run * messages;
            }
        }
        String note = "the JIT still compiled after " + WARMUP_MAX_RUNS + " closed-loop warm-up runs of " + messages;
        System.err.println("  " + note + "; recording anyway");
        notes.add(note);
        return (long) WARMUP_MAX_RUNS * messages;
    }

    private static long compiledMillis(RaftCluster cluster) {
        long sum = 0;
        for (RaftCluster.Node n : cluster.nodes()) {
            String reply = n.call("jit", "JIT", 30);
            sum += Long.parseLong(reply.substring(reply.indexOf(' ') + 1).trim());
        }
        return sum;
    }

    /** Waits for the followers; one still behind after 60 s is noted and the round goes on with the majority. */
    private static void caughtUp(RaftCluster cluster, RaftCluster.Node leader, String when, List<String> notes) {
        List<String> behind = cluster.awaitCaughtUp(leader, 60, 180);
        if (!behind.isEmpty()) {
            String note = "follower " + String.join(", ", behind) + " still behind the leader 60 s " + when
                    + " (the group went on with its majority)";
            System.err.println("  " + note);
            notes.add(note);
        }
    }

    /**
     * What each node's process burns with no puts, over {@link #IDLE_SECONDS}: heartbeats, pollers, timers. It is in
     * every row's CPU per message too, so a slow row (the closed-loop one) carries more of it per message.
     */
    private static RaftReport.Idle idle(RaftCluster cluster, RaftCluster.Node leader, List<String> notes) {
        caughtUp(cluster, leader, "before the idle measure", notes);
        List<RaftCluster.Node> nodes = cluster.nodes();
        ProcStats[] before = nodes.stream().map(RaftCluster.Node::stats).toArray(ProcStats[]::new);
        long from = System.nanoTime();
        LockSupport.parkNanos(IDLE_SECONDS * 1_000_000_000L);
        double seconds = (System.nanoTime() - from) / 1e9;
        double follower = 0;
        double leaderCores = 0;
        for (int i = 0; i < nodes.size(); i++) {
            double cores = nodes.get(i).stats().minus(before[i]).cpuNanos() / 1e9 / seconds;
            if (nodes.get(i) == leader) {
                leaderCores = cores;
            } else {
                follower += cores / (nodes.size() - 1);
            }
        }
        return new RaftReport.Idle(leaderCores, follower);
    }

    /** One throughput row on the leader, with what each node's process used over it. */
    private static RaftReport.Row row(RaftCluster cluster, RaftCluster.Node leader, int messages, int threads,
                                      int inFlight, List<String> notes) {
        caughtUp(cluster, leader, "before the " + threads + " x " + inFlight + " row", notes);
        List<RaftCluster.Node> nodes = cluster.nodes();
        ProcStats[] before = nodes.stream().map(RaftCluster.Node::stats).toArray(ProcStats[]::new);
        String[] loaded = leader.call("load " + messages + " " + threads + " " + inFlight, "LOADED", 600).split(" ");
        // the followers' work for this row ends when they hold its last byte
        caughtUp(cluster, leader, "after the " + threads + " x " + inFlight + " row", notes);
        List<ProcStats> used = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            used.add(nodes.get(i).stats().minus(before[i]));
        }
        int leaderIndex = nodes.indexOf(leader);
        return new RaftReport.Row(threads, inFlight, messages, Long.parseLong(loaded[1]) / 1e9,
                Long.parseLong(loaded[2]), Long.parseLong(loaded[3]), Long.parseLong(loaded[4]),
                Long.parseLong(loaded[5]), used, leaderIndex);
    }

    /** The logs' blocks on disk on every node, after {@code messages} acknowledged puts (and the writer's none yet). */
    private static RaftReport.Disk disk(RaftCluster cluster, RaftCluster.Node leader, List<String> notes,
                                        long messages) {
        caughtUp(cluster, leader, "before the disk sizes", notes);
        List<Long> logEnd = new ArrayList<>();
        List<Long> messageLog = new ArrayList<>();
        List<Long> raftLog = new ArrayList<>();
        for (RaftCluster.Node n : cluster.nodes()) {
            logEnd.add(Long.parseLong(n.status()[3]));
            String[] dirs = n.call("dirs", "DIRS", 30).split(" ");
            messageLog.add(DiskUsage.of(Path.of(dirs[1])));
            raftLog.add(Files.exists(Path.of(dirs[2])) ? DiskUsage.of(Path.of(dirs[2])) : 0L);
        }
        return new RaftReport.Disk(messages, logEnd, messageLog, raftLog, cluster.nodes().indexOf(leader));
    }

    /**
     * Every node runs the writer; once the leader has acknowledged a second's puts, kill -9 of the leader, then the
     * time until the first put another node acknowledges. The node killed is the one that leads then: a group that
     * elected again during the round (a pause on this host) is noted.
     */
    private static RaftReport.Failover failover(RaftCluster cluster, RaftCluster.Node firstLeader,
                                                List<String> notes) throws InterruptedException {
        for (RaftCluster.Node n : cluster.nodes()) {
            n.call("writer " + WRITER_INTERVAL_MILLIS, "WRITING", 30);
        }
        RaftCluster.Node leader = cluster.awaitReadyLeader(60);
        if (leader != firstLeader) {
            notes.add("leadership moved from " + firstLeader.id + " to " + leader.id + " during the round");
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (leader.ackCount() < 100) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(cluster.engine() + " leader acknowledged only " + leader.ackCount()
                        + " writer puts in 60 s");
            }
            LockSupport.parkNanos(10_000_000);
        }
        long killed = cluster.kill(leader);
        // wall-clock time, to read beside the node logs (-Dbench.keepDirs=true keeps them)
        System.err.println("  killed " + leader.id + " at " + java.time.LocalTime.now());
        long ackDeadline = killed + FAILOVER_TIMEOUT_SECONDS * 1_000_000_000L;
        while (System.nanoTime() < ackDeadline) {
            for (RaftCluster.Node n : cluster.alive()) {
                long first = n.firstAckAfter(killed);
                if (first > 0) {
                    return new RaftReport.Failover((first - killed) / 1e6, leader.id, n.id);
                }
            }
            LockSupport.parkNanos(5_000_000);
        }
        return new RaftReport.Failover(Double.NaN, leader.id, "none");
    }

    /**
     * The node JVMs: the opens bench/run.sh gives the bench JVM, a heap of their own, no TLS on DLedger's port;
     * {@code -Dbench.raftNodeJavaOpts="..."} adds options (separated by spaces or by '|').
     */
    static List<String> childJvmOptions() {
        // no AlwaysPreTouch: six node JVMs faulting their heaps in took most of a minute per round on this host
        List<String> opts = new ArrayList<>(List.of("-Xms512m", "-Xmx512m", "-XX:MaxDirectMemorySize=512m",
                "--add-opens", "java.base/java.nio=ALL-UNNAMED",
                "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
                "--add-opens", "java.base/java.io=ALL-UNNAMED",
                "--add-opens", "java.base/java.util=ALL-UNNAMED",
                "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
                // RocketMQ's remoting (DLedger's transport) otherwise tries permissive TLS, which fails on JDK 17
                // after ~1.6 s of trying to make a self-signed certificate (reference/rocketmq-store-facts.md s. 7)
                "-Dtls.server.mode=disabled",
                "-Dio.netty.leakDetection.level=disabled"));
        if (Runtime.getRuntime().availableProcessors() <= 2) {
            // as bin/store-launcher sets it on such a machine (StoreLauncher.sizeTheAsyncPool), for both engines:
            // otherwise every CompletableFuture async step without an executor starts a thread of its own
            opts.add("-Djava.util.concurrent.ForkJoinPool.common.parallelism=2");
        }
        for (String p : List.of("bench.hangar.set", "hangar.home")) {
            String v = System.getProperty(p);
            if (v != null) {
                opts.add("-D" + p + "=" + v);
            }
        }
        String extra = System.getProperty("bench.raftNodeJavaOpts");
        if (extra != null && !extra.isBlank()) {
            // separated by spaces, or by '|' where BENCH_JAVA_OPTS (itself split at spaces) carries several
            opts.addAll(List.of(extra.trim().split("[\\s|]+")));
        }
        return opts;
    }

    private static void deleteQuietly(Path dir) {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }

    /** The command line. */
    record Options(int rounds, int messages, int closedMessages, int warmup, int closedWarmup, List<String> engines,
                   String ack, Path dir, Path out, Path docs) {
        static Options parse(String[] args) {
            int rounds = 5;
            int messages = 20_000;
            int closedMessages = 3_000;
            int warmup = 20_000;
            int closedWarmup = 2_000;
            List<String> engines = List.of(HANGAR, DLEDGER);
            String ack = "MAJORITY";
            Path dir = Path.of(System.getProperty("java.io.tmpdir"));
            Path out = Path.of("bench/target/RAFT-BENCH.md");
            Path docs = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                    case "--messages" -> messages = Integer.parseInt(args[++i]);
                    case "--closed-messages" -> closedMessages = Integer.parseInt(args[++i]);
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--closed-warmup" -> closedWarmup = Integer.parseInt(args[++i]);
                    case "--engines" -> engines = List.of(args[++i].split(","));
                    case "--ack" -> ack = args[++i];
                    case "--dir" -> dir = Path.of(args[++i]);
                    case "--out" -> out = Path.of(args[++i]);
                    case "--docs" -> docs = Path.of(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i] + " (options: --rounds N"
                            + " --messages N --closed-messages N --warmup N --closed-warmup N --engines hangar,dledger"
                            + " --ack MAJORITY|ALL --dir DIR"
                            + " --out FILE --docs FILE)");
                }
            }
            for (String e : engines) {
                if (!e.equals(HANGAR) && !e.equals(DLEDGER)) {
                    throw new IllegalArgumentException("unknown engine " + e + " (hangar, dledger)");
                }
            }
            if (rounds < 1 || messages < 1 || closedMessages < 1 || warmup < 1
                    || closedWarmup < 1) {
                throw new IllegalArgumentException("--rounds, --messages, --closed-messages, --warmup and --closed-warmup"
                        + " must be at least 1");
            }
            return new Options(rounds, messages, closedMessages, warmup, closedWarmup, engines, ack, dir, out, docs);
        }
    }
}
