package dev.hangar.launcher;

/** How a command uses the store directory; decides whether it gets a log file under {@code <store>/logs/}. */
public enum StoreUse {
    /** Opens no store ({@code plugins}, {@code config}). */
    NONE,
    /**
     * Reads an existing store without changing it ({@code get}, {@code query}, {@code stat}): opened read-only, a
     * missing store is refused, and so is one that needs recovery.
     */
    READ,
    /** Changes an existing store and refuses a missing one ({@code clean}). */
    EXISTING,
    /** Opens the store, creating it when missing ({@code put}, {@code bench}). */
    CREATE
}
