package dev.hangar.launcher.command;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The live line of {@code bench} on a terminal: every second, on stderr, overwritten in place with {@code \r}:
 * messages and MiB per second over the last second, the dispatch lag in bytes, and flushes per second. Off when
 * the output is not a terminal (no console), so logs and pipes never see it.
 *
 * <p>Ticks run on one daemon thread; {@link #close()} stops them and clears the line. Thread-safe.
 */
final class BenchProgress implements AutoCloseable {
    private static final double MIB = 1024.0 * 1024.0;

    private final PrintWriter err;
    private final LongSupplier okMessages;
    private final LongSupplier dispatchLagBytes;
    private final LongSupplier flushes;
    private final int messageSize;
    private final ScheduledExecutorService ticker;
    private long lastNanos = System.nanoTime();
    private long lastMessages;
    private long lastFlushes;
    private int lastLength;
    private boolean closed;

    /**
     * @param enabled          false gives a progress line that prints nothing (not a terminal)
     * @param okMessages       messages put so far
     * @param dispatchLagBytes commit-log bytes not yet dispatched
     * @param flushes          commit-log flushes so far
     */
    BenchProgress(boolean enabled, PrintWriter err, LongSupplier okMessages, LongSupplier dispatchLagBytes,
                  LongSupplier flushes, int messageSize) {
        this.err = err;
        this.okMessages = okMessages;
        this.dispatchLagBytes = dispatchLagBytes;
        this.flushes = flushes;
        this.messageSize = messageSize;
        this.lastMessages = okMessages.getAsLong();
        this.lastFlushes = flushes.getAsLong();
        if (enabled) {
            ticker = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread t = new Thread(task, "bench-progress");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        } else {
            ticker = null;
        }
    }

    /** Prints the line for the time since the last tick. */
    synchronized void tick() {
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        double seconds = Math.max(1e-9, (now - lastNanos) / 1e9);
        long messages = okMessages.getAsLong();
        long flushCount = flushes.getAsLong();
        double rate = (messages - lastMessages) / seconds;
        String line = String.format(Locale.ROOT, "%,12.0f msg/s %9.2f MiB/s  dispatch lag %,14d B %8.1f flushes/s %,14d put",
                rate, rate * messageSize / MIB, dispatchLagBytes.getAsLong(), (flushCount - lastFlushes) / seconds, messages);
        err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
        err.flush();
        lastLength = line.length();
        lastNanos = now;
        lastMessages = messages;
        lastFlushes = flushCount;
    }

    @Override
    public synchronized void close() {
        if (ticker == null || closed) {
            return;
        }
        closed = true;
        ticker.shutdownNow();
        if (lastLength > 0) {
            err.print("\r" + " ".repeat(lastLength) + "\r");
            err.flush();
        }
    }
}
