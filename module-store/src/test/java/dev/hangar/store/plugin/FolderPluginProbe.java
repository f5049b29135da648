package dev.hangar.store.plugin;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the plugins compiled by {@link PluginFolderTest} saw, recorded by their own code: they reach this class through
 * their folder loader's parent, the loader of the engine and of these tests.
 */
public final class FolderPluginProbe {
    private static final Map<String, Object> SEEN = new ConcurrentHashMap<>();

    private FolderPluginProbe() {
    }

    public static void record(String what, Object value) {
        SEEN.put(what, value == null ? "null" : value);
    }

    static Object seen(String what) {
        return SEEN.get(what);
    }

    static void clear() {
        SEEN.clear();
    }
}
