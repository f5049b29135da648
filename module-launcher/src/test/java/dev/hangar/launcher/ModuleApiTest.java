package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.store.DefaultMessageStore;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
    void theEnginesPublicMethodsNeitherTakeNorReturnTypesOfPackagesItDoesNotExportToEveryone() throws Exception {
        ModuleDescriptor engine = descriptorOf(DefaultMessageStore.class);
        Set<String> toEveryone = engine.exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
        List<String> leaks = new ArrayList<>();
        for (String pkg : toEveryone) {
            for (Class<?> type : classesOf(DefaultMessageStore.class, pkg)) {
                if (!Modifier.isPublic(type.getModifiers())) {
                    continue;
                }
                for (Method m : type.getDeclaredMethods()) {
                    if (!Modifier.isPublic(m.getModifiers()) && !Modifier.isProtected(m.getModifiers())) {
                        continue;
                    }
                    List<Class<?>> used = new ArrayList<>(List.of(m.getParameterTypes()));
                    used.add(m.getReturnType());
                    for (Class<?> u : used) {
                        while (u.isArray()) {
                            u = u.getComponentType();
                        }
                        String usedPkg = u.getPackageName();
                        if (usedPkg.startsWith("dev.hangar.store") && !toEveryone.contains(usedPkg)) {
                            leaks.add(type.getSimpleName() + "." + m.getName() + " uses " + u.getName());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), leaks, "an embedder could call these but not use what they take or return");
    }

    /** The classes of {@code pkg} in the jar or classes folder that holds {@code anchor}. */
    private static List<Class<?>> classesOf(Class<?> anchor, String pkg) throws Exception {
        Path where = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        String dir = pkg.replace('.', '/') + "/";
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(where)) {
            try (Stream<Path> files = Files.list(where.resolve(dir))) {
                files.map(f -> f.getFileName().toString()).forEach(names::add);
            }
        } else {
            try (JarFile jar = new JarFile(where.toFile())) {
                jar.stream().map(JarEntry::getName)
                        .filter(n -> n.startsWith(dir) && n.indexOf('/', dir.length()) < 0)
                        .map(n -> n.substring(dir.length())).forEach(names::add);
            }
        }
        List<Class<?>> classes = new ArrayList<>();
        for (String name : names) {
            if (name.endsWith(".class") && !name.equals("module-info.class") && !name.equals("package-info.class")) {
                classes.add(Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()), false,
                        anchor.getClassLoader()));
            }
        }
        assertTrue(!classes.isEmpty(), "no classes found for " + pkg + " in " + where);
        return classes;
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
