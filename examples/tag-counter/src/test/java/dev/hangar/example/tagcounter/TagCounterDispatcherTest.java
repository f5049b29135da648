package dev.hangar.example.tagcounter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.assembly.ProviderInfo;
import dev.hangar.store.assembly.ProviderRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TagCounterDispatcherTest {
    @TempDir
    Path dir;

    private StoreConfig config(Path store) {
        return StoreConfig.builder()
                .set("storePathRootDir", store.toString(), "test")
                .set("mappedFileSizeCommitLog", "65536", "test")
                .set("mappedFileSizeConsumeQueue", "20000", "test")
                .set("maxHashSlotNum", "1000", "test")
                .set("maxIndexNum", "4000", "test")
                .set("dispatchers", "consume-queue,index,tag-counter", "test")
                .build();
    }

    /** Packs the compiled plugin into a jar in a plugins folder, as a user would drop it there. */
    private Path pluginsFolder() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Path classes = Path.of("target", "classes");
        try (OutputStream out = Files.newOutputStream(plugins.resolve("tag-counter.jar"));
             JarOutputStream jar = new JarOutputStream(out);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                jar.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                jar.write(Files.readAllBytes(f));
                jar.closeEntry();
            }
        }
        return plugins;
    }

    @Test
    void countsEveryTaggedMessageFoundInAPluginsFolderAndSurvivesARestart() throws IOException {
        Path store = dir.resolve("store");
        ProviderRegistry registry = ProviderRegistry.discover(pluginsFolder());
        assertTrue(registry.all().stream().map(ProviderInfo::name).anyMatch("tag-counter"::equals));
        try (DefaultMessageStore s = new DefaultMessageStore(config(store), registry)) {
            s.start();
            for (int i = 0; i < 30; i++) {
                s.putMessage(new Message("Orders", ("o" + i).getBytes(StandardCharsets.UTF_8)).tags(i % 3 == 0 ? "big" : "small"));
            }
        }
        Properties p = new Properties();
        p.load(Files.newBufferedReader(store.resolve("tag-counter").resolve("counts.properties")));
        assertEquals("10", p.getProperty("Orders/big"));
        assertEquals("20", p.getProperty("Orders/small"));
        try (DefaultMessageStore s = new DefaultMessageStore(config(store), ProviderRegistry.discover(pluginsFolder()))) {
            s.start();
            s.putMessage(new Message("Orders", new byte[] {1}).tags("big"));
        }
        p.load(Files.newBufferedReader(store.resolve("tag-counter").resolve("counts.properties")));
        assertEquals("11", p.getProperty("Orders/big"), "counted once each across a restart");

        // a read-only open (stat, get, query) leaves the plugin's file alone
        Path counts = store.resolve("tag-counter").resolve("counts.properties");
        byte[] before = Files.readAllBytes(counts);
        var modified = Files.getLastModifiedTime(counts);
        try (DefaultMessageStore s = new DefaultMessageStore(config(store), ProviderRegistry.discover(pluginsFolder()))) {
            s.startReadOnly();
            assertEquals(31, s.getMaxOffsetInQueue("Orders", 0) + s.getMaxOffsetInQueue("Orders", 1)
                    + s.getMaxOffsetInQueue("Orders", 2) + s.getMaxOffsetInQueue("Orders", 3));
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(before, Files.readAllBytes(counts));
        assertEquals(modified, Files.getLastModifiedTime(counts));
    }

    @Test
    void truncationDropsCountsThatMayIncludeDroppedRecords() {
        TagCounterDispatcher d = new TagCounterDispatcher(dir.resolve("c.properties"), java.util.Set.of());
        d.dispatch(dev.hangar.spi.dispatch.DispatchRequest.of("T", 0, 0, 100, 0, 1, 0, null, null, 0, 0,
                java.util.Map.of("TAGS", "a"), 1));
        d.dispatch(dev.hangar.spi.dispatch.DispatchRequest.of("T", 0, 0, 100, 0, 1, 0, null, null, 0, 0,
                java.util.Map.of("TAGS", "a"), 1));
        assertEquals(1L, d.counts().get("T/a"), "a re-sent record is not counted twice");
        d.truncate(50);
        assertTrue(d.counts().isEmpty());
        assertEquals(0, d.durableOffset());
    }

    @Test
    void theDeclaredTopicsKeyLimitsWhatIsCountedAndAMisspeltKeyGetsADidYouMean() throws IOException {
        Path store = dir.resolve("store");
        ProviderRegistry registry = ProviderRegistry.discover(pluginsFolder());
        StoreConfig.Builder b = StoreConfig.builder();
        registry.declaredKeys().forEach(b::declare);
        StoreConfig config = b.set("storePathRootDir", store.toString(), "test")
                .set("mappedFileSizeCommitLog", "65536", "test")
                .set("mappedFileSizeConsumeQueue", "20000", "test")
                .set("maxHashSlotNum", "1000", "test")
                .set("maxIndexNum", "4000", "test")
                .set("dispatchers", "consume-queue,index,tag-counter", "test")
                .set("tag-counter.topics", "Orders", "-D")
                .build();
        try (DefaultMessageStore s = new DefaultMessageStore(config, registry)) {
            s.start();
            s.putMessage(new Message("Orders", new byte[] {1}).tags("red"));
            s.putMessage(new Message("Refunds", new byte[] {2}).tags("red"));
        }
        Properties p = new Properties();
        p.load(Files.newBufferedReader(store.resolve("tag-counter").resolve("counts.properties")));
        assertEquals("1", p.getProperty("Orders/red"));
        assertEquals(null, p.getProperty("Refunds/red"), "only the configured topics are counted");

        StoreConfig.Builder misspelt = StoreConfig.builder();
        registry.declaredKeys().forEach(misspelt::declare);
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.hangar.spi.config.ConfigException.class,
                () -> misspelt.set("tag-counter.topic", "Orders", "-D"));
        assertTrue(e.getMessage().contains("did you mean 'tag-counter.topics'"), e.getMessage());
        var bad = org.junit.jupiter.api.Assertions.assertThrows(dev.hangar.spi.config.ConfigException.class,
                () -> misspelt.set("tag-counter.topics", "Orders,bad topic!", "-D"));
        assertTrue(bad.getMessage().contains("topic names separated by commas"), bad.getMessage());
    }
}
