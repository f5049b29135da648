package dev.hangar.raft;

import dev.hangar.spi.ha.ReplicatedLog;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.grpc.server.GrpcLogAppender;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.RpcFactory;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.leader.FollowerInfo;
import org.apache.ratis.server.leader.LeaderState;
import org.apache.ratis.server.leader.LogAppender;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.raftlog.RaftLogIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's senders (Ratis' log appenders), one a follower: gRPC's, but one whose follower needs CommitLog bytes
 * retention deleted sends it only heartbeats, and is restarted once that follower was rebuilt from a copy of a current
 * member's store while this node stayed leader.
 *
 * <p>Why: Ratis 3.2.2 ends a sender whose read of an entry's bytes fails, and its restart after an error is skipped
 * (LogAppenderBase.restart asks whether the ended sender is running): the follower heard nothing more this term. Now
 * the sender stays at the entry it cannot send ({@link Sender}). A heartbeat's success does not tell a leader where
 * the follower's log ends, so when the operator replaces the follower with a copy that holds those entries the sender
 * would still wait. Its follower's commit index (in every reply) at or past that entry shows the follower has it:
 * then {@link LeaderState#restart} makes a new sender, which finds the follower's end by Raft's consistency check (it
 * starts from the log's first entry, and the follower answers with its own end) and sends only what follows it.
 *
 * <p>Ratis builds the senders with the server's RPC factory; {@link Rpc} is that factory (gRPC's, making {@link
 * Sender}s and noting each), named by class in the server's properties, and finds this object in the server's {@link
 * Parameters}.
 */
final class FollowerSenders {
    private static final Logger LOG = LoggerFactory.getLogger(FollowerSenders.class);
    private static final String PARAMETER = FollowerSenders.class.getName();

    /** The newest sender Ratis made for each follower (of this or an earlier leadership). */
    private final Map<RaftPeerId, LogAppender> senders = new ConcurrentHashMap<>();
    private final ReplicatedLog log;
    private final CommitLogStateMachine stateMachine;
    private final Supplier<RaftServer.Division> division;

    FollowerSenders(ReplicatedLog log, CommitLogStateMachine stateMachine, Supplier<RaftServer.Division> division) {
        this.log = log;
        this.stateMachine = stateMachine;
        this.division = division;
    }

    /** Puts this object where {@link Rpc} finds it. */
    void addTo(Parameters parameters) {
        parameters.put(PARAMETER, this, FollowerSenders.class);
    }

    private void made(LogAppender sender) {
        senders.put(sender.getFollowerId(), sender);
    }

    /**
     * Restarts each running sender that waits for an entry whose CommitLog bytes this leader deleted while its
     * follower has committed that entry already (a rebuilt follower). Called from a timer: a follower that is still
     * behind costs nothing more than its sender's heartbeats.
     */
    void restartSendersOfRebuiltFollowers() {
        RaftServer.Division d = division.get();
        if (d == null || !d.getInfo().isLeader()) {
            return;
        }
        for (LogAppender sender : senders.values()) {
            FollowerInfo f = sender.getFollower();
            long next = f.getNextIndex();
            if (!sender.isRunning() || f.getCommitIndex() < next || !needsDeletedBytes(d.getRaftLog(), next)) {
                continue;
            }
            LOG.info("follower {} has committed entry {} that its sender waits to send (bytes retention deleted on "
                    + "this leader): it was rebuilt; restarting the sender to find its end", f.getId(), next);
            sender.getLeaderState().restart(sender);
        }
    }

    /**
     * Whether the entry at {@code index} carries a CommitLog range that starts before this log's first byte. Asked on
     * every turn of every sender's loop, so the common answers are cheap: nothing deleted yet, or the entry before it
     * ends at or past the first byte (the state machine knows the ends of the entries it has not applied yet); only
     * a follower behind both reads and decodes the entry.
     */
    private boolean needsDeletedBytes(RaftLog raftLog, long index) {
        return deletedRangeAt(raftLog, index) != null;
    }

