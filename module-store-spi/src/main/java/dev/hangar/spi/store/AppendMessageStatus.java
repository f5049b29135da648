package dev.hangar.spi.store;

/** Outcome of one append into a mapped file, with RocketMQ's names. */
public enum AppendMessageStatus {
    PUT_OK,
    /** The record did not fit; a BLANK end record was written and the caller must roll to a new file. */
    END_OF_FILE,
    MESSAGE_SIZE_EXCEEDED,
    PROPERTIES_SIZE_EXCEEDED,
    UNKNOWN_ERROR
}
