package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits for a condition a background thread brings about, with a generous bound instead of a timed assertion. */
public final class Await {
    private static final long BOUND_SECONDS = 60;

    private Await() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} after {@value #BOUND_SECONDS} s. */
    public static void until(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "gave up waiting (" + BOUND_SECONDS + " s) for " + what);
            Thread.sleep(1);
        }
    }
}
