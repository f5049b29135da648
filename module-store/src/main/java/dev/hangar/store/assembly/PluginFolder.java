package dev.hangar.store.assembly;

import dev.hangar.spi.NamedProvider;
import dev.hangar.spi.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.stream.Stream;

/**
 * One subfolder of the plugins folder, loaded as a class-path plugin: its jars on one {@link PluginFolderLoader},
 * its providers found through their {@code META-INF/services} files. See {@link ProviderRegistry} for why.
 */
final class PluginFolder {
    private final Path dir;
    private final PluginFolderLoader loader;

    private PluginFolder(Path dir, PluginFolderLoader loader) {
        this.dir = dir;
        this.loader = loader;
    }

    /** Every subfolder of {@code pluginsDir} but hidden ones, by name; one that cannot be used stops here, named. */
    static List<PluginFolder> in(Path pluginsDir) {
        List<Path> dirs;
        try (Stream<Path> s = Files.list(pluginsDir)) {
            // a hidden folder (.git, an editor's cache) is nobody's plugin
            dirs = s.filter(d -> Files.isDirectory(d) && !d.getFileName().toString().startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list plugins folder " + pluginsDir, e);
        }
        List<PluginFolder> folders = new ArrayList<>();
        for (Path dir : dirs) {
            folders.add(open(dir));
        }
        return folders;
    }

    private static PluginFolder open(Path dir) {
        List<Path> jars;
        try (Stream<Path> s = Files.list(dir)) {
            jars = s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list plugin folder " + dir, e);
        }
        if (jars.isEmpty()) {
            throw new ConfigException("plugin folder " + dir + " holds no jar: put the plugin's jar and the "
                    + "libraries it needs in it, or remove the folder");
        }
        URL[] urls = new URL[jars.size()];
        Map<String, List<URL>> spiServices = new HashMap<>();
        for (int i = 0; i < urls.length; i++) {
            Path jar = jars.get(i);
            // a jar the class loader cannot open would be skipped without a word: check each one first, and note the
            // services files of the SPIs it holds, so that discovery does not keep every jar of the folder open
            try (JarFile file = new JarFile(jar.toFile())) {
                urls[i] = jar.toUri().toURL();
                for (Class<?> spi : ProviderRegistry.SPIS) {
                    String services = "META-INF/services/" + spi.getName();
                    if (file.getEntry(services) != null) {
                        spiServices.computeIfAbsent(services, k -> new ArrayList<>())
                                .add(new URL("jar:" + urls[i] + "!/" + services));
                    }
                }
            } catch (MalformedURLException e) {
                throw new IllegalStateException(jar + " has no URL", e);
            } catch (IOException e) {
                throw new ConfigException("plugin folder " + dir + ": " + jar.getFileName()
                        + " is not a readable jar (" + e.getMessage() + "); fix or remove it");
            }
        }
        return new PluginFolder(dir, new PluginFolderLoader(dir, urls, NamedProvider.class.getClassLoader(),
                spiServices));
    }

    Path dir() {
        return dir;
    }

    PluginFolderLoader loader() {
        return loader;
    }

    /**
     * The providers of {@code spi} this folder's own jars declare (not those its loader sees through the engine's),
     * created with the folder's loader as the thread context class loader.
     *
     * @throws ConfigException when a provider cannot be loaded, naming the folder's jar that declares it
     */
    <P extends NamedProvider> List<P> providers(Class<P> spi) {
        return loader.asContextLoader(() -> {
            try {
                return ServiceLoader.load(spi, loader).stream()
                        .filter(p -> p.type().getClassLoader() == loader)
                        .map(ServiceLoader.Provider::get).toList();
            } catch (ServiceConfigurationError | LinkageError e) {
                // a provider class whose superclass or interface is missing fails as a bare NoClassDefFoundError,
                // which does not say which services line it came from: find it, so the message can name the jar
                Throwable named = e instanceof ServiceConfigurationError ? e : unloadable(spi)
                        .<Throwable>map(p -> new ServiceConfigurationError(spi.getName() + ": Provider " + p
                                + " could not be loaded", e)).orElse(e);
                throw BrokenPlugin.describe(spi, named, dir, " (is every library it needs in " + dir + "?)");
            }
        });
    }

    /** The first provider named in this folder's services files for {@code spi} whose class cannot be loaded. */
    private Optional<String> unloadable(Class<?> spi) {
        for (URL url : loader.getURLs()) {
            try (JarFile jar = new JarFile(Path.of(url.toURI()).toFile())) {
                ZipEntry entry = jar.getEntry("META-INF/services/" + spi.getName());
                if (entry == null) {
                    continue;
                }
                List<String> names;
                try (InputStream in = jar.getInputStream(entry)) {
                    names = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                            .map(l -> l.replaceAll("#.*", "").trim()).filter(l -> !l.isEmpty()).toList();
                }
                for (String name : names) {
                    try {
                        Class.forName(name, false, loader);
                    } catch (ClassNotFoundException | LinkageError e) {
                        return Optional.of(name);
                    }
                }
            } catch (IOException | URISyntaxException e) {
                // unreadable now: the original error still stands
            }
        }
        return Optional.empty();
    }

    /** {@code <folder>/<jar>}: where a class of this folder comes from, for {@code plugins} and error messages. */
    String origin(Class<?> c) {
        var src = c.getProtectionDomain().getCodeSource();
        String jar = "?";
        try {
            if (src != null && src.getLocation() != null) {
                jar = Path.of(src.getLocation().toURI()).getFileName().toString();
            }
        } catch (URISyntaxException | RuntimeException e) {
            // not a file: the folder alone still says where it came from
        }
        return dir.getFileName() + "/" + jar;
    }
}
