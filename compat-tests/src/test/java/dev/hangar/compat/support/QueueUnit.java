package dev.hangar.compat.support;

/** One 20-byte ConsumeQueue unit as an engine reads it back. */
public record QueueUnit(long commitLogOffset, int size, long tagsCode) {
}
