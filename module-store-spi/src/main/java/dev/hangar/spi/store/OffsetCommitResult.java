package dev.hangar.spi.store;

import java.util.List;

/**
 * The answer to a commit, a reset or a group deletion.
 *
 * @param outcome   what happened
 * @param putStatus the status of the put of the commit record; null when nothing was put (bad input)
 * @param reason    one line saying what was wrong, or null when committed
 * @param offsets   the offsets written (one for a commit, one per queue for a reset); empty when nothing was
 */
public record OffsetCommitResult(Outcome outcome, PutMessageStatus putStatus, String reason,
                                 List<CommittedOffset> offsets) {

    public enum Outcome {
        /** Written and as durable as a put acknowledged PUT_OK. */
        COMMITTED,
        /** A name outside the topic rules, a negative queue id, the internal topic. */
        INVALID_ARGUMENT,
        UNKNOWN_TOPIC,
        UNKNOWN_QUEUE,
        UNKNOWN_GROUP,
        /** The offset lies outside the queue's {@code [min, max]}. */
        OUT_OF_RANGE,
        /** The commit record's put was not PUT_OK ({@link #putStatus()} says why): not acknowledged. */
        NOT_STORED
    }

    public OffsetCommitResult {
        offsets = List.copyOf(offsets);
    }

    public boolean isCommitted() {
        return outcome == Outcome.COMMITTED;
    }

    public static OffsetCommitResult refused(Outcome outcome, String reason) {
        return new OffsetCommitResult(outcome, null, reason, List.of());
    }
}
