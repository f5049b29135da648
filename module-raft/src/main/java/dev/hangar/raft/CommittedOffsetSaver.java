package dev.hangar.raft;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saves the committed offset once a second, when it moved, as a tiny snapshot ({@link TinySnapshots}).
 *
 * <p>Why: Ratis' commit-metadata entries are off ({@link RatisSetup}). They told a restarting node how far its log
 * was committed, but each one is a second replicated, forced entry after every entry: in a closed loop a round of its
 * own (docs/PERFORMANCE.md 53-54). Without them a node restarting while no majority is up knows only its last
 * snapshot's committed offset, and its readers see no further until a leader is back. Saving that offset every second
 * bounds what such a node hides to the last second before it stopped; the snapshot is 16 bytes and a few forces.
 */
final class CommittedOffsetSaver {
    private static final Logger LOG = LoggerFactory.getLogger(CommittedOffsetSaver.class);
    static final long SAVE_EVERY_MILLIS = 1000;

    private final CommitLogStateMachine stateMachine;
    /** The node's timer thread, shared with {@link FullDiskHandOver}. */
    private final ScheduledExecutorService timer;
    private volatile ScheduledFuture<?> saves;
    private volatile String lastError;

    CommittedOffsetSaver(CommitLogStateMachine stateMachine, ScheduledExecutorService timer) {
        this.stateMachine = stateMachine;
        this.timer = timer;
    }

    void start() {
        saves = timer.scheduleWithFixedDelay(this::save, SAVE_EVERY_MILLIS, SAVE_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    }

    void stop() {
        ScheduledFuture<?> s = saves;
        if (s != null) {
            s.cancel(false);
        }
    }

    private void save() {
        try {
            stateMachine.saveCommittedIfMoved();
            if (lastError != null) {
                LOG.info("the committed offset is saved again");
                lastError = null;
            }
        } catch (Exception e) {
            // a full disk or a failing force: say it once, keep trying (the next restart alone shows less meanwhile)
            String why = e.toString();
            if (!why.equals(lastError)) {
                LOG.warn("cannot save the committed offset (a restart without a majority would show less until a "
                        + "leader is back): {}", why);
                lastError = why;
            }
        }
    }
}
