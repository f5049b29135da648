package dev.hangar.spi.flush;

/**
 * How a service tells the store that it can no longer promise durability: the store stops accepting puts
 * (SERVICE_NOT_AVAILABLE with the reason) until an operator fixes the cause.
 */
public interface StoreHealth {

    /** Marks the store not writable, with a reason shown in refusals, logs and {@code stat}. */
    void markNotWritable(String reason, Throwable cause);

    boolean isWritable();
}
