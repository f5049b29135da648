package dev.hangar.raft;

import dev.hangar.spi.ha.ReplicatedLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CommitLog as Ratis' state machine. An entry is a CommitLog range's header ({@link RaftEntryFormat}); its
 * bytes are the entry's state-machine data: the leader reads them from its CommitLog when it makes the entry
 * ({@link #startTransaction}), a follower appends them at exactly their offset ({@link #write}), {@link #flush}
 * forces the CommitLog before Ratis counts the entry durable, {@link #truncate} cuts the CommitLog back to the
 * start of the first removed entry. Applying an entry only moves the committed offset: dispatch, reads and long
 * polls stop there on every node ({@code ReplicationService.committedOffset()}).
 *
 * <p>Thread-safety: Ratis calls write/flush/truncate from its log worker, apply from its state-machine updater,
 * startTransaction/preAppend from the submitting thread; the shared state is the index map (concurrent) and
 * volatile offsets.
 */
final class CommitLogStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogStateMachine.class);

    /** What the service learns from the state machine. */
    interface Events {
        /** The committed offset moved (on every node, from the updater thread). */
        void committed(long offset);

        /**
         * This node is leader in {@code term} and has applied every earlier entry: ready its log for puts (must not
         * block long).
         */
        void leaderReady(long term);

        /** Leadership moved (to {@code leaderId}, maybe null) or this node stopped being leader. */
        void leaderChanged(RaftPeerId leaderId);
    }

    private final ReplicatedLog log;
    private final TinySnapshots snapshots;
    private final Events events;
    private final EntryEnds ends = new EntryEnds();
    private volatile long committedOffset;
    /** The last applied range entry with the committed offset it left, read together by {@link #saveCommittedIfMoved}. */
    private volatile Applied lastApplied;

    private record Applied(long term, long index, long committedOffset) {
    }
    /** On the leader: where the next entry's range must start (the end of the last one appended to the Raft log). */
    private volatile long appendedEnd = -1;
    /** How often a repeated error (bytes a follower needs that retention deleted) is logged again. */
    private static final long REPEAT_ERROR_MILLIS = 10_000;
    private volatile long lastDeletedLogMillis = -REPEAT_ERROR_MILLIS;
    /**
     * On the leader: the start of the last range a follower needed whose bytes retention had deleted, and the term it
     * happened in (RaftStatusView names the followers whose match offset lies before this log's first byte).
     */
    private volatile long deletedNeededFrom = -1;
    private volatile long deletedNeededTerm = -1;
    private final HeldWrites heldWrites;
    private final FollowerAppends appends;

    CommitLogStateMachine(ReplicatedLog log, TinySnapshots snapshots, Events events,
                          java.util.function.LongPredicate leadsInTerm) {
        this.log = log;
        this.snapshots = snapshots;
        this.events = events;
        this.appends = new FollowerAppends(log, leadsInTerm);
        this.heldWrites = new HeldWrites(log, appends::append);
        TinySnapshots.Snapshot latest = snapshots.latest();
        this.committedOffset = latest == null ? Math.max(0, log.minOffset()) : latest.committedOffset();
    }

    long committedOffset() {
        return committedOffset;
    }

    /** The end offset of the range of the entry at or below {@code index}, or -1 when unknown. */
    long endAtOrBefore(long index) {
        return ends.atOrBefore(index);
    }

    /**
     * The start of a range a follower needed in {@code term} whose bytes retention had deleted on this node (that
     * follower cannot catch up from here), or -1.
     */
    long deletedRangeNeeded(long term) {
        long from = deletedNeededFrom;
        return from >= 0 && deletedNeededTerm == term ? from : -1;
    }

    private long currentTerm() {
        try {
            return getServer().join().getDivision(getGroupId()).getInfo().getCurrentTerm();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The end of the last range appended to the Raft log on this leader. */
    long appendedEnd() {
        return appendedEnd;
    }

    /**
     * A new leader's first step: cuts the CommitLog back to the committed offset (bytes past it belong to no entry: puts
     * of an earlier leadership whose range never reached a majority) and appends from there, only while this node still
     * leads in {@code term}, the term Ratis said it was ready in ({@link FollowerAppends}).
     *
     * @return the committed offset the log now ends at, or -1 when this node no longer leads in {@code term}
     */
    long cutUncoveredTail(long term) {
        long committed = appends.cutIfLeading(term, () -> committedOffset);
        if (committed >= 0) {
            appendedEnd = committed;
        }
        return committed;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage storage) throws IOException {
        super.initialize(server, groupId, storage);
        // RUNNING from here: a snapshot installation pauses and restarts the state machine, which needs it
        getLifeCycle().startAndTransition(() -> {
            snapshots.init(storage);
            TinySnapshots.Snapshot latest = snapshots.latest();
            if (latest != null) {
                updateLastAppliedTermIndex(latest.term(), latest.index());
                committedOffset = Math.max(committedOffset, latest.committedOffset());
                ends.known(latest.index(), latest.committedOffset());
            }
        }, IOException.class);
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return snapshots.storage();
    }

    @Override
    public org.apache.ratis.statemachine.SnapshotInfo getLatestSnapshot() {
        return snapshots.latestInfo();
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex applied = getLastAppliedTermIndex();
        if (applied == null || applied.getIndex() < 0) {
            return -1;
        }
        long offset = committedOffset;
        // the snapshot vouches for the CommitLog up to offset: force it first
        log.force(offset);
        snapshots.save(applied.getTerm(), applied.getIndex(), offset);
        ends.forgetBelow(applied.getIndex());
        return applied.getIndex();
    }

    /**
     * Saves the committed offset as a snapshot when an entry was applied since the last one ({@link
     * CommittedOffsetSaver}), after forcing the CommitLog up to it. Ratis' log is not purged by it.
     */
    void saveCommittedIfMoved() throws IOException {
        Applied a = lastApplied;
        TinySnapshots.Snapshot saved = snapshots.latest();
        if (a == null || saved != null && a.index() <= saved.index()) {
            return;
        }
        log.force(a.committedOffset());
        snapshots.save(a.term(), a.index(), a.committedOffset());
    }

    // ----- the leader makes entries

    @Override
    public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
        ByteBuffer ask = request.getMessage().getContent().asReadOnlyByteBuffer();
        long start = ask.getLong();
        int length = ask.getInt();
        ByteBuffer bytes = ByteBuffer.allocate(length);
        while (bytes.hasRemaining()) {
            int n = log.read(start + bytes.position(), bytes);
            if (n <= 0) {
                throw new IOException("cannot read the CommitLog range [" + start + ", " + (start + length)
                        + ") to replicate it: " + (n < 0 ? "no longer retained" : "not written"));
            }
        }
        bytes.flip();
        int crc = RaftEntryFormat.crc(bytes);
        return TransactionContext.newBuilder()
                .setStateMachine(this)
                .setServerRole(RaftPeerRole.LEADER)
                .setClientRequest(request)
                .setLogData(UnsafeByteOperations.unsafeWrap(RaftEntryFormat.encode(start, length, crc)))
                .setStateMachineData(UnsafeByteOperations.unsafeWrap(bytes))
                .build();
    }

    @Override
    public TransactionContext preAppendTransaction(TransactionContext trx) throws IOException {
        // called in log order: entries must cover the CommitLog without gap or overlap
        RaftEntryFormat.Range r = range(trx.getStateMachineLogEntry().getLogData());
        if (r.start() != appendedEnd) {
            throw new IOException("the range [" + r.start() + ", " + r.end() + ") does not continue the Raft log, "
                    + "which covers the CommitLog up to " + appendedEnd);
        }
        appendedEnd = r.end();
        return trx;
    }

    // ----- every node keeps the bytes

    @Override
    public CompletableFuture<?> write(LogEntryProto entry, TransactionContext trx) {
        RaftEntryFormat.Range r = range(entry.getStateMachineLogEntry().getLogData());
        ends.written(entry.getIndex(), r.end());
        if (trx != null && trx.getClientRequest() != null) {
            return CompletableFuture.completedFuture(null); // the leader's bytes are in its CommitLog already
        }
        try {
            ByteBuffer data = entry.getStateMachineLogEntry().getStateMachineEntry().getStateMachineData()
                    .asReadOnlyByteBuffer();
            if (data.remaining() != r.length() || RaftEntryFormat.crc(data) != r.crc()) {
                throw new IllegalStateException("entry " + entry.getIndex() + ": its " + data.remaining()
                        + " bytes do not match the header's length " + r.length() + " and checksum");
            }
            // a full disk: the entry waits, unacknowledged, until space is freed
            CompletableFuture<Void> held = heldWrites.holdIfNeeded(entry.getIndex(), r, data);
            if (held != null) {
                return held;
            }
            try {
                appends.append(entry.getIndex(), r, data);
            } catch (RuntimeException e) {
                held = log.appendRefusal() == null ? null : heldWrites.holdIfNeeded(entry.getIndex(), r, data);
                if (held == null) {
                    throw e;
                }
                return held; // the append found the disk full: it is tried again once there is room
            }
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            LOG.error("cannot append entry {} ([{}, {})) to the CommitLog: {}", entry.getIndex(), r.start(), r.end(),
                    e.getMessage());
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Entries this follower holds unacknowledged because its disk is full ({@link HeldWrites}). */
    HeldWrites heldWrites() {
        return heldWrites;
    }

    /**
     * On the leader: entry {@code index} (range {@code r}) is the next a follower needs, and retention deleted its
     * bytes here. Remembered for the status (RaftStatusView) and logged, at most every {@link #REPEAT_ERROR_MILLIS}.
     */
    void deletedBytesNeeded(long index, RaftEntryFormat.Range r) {
        deletedNeededFrom = r.start();
        deletedNeededTerm = currentTerm();
        long now = System.currentTimeMillis();
        // the sender meets it each heartbeat (and each new leadership): say it loudly, but not on every try
        if (now - lastDeletedLogMillis >= REPEAT_ERROR_MILLIS) {
            lastDeletedLogMillis = now;
            LOG.error("entry {} needs CommitLog bytes [{}, {}) for a follower, but they are deleted (retention removed "
                    + "their file; the follower must be rebuilt from a copy of a current member's store)", index,
                    r.start(), r.end());
        }
    }

    @Override
    public CompletableFuture<ByteString> read(LogEntryProto entry, TransactionContext trx) {
        RaftEntryFormat.Range r = range(entry.getStateMachineLogEntry().getLogData());
        ByteBuffer bytes = ByteBuffer.allocate(r.length());
        while (bytes.hasRemaining()) {
            int n = log.read(r.start() + bytes.position(), bytes);
            if (n < 0) {
                deletedBytesNeeded(entry.getIndex(), r);
                // never answered: Ratis' sender gives up waiting after a heartbeat interval and sends the entries
                // before this one (or an empty append), then asks again. A failed future would end the sender thread
                // for the rest of the term: Ratis 3.2.2's restart after an error checks that the ended sender is
                // still running, finds it is not, and skips (LogAppenderBase.restart). FollowerSenders' senders ask
                // no more once they see the bytes are gone, and restart for a follower that is rebuilt meanwhile.
                return new CompletableFuture<>();
            }
            if (n == 0) {
                String why = "entry " + entry.getIndex() + " needs CommitLog bytes [" + r.start() + ", " + r.end()
                        + ") for a follower, but they are not written";
                LOG.error(why);
                return CompletableFuture.failedFuture(new IOException(why));
            }
        }
        bytes.flip();
        return CompletableFuture.completedFuture(UnsafeByteOperations.unsafeWrap(bytes));
    }

    @Override
    public CompletableFuture<Void> flush(long index) {
        long end = endAtOrBefore(index);
        log.force(end < 0 ? log.maxOffset() : end);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> truncate(long index) {
        // index is the first entry removed: the CommitLog keeps what the entries before it cover
        long keep = ends.exactlyBefore(index);
        ends.removeFrom(index);
        heldWrites.dropFrom(index);
        if (keep < 0) {
            // the entries before the cut were written before this process started and not applied since, so where
            // they end is not known: the last known end lies below, and a cut there would remove bytes of entries
            // the Raft log keeps (committed ones among them). Nothing is cut now; the next entry's append cuts the log
            // back to that entry's own start (appendAtItsOffset), and a new leader cuts to its committed offset
            LOG.info("the Raft log drops entries from {} on; where entry {} ends is not known in this process, so the "
                    + "CommitLog is cut when the next entry arrives", index, index - 1);
            return CompletableFuture.completedFuture(null);
        }
        try {
            log.truncate(keep);
        } catch (RuntimeException e) {
            LOG.error("cannot cut the CommitLog back to {} for the Raft log's truncation at entry {}: {}", keep, index,
                    e.getMessage());
            return CompletableFuture.failedFuture(e);
        }
        if (appendedEnd > keep) {
            appendedEnd = keep;
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        RaftEntryFormat.Range r = range(entry.getStateMachineLogEntry().getLogData());
        ends.known(entry.getIndex(), r.end());
        if (r.end() > committedOffset) {
            committedOffset = r.end();
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        lastApplied = new Applied(entry.getTerm(), entry.getIndex(), committedOffset);
        events.committed(committedOffset);
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    // ----- leadership

    @Override
    public void notifyLeaderReady() {
        events.leaderReady(currentTerm());
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
        events.leaderChanged(newLeaderId);
    }

    @Override
    public void notifyNotLeader(java.util.Collection<TransactionContext> pending) {
        events.leaderChanged(null);
    }

    @Override
    public void notifyExtendedNoLeader(RoleInfoProto roleInfo) {
        LOG.warn("no leader for a while: {}", roleInfo.getRole());
    }

    /**
     * Ratis asks a follower to install a snapshot when the leader no longer has the entries it needs, and once when
     * it joins the group (a peer added online). Our snapshot is only "the CommitLog is complete up to an entry", so
     * there is nothing to copy when this node's own log reaches the leader's first entry: it answers with its own
     * last applied entry, and the leader sends what follows. A node with an empty log, while the leader still has
     * every entry from the first, answers the leader's first entry (a configuration entry, no CommitLog bytes).
     * Further behind, the bytes are gone from every entry the leader has: it refuses, naming the fix.
     */
    @Override
    public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(RoleInfoProto roleInfo,
                                                                       TermIndex firstTermIndexInLog) {
        TermIndex mine = getLastAppliedTermIndex();
        TermIndex answer;
        if (mine != null && mine.getIndex() >= firstTermIndexInLog.getIndex() - 1 && mine.getIndex() >= 0) {
            answer = mine;
        } else if (firstTermIndexInLog.getIndex() == 0 && committedOffset == 0 && log.maxOffset() <= 0) {
            answer = firstTermIndexInLog;
        } else {
            String why = "the leader no longer has the Raft entries this node needs (its log starts at "
                    + firstTermIndexInLog + ", this node applied " + mine + "); copy the leader's store directory "
                    + "to rebuild this node";
            LOG.error(why);
            return CompletableFuture.failedFuture(new IOException(why));
        }
        try {
            log.force(committedOffset);
            snapshots.save(answer.getTerm(), answer.getIndex(), committedOffset);
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        LOG.info("joining at entry {} with the CommitLog committed up to {}", answer, committedOffset);
        return CompletableFuture.completedFuture(answer);
    }

    @Override
    public void close() throws IOException {
        heldWrites.close(); // entries held for a full disk are not acknowledged: they fail
        super.close();
    }

    /** Ratis pauses the state machine around a snapshot installation; the state (the CommitLog) stays as it is. */
    @Override
    public void pause() {
        getLifeCycle().transition(org.apache.ratis.util.LifeCycle.State.PAUSING);
        getLifeCycle().transition(org.apache.ratis.util.LifeCycle.State.PAUSED);
    }

    @Override
    public void reinitialize() {
        getLifeCycle().startAndTransition(() -> {
            TinySnapshots.Snapshot latest = snapshots.latest();
            if (latest != null) {
                updateLastAppliedTermIndex(latest.term(), latest.index());
                ends.known(latest.index(), latest.committedOffset());
            }
        });
    }

    @Override
    public String toStateMachineLogEntryString(org.apache.ratis.proto.RaftProtos.StateMachineLogEntryProto entry) {
        try {
            RaftEntryFormat.Range r = range(entry.getLogData());
            return "[" + r.start() + ", " + r.end() + ")";
        } catch (RuntimeException e) {
            return "?";
        }
    }

    private static RaftEntryFormat.Range range(ByteString logData) {
        return RaftEntryFormat.decode(logData.asReadOnlyByteBuffer());
    }
}
