package dev.hangar.store.plugin;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Builds non-modular plugin jars at test time: sources compiled with javac into a jar with its
 * {@code META-INF/services} files. Their classes are on no class path of the test run, so only the loader of the
 * plugin folder they are put in can define them.
 */
final class FolderPluginJars {
    private FolderPluginJars() {
    }

    /**
     * Compiles {@code sources} (class name -> source) against the engine's SPI, the test classes and
     * {@code classPath}, and writes them with {@code resources} (entry name -> text) to {@code jar}.
     */
    static Path jar(Path jar, Map<String, String> sources, Map<String, String> resources, Path... classPath)
            throws IOException {
        Path work = Files.createTempDirectory("hangar-plugin-build-");
        Path classes = Files.createDirectories(work.resolve("classes"));
        try {
            if (!sources.isEmpty()) {
                compile(classes, Files.createDirectories(work.resolve("src")), sources, classPath);
            }
            Files.createDirectories(jar.getParent());
            write(jar, classes, resources);
        } finally {
            try (Stream<Path> s = Files.walk(work)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        return jar;
    }

    private static void write(Path jar, Path classes, Map<String, String> resources) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(classes)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                zip.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                zip.write(Files.readAllBytes(f));
                zip.closeEntry();
            }
            for (Map.Entry<String, String> r : resources.entrySet()) {
                zip.putNextEntry(new JarEntry(r.getKey()));
                zip.write(r.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
    }

    private static void compile(Path out, Path src, Map<String, String> sources, Path... classPath)
            throws IOException {
        List<String> path = new ArrayList<>();
        path.add(locationOf(dev.hangar.spi.NamedProvider.class));
        path.add(locationOf(FolderPluginProbe.class));
        for (Path p : classPath) {
            path.add(p.toString());
        }
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "--release", "17", "-classpath",
                String.join(File.pathSeparator, path)));
        for (Map.Entry<String, String> unit : sources.entrySet()) {
            Path file = src.resolve(unit.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, unit.getValue());
            args.add(file.toString());
        }
        // javac through java.util.spi.ToolProvider: java.base only, no javax.tools for the test module to read
        ToolProvider javac = ToolProvider.findFirst("javac")
                .orElseThrow(() -> new IllegalStateException("the tests need a JDK's javac"));
        StringWriter errors = new StringWriter();
        int code = javac.run(new PrintWriter(errors), new PrintWriter(errors), args.toArray(new String[0]));
        if (code != 0) {
            throw new IllegalStateException("the test plugin does not compile: " + errors
                    + sources.keySet().stream().collect(Collectors.joining(", ", " (", ")")));
        }
    }

    private static String locationOf(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
