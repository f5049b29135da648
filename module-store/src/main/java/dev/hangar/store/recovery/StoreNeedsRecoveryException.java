package dev.hangar.store.recovery;

/**
 * A read-only open found a store that only a writer may open: its last shutdown was not clean, or files lie past
 * the log end. Nothing was changed; the message says what was found and how to recover.
 */
public final class StoreNeedsRecoveryException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public StoreNeedsRecoveryException(String found) {
        super("the store needs recovery (" + found + "); a read-only command does not change it: open it once with a "
                + "writing command (put, serve) to recover it, or inspect it as it is with verify");
    }
}