    /** The range of the entry at {@code index} when it starts before this log's first byte, else null. */
    private RaftEntryFormat.Range deletedRangeAt(RaftLog raftLog, long index) {
        long min = log.minOffset();
        if (min <= 0) {
            return null; // nothing deleted
        }
        if (stateMachine.endAtOrBefore(index - 1) >= min) {
            return null; // the entry starts where one at or before index - 1 ended, or later: past the first byte
        }
        LogEntryProto entry;
        try {
            entry = raftLog.get(index);
        } catch (Exception e) {
            return null; // purged or unreadable: not the case this looks for
        }
        if (entry == null || !entry.hasStateMachineLogEntry()) {
            return null;
        }
        RaftEntryFormat.Range r = RaftEntryFormat.decode(entry.getStateMachineLogEntry().getLogData()
                .asReadOnlyByteBuffer());
        return r.start() >= min ? null : r;
    }

    /**
     * The RPC type the server's properties name ({@code RatisSetup.serverProperties}): Ratis makes it by its class
     * name, hence public with a public constructor.
     */
    public static final class Rpc implements org.apache.ratis.rpc.RpcType {
        public Rpc() {
        }

        @Override
        public String name() {
            return Rpc.class.getName();
        }

        @Override
        public RpcFactory newFactory(Parameters parameters) {
            return new Factory(parameters, parameters.getNonNull(PARAMETER, FollowerSenders.class));
        }
    }

    /**
     * gRPC's sender, which sends a follower that waits for deleted bytes only heartbeats (one each heartbeat interval)
     * instead of asking {@link CommitLogStateMachine#read} for them: Ratis would wait for the answer that never comes
     * (a heartbeat interval) and log a warning with a stack trace each time, for as long as the follower is behind.
     */
    private static final class Sender extends GrpcLogAppender {
        private final FollowerSenders senders;

        Sender(RaftServer.Division server, LeaderState state, FollowerInfo f, FollowerSenders senders) {
            super(server, state, f);
            this.senders = senders;
        }

        private boolean waitsForDeletedBytes() {
            return hasAppendEntries() && senders.needsDeletedBytes(getRaftLog(), getFollower().getNextIndex());
        }

        @Override
        public AppendEntriesRequestProto newAppendEntriesRequest(long callId, boolean heartbeat)
                throws RaftLogIOException {
            if (heartbeat || !hasAppendEntries()) {
                return super.newAppendEntriesRequest(callId, heartbeat);
            }
            long next = getFollower().getNextIndex();
            RaftEntryFormat.Range gone = senders.deletedRangeAt(getRaftLog(), next);
            if (gone == null) {
                return super.newAppendEntriesRequest(callId, false);
            }
            // the state machine names the follower in the status and logs it (at most every few seconds)
            senders.stateMachine.deletedBytesNeeded(next, gone);
            // nothing it can send but a heartbeat, and only when one is due: each reply wakes the sender, so one on
            // every wake-up would go back and forth as fast as the network answers
            return getHeartbeatWaitTimeMs() <= 0 ? super.newAppendEntriesRequest(callId, true) : null;
        }

        @Override
        public long getWaitTimeMs() {
            // it has entries to send, so Ratis would not wait: wait for the next heartbeat instead of spinning
            return waitsForDeletedBytes() ? Math.max(0, getHeartbeatWaitTimeMs()) : super.getWaitTimeMs();
        }
    }

    /** gRPC's factory, noting each sender it makes. */
    private static final class Factory extends GrpcFactory {
        private final FollowerSenders senders;

        Factory(Parameters parameters, FollowerSenders senders) {
            super(parameters);
            this.senders = senders;
        }

        @Override
        public LogAppender newLogAppender(RaftServer.Division server, LeaderState state, FollowerInfo f) {
            LogAppender sender = new Sender(server, state, f, senders);
            senders.made(sender);
            return sender;
        }
    }
}
