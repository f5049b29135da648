package dev.hangar.spi.message;

/** The SYSFLAG bits of a commit-log record, with RocketMQ's values. */
public final class MessageSysFlag {
    public static final int COMPRESSED_FLAG = 0x1;
    public static final int MULTI_TAGS_FLAG = 0x2;
    public static final int TRANSACTION_NOT_TYPE = 0;
    public static final int TRANSACTION_PREPARED_TYPE = 0x4;
    public static final int TRANSACTION_COMMIT_TYPE = 0x8;
    public static final int TRANSACTION_ROLLBACK_TYPE = 0xC;
    public static final int BORNHOST_V6_FLAG = 0x10;
    public static final int STOREHOST_V6_FLAG = 0x20;
    public static final int NEED_UNWRAP_FLAG = 0x40;
    public static final int INNER_BATCH_FLAG = 0x80;

    private static final int TRANSACTION_MASK = 0xC;

    private MessageSysFlag() {
    }

    /** The transaction type bits of {@code sysFlag}. */
    public static int transactionType(int sysFlag) {
        return sysFlag & TRANSACTION_MASK;
    }

    /** Replaces the transaction type bits. */
    public static int withTransactionType(int sysFlag, int type) {
        return (sysFlag & ~TRANSACTION_MASK) | type;
    }

    /** PREPARED and ROLLBACK records take no queue offset and are not put in the ConsumeQueue. */
    public static boolean takesQueueOffset(int sysFlag) {
        int t = transactionType(sysFlag);
        return t == TRANSACTION_NOT_TYPE || t == TRANSACTION_COMMIT_TYPE;
    }
}
