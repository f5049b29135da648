package dev.hangar.compat.support;

import java.util.List;

/**
 * One put call of a dataset: a single message, or a batch (one topic and queue, consecutive queue offsets,
 * one call). Immutable.
 */
public record PutSpec(List<MessageSpec> messages, boolean batch) {
    public PutSpec {
        messages = List.copyOf(messages);
        if (messages.isEmpty() || (!batch && messages.size() != 1)) {
            throw new IllegalArgumentException("a single put has one message, a batch at least one");
        }
    }

    public static PutSpec single(MessageSpec message) {
        return new PutSpec(List.of(message), false);
    }

    public static PutSpec batch(List<MessageSpec> messages) {
        return new PutSpec(messages, true);
    }
}
