package dev.hangar.bench;

import dev.hangar.spi.flush.LatencyHistogram;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One Raft node of {@link RaftBench} in its own JVM (so that a kill -9 is real), driven by the parent over stdin and
 * stdout, one line each way. The load is generated here, in the node's JVM, because both engines' put APIs are
 * in-process store calls. Replies start with {@value #REPLY}; everything else the JVM prints goes to stderr.
 *
 * <pre>
 *   args: ENGINE DIR SELF_ID PEERS FILE_SIZE MESSAGE_SIZE ACK     (PEERS: n0@127.0.0.1:P0,n1@...,n2@...)
 *   status                          -> STATUS leader ready maxOffset
 *   load MESSAGES THREADS IN_FLIGHT -> LOADED nanos failed bytes p50Nanos p99Nanos  (IN_FLIGHT 1: closed loop)
 *   writer INTERVAL_MS              -> WRITING; starts a writer that puts every INTERVAL_MS while this node
 *                                      is leader and prints ACK nanoTime for each acknowledged put (System.nanoTime is
 *                                      CLOCK_MONOTONIC on Linux, the same clock in every JVM of the host)
 *   dirs                            -> DIRS messageLogDir raftLogDir
 *   jit                             -> JIT millis: this JVM's JIT compilers' total time so far
 *   quit                            -> BYE, then the JVM exits
 * </pre>
 */
public final class RaftNode {
    static final String REPLY = "@ ";
    /** Most writer puts unanswered at once: a leader that cannot commit must not pile up puts without end. */
    private static final int WRITER_MAX_PENDING = 200;
    private static PrintStream replies;

    private RaftNode() {
    }

    public static void main(String[] args) throws Exception {
        replies = System.out;
        System.setOut(System.err); // the stores' logs must never interleave with the protocol
        String engine = args[0];
        Path dir = Path.of(args[1]);
        String selfId = args[2];
        String peers = args[3];
        int fileSize = Integer.parseInt(args[4]);
        int messageSize = Integer.parseInt(args[5]);
        String ack = args[6];
        RaftNodeStore store = switch (engine) {
            case RaftBench.HANGAR -> new HangarRaftNodeStore(dir, peers, selfId, ack, fileSize, messageSize);
            case RaftBench.DLEDGER -> new DLedgerNodeStore(dir, dledgerPeers(peers), selfId, fileSize, messageSize);
            default -> throw new IllegalArgumentException("unknown engine " + engine);
        };
        reply("READY " + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue; // the parent's first call only waits for READY
            }
            String[] w = line.trim().split(" ");
            switch (w[0]) {
                case "status" -> reply("STATUS " + store.leader() + " " + store.ready() + " " + store.maxOffset());
                case "load" -> reply(load(store, Integer.parseInt(w[1]), Integer.parseInt(w[2]),
                        Integer.parseInt(w[3])));
                case "writer" -> {
                    startWriter(store, Long.parseLong(w[1]));
                    reply("WRITING");
                }
                case "dirs" -> reply("DIRS " + store.messageLogDir() + " " + store.raftLogDir());
                case "jit" -> reply("JIT " + java.lang.management.ManagementFactory.getCompilationMXBean()
                        .getTotalCompilationTime());
                case "quit" -> {
                    store.close();
                    reply("BYE");
                    Runtime.getRuntime().halt(0); // RocketMQ leaves non-daemon threads behind
                }
                default -> reply("ERROR unknown command " + line);
            }
        }
        Runtime.getRuntime().halt(1); // the parent is gone
    }

    /** {@code n0@host:port,...} in DLedger's form {@code n0-host:port;...}. */
    static String dledgerPeers(String peers) {
        return peers.replace('@', '-').replace(',', ';');
    }

    private static void reply(String line) {
        synchronized (replies) {
            replies.println(REPLY + line);
            replies.flush();
        }
    }

    /** Runs {@code messages} puts from {@code threads} threads, each keeping {@code inFlight} puts unanswered. */
    private static String load(RaftNodeStore store, int messages, int threads, int inFlight) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicLong failed = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        LatencyHistogram latency = new LatencyHistogram();
        List<Thread> workers = new ArrayList<>();
        long begin = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> work(store, messages, inFlight, next, failed, bytes, latency),
                    "raft-bench-put-" + t);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        long nanos = System.nanoTime() - begin;
        synchronized (latency) {
            return "LOADED " + nanos + " " + failed.get() + " " + bytes.get() + " " + latency.percentile(0.5) + " "
                    + latency.percentile(0.99);
        }
    }

    private static void work(RaftNodeStore store, int messages, int inFlight, AtomicInteger next, AtomicLong failed,
                             AtomicLong bytes, LatencyHistogram latency) {
        Semaphore slots = new Semaphore(inFlight);
        int n;
        while ((n = next.getAndIncrement()) < messages) {
            slots.acquireUninterruptibly();
            long start = System.nanoTime();
            CompletableFuture<Integer> f;
            try {
                f = store.put(n);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((wrote, e) -> {
                long took = System.nanoTime() - start;
                synchronized (latency) {
                    latency.record(took);
                }
                if (e != null || wrote == null || wrote < 0) {
                    failed.incrementAndGet();
                } else {
                    bytes.addAndGet(wrote);
                }
                slots.release();
            });
        }
        slots.acquireUninterruptibly(inFlight);
    }

    /**
     * Puts every {@code intervalMillis} while this node is leader, not waiting for earlier answers (a put that waits
     * for a lost follower must not delay the next), and reports the time of each acknowledgement.
     */
    private static void startWriter(RaftNodeStore store, long intervalMillis) {
        Semaphore pending = new Semaphore(WRITER_MAX_PENDING);
        Thread w = new Thread(() -> {
            long due = System.nanoTime();
            for (int n = 0; ; n++) {
                due += intervalMillis * 1_000_000;
                long ahead = due - System.nanoTime();
                if (ahead > 0) {
                    LockSupport.parkNanos(ahead);
                }
                if (!store.leader() || !pending.tryAcquire()) {
                    continue;
                }
                CompletableFuture<Integer> f;
                try {
                    f = store.put(n);
                } catch (RuntimeException e) {
                    f = CompletableFuture.failedFuture(e);
                }
                f.whenComplete((wrote, e) -> {
                    long answered = System.nanoTime();
                    pending.release();
                    if (e == null && wrote != null && wrote >= 0) {
                        reply("ACK " + answered);
                    }
                });
            }
        }, "raft-bench-writer");
        w.setDaemon(true);
        w.start();
    }
}
