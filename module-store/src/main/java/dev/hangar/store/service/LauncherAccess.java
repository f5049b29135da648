package dev.hangar.store.service;

import dev.hangar.spi.store.MessageStore;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The live flags and counters of a store, for the launcher only: this package is exported to it alone
 * (module-store's {@code module-info.java}), so the engine's public API ({@code DefaultMessageStore}) does not
 * hand out types an embedder cannot use. Embedders read the same figures, typed, from
 * {@code DefaultMessageStore.statsSnapshot()}.
 *
 * <p>{@code DefaultMessageStore} registers its parts when it is built; the map holds stores weakly, so a store
 * nobody references any more is not kept alive by it.
 */
public final class LauncherAccess {
    private record Parts(RunningFlags flags, StoreStats stats) {
    }

    private static final Map<MessageStore, Parts> PARTS = Collections.synchronizedMap(new WeakHashMap<>());

    private LauncherAccess() {
    }

    /** Called by the store's constructor; a second call for the same store replaces the first. */
    public static void register(MessageStore store, RunningFlags flags, StoreStats stats) {
        PARTS.put(store, new Parts(flags, stats));
    }

    public static RunningFlags runningFlags(MessageStore store) {
        return parts(store).flags();
    }

    public static StoreStats stats(MessageStore store) {
        return parts(store).stats();
    }

    private static Parts parts(MessageStore store) {
        Parts p = PARTS.get(store);
        if (p == null) {
            throw new IllegalArgumentException("not a store built by DefaultMessageStore: " + store);
        }
        return p;
    }
}
