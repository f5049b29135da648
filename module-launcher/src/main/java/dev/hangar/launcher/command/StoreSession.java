package dev.hangar.launcher.command;

import dev.hangar.launcher.ErrorMessages;
import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.assembly.ProviderRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * One opened store for the length of a command: assembled from the launcher's configuration and providers,
 * started (which recovers the directory), and shut down by {@link #close()} - use it in try-with-resources
 * so that every exit path flushes and releases the directory lock.
 *
 * <p>A store that fails to open becomes one {@link LauncherException} naming the directory and the reason.
 * Used from the command's thread only; the store itself is thread-safe.
 */
public final class StoreSession implements AutoCloseable {
    /** How long a command waits for the dispatcher to catch up with the commit log. */
    public static final Duration DISPATCH_WAIT = Duration.ofSeconds(60);

    private final DefaultMessageStore store;
    private final Path directory;

    private StoreSession(DefaultMessageStore store, Path directory) {
        this.store = store;
        this.directory = directory;
    }

    /**
     * Opens the configured store.
     *
     * @param use {@link StoreUse#READ} for commands that only read: the store is opened read-only (nothing in the
     *            directory changes, no service runs); {@link StoreUse#EXISTING} or READ: a missing directory is then
     *            an error, not a new store
     */
    public static StoreSession open(StoreLauncher launcher, StoreConfig config, StoreUse use) {
        return open(launcher, config, use, launcher.storePath());
    }

    /** Opens a store whose {@code storePathRootDir} in {@code config} is {@code directory} (bench's warm-up store). */
    static StoreSession open(StoreLauncher launcher, StoreConfig config, StoreUse use, Path directory) {
        if (use != StoreUse.CREATE && !Files.isDirectory(directory)) {
            throw new LauncherException("no store at " + directory + " (give the store directory with --store DIR)");
        }
        ProviderRegistry registry = launcher.registry();
        DefaultMessageStore store;
        try {
            store = new DefaultMessageStore(config, registry);
        } catch (ConfigException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new LauncherException("cannot open the store at " + directory + ": " + ErrorMessages.oneLine(e), e);
        }
        try {
            if (use == StoreUse.READ) {
                store.startReadOnly();
            } else {
                store.start();
            }
        } catch (RuntimeException e) {
            try {
                store.shutdown();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof ConfigException) {
                throw e;
            }
            throw new LauncherException("cannot open the store at " + directory + ": " + ErrorMessages.oneLine(e), e);
        }
        return new StoreSession(store, directory);
    }

    public DefaultMessageStore store() {
        return store;
    }

    public Path directory() {
        return directory;
    }

    /**
     * Waits until everything in the commit log is dispatched (ConsumeQueues and the index are current), so a
     * read sees every message.
     *
     * @throws LauncherException when the dispatcher does not catch up within {@link #DISPATCH_WAIT}
     */
    public void awaitDispatched() {
        if (store.isReadOnly()) {
            // nothing dispatches in a read-only open; the open has logged what is missing
            return;
        }
        if (!await(() -> store.dispatchBehindBytes() <= 0, DISPATCH_WAIT)) {
            throw new LauncherException("the dispatcher is still " + store.dispatchBehindBytes()
                    + " bytes behind the commit log after " + DISPATCH_WAIT.toSeconds() + " s");
        }
    }

    /** Polls {@code condition} until it holds or {@code bound} passes; true when it holds. */
    public static boolean await(BooleanSupplier condition, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        long pauseMillis = 1;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            pauseMillis = Math.min(50, pauseMillis * 2);
        }
        return true;
    }

    /**
     * Waits for a put's answer, but not for ever: a put that has no answer {@code bound} after a sync flush
     * should have timed out is reported as UNKNOWN_ERROR, so a stuck flush never hangs the command.
     */
    public static PutMessageResult answer(CompletableFuture<PutMessageResult> put, Duration bound) {
        try {
            return put.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR,
                    "the store did not answer the put within " + bound.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, "interrupted while waiting for the put");
        } catch (ExecutionException e) {
            return PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, ErrorMessages.oneLine(e.getCause()));
        }
    }

    /** How long {@link #answer} waits: the sync-flush timeout plus a generous margin. */
    public static Duration putBound(StoreConfig config) {
        return Duration.ofMillis(config.get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT)).plusSeconds(30);
    }

    /** Shuts the store down: flushes everything and releases the directory. */
    @Override
    public void close() {
        store.shutdown();
    }
}
