package dev.hangar.store.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.ha.ReplicationServiceProvider;
import dev.hangar.spi.lock.PutMessageLockProvider;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.assembly.PluginFolderLoader;
import dev.hangar.store.assembly.ProviderInfo;
import dev.hangar.store.assembly.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subfolder of the plugins folder is a class-path plugin: non-modular jars with split packages (as Apache Ratis'
 * are) on a loader of their own, found through META-INF/services, selected by name, created and started with that
 * loader as the thread context class loader. The plugins are compiled here, so no class path of the test run holds
 * them.
 */
class PluginFolderTest {
    private static final String SERVICES = "META-INF/services/" + ReplicationServiceProvider.class.getName();

    /** The jars of the plugins "alpha" and "beta", and of one whose library is left out, built once. */
    @TempDir
    static Path built;

    @TempDir
    Path dir;

    private Path plugins;

    @BeforeAll
    static void buildThePlugins() throws IOException {
        for (String name : List.of("alpha", "beta")) {
            Path lib = FolderPluginJars.jar(built.resolve(name).resolve(name + "-lib.jar"), Map.of(
                    "shared.lib.Origin", """
                            package shared.lib;
                            public class Origin {
                                public static String of() { return "lib-of-%s"; }
                                static String packagePrivate() { return "extra-of-%s"; }
                            }
                            """.formatted(name, name)), Map.of());
            FolderPluginJars.jar(built.resolve(name).resolve(name + "-provider.jar"), Map.of(
                    // the library's package again, in another jar: a split package, as org.apache.ratis.server is
                    "shared.lib.Extra", """
                            package shared.lib;
                            public class Extra {
                                public static String tag() { return Origin.packagePrivate(); }
                            }
                            """,
                    name + "." + providerClass(name), providerSource(name)),
                    Map.of(SERVICES, name + "." + providerClass(name) + "\n"), lib);
        }
        Path base = FolderPluginJars.jar(built.resolve("lib-of-gamma").resolve("base.jar"), Map.of("shared.base.Base",
                "package shared.base; public abstract class Base { }"), Map.of());
        FolderPluginJars.jar(built.resolve("gamma").resolve("gamma-provider.jar"), Map.of("gamma.GammaProvider", """
                package gamma;
                public class GammaProvider extends shared.base.Base
                        implements dev.hangar.spi.ha.ReplicationServiceProvider {
                    public String name() { return "gamma-test"; }
                    public dev.hangar.spi.ha.ReplicationService create(dev.hangar.spi.ha.ReplicationContext c) {
                        throw new UnsupportedOperationException();
                    }
                }
                """), Map.of(SERVICES, "gamma.GammaProvider\n"), base);
    }

