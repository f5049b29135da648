package dev.hangar.launcher.config;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.DeclaredKey;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.store.assembly.ProviderRegistry;
import dev.hangar.store.assembly.ProviderCombinations;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Layers the store configuration in this order, later layers winning:
 * <ol>
 *   <li>the defaults of {@link StoreConfigKeys};</li>
 *   <li>a properties file ({@code --config FILE}, e.g. a RocketMQ {@code broker.conf}), source {@code file:PATH};</li>
 *   <li>{@code HANGAR_*} environment variables, source {@code env HANGAR_X};</li>
 *   <li>{@code -Dkey=value} flags, source {@code -D};</li>
 *   <li>{@code --store DIR}, which sets {@code storePathRootDir}, source {@code --store}.</li>
 * </ol>
 * An environment name maps to a key by its upper-snake spelling ({@code HANGAR_FLUSH_DISK_TYPE} is
 * {@code flushDiskType}, {@code HANGAR_CHECK_CRC_ON_RECOVER} is {@code checkCRCOnRecover}); the exact key name
 * ({@code HANGAR_flushDiskType}) works too. A plugin's own keys match the same way, ignoring their dashes and dots
 * ({@code HANGAR_TAG_COUNTER_TOPICS} is {@code tag-counter.topics}), since a shell cannot export a name with
 * either. Validation, did-you-mean, aliases and ignored RocketMQ keys are
 * {@link StoreConfig.Builder}'s job, so every layer gets the same errors.
 *
 * <p>The environment is handed in, so tests need not touch the real one. Immutable and thread-safe.
 */
public final class ConfigLoader {
    /** Prefix of the environment variables that set configuration keys. */
    public static final String ENV_PREFIX = "HANGAR_";
    /**
     * {@code HANGAR_*} variables that bin/store-launcher reads itself (JVM options, the options file), so no key:
     * without this, the README's {@code HANGAR_JAVA_OPTS=... store-launcher serve} failed as an unknown key.
     */
    static final Set<String> LAUNCHER_SCRIPT_VARIABLES = Set.of("HANGAR_JAVA_OPTS", "HANGAR_JVM_OPTIONS_FILE");

    private final Map<String, String> environment;

    /** @param environment the process environment, usually {@link System#getenv()} */
    public ConfigLoader(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * Builds and validates the effective configuration.
     *
     * @param configFile  a properties file, or null
     * @param definitions {@code -D} flags in the order given, or an empty map
     * @param storeDir    the {@code --store} option, or null when not given
     * @throws ConfigException naming the key, the value, its source and what is allowed
     */
    public StoreConfig load(Path configFile, Map<String, String> definitions, String storeDir) {
        return load(configFile, definitions, storeDir, List.of());
    }

    /**
     * As {@link #load(Path, Map, String)}, with the providers found: also accepting the keys they declare for
     * themselves ({@code tag-counter.topics}), validated like the store's own, and refusing combinations the chosen
     * providers cannot serve ({@link ProviderCombinations#check}), before any store file is touched.
     */
    public StoreConfig load(Path configFile, Map<String, String> definitions, String storeDir,
                            ProviderRegistry providers) {
        StoreConfig config = load(configFile, definitions, storeDir, providers.declaredKeys());
        ProviderCombinations.check(config, providers);
        return config;
    }

    private StoreConfig load(Path configFile, Map<String, String> definitions, String storeDir,
                             List<DeclaredKey> providerKeys) {
        StoreConfig.Builder builder = StoreConfig.builder();
        providerKeys.forEach(builder::declare);
        if (configFile != null) {
            builder.setAll(readProperties(configFile), "file:" + configFile);
        }
        List<String> pluginKeyNames = providerKeys.stream().map(k -> k.key().name()).toList();
        new TreeMap<>(environment).forEach((name, value) -> {
            if (name.startsWith(ENV_PREFIX) && !LAUNCHER_SCRIPT_VARIABLES.contains(name)) {
                builder.set(keyForEnvironmentName(name, pluginKeyNames), value, "env " + name);
            }
        });
        definitions.forEach((name, value) -> builder.set(name.trim(), value, "-D"));
        if (storeDir != null) {
            builder.set(StoreConfigKeys.STORE_PATH_ROOT_DIR.name(), storeDir, "--store");
        }
        return builder.build();
    }

    /**
     * The configuration key an environment variable sets: the key, alias or ignored RocketMQ key whose name
     * matches ignoring case and underscores, else the lower-camel form of the name (which the builder then
     * refuses with a did-you-mean).
     */
    public static String keyForEnvironmentName(String envName) {
        return keyForEnvironmentName(envName, List.of());
    }

    /**
     * As {@link #keyForEnvironmentName(String)}, also matching the given plugin key names ignoring case, dashes,
     * dots and underscores.
     */
    public static String keyForEnvironmentName(String envName, List<String> pluginKeyNames) {
        String rest = envName.startsWith(ENV_PREFIX) ? envName.substring(ENV_PREFIX.length()) : envName;
        Map<String, String> known = knownNamesByNormalForm();
        pluginKeyNames.forEach(n -> known.put(normalize(n), n));
        if (known.containsValue(rest)) {
            return rest;
        }
        String match = known.get(normalize(rest));
        return match != null ? match : lowerCamel(rest);
    }

    private static Map<String, String> knownNamesByNormalForm() {
        Map<String, String> names = new HashMap<>();
        StoreConfigKeys.IGNORED_ROCKETMQ_KEYS.forEach(n -> names.put(normalize(n), n));
        StoreConfigKeys.PROVIDER_ALIASES.keySet().forEach(n -> names.put(normalize(n), n));
        StoreConfigKeys.byName().keySet().forEach(n -> names.put(normalize(n), n));
        return names;
    }

    private static String normalize(String name) {
        StringBuilder letters = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '_' && c != '-' && c != '.') {
                letters.append(Character.toUpperCase(c));
            }
        }
        return letters.toString();
    }

    /** {@code FLUSH_DISK_TYPE} to {@code flushDiskType}. */
    static String lowerCamel(String upperSnake) {
        StringBuilder out = new StringBuilder(upperSnake.length());
        boolean upperNext = false;
        for (char c : upperSnake.toCharArray()) {
            if (c == '_') {
                upperNext = out.length() > 0;
            } else if (upperNext) {
                out.append(Character.toUpperCase(c));
                upperNext = false;
            } else {
                out.append(Character.toLowerCase(c));
            }
        }
        return out.toString();
    }

    private static Map<String, String> readProperties(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("configuration file " + file + " does not exist or is not a file");
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
        }
        // sorted, so that the first error reported does not depend on hashing
        Map<String, String> entries = new LinkedHashMap<>();
        new TreeMap<>(properties).forEach((k, v) -> entries.put(String.valueOf(k).trim(), String.valueOf(v)));
        return entries;
    }
}
