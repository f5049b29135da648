package dev.hangar.spi.config;

import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable, validated configuration: a value for every key of {@link StoreConfigKeys}, and where each
 * value came from ("default", a file name, "env HANGAR_X", "-D"). Build it with {@link #builder()}; layers
 * applied later win.
 */
public final class StoreConfig {
    private final Map<String, Object> values;
    private final Map<String, String> sources;
    private final List<String> warnings;
    private final Map<String, DeclaredKey> declared;

    private StoreConfig(Map<String, Object> values, Map<String, String> sources, List<String> warnings,
                        Map<String, DeclaredKey> declared) {
        this.values = Collections.unmodifiableMap(values);
        this.sources = Collections.unmodifiableMap(sources);
        this.warnings = List.copyOf(warnings);
        this.declared = Collections.unmodifiableMap(declared);
    }

    /** All defaults. */
    public static StoreConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.values.putAll(values);
        b.sources.putAll(sources);
        b.declared.putAll(declared);
        return b;
    }

    public <T> T get(ConfigKey<T> key) {
        Object v = values.get(key.name());
        return key.type().cast(v == null ? key.defaultValue() : v);
    }

    /** Where the value of {@code key} came from: "default" unless set. */
    public String source(ConfigKey<?> key) {
        return sources.getOrDefault(key.name(), "default");
    }

    /** Textual value of any key by name, or empty for an unknown key. */
    public Optional<String> raw(String name) {
        ConfigKey<?> k = StoreConfigKeys.byName().get(name);
        if (k == null && declared.containsKey(name)) {
            k = declared.get(name).key();
        }
        return k == null ? Optional.empty() : Optional.of(String.valueOf(get(k)));
    }

    /** The keys providers declared for themselves (see {@link Builder#declare}), in declaration order. */
    public List<DeclaredKey> declaredKeys() {
        return List.copyOf(declared.values());
    }

    /** Warnings collected while building, e.g. RocketMQ keys Hangar ignores. */
    public List<String> warnings() {
        return warnings;
    }

    /** Derived: the CommitLog file size as a long. */
    public int commitLogFileSize() {
        return get(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG);
    }

    /** Derived: the ConsumeQueue file size rounded up to whole 20-byte units, as RocketMQ does. */
    public int consumeQueueFileSize() {
        int size = get(StoreConfigKeys.MAPPED_FILE_SIZE_CONSUME_QUEUE);
        return ((size + 19) / 20) * 20;
    }

    /** The provider names of the dispatchers, in order. */
    public List<String> dispatcherNames() {
        String v = get(StoreConfigKeys.DISPATCHERS).trim();
        if (v.isEmpty()) {
            return List.of();
        }
        return List.of(v.split("\\s*,\\s*"));
    }

    public boolean isSyncFlush() {
        return "SYNC_FLUSH".equals(get(StoreConfigKeys.FLUSH_DISK_TYPE));
    }

    @Override
    public String toString() {
        return values.toString();
    }

    /** Builds a {@link StoreConfig}; every set is parsed and validated at once, combinations at {@link #build()}. */
    public static final class Builder {
        private final Map<String, Object> values = new LinkedHashMap<>();
        private final Map<String, String> sources = new HashMap<>();
        private final List<String> warnings = new java.util.ArrayList<>();
        private final Map<String, DeclaredKey> declared = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Accepts a provider's own key: it must be named {@code <provider>.<key>}, must not shadow a store key and
         * must not be declared twice. Declare before setting values.
         */
        public Builder declare(DeclaredKey key) {
            String name = key.key().name();
            if (!name.startsWith(key.provider() + ".") || name.length() == key.provider().length() + 1) {
                throw new ConfigException("provider '" + key.provider() + "' (" + key.declaredBy() + ") declares the key '"
                        + name + "', which is not named '" + key.provider() + ".<key>'; a provider's keys carry its name");
            }
            if (StoreConfigKeys.byName().containsKey(name)) {
                throw new ConfigException("provider '" + key.provider() + "' (" + key.declaredBy() + ") declares the key '"
                        + name + "', which is a store key");
            }
            DeclaredKey earlier = declared.putIfAbsent(name, key);
            if (earlier != null && !earlier.equals(key)) {
                throw new ConfigException("the key '" + name + "' is declared twice: by " + earlier.declaredBy() + " and by "
                        + key.declaredBy());
            }
            return this;
        }

        /** Sets a typed value. */
        public <T> Builder set(ConfigKey<T> key, T value) {
            values.put(key.name(), key.check(value, "code"));
            sources.put(key.name(), "code");
            return this;
        }

        /**
         * Sets a key from text. Unknown keys fail with a did-you-mean; RocketMQ keys Hangar does not use are
         * accepted with a warning; RocketMQ's provider booleans are translated to provider names.
         */
        public Builder set(String name, String text, String source) {
            String[] alias = StoreConfigKeys.PROVIDER_ALIASES.get(name);
            if (alias != null) {
                boolean on = ConfigKey.boolKey(name, false, "").parse(text, source);
                values.put(alias[0], on ? alias[1] : alias[2]);
                sources.put(alias[0], source + " (as " + name + "=" + text.trim() + ")");
                return this;
            }
            ConfigKey<?> key = StoreConfigKeys.byName().get(name);
            if (key == null && declared.containsKey(name)) {
                key = declared.get(name).key();
            }
            if (key == null) {
                if (StoreConfigKeys.IGNORED_ROCKETMQ_KEYS.contains(name)) {
                    warnings.add("ignoring RocketMQ key " + name + " (from " + source + "): Hangar does not use it");
                    return this;
                }
                throw new ConfigException("unknown configuration key '" + name + "' (from " + source + ")"
                        + didYouMean(name, declared.keySet()) + "; `store-launcher config` lists every key"
                        + pluginHint(name));
            }
            values.put(key.name(), key.parse(text, source));
            sources.put(key.name(), source);
            return this;
        }

        /** Sets every entry of a map of textual values, e.g. a properties file. */
        public Builder setAll(Map<String, String> entries, String source) {
            entries.forEach((k, v) -> set(k, v, source));
            return this;
        }

        public StoreConfig build() {
            StoreConfig config = new StoreConfig(new LinkedHashMap<>(values), new HashMap<>(sources), warnings,
                    new LinkedHashMap<>(declared));
            checkCombinations(config);
            return config;
        }

        private static void checkCombinations(StoreConfig c) {
            int size = c.get(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG);
            if (size % 4096 != 0) {
                throw new ConfigException("bad value for mappedFileSizeCommitLog: '" + size + "' (from "
                        + c.source(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG) + "); allowed: a multiple of 4096 up to 2 GiB");
            }
            // Combinations that depend on what a provider is (a mappedFile with SYNC_FLUSH) are checked where the
            // providers are known: ProviderCombinations.check, called by the launcher's ConfigLoader.
            if (c.get(StoreConfigKeys.DISK_SPACE_CLEAN_FORCIBLY_RATIO) > c.get(StoreConfigKeys.DISK_SPACE_WARNING_LEVEL_RATIO)) {
                throw new ConfigException("diskSpaceCleanForciblyRatio (" + c.get(StoreConfigKeys.DISK_SPACE_CLEAN_FORCIBLY_RATIO)
                        + ") must not exceed diskSpaceWarningLevelRatio (" + c.get(StoreConfigKeys.DISK_SPACE_WARNING_LEVEL_RATIO) + ")");
            }
        }

        /** For {@code tag-counter.topics} when no provider declares {@code tag-counter.} keys: where they come from. */
        private String pluginHint(String name) {
            int dot = name.indexOf('.');
            if (dot <= 0) {
                return "";
            }
            String prefix = name.substring(0, dot + 1);
            return declared.keySet().stream().anyMatch(k -> k.startsWith(prefix)) ? ""
                    : " (no provider found declares keys named " + prefix + "*: is its plugin jar in the plugins folder?)";
        }

        private static String didYouMean(String name, java.util.Set<String> declaredNames) {
            return java.util.stream.Stream.concat(StoreConfigKeys.byName().keySet().stream(), declaredNames.stream())
                    .min(Comparator.comparingInt(k -> distance(k.toLowerCase(java.util.Locale.ROOT),
                            name.toLowerCase(java.util.Locale.ROOT))))
                    .filter(k -> distance(k.toLowerCase(java.util.Locale.ROOT), name.toLowerCase(java.util.Locale.ROOT))
                            <= Math.max(2, name.length() / 3))
                    .map(k -> "; did you mean '" + k + "'?")
                    .orElse("");
        }

        /** Levenshtein distance, for the did-you-mean. */
        static int distance(String a, String b) {
            int[] prev = new int[b.length() + 1];
            int[] cur = new int[b.length() + 1];
            for (int j = 0; j <= b.length(); j++) {
                prev[j] = j;
            }
            for (int i = 1; i <= a.length(); i++) {
                cur[0] = i;
                for (int j = 1; j <= b.length(); j++) {
                    int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                    cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
                }
                int[] t = prev;
                prev = cur;
                cur = t;
            }
            return prev[b.length()];
        }
    }
}
