package dev.hangar.spi.message;

/** Property names with a meaning to the store, spelled as RocketMQ spells them so records stay compatible. */
public final class MessageConst {
    /** Space-separated user keys; each is indexed as {@code topic#key}. */
    public static final String KEYS = "KEYS";
    /** The tag; its {@code String.hashCode()} is the ConsumeQueue tags code. */
    public static final String TAGS = "TAGS";
    /** "false" means the producer does not wait for a sync flush. */
    public static final String WAIT_STORE_MSG_OK = "WAIT";
    /** Delay level 1..18; the store rewrites the topic to {@link #SCHEDULE_TOPIC}. */
    public static final String DELAY_TIME_LEVEL = "DELAY";
    /** The real topic of a delayed message, kept while it waits on the schedule topic. */
    public static final String REAL_TOPIC = "REAL_TOPIC";
    /** The real queue id of a delayed message. */
    public static final String REAL_QUEUE_ID = "REAL_QID";
    /** The client-generated unique id; indexed like a key. */
    public static final String UNIQ_KEY = "UNIQ_KEY";
    /** Marks a transactional half message. */
    public static final String TRANSACTION_PREPARED = "TRAN_MSG";
    /** Set on a batch message. */
    public static final String MSG_REGION = "MSG_REGION";
    /** The internal topic on which delayed messages wait. */
    public static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";

    /** Separates a property name from its value. */
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    /** Ends a property. */
    public static final char PROPERTY_SEPARATOR = '\u0002';
    /** Separates the keys of {@link #KEYS}. */
    public static final char KEY_SEPARATOR = ' ';

    private MessageConst() {
    }
}
