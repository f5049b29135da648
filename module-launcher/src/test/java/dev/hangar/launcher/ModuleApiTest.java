package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.store.DefaultMessageStore;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The engine's API is what its module exports: a handful of packages for everyone, the operator's extras only to
 * the launcher, and the launcher itself (an application) exports nothing. Reads the compiled descriptors (these
 * tests run on the class path). Catches a package exported again to everyone, e.g. to reach an internal from a new
 * command.
 */
class ModuleApiTest {
    @Test
    void theEngineExportsAtMostFourPackagesToEveryoneAndTheRestOnlyToTheLauncher() throws Exception {
        ModuleDescriptor engine = descriptorOf(DefaultMessageStore.class);
        assertEquals("dev.hangar.store", engine.name());
        List<String> toEveryone = engine.exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).sorted().toList();
        assertTrue(toEveryone.size() <= 4, "exported to everyone: " + toEveryone);
        assertEquals(List.of("dev.hangar.store", "dev.hangar.store.assembly"), toEveryone);
        engine.exports().stream().filter(ModuleDescriptor.Exports::isQualified).forEach(e ->
                assertEquals(Set.of("dev.hangar.launcher"), e.targets(), e.source() + " is exported to"));
    }

    @Test
    void theLauncherExportsNothing() throws Exception {
        ModuleDescriptor launcher = descriptorOf(StoreLauncher.class);
        assertEquals("dev.hangar.launcher", launcher.name());
        assertEquals(Set.of(), launcher.exports());
    }

    /** The module-info.class beside {@code type}: in its jar, or in its classes folder. */
    private static ModuleDescriptor descriptorOf(Class<?> type) throws IOException, URISyntaxException {
        Path where = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(where)) {
            try (InputStream in = Files.newInputStream(where.resolve("module-info.class"))) {
                return ModuleDescriptor.read(in);
            }
        }
        try (JarFile jar = new JarFile(where.toFile()); InputStream in = jar.getInputStream(jar.getEntry("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }
}
