package dev.hangar.store.assembly;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The class loader of one class-path plugin: every jar of one subfolder of the plugins folder (e.g.
 * {@code plugins/raft/}), over the loader of {@code dev.hangar.spi}, so the plugin and the engine share the SPI types
 * while two such folders never see each other's libraries.
 *
 * <p>Libraries that look classes up through the thread context class loader (Apache Ratis keeps the one it first sees
 * in a static field) must find their own folder there: the engine runs a provider's {@code create} and the start of
 * what it created inside {@link #withContextLoaderOf}, and the threads started then inherit it.
 */
public final class PluginFolderLoader extends URLClassLoader {
    private static final String SPI_SERVICES = "META-INF/services/dev.hangar.spi.";

    private final Path folder;
    /** The folder's services files of Hangar's SPIs, by entry name, as its jars held them when it was opened. */
    private final Map<String, List<URL>> spiServices;

    PluginFolderLoader(Path folder, URL[] jars, ClassLoader parent, Map<String, List<URL>> spiServices) {
        super("hangar-plugin-" + folder.getFileName(), jars, parent);
        this.folder = folder;
        this.spiServices = Map.copyOf(spiServices);
    }

    /**
     * Hangar's SPI services files come from what the folder's jars held when it was opened: looking them up through
     * the class path would open every jar of the folder and keep it open (for plugins/raft/, 1.5 MB of zip directories
     * on the heap of every store, also one that does not use the plugin). Classes are loaded as usual, opening a jar
     * when it is first needed.
     */
    @Override
    public Enumeration<URL> findResources(String name) throws IOException {
        if (name.startsWith(SPI_SERVICES)) {
            return Collections.enumeration(spiServices.getOrDefault(name, List.of()));
        }
        return super.findResources(name);
    }

    /** The folder whose jars this loader reads. */
    public Path folder() {
        return folder;
    }

    /**
     * Runs {@code action} with the thread context class loader set to the {@link PluginFolderLoader} that defined
     * {@code provider}'s class, and restores the previous one after it; for a provider from anywhere else (the image,
     * a plugin module) it runs {@code action} as it is.
     */
    public static <T> T withContextLoaderOf(Object provider, Supplier<T> action) {
        return provider.getClass().getClassLoader() instanceof PluginFolderLoader loader
                ? loader.asContextLoader(action) : action.get();
    }

    /** {@link #withContextLoaderOf} for an action without a result. */
    public static void runWithContextLoaderOf(Object provider, Runnable action) {
        withContextLoaderOf(provider, () -> {
            action.run();
            return null;
        });
    }

    /** Runs {@code action} with this loader as the thread context class loader, restoring the previous one after. */
    <T> T asContextLoader(Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(this);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
