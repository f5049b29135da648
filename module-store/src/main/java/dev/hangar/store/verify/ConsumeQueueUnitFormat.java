package dev.hangar.store.verify;

/**
 * The 20-byte ConsumeQueue unit as RocketMQ 4.x writes it ({@code ConsumeQueue.CQ_STORE_UNIT_SIZE}), read here by
 * the verifier only. The dispatch module owns the writing side ({@code dev.hangar.dispatch.consumequeue
 * .ConsumeQueueFormat}); the engine may not require that module, so the offsets are repeated here and must stay
 * equal to it (both are fixed by RocketMQ's on-disk format).
 *
 * <pre>
 *   0                   8           12                  20
 *   +-------------------+-----------+-------------------+
 *   | commitLogOffset   | size      | tagsCode          |
 *   | long              | int       | long              |
 *   +-------------------+-----------+-------------------+
 * </pre>
 * A queue lives in {@code consumequeue/<topic>/<queueId>/}, files named by the 20-digit logical byte offset of their
 * first unit; queue offset {@code n} is at logical byte offset {@code n * 20}. A blank pre-fill unit is
 * {@code [0][Integer.MAX_VALUE][0]}; a unit with {@code commitLogOffset < 0} or {@code size <= 0} ends the data.
 *
 * <p>Thread-safety: constants and pure functions only.
 */
public final class ConsumeQueueUnitFormat {
    public static final int UNIT_SIZE = 20;
    public static final int COMMIT_LOG_OFFSET_OFFSET = 0;
    public static final int SIZE_OFFSET = 8;
    public static final int TAGS_CODE_OFFSET = 12;
    public static final int BLANK_UNIT_SIZE_FIELD = Integer.MAX_VALUE;

    private ConsumeQueueUnitFormat() {
    }

    /** True for a unit that ends the written data (RocketMQ's recovery stop condition). */
    public static boolean isEnd(long commitLogOffset, int size) {
        return commitLogOffset < 0 || size <= 0;
    }

    /** True for a {@code fillPreBlank} unit, which points at nothing. */
    public static boolean isBlank(long commitLogOffset, int size) {
        return commitLogOffset == 0L && size == BLANK_UNIT_SIZE_FIELD;
    }
}
