package dev.hangar.raft;

import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ConsensusGroup;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.spi.ha.ReplicatedLog;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.ha.ReplicationStatus;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's part in a Raft group on Apache Ratis: the leader takes puts and acknowledges one once the group holds its
 * range ({@link CommitWaiters}); every node appends the leader's ranges at their offsets and shows (dispatches) only
 * what is committed. On becoming leader a node first cuts the bytes no committed entry covers and takes its queue
 * offsets from its queues ({@link ReplicatedLog#prepareForPuts}); only then does it take puts.
 *
 * <p>Ratis finds classes through the thread context class loader it sees first: the server is built and started with
 * it set to this provider's loader (the plugins/raft/ folder's own loader in the image).
 */
final class RaftReplicationService implements ReplicationService {
    private static final Logger LOG = LoggerFactory.getLogger(RaftReplicationService.class);
    private static final long PREPARE_TIMEOUT_MILLIS = 60_000;
    /** How long one look at dispatch waits: between looks, a stop or a lost leadership ends the wait. */
    private static final long PREPARE_SLICE_MILLIS = 500;
    /** A leader that failed to ready its log tries again after this long, while it still leads. */
    private static final long READY_RETRY_MILLIS = 5_000;
    /** How often the leader looks for a rebuilt follower whose sender waits for deleted bytes (FollowerSenders). */
    private static final long SENDER_CHECK_MILLIS = 1000;

    private final RaftSettings settings;
    private final ReplicatedLog log;
    private final CommitWaiters waiters;
    private final CommitLogStateMachine stateMachine;
    private final ExecutorService leadership = Executors.newSingleThreadExecutor(r -> daemon(r, "raft-leadership"));
    /** The periodic checks (full disk, committed-offset saves): a few milliseconds a second between them. */
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            r -> daemon(r, "raft-timers"));
    private volatile RaftServer server;
    private volatile RangeSubmitter submitter;
    private volatile RaftClient admin;
    /** Ratis' gRPC parameters (mutual TLS between peers when raft.tls.* is set), made at start. */
    private volatile Parameters rpcParameters;
    /** True on a leader that has readied its log: puts are taken. */
    private volatile boolean ready;
    private volatile String lastProblem = "starting";
    private volatile boolean stopped;
    private final FullDiskHandOver fullDisk;
    private final CommittedOffsetSaver committedSaver;
    private final FollowerSenders senders;

    RaftReplicationService(RaftSettings settings, ReplicatedLog log) {
        this.settings = settings;
        this.log = log;
        this.waiters = new CommitWaiters(settings.putTimeoutMs());
        TinySnapshots snapshots = new TinySnapshots(settings.dir().resolve(RatisSetup.GROUP_ID.getUuid().toString())
                .resolve("sm"));
        this.stateMachine = new CommitLogStateMachine(log, snapshots, new CommitLogStateMachine.Events() {
            @Override
            public void committed(long offset) {
                log.committedMoved();
                if (!settings.ackAll()) {
                    waiters.acknowledge(offset);
                }
            }

            @Override
            public void leaderReady(long term) {
                leadership.execute(() -> becomeWriter(term));
            }

            @Override
            public void leaderChanged(RaftPeerId leaderId) {
                if (leaderId == null || !leaderId.toString().equals(settings.selfId())) {
                    stopWriting(leaderId == null ? "no leader" : "the leader is now " + leaderId);
                }
            }
        }, this::leadsIn);
        this.fullDisk = new FullDiskHandOver(log, this::consensusStatus, this::transferLeader,
                2L * settings.electionMaxMs(), timers);
        this.committedSaver = new CommittedOffsetSaver(stateMachine, timers);
        this.senders = new FollowerSenders(log, stateMachine, this::division);
    }

    @Override
    public void start() {
        Thread current = Thread.currentThread();
        ClassLoader before = current.getContextClassLoader();
        current.setContextClassLoader(RaftReplicationService.class.getClassLoader());
        try {
            // a missing or unreadable TLS file stops the start here, naming it, before Ratis opens anything
            rpcParameters = RatisSetup.parameters(settings.tls().map(PeerTls::load).orElse(null));
            senders.addTo(rpcParameters);
            RaftGroup group = RatisSetup.group(settings.peers());
            boolean fresh = !java.nio.file.Files.isDirectory(settings.dir().resolve(RatisSetup.GROUP_ID.getUuid()
                    .toString()));
            server = RaftServer.newBuilder()
                    .setServerId(RatisSetup.id(settings.selfId()))
                    .setGroup(group)
                    .setStateMachine(stateMachine)
                    .setProperties(RatisSetup.serverProperties(settings))
                    .setParameters(rpcParameters)
                    .setOption(fresh ? RaftStorage.StartupOption.FORMAT : RaftStorage.StartupOption.RECOVER)
                    .build();
            submitter = new RangeSubmitter(server, RatisSetup.id(settings.selfId()), log, stateMachine, waiters,
                    settings.ackAll(), waiters::acknowledge, () -> ready);
            server.start();
            submitter.start();
            fullDisk.start();
            committedSaver.start();
            timers.scheduleWithFixedDelay(this::restartSendersOfRebuiltFollowers, SENDER_CHECK_MILLIS,
                    SENDER_CHECK_MILLIS, TimeUnit.MILLISECONDS);
            LOG.info("raft node {} started at {} ({}) in a group of {} (election timeout {}–{} ms, ack {}), committed "
                            + "offset {}", settings.selfId(), boundAt(),
                    settings.tls().isPresent() ? "mutual TLS" : "plaintext", settings.peers(),
                    settings.electionMinMs(), settings.electionMaxMs(), settings.ackAll() ? "ALL" : "MAJORITY",
                    stateMachine.committedOffset());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start raft node " + settings.selfId() + " at " + boundAt() + ": "
                    + e.getMessage(), e);
        } finally {
            current.setContextClassLoader(before);
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Our address in raft.peers, and where we bind when raft.listen differs from it. */
    private String boundAt() {
        String peerAddress = settings.self().address();
        String listen = settings.listen().toString();
        return listen.equals(peerAddress) ? peerAddress : peerAddress + " (listening on " + listen + ")";
    }

    /** On the leadership thread once Ratis says this node leads {@code term} and has applied every earlier entry. */
    private void becomeWriter(long term) {
        try {
            // no put of an earlier leadership may be acknowledged by offsets this one refills (none should wait here:
            // losing leadership failed them; this makes it so whatever order Ratis told us in)
            waiters.fail(PutMessageStatus.SERVICE_NOT_AVAILABLE);
            // bytes past the committed end belong to no entry (a put whose range never made it): cut them, unless this
            // node no longer leads in that term (its log may hold a newer leader's entries by now)
            long committed = stateMachine.cutUncoveredTail(term);
            if (committed < 0) {
                LOG.info("raft node {} no longer leads term {}: not readying its log for puts", settings.selfId(),
                        term);
                return;
            }
            submitter.restartAt(committed);
            waiters.restartAt(committed);
            if (!prepareForPuts(term)) {
                if (stopped || !leadsIn(term)) {
                    return;
                }
                lastProblem = "leader, but dispatch did not reach the committed offset " + committed + " in "
                        + PREPARE_TIMEOUT_MILLIS + " ms";
                LOG.error(lastProblem + "; waiting again");
                // a leader that gave up here would hold the group without taking puts until it restarted
                leadership.execute(() -> becomeWriter(term));
                return;
            }
            // ready first, then look: a step-down between a look and the flag would leave a follower taking puts
            // (its notice, stopWriting, may already have run)
            ready = true;
            if (!leadsIn(term)) {
                stopWriting("lost the leadership of term " + term + " while readying the log");
                return;
            }
            submitter.wakeup();
            lastProblem = "";
            LOG.info("raft node {} leads term {} and takes puts from offset {}", settings.selfId(), term, committed);
        } catch (RuntimeException e) {
            lastProblem = "leader, but cannot ready the log for puts: " + e.getMessage();
            LOG.error(lastProblem + "; trying again in " + READY_RETRY_MILLIS + " ms", e);
            // without a retry this node would hold the leadership and refuse puts until something moved it
            if (!stopped && leadsIn(term)) {
                try {
                    timers.schedule(() -> leadership.execute(() -> becomeWriter(term)), READY_RETRY_MILLIS,
                            TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.RejectedExecutionException stopping) {
                    // stopped meanwhile: nothing to ready
                }
            }
        }
    }

    /**
     * Waits until dispatch reached the log's end (ReplicatedLog.prepareForPuts), at most PREPARE_TIMEOUT_MILLIS, in
     * slices, so that a stop or a lost leadership ends the wait without an interrupt (an interrupt during file I/O
     * closes the CommitLog's channel).
     */
    private boolean prepareForPuts(long term) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PREPARE_TIMEOUT_MILLIS);
        while (!stopped && leadsIn(term)) {
            if (log.prepareForPuts(PREPARE_SLICE_MILLIS)) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
        }
        return false;
    }

    /** Whether this node is the leader in {@code term} now (not in a later term it may lead again by then). */
    private boolean leadsIn(long term) {
        RaftServer.Division d = division();
        if (d == null) {
            return false;
        }
        DivisionInfo info = d.getInfo();
        return info.isLeader() && info.getCurrentTerm() == term;
    }

    private void stopWriting(String why) {
        boolean was = ready;
        ready = false;
        waiters.fail(PutMessageStatus.SERVICE_NOT_AVAILABLE);
        if (was) {
            LOG.warn("raft node {} no longer takes puts: {}", settings.selfId(), why);
        }
    }

    @Override
    public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForReplica) {
        return handle(nextOffset, waitForReplica, log.cuts());
    }

    /**
     * Waits for the group to commit the put's bytes, unless the CommitLog was cut since the put read the count: then
     * its bytes may be gone (a new leadership cut an uncommitted tail) and the offset it waits for filled by other
     * puts, so it fails. The generation is read first: a cut comes only with a new leadership, which fails every
     * put registered under the old one.
     */
    @Override
    public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForReplica,
                                                      long logCutsBeforeAppend) {
        long generation = waiters.generation();
        if (!ready || log.cuts() != logCutsBeforeAppend) {
            return CompletableFuture.completedFuture(PutMessageStatus.SERVICE_NOT_AVAILABLE);
        }
        CompletableFuture<PutMessageStatus> f = waiters.await(nextOffset, generation);
        RangeSubmitter s = submitter;
        if (s != null && !f.isDone()) {
            s.wakeup();
        }
        return f;
    }

    /** Entries this follower holds unacknowledged because its disk is full. */
    HeldWrites heldWrites() {
        return stateMachine.heldWrites();
    }

    @Override
    public long committedOffset() {
        return stateMachine.committedOffset();
    }

    /** On the leader: the slowest member's match offset, so retention keeps what a follower still needs. */
    @Override
    public long retainFrom() {
        ConsensusStatus s = consensusStatus();
        if (!s.isLeader()) {
            return Long.MAX_VALUE;
        }
        return s.peers().stream().filter(p -> !p.id().equals(settings.selfId()))
                .mapToLong(p -> p.matchOffset() < 0 ? 0 : p.matchOffset()).min().orElse(Long.MAX_VALUE);
    }

    @Override
    public String putRefusal() {
        if (ready) {
            return null;
        }
        ConsensusStatus s = consensusStatus();
        if (s.isLeader()) {
            return "this raft node (" + settings.selfId() + ") was just elected and is not ready for puts yet; retry";
        }
        if (s.leaderId().isEmpty()) {
            return "no raft leader is elected now (" + s.problem() + "); retry";
        }
        return "this raft node (" + settings.selfId() + ") is a follower: put to the leader " + s.leaderId()
                + (s.leaderServeAddress().isEmpty() ? "" : " at " + s.leaderServeAddress());
    }

    @Override
    public Optional<ConsensusGroup> consensus() {
        return Optional.of(group);
    }

    /** The group's view and controls for operators. */
    private final ConsensusGroup group = new ConsensusGroup() {
        @Override
        public ConsensusStatus status() {
            return consensusStatus();
        }

        @Override
        public CompletableFuture<Void> transferLeader(String peerId) {
            return RaftReplicationService.this.transferLeader(peerId);
        }

        @Override
        public CompletableFuture<Void> addPeer(String peer) {
            return RaftReplicationService.this.addPeer(peer);
        }

        @Override
        public CompletableFuture<Void> removePeer(String peerId) {
            return RaftReplicationService.this.removePeer(peerId);
        }
    };

    ConsensusStatus consensusStatus() {
        return RaftStatusView.of(settings, division(), stateMachine, log, ready, lastProblem);
    }

    @Override
    public ReplicationStatus status() {
        ConsensusStatus s = consensusStatus();
        return RaftStatusView.asReplicationStatus(s, settings, RaftStatusView.rebuildNeeded(s, stateMachine, log));
    }

    private void restartSendersOfRebuiltFollowers() {
        try {
            senders.restartSendersOfRebuiltFollowers();
        } catch (RuntimeException e) {
            // a leadership ending meanwhile: the next check (or the next leader's fresh senders) sees it
            LOG.warn("cannot check the senders to the followers: {}", e.toString());
        }
    }

    private RaftServer.Division division() {
        RaftServer s = server;
        if (s == null) {
            return null;
        }
        try {
            return s.getDivision(RatisSetup.GROUP_ID);
        } catch (IOException e) {
            return null;
        }
    }

    CompletableFuture<Void> transferLeader(String peerId) {
        return adminCall("transfer leadership to " + peerId,
                c -> c.admin().transferLeadership(RatisSetup.id(peerId), 10_000));
    }

    CompletableFuture<Void> addPeer(String peer) {
        RaftSettings.Peer p = RaftSettings.parsePeerOrNull(peer);
        if (p == null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("a peer is id@host:port, not '" + peer
                    + "'"));
        }
        return adminCall("add " + peer, c -> {
            List<RaftPeer> peers = new ArrayList<>(currentPeers());
            if (peers.stream().anyMatch(x -> x.getId().toString().equals(p.id()))) {
                throw new IllegalArgumentException("peer " + p.id() + " is already a member");
            }
            peers.add(RatisSetup.peer(p));
            return c.admin().setConfiguration(peers);
        });
    }

    CompletableFuture<Void> removePeer(String peerId) {
        return adminCall("remove " + peerId, c -> {
            List<RaftPeer> peers = new ArrayList<>(currentPeers());
            if (!peers.removeIf(x -> x.getId().toString().equals(peerId))) {
                throw new IllegalArgumentException("peer " + peerId + " is not a member");
            }
            return c.admin().setConfiguration(peers);
        });
    }

    private List<RaftPeer> currentPeers() {
        RaftServer.Division d = division();
        if (d == null) {
            throw new IllegalStateException("the raft node is not started");
        }
        return new ArrayList<>(d.getRaftConf().getCurrentPeers());
    }

    private interface AdminCall {
        RaftClientReply call(RaftClient client) throws IOException;
    }

    private CompletableFuture<Void> adminCall(String what, AdminCall call) {
        return CompletableFuture.runAsync(() -> {
            Thread current = Thread.currentThread();
            ClassLoader before = current.getContextClassLoader();
            current.setContextClassLoader(RaftReplicationService.class.getClassLoader());
            try {
                RaftClientReply reply = call.call(admin());
                if (!reply.isSuccess()) {
                    throw new IllegalStateException("cannot " + what + ": " + reply.getException());
                }
            } catch (IOException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                throw new UncheckedIOException("cannot " + what + ": " + cause, e);
            } finally {
                current.setContextClassLoader(before);
            }
        });
    }

    private synchronized RaftClient admin() {
        if (admin == null) {
            RaftServer.Division d = division();
            admin = RatisSetup.adminClient(d != null ? d.getGroup() : RatisSetup.group(settings.peers()), rpcParameters);
        }
        return admin;
    }

    @Override
    public void shutdown() {
        if (stopped) {
            return;
        }
        stopped = true;
        ready = false;
        RangeSubmitter s = submitter;
        if (s != null) {
            s.stop();
        }
        fullDisk.stop();
        committedSaver.stop();
        // not shutdownNow: an interrupt during a save's force would close the CommitLog's file channel under the
        // store (FileChannel closes on interrupt); a save under way takes milliseconds
        timers.shutdown();
        try {
            timers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        waiters.fail(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
        // not shutdownNow either: the leadership thread may be cutting the CommitLog; its wait for dispatch ends in a
        // slice once stopped is set
        leadership.shutdown();
        try {
            if (!leadership.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("raft node {}: the leadership thread did not end within 5 s", settings.selfId());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (server != null) {
                stateMachine.takeSnapshot();
                server.close();
            }
            if (admin != null) {
                admin.close();
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("closing raft node {}: {}", settings.selfId(), e.toString());
        }
    }
}
