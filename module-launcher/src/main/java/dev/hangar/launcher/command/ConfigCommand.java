package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.ConfigKey;
import dev.hangar.spi.config.DeclaredKey;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code config}: the effective configuration - every key with its value and where the value came from
 * ("default", "file:PATH", "env HANGAR_X", "-D", "--store") - or, with {@code --doc}, the reference of every
 * key. Opens no store.
 *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "The effective configuration, and where each value came from.",
        footer = {"", "Examples:",
                "  store-launcher --config broker.conf -DflushDiskType=SYNC_FLUSH config",
                "  store-launcher config --doc"})
public final class ConfigCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--json", description = "One JSON object: {key: {value, source, default, allowed, doc}}")
    private boolean json;

    @Option(names = "--doc", description = "The reference of every key: default, allowed values, meaning")
    private boolean doc;

    @Override
    public Integer call() {
        StoreConfig config = launcher.prepare("warn", StoreUse.NONE);
        PrintWriter out = launcher.out();
        if (json) {
            Map<String, Object> all = new LinkedHashMap<>();
            for (ConfigKey<?> key : StoreConfigKeys.all()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("value", config.get(key));
                entry.put("source", config.source(key));
                entry.put("default", key.defaultValue());
                entry.put("allowed", key.allowed());
                entry.put("doc", key.doc());
                all.put(key.name(), entry);
            }
            for (DeclaredKey declared : config.declaredKeys()) {
                ConfigKey<?> key = declared.key();
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("value", config.get(key));
                entry.put("source", config.source(key));
                entry.put("default", key.defaultValue());
                entry.put("allowed", key.allowed());
                entry.put("doc", key.doc());
                entry.put("declaredBy", declared.declaredBy());
                all.put(key.name(), entry);
            }
            out.println(JsonWriter.write(all));
            return 0;
        }
        int width = Math.max(StoreConfigKeys.all().stream().mapToInt(k -> k.name().length()).max().orElse(10),
                config.declaredKeys().stream().mapToInt(k -> k.key().name().length()).max().orElse(0));
        for (ConfigKey<?> key : StoreConfigKeys.all()) {
            if (doc) {
                out.printf("%-" + width + "s  %s%n%" + width + "s  default %s; allowed: %s%n", key.name(), key.doc(),
                        "", quoteIfEmpty(key.defaultValue()), key.allowed());
            } else {
                out.printf("%-" + width + "s = %-20s  (%s)%n", key.name(), quoteIfEmpty(config.get(key)),
                        config.source(key));
            }
        }
        for (DeclaredKey declared : config.declaredKeys()) {
            ConfigKey<?> key = declared.key();
            if (doc) {
                out.printf("%-" + width + "s  %s (declared by %s)%n%" + width + "s  default %s; allowed: %s%n", key.name(),
                        key.doc(), declared.declaredBy(), "", quoteIfEmpty(key.defaultValue()), key.allowed());
            } else {
                out.printf("%-" + width + "s = %-20s  (%s; declared by %s)%n", key.name(), quoteIfEmpty(config.get(key)),
                        config.source(key), declared.declaredBy());
            }
        }
        if (doc) {
            out.println();
            out.println("RocketMQ aliases: " + String.join(", ", StoreConfigKeys.PROVIDER_ALIASES.keySet())
                    + "; RocketMQ broker keys Hangar ignores are accepted with a warning.");
        }
        return 0;
    }

    private static String quoteIfEmpty(Object value) {
        String text = String.valueOf(value);
        return text.isEmpty() ? "\"\"" : text;
    }
}
