package dev.hangar.store.format;

/**
 * The {@code checkpoint} file: one 4 KiB page of longs, as RocketMQ 4.x writes it.
 *
 * <pre>
 * +--------------------------------+  0
 * | physicMsgTimestamp  (long)     |     store time of the newest record flushed in the CommitLog
 * +--------------------------------+  8
 * | logicsMsgTimestamp  (long)     |     ... flushed in the ConsumeQueues
 * +--------------------------------+ 16
 * | indexMsgTimestamp   (long)     |     ... in a finished index file
 * +--------------------------------+ 24
 * | (zeros up to 4096)             |
 * +--------------------------------+ 4096
 * </pre>
 */
public final class CheckpointFormat {
    public static final int FILE_SIZE = 4096;
    public static final int PHYSIC_MSG_TIMESTAMP_OFFSET = 0;
    public static final int LOGICS_MSG_TIMESTAMP_OFFSET = 8;
    public static final int INDEX_MSG_TIMESTAMP_OFFSET = 16;
    /** The bytes that carry data. */
    public static final int USED_LENGTH = 24;
    /** Recovery starts this long before the checkpoint's minimum, as RocketMQ does. */
    public static final long RECOVERY_MARGIN_MILLIS = 3000;

    private CheckpointFormat() {
    }
}
