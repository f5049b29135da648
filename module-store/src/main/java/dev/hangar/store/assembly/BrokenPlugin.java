package dev.hangar.store.assembly;

import dev.hangar.spi.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Turns a provider that cannot be loaded (a {@link java.util.ServiceConfigurationError}: a class missing, a module
 * the plugin uses but does not require, a constructor that throws) into one line naming the jar that declares it
 * and the root cause, instead of a stack trace.
 */
final class BrokenPlugin {
    private static final Pattern PROVIDER = Pattern.compile("Provider ([\\w.$]+)");
    private static final Pattern MODULE = Pattern.compile("[Mm]odule ([\\w.]+)");

    private BrokenPlugin() {
    }

    static ConfigException describe(Class<?> spi, Throwable error, Path pluginsDir) {
        return describe(spi, error, pluginsDir, " (does its module-info require every module it uses?)");
    }

    /**
     * @param missingClassHint what to check when a class the provider uses is missing, e.g. whether a module requires
     *                         what it uses
     */
    static ConfigException describe(Class<?> spi, Throwable error, Path pluginsDir, String missingClassHint) {
        Matcher m = PROVIDER.matcher(String.valueOf(error.getMessage()));
        String provider = m.find() ? m.group(1) : null;
        String jar = provider == null || pluginsDir == null ? null : jarDeclaring(provider, spi, pluginsDir);
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String cause = root == error ? String.valueOf(error.getMessage()).replace(spi.getName() + ": ", "")
                .replace("Provider " + provider + " ", "")
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        boolean classMissing = false;
        for (Throwable t = error; t != null && !classMissing; t = t.getCause() == t ? null : t.getCause()) {
            classMissing = t instanceof NoClassDefFoundError || t instanceof IllegalAccessError;
        }
        String hint = classMissing ? missingClassHint : "";
        return new ConfigException((jar != null ? "plugin jar " + jar : "a " + spi.getSimpleName() + " provider")
                + " is broken: " + (provider == null ? "" : "provider " + provider + ": ") + cause + hint
                + (jar != null ? "; fix or remove the jar" : ""));
    }

    /** " (module x: plugins/x.jar)" for every plugin module a resolution error names, else "". */
    static String jarsOfModulesNamedIn(String message, ModuleFinder finder) {
        if (message == null) {
            return "";
        }
        Matcher m = MODULE.matcher(message);
        StringBuilder jars = new StringBuilder();
        while (m.find()) {
            try {
                finder.find(m.group(1)).flatMap(ModuleReference::location)
                        .ifPresent(uri -> jars.append(jars.length() == 0 ? " (" : ", ").append(m.group(1)).append(": ")
                                .append(Path.of(uri)));
            } catch (RuntimeException e) {
                // the folder itself is unreadable: the message already says why
            }
        }
        return jars.length() == 0 ? "" : jars.append(")").toString();
    }

    /** The jar in the plugins folder whose module descriptor or services file names {@code provider}. */
    private static String jarDeclaring(String provider, Class<?> spi, Path dir) {
        List<Path> jars;
        try (Stream<Path> s = Files.list(dir)) {
            jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            return null;
        }
        for (Path jar : jars) {
            if (servicesFileNames(jar, spi, provider) || descriptorNames(jar, provider)) {
                return jar.toString();
            }
        }
        return null;
    }

    private static boolean descriptorNames(Path jar, String provider) {
        try {
            return ModuleFinder.of(jar).findAll().stream().anyMatch(r -> r.descriptor().provides().stream()
                    .anyMatch(p -> p.providers().contains(provider)));
        } catch (RuntimeException e) {
            return false; // no readable descriptor: not this jar
        }
    }

    private static boolean servicesFileNames(Path jar, Class<?> spi, String provider) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.getEntry("META-INF/services/" + spi.getName());
            if (entry == null) {
                return false;
            }
            try (InputStream in = zip.getInputStream(entry)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                        .map(l -> l.replaceAll("#.*", "").trim()).anyMatch(provider::equals);
            }
        } catch (IOException e) {
            return false;
        }
    }
}
