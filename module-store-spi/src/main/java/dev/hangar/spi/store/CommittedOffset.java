package dev.hangar.spi.store;

/** One committed offset: the next queue offset {@code group} will read from {@code topic}'s queue {@code queueId}. */
public record CommittedOffset(String group, String topic, int queueId, long offset) {
}
