package dev.hangar.raft;

import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.spi.ha.ReplicatedLog;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader whose disk is full refuses every put (the store's DISK_FULL), so the whole group would stop taking writes
 * although its followers may have room: this watch hands leadership to the follower that is furthest along among
 * those heard from lately (Ratis' transferLeadership, which waits until that follower holds the whole log). It tries
 * at most once every {@link #PAUSE_MILLIS}: a follower whose disk is full too hands it on after that pause, it never
 * bounces in a tight loop. The node with the full disk stays a member; as a follower it holds entries unwritten and
 * unacknowledged until space is freed ({@link HeldWrites}) and then catches up by itself.
 */
final class FullDiskHandOver {
    private static final Logger LOG = LoggerFactory.getLogger(FullDiskHandOver.class);
    static final long CHECK_EVERY_MILLIS = 1000;
    static final long PAUSE_MILLIS = 30_000;

    private final ReplicatedLog log;
    private final Supplier<ConsensusStatus> status;
    private final Function<String, CompletableFuture<Void>> transfer;
    /** A follower last heard from longer ago than this is no candidate (it may be down). */
    private final long contactWithinMillis;
    /** The node's timer thread, shared with {@link CommittedOffsetSaver}. */
    private final ScheduledExecutorService timer;
    private volatile ScheduledFuture<?> checks;
    private long lastTryMillis = -PAUSE_MILLIS;

    FullDiskHandOver(ReplicatedLog log, Supplier<ConsensusStatus> status,
                     Function<String, CompletableFuture<Void>> transfer, long contactWithinMillis,
                     ScheduledExecutorService timer) {
        this.timer = timer;
        this.log = log;
        this.status = status;
        this.transfer = transfer;
        this.contactWithinMillis = contactWithinMillis;
    }

    void start() {
        checks = timer.scheduleWithFixedDelay(this::check, CHECK_EVERY_MILLIS, CHECK_EVERY_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    void stop() {
        ScheduledFuture<?> c = checks;
        if (c != null) {
            c.cancel(false);
        }
    }

    private void check() {
        try {
            String full = log.appendRefusal();
            if (full == null) {
                return;
            }
            ConsensusStatus s = status.get();
            long now = System.currentTimeMillis();
            if (!s.isLeader() || now - lastTryMillis < PAUSE_MILLIS) {
                return;
            }
            Optional<ConsensusStatus.Peer> target = s.peers().stream()
                    .filter(p -> !p.id().equals(s.selfId()) && p.matchOffset() >= 0 && p.lastContactMillis() >= 0
                            && p.lastContactMillis() < contactWithinMillis)
                    .max(Comparator.comparingLong(ConsensusStatus.Peer::matchOffset));
            if (target.isEmpty()) {
                return;
            }
            lastTryMillis = now;
            String id = target.get().id();
            LOG.warn("this leader cannot take puts ({}): handing leadership to {}, whose log reaches {}", full, id,
                    target.get().matchOffset());
            transfer.apply(id).whenComplete((v, e) -> {
                if (e != null) {
                    LOG.warn("handing leadership to {} failed; trying again in {} s: {}", id, PAUSE_MILLIS / 1000,
                            e.getMessage());
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("the full-disk watch failed: {}", e.toString());
        }
    }
}
