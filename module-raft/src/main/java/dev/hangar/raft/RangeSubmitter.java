package dev.hangar.raft;

import dev.hangar.spi.ha.ReplicatedLog;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's one submitting thread: turns "the CommitLog grew to X" into Raft entries, each covering the bytes
 * appended since the last one (at most {@link RatisSetup#MAX_ENTRY_BYTES}), so every put that landed while the
 * previous entry was on its way shares the next one: a group commit over Raft. At most {@link #MAX_IN_FLIGHT}
 * entries are outstanding: one. With four, each of 16 closed-loop writers' puts became an entry of its own (a
 * Raft round, two forces and a page rewrite on every node per message): 78 puts/s on three nodes in one JVM on this
 * 2-core host; with one, the puts that arrive during a round share the next entry: 251–286 puts/s.
 *
 * <p>When a submission fails (this node lost leadership, Ratis refused it), the entries after it fail too (they
 * no longer continue the Raft log, {@code CommitLogStateMachine.preAppendTransaction}); once none is outstanding the
 * thread starts again from the end of what the Raft log holds. Bytes no entry covers are cut by the next leader.
 */
final class RangeSubmitter implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(RangeSubmitter.class);
    static final int MAX_IN_FLIGHT = 1;
    /**
     * Nothing to submit: a put, a reply or a new leadership wakes the thread; the timer only expires late puts. (A 1 ms
     * park cost a follower, which never submits, a thousand wake-ups a second.)
     */
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long EXPIRE_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final RaftServer server;
    private final RaftPeerId self;
    private final ReplicatedLog log;
    private final CommitLogStateMachine stateMachine;
    private final CommitWaiters waiters;
    private final ReplicationLevel level;
    /** Told the end of each range the group acknowledged (raft.ack=ALL: every member). */
    private final LongConsumer replied;
    private final BooleanSupplier ready;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callId = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile long submittedEnd = -1;
    private volatile boolean failed;
    private volatile boolean stopped;
    private volatile Thread thread;
    private final AtomicLong entries = new AtomicLong();
    private final AtomicLong entryBytes = new AtomicLong();

    RangeSubmitter(RaftServer server, RaftPeerId self, ReplicatedLog log, CommitLogStateMachine stateMachine,
                   CommitWaiters waiters, boolean ackAll, LongConsumer replied, BooleanSupplier ready) {
        this.server = server;
        this.self = self;
        this.log = log;
        this.stateMachine = stateMachine;
        this.waiters = waiters;
        this.level = ackAll ? ReplicationLevel.ALL : ReplicationLevel.MAJORITY;
        this.replied = replied;
        this.ready = ready;
    }

    void start() {
        Thread t = new Thread(this, "raft-range-submitter");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** A new leadership: entries continue the log from {@code offset}. */
    void restartAt(long offset) {
        submittedEnd = offset;
        failed = false;
        wakeup();
    }

    /** New bytes were appended (a put): submit them soon. */
    void wakeup() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    long entriesSubmitted() {
        return entries.get();
    }

    void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long n = entries.get();
        if (n > 0) {
            LOG.info("submitted {} Raft entries covering {} CommitLog bytes ({} bytes an entry)", n, entryBytes.get(),
                    entryBytes.get() / n);
        }
    }

    @Override
    public void run() {
        long lastExpire = System.nanoTime();
        while (!stopped) {
            try {
                long now = System.nanoTime();
                if (now - lastExpire > EXPIRE_EVERY_NANOS) {
                    waiters.expire();
                    lastExpire = now;
                }
                if (!submitOne()) {
                    LockSupport.parkNanos(IDLE_PARK_NANOS);
                }
            } catch (RuntimeException e) {
                LOG.error("submitting a CommitLog range failed: {}", e.toString());
                failed = true;
                LockSupport.parkNanos(IDLE_PARK_NANOS);
            }
        }
    }

    /** Submits the next range when there is one and room for it; false when there was nothing to do. */
    private boolean submitOne() {
        if (!ready.getAsBoolean() || submittedEnd < 0) {
            return false;
        }
        if (failed) {
            if (inFlight.get() > 0) {
                return false;
            }
            // everything after the failed entry failed too: go on from what the Raft log holds
            failed = false;
            submittedEnd = stateMachine.appendedEnd();
        }
        long start = submittedEnd;
        long end = log.maxOffset();
        if (end <= start || inFlight.get() >= MAX_IN_FLIGHT) {
            return false;
        }
        // an entry holds whole records: a range cut inside one would leave the committed offset (and a new leader's
        // truncation) in the middle of a record, where dispatch can never arrive
        int length = (int) (end - start <= RatisSetup.MAX_ENTRY_BYTES ? end - start
                : log.wholeRecordsEnd(start, RatisSetup.MAX_ENTRY_BYTES) - start);
        ByteBuffer ask = ByteBuffer.allocate(12).putLong(start).putInt(length).flip();
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(self)
                .setGroupId(RatisSetup.GROUP_ID)
                .setCallId(callId.incrementAndGet())
                .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(ask)))
                .setType(RaftClientRequest.writeRequestType(level))
                .build();
        inFlight.incrementAndGet();
        submittedEnd = start + length;
        entries.incrementAndGet();
        entryBytes.addAndGet(length);
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = server.submitClientRequestAsync(request);
        } catch (java.io.IOException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        long rangeEnd = start + length;
        reply.whenComplete((r, e) -> {
            if (e != null || r == null || !r.isSuccess()) {
                failed = true;
                LOG.debug("range [{}, {}) not replicated: {}", start, rangeEnd,
                        e != null ? e.toString() : r == null ? "no reply" : String.valueOf(r.getException()));
            } else {
                replied.accept(rangeEnd);
            }
            inFlight.decrementAndGet();
            wakeup();
        });
        return true;
    }
}
