package dev.hangar.store.assembly;

import dev.hangar.spi.NamedProvider;
import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.ConfigKey;
import dev.hangar.spi.config.DeclaredKey;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.lock.PutMessageLockProvider;
import dev.hangar.spi.mapped.MappedStorageProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds every provider of the SPIs - in the boot layer and in a plugins folder - and selects them by name with loud
 * diagnostics: an unknown name lists the names found, two providers with one name name both origins.
 *
 * <p>A plugins folder holds two kinds of plugin:
 * <ul>
 * <li><b>Jars directly in it</b> are modules. In a named module (the launcher, the jlink'd image) they become one
 *     {@link ModuleLayer} over {@link ModuleFinder#of}; on the class path (an embedder's tests) one child class
 *     loader, with providers found through {@code META-INF/services}.</li>
 * <li><b>Each subfolder</b> (e.g. {@code plugins/raft/}) is a class-path plugin: all its jars on one
 *     {@link PluginFolderLoader} of their own, whose parent is the loader of {@code dev.hangar.spi} (so the SPI types
 *     are the engine's), providers found through {@code META-INF/services}. This is for plugins built on libraries
 *     that cannot be modules: Apache Ratis' jars have no module descriptor (not even an {@code Automatic-Module-Name}),
 *     and {@code ratis-server} and {@code ratis-server-api} both hold {@code org.apache.ratis.server} and four of its
 *     sub-packages - two modules with one package cannot be resolved into one layer, while one class loader takes
 *     split packages as the class path always did. Each subfolder has its own loader, so two class-path plugins never
 *     see each other's libraries. Such a plugin's classes are in an unnamed module: they read every module of the
 *     image, and the JDK modules its libraries use must be linked into it (jlink/pom.xml).</li>
 * </ul>
 * A class-path plugin's providers are created, and their configuration keys listed, with its loader as the thread
 * context class loader; the engine does the same around {@code create} and the start of what it created
 * ({@link PluginFolderLoader#withContextLoaderOf}), because Ratis looks classes up through the context loader it
 * first sees. A subfolder without a jar or without a provider, an unreadable jar, or a {@code META-INF/services} line
 * naming a class that cannot be loaded stops discovery with one line naming the folder and the jar.
 *
 * <p>Discovery logs nothing: the launcher discovers before it sets up logging, and the first logger created fixes the
 * logging configuration.
 */
public final class ProviderRegistry {
    /** The SPIs this registry knows, in the order {@code plugins} lists them. */
    public static final List<Class<? extends NamedProvider>> SPIS = List.of(
            PutMessageLockProvider.class, MappedStorageProvider.class,
            FlushCommitLogServiceProvider.class, CommitLogDispatcherProvider.class,
            dev.hangar.spi.ha.ReplicationServiceProvider.class);

    private final Map<Class<?>, List<Found>> found = new LinkedHashMap<>();
    private final Path pluginsDir;

    private record Found(NamedProvider provider, ProviderInfo info) {
    }

    private ProviderRegistry(Path pluginsDir) {
        this.pluginsDir = pluginsDir;
    }

    /** Discovers providers in the boot layer and, when {@code pluginsDir} is a directory, in it. */
    public static ProviderRegistry discover(Path pluginsDir) {
        ProviderRegistry registry = new ProviderRegistry(pluginsDir);
        registry.load();
        return registry;
    }

    /** Every provider found, by SPI then name. */
    public List<ProviderInfo> all() {
        List<ProviderInfo> out = new ArrayList<>();
        for (List<Found> list : found.values()) {
            list.forEach(f -> out.add(f.info));
        }
        return out;
    }

    /** The names found for one SPI. */
    public List<String> names(Class<? extends NamedProvider> spi) {
        return found.getOrDefault(spi, List.of()).stream().map(f -> f.info.name()).distinct().sorted().toList();
    }

    /** Every provider found for one SPI, so the store can ask them what they serve. */
    public <P extends NamedProvider> List<P> providers(Class<P> spi) {
        return found.getOrDefault(spi, List.of()).stream().map(f -> spi.cast(f.provider)).toList();
    }

    /**
     * The provider of {@code spi} named {@code name}.
     *
     * @param configKey the key that chose the name, for the error message
     * @throws ConfigException on an unknown name (listing the names found) or a duplicate (naming both origins)
     */
    public <P extends NamedProvider> P select(Class<P> spi, String name, String configKey) {
        List<Found> matches = found.getOrDefault(spi, List.of()).stream()
                .filter(f -> f.info.name().equals(name)).toList();
        if (matches.isEmpty()) {
            throw new ConfigException("bad value for " + configKey + ": '" + name + "'; no " + spi.getSimpleName()
                    + " of that name; found: " + String.join(", ", names(spi))
                    + (pluginsDir == null ? "" : " (plugins folder: " + pluginsDir + ")"));
        }
        if (matches.size() > 1) {
            throw new ConfigException("two " + spi.getSimpleName() + " providers are named '" + name + "': "
                    + matches.stream().map(f -> f.provider.getClass().getName() + " in " + f.info.module())
                    .collect(Collectors.joining(" and "))
                    + "; remove one of them");
        }
        return spi.cast(matches.get(0).provider);
    }

    /**
     * The configuration keys every provider found declares for itself ({@link NamedProvider#configKeys()}), with the
     * module that declares them; hand them to {@link dev.hangar.spi.config.StoreConfig.Builder#declare} before
     * setting values.
     *
     * @throws ConfigException when a provider fails to list its keys (naming it and its module)
     */
    public List<DeclaredKey> declaredKeys() {
        List<DeclaredKey> keys = new ArrayList<>();
        for (List<Found> list : found.values()) {
            for (Found f : list) {
                List<ConfigKey<?>> own;
                try {
                    own = PluginFolderLoader.withContextLoaderOf(f.provider, f.provider::configKeys);
                } catch (RuntimeException | LinkageError e) {
                    throw new ConfigException("provider '" + f.info.name() + "' (" + f.info.module()
                            + ") cannot list its configuration keys: " + e);
                }
                for (ConfigKey<?> key : own == null ? List.<ConfigKey<?>>of() : own) {
                    keys.add(new DeclaredKey(key, f.info.name(), f.info.module()));
                }
            }
        }
        return keys;
    }

    /** The plugins folder this registry looked in, or null. */
    public Path pluginsDir() {
        return pluginsDir;
    }

    private void load() {
        ClassLoader pluginLoader = null;
        ModuleLayer pluginLayer = null;
        boolean isFolder = pluginsDir != null && Files.isDirectory(pluginsDir);
        boolean hasPlugins = isFolder && hasJars(pluginsDir);
        boolean named = ProviderRegistry.class.getModule().isNamed();
        if (hasPlugins && named) {
            pluginLayer = pluginLayer(pluginsDir);
        } else if (hasPlugins) {
            pluginLoader = pluginClassLoader(pluginsDir);
        }
        List<PluginFolder> folders = isFolder ? PluginFolder.in(pluginsDir) : List.of();
        Map<PluginFolder, Integer> foundIn = new LinkedHashMap<>();
        folders.forEach(f -> foundIn.put(f, 0));
        for (Class<? extends NamedProvider> spi : SPIS) {
            ServiceLoader<? extends NamedProvider> loader;
            if (pluginLayer != null) {
                loader = ServiceLoader.load(pluginLayer, spi);
            } else if (pluginLoader != null) {
                loader = ServiceLoader.load(spi, pluginLoader);
            } else if (named) {
                loader = ServiceLoader.load(ProviderRegistry.class.getModule().getLayer() == null
                        ? ModuleLayer.boot() : ProviderRegistry.class.getModule().getLayer(), spi);
            } else {
                loader = ServiceLoader.load(spi, ProviderRegistry.class.getClassLoader());
            }
            List<Found> list = new ArrayList<>();
            Set<Class<?>> seen = new java.util.HashSet<>();
            Iterator<? extends NamedProvider> providers = loader.iterator();
            while (true) {
                NamedProvider p;
                try {
                    if (!providers.hasNext()) {
                        break;
                    }
                    p = providers.next();
                } catch (ServiceConfigurationError | LinkageError e) {
                    throw BrokenPlugin.describe(spi, e, pluginsDir);
                }
                if (!seen.add(p.getClass())) {
                    continue;
                }
                list.add(new Found(p, new ProviderInfo(spi.getSimpleName(), p.name(), origin(p.getClass()),
                        p.description(), isPlugin(p.getClass(), pluginLayer, pluginLoader))));
            }
            for (PluginFolder folder : folders) {
                for (NamedProvider p : folder.providers(spi)) {
                    list.add(folder.loader().asContextLoader(() -> new Found(p, new ProviderInfo(spi.getSimpleName(),
                            p.name(), folder.origin(p.getClass()), p.description(), true))));
                    foundIn.merge(folder, 1, Integer::sum);
                }
            }
            list.sort((a, b) -> a.info.name().compareTo(b.info.name()));
            found.put(spi, list);
        }
        foundIn.forEach((folder, count) -> {
            if (count == 0) {
                // no warning instead: the launcher discovers before it sets up logging, and the first logger fixes it
                throw new ConfigException("plugin folder " + folder.dir() + " provides none of Hangar's SPIs (no "
                        + "META-INF/services/dev.hangar.spi.* file in its jars): add the plugin's own jar, or remove "
                        + "the folder");
            }
        });
    }

    private static boolean isPlugin(Class<?> c, ModuleLayer layer, ClassLoader loader) {
        if (layer != null) {
            return c.getModule().getLayer() == layer;
        }
        return loader != null && c.getClassLoader() == loader;
    }

    private static boolean hasJars(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(p -> p.toString().endsWith(".jar"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list plugins folder " + dir, e);
        }
    }

    private static ModuleLayer pluginLayer(Path dir) {
        ModuleFinder finder = ModuleFinder.of(dir);
        ModuleLayer parent = ProviderRegistry.class.getModule().getLayer();
        if (parent == null) {
            parent = ModuleLayer.boot();
        }
        try {
            // a jar whose descriptor cannot be read or derived fails here, naming the jar
            Set<String> roots = finder.findAll().stream().map(r -> r.descriptor().name()).collect(Collectors.toSet());
            Configuration cf = parent.configuration().resolveAndBind(finder, ModuleFinder.of(), roots);
            return parent.defineModulesWithOneLoader(cf, ProviderRegistry.class.getClassLoader());
        } catch (RuntimeException e) {
            throw new ConfigException("cannot load the plugins in " + dir + ": " + e.getMessage()
                    + (e.getCause() == null ? "" : ": " + e.getCause().getMessage())
                    + BrokenPlugin.jarsOfModulesNamedIn(e.getMessage(), finder));
        }
    }

    private static ClassLoader pluginClassLoader(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            List<URL> urls = new ArrayList<>();
            for (Path p : s.filter(x -> x.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(p.toUri().toURL());
            }
            return new URLClassLoader("hangar-plugins", urls.toArray(new URL[0]),
                    ProviderRegistry.class.getClassLoader());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read plugins folder " + dir, e);
        }
    }

    private static String origin(Class<?> c) {
        Module m = c.getModule();
        if (m.isNamed()) {
            return m.getName();
        }
        var src = c.getProtectionDomain().getCodeSource();
        if (src != null && src.getLocation() != null) {
            String loc = src.getLocation().getPath();
            int slash = loc.replaceAll("/$", "").lastIndexOf('/');
            return "classpath:" + (slash >= 0 ? loc.substring(slash + 1) : loc);
        }
        return "classpath";
    }

}
