package dev.hangar.compat.support;

import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls for a condition a background thread brings about, with a generous bound. */
public final class Await {
    private static final long BOUND_MILLIS = 20_000;

    private Await() {
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, condition, () -> "");
    }

    /** Fails with {@code what} and the current {@code state} when the condition is not met within 20 s. */
    public static void until(String what, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.currentTimeMillis() + BOUND_MILLIS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out after " + BOUND_MILLIS + " ms waiting for: " + what + " "
                        + state.get());
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what);
            }
        }
    }

    /** Waits until every queue reaches its max offset and nothing is left to dispatch. */
    public static void dispatched(StoreReader reader, Map<String, Integer> maxOffsets) {
        until(reader.engine() + " dispatched every message", () -> {
            // <= 0: RocketMQ reports a negative lag when its reput offset lies past the commit log's end
            if (reader.dispatchBehindBytes() > 0) {
                return false;
            }
            for (Map.Entry<String, Integer> e : maxOffsets.entrySet()) {
                if (reader.maxOffset(Dataset.topicOf(e.getKey()), Dataset.queueIdOf(e.getKey())) < e.getValue()) {
                    return false;
                }
            }
            return true;
        }, () -> "behind=" + reader.dispatchBehindBytes() + " queues=" + currentMax(reader, maxOffsets)
                + " expected=" + maxOffsets);
    }

    private static String currentMax(StoreReader reader, Map<String, Integer> maxOffsets) {
        StringBuilder sb = new StringBuilder("{");
        maxOffsets.keySet().forEach(q -> sb.append(q).append('=')
                .append(reader.maxOffset(Dataset.topicOf(q), Dataset.queueIdOf(q))).append(", "));
        return sb.append('}').toString();
    }
}