    private static String providerClass(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1) + "Provider";
    }

    /**
     * A replication provider that records, through {@link FolderPluginProbe}, the context loader it was constructed,
     * created and started with, what its library says, and whether it can see the other plugin's classes.
     */
    private static String providerSource(String name) {
        String other = name.equals("alpha") ? "beta.BetaProvider" : "alpha.AlphaProvider";
        return """
                package %1$s;
                import dev.hangar.spi.ha.*;
                import dev.hangar.spi.store.PutMessageStatus;
                import dev.hangar.store.plugin.FolderPluginProbe;
                import java.util.concurrent.CompletableFuture;
                public class %2$s implements ReplicationServiceProvider {
                    public %2$s() {
                        FolderPluginProbe.record("%1$s.constructed", Thread.currentThread().getContextClassLoader());
                    }
                    public String name() { return "%1$s-test"; }
                    public ReplicationService create(ReplicationContext context) {
                        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
                        FolderPluginProbe.record("%1$s.create", tccl);
                        FolderPluginProbe.record("%1$s.library", shared.lib.Origin.of() + "+" + shared.lib.Extra.tag());
                        try {
                            // as Ratis finds its own classes: by name, through the context loader
                            FolderPluginProbe.record("%1$s.byContext", Class.forName("shared.lib.Origin", true, tccl));
                        } catch (ClassNotFoundException e) {
                            FolderPluginProbe.record("%1$s.byContext", e);
                        }
                        try {
                            Class.forName("%3$s");
                            FolderPluginProbe.record("%1$s.seesTheOther", true);
                        } catch (ClassNotFoundException e) {
                            FolderPluginProbe.record("%1$s.seesTheOther", false);
                        }
                        return new ReplicationService() {
                            public void start() {
                                Thread worker = new Thread(() -> FolderPluginProbe.record("%1$s.thread",
                                        Thread.currentThread().getContextClassLoader()), "%1$s-worker");
                                worker.start();
                                try {
                                    worker.join();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }
                            public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean wait) {
                                return CompletableFuture.completedFuture(PutMessageStatus.PUT_OK);
                            }
                            public ReplicationStatus status() {
                                return new ReplicationStatus(context.role(), "", "", 0, 0, 0, 0, 0, 0, null);
                            }
                            public void shutdown() {
                                FolderPluginProbe.record("%1$s.shutdown", true);
                            }
                        };
                    }
                }
                """.formatted(name, providerClass(name), other);
    }

    @BeforeEach
    void installAlphaAndBeta() throws IOException {
        FolderPluginProbe.clear();
        plugins = dir.resolve("plugins");
        install("alpha");
        install("beta");
    }

    private Path install(String name) throws IOException {
        Path folder = Files.createDirectories(plugins.resolve(name));
        try (Stream<Path> jars = Files.list(built.resolve(name))) {
            for (Path jar : jars.toList()) {
                Files.copy(jar, folder.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return folder;
    }

    private static PluginFolderLoader loaderOf(ProviderRegistry registry, String name) {
        return (PluginFolderLoader) registry.select(ReplicationServiceProvider.class, name, "haService")
                .getClass().getClassLoader();
    }

    @Test
    void aSubfolderIsAPluginListedWithItsFolderAndJarBesideTheBuiltIns() {
        ProviderRegistry registry = ProviderRegistry.discover(plugins);
        ProviderInfo alpha = registry.all().stream().filter(p -> p.name().equals("alpha-test")).findFirst()
                .orElseThrow(() -> new AssertionError("alpha-test not found in " + registry.all()));
        assertEquals(new ProviderInfo("ReplicationServiceProvider", "alpha-test", "alpha/alpha-provider.jar", "", true),
                alpha);
        assertTrue(registry.names(ReplicationServiceProvider.class).containsAll(List.of("alpha-test", "beta-test")),
                registry.names(ReplicationServiceProvider.class).toString());
        assertTrue(registry.names(PutMessageLockProvider.class).containsAll(List.of("spin", "reentrant")),
                "the built-ins are still found");
        PluginFolderLoader loader = loaderOf(registry, "alpha-test");
        assertEquals(plugins.resolve("alpha"), loader.folder());
        assertSame(loader, FolderPluginProbe.seen("alpha.constructed"),
                "ServiceLoader created the provider with its folder's loader as the context loader");
    }

    @Test
    void theSelectedProviderIsCreatedAndStartedWithItsFolderAsTheContextLoader() {
        ProviderRegistry registry = ProviderRegistry.discover(plugins);
        PluginFolderLoader loader = loaderOf(registry, "alpha-test");
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (DefaultMessageStore store = new DefaultMessageStore(
                TestStores.config(dir.resolve("store"), "haService", "alpha-test"), registry)) {
            store.start();
            assertTrue(store.putMessage(TestStores.message("Folder", 0, "x")).isOk());
            assertSame(loader, FolderPluginProbe.seen("alpha.create"), "create ran with the folder's loader");
            assertSame(loader, FolderPluginProbe.seen("alpha.thread"), "a thread started by start() inherits it");
            Object byContext = FolderPluginProbe.seen("alpha.byContext");
            assertTrue(byContext instanceof Class<?> c && c.getClassLoader() == loader,
                    "a library finds its classes through the context loader: " + byContext);
            assertEquals("lib-of-alpha+extra-of-alpha", FolderPluginProbe.seen("alpha.library"),
                    "one package split over two jars of the folder is one package");
            assertSame(before, Thread.currentThread().getContextClassLoader(), "the caller's context loader is back");
        }
        assertEquals(true, FolderPluginProbe.seen("alpha.shutdown"));
    }

    @Test
    void twoFoldersNeverSeeEachOthersLibraries() throws ClassNotFoundException {
        ProviderRegistry registry = ProviderRegistry.discover(plugins);
        try (DefaultMessageStore store = new DefaultMessageStore(
                TestStores.config(dir.resolve("store"), "haService", "beta-test"), registry)) {
            store.start();
            assertEquals("lib-of-beta+extra-of-beta", FolderPluginProbe.seen("beta.library"),
                    "beta's own library, although alpha holds classes of the same names");
            assertEquals(false, FolderPluginProbe.seen("beta.seesTheOther"));
        }
        PluginFolderLoader alpha = loaderOf(registry, "alpha-test");
        PluginFolderLoader beta = loaderOf(registry, "beta-test");
        assertNotSame(alpha, beta);
        assertNotSame(alpha.loadClass("shared.lib.Origin"), beta.loadClass("shared.lib.Origin"));
        assertThrows(ClassNotFoundException.class, () -> alpha.loadClass("beta.BetaProvider"));
        assertSame(beta.loadClass(ReplicationServiceProvider.class.getName()), ReplicationServiceProvider.class,
                "the SPI types are the engine's");
    }

    @Test
    void anEmptySubfolderStopsDiscoveryNamingIt() throws IOException {
        Files.createDirectories(plugins.resolve(".cache"));
        assertTrue(ProviderRegistry.discover(plugins).names(ReplicationServiceProvider.class).contains("alpha-test"),
                "a hidden folder is nobody's plugin");
        Path empty = Files.createDirectories(plugins.resolve("empty"));
        ConfigException e = assertThrows(ConfigException.class, () -> ProviderRegistry.discover(plugins));
        assertTrue(e.getMessage().contains(empty.toString()) && e.getMessage().contains("holds no jar"),
                e.getMessage());
    }

    @Test
    void anUnreadableJarStopsDiscoveryNamingTheFolderAndTheJar() throws IOException {
        Files.writeString(plugins.resolve("alpha").resolve("truncated.jar"), "PK not really a jar");
        ConfigException e = assertThrows(ConfigException.class, () -> ProviderRegistry.discover(plugins));
        assertTrue(e.getMessage().contains(plugins.resolve("alpha").toString())
                && e.getMessage().contains("truncated.jar is not a readable jar"), e.getMessage());
    }

    @Test
    void aServicesLineNamingAMissingClassNamesTheFolderAndTheJar() throws IOException {
        Path ghost = FolderPluginJars.jar(plugins.resolve("alpha").resolve("ghost.jar"), Map.of(),
                Map.of(SERVICES, "ghost.MissingProvider\n"));
        ConfigException e = assertThrows(ConfigException.class, () -> ProviderRegistry.discover(plugins));
        assertTrue(e.getMessage().contains(ghost.toString()) && e.getMessage().contains("ghost.MissingProvider"),
                e.getMessage());
    }

    @Test
    void aProviderWhoseLibraryIsNotInItsFolderNamesTheJarAndWhatToCheck() throws IOException {
        install("gamma");
        ConfigException e = assertThrows(ConfigException.class, () -> ProviderRegistry.discover(plugins));
        assertTrue(e.getMessage().contains(plugins.resolve("gamma").resolve("gamma-provider.jar").toString())
                && e.getMessage().contains("shared.base.Base")
                && e.getMessage().contains("is every library it needs in " + plugins.resolve("gamma")), e.getMessage());
        Files.copy(built.resolve("lib-of-gamma").resolve("base.jar"), plugins.resolve("gamma").resolve("base.jar"));
        assertTrue(ProviderRegistry.discover(plugins).names(ReplicationServiceProvider.class).contains("gamma-test"),
                "with its library beside it the same jar loads");
    }

    @Test
    void aFolderOfLibrariesWithoutAProviderStopsDiscoveryNamingIt() throws IOException {
        Path libs = Files.createDirectories(plugins.resolve("libs"));
        Files.copy(built.resolve("alpha").resolve("alpha-lib.jar"), libs.resolve("alpha-lib.jar"));
        ConfigException e = assertThrows(ConfigException.class, () -> ProviderRegistry.discover(plugins));
        assertTrue(e.getMessage().contains(libs.toString())
                && e.getMessage().contains("provides none of Hangar's SPIs"), e.getMessage());
    }
}
