package dev.hangar.spi.config;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One typed configuration key: name, type, default, validator and a one-line doc. Declared once in
 * {@link StoreConfigKeys}; parsing, validation, {@code --help} and the README table all come from it.
 *
 * @param <T> the value type
 */
public final class ConfigKey<T> {
    private final String name;
    private final Class<T> type;
    private final T defaultValue;
    private final Function<String, T> parser;
    private final Predicate<T> validator;
    private final Function<T, String> reason;
    private final String allowed;
    private final String doc;

    private ConfigKey(String name, Class<T> type, T defaultValue, Function<String, T> parser,
                      Predicate<T> validator, String allowed, String doc) {
        this(name, type, defaultValue, parser, validator, v -> null, allowed, doc);
    }

    private ConfigKey(String name, Class<T> type, T defaultValue, Function<String, T> parser,
                      Predicate<T> validator, Function<T, String> reason, String allowed, String doc) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.parser = parser;
        this.validator = validator;
        this.reason = reason;
        this.allowed = allowed;
        this.doc = doc;
    }

    public static ConfigKey<Integer> intKey(String name, int def, int min, int max, String doc) {
        return new ConfigKey<>(name, Integer.class, def, s -> (int) parseLong(s, min, max),
                v -> v >= min && v <= max, range(min, max), doc);
    }

    public static ConfigKey<Long> longKey(String name, long def, long min, long max, String doc) {
        return new ConfigKey<>(name, Long.class, def, s -> parseLong(s, min, max),
                v -> v >= min && v <= max, range(min, max), doc);
    }

    public static ConfigKey<Boolean> boolKey(String name, boolean def, String doc) {
        return new ConfigKey<>(name, Boolean.class, def, s -> {
            String t = s.trim().toLowerCase(java.util.Locale.ROOT);
            if (t.equals("true")) {
                return Boolean.TRUE;
            }
            if (t.equals("false")) {
                return Boolean.FALSE;
            }
            throw new IllegalArgumentException("not a boolean");
        }, v -> true, "true or false", doc);
    }

    public static ConfigKey<String> stringKey(String name, String def, Predicate<String> validator, String allowed,
                                              String doc) {
        return new ConfigKey<>(name, String.class, def, String::trim, validator, allowed, doc);
    }

    /**
     * A string key whose refusal says what is wrong: {@code problem} returns null for a good value, else why (for a
     * list, naming the bad entry), and the error carries that reason.
     */
    public static ConfigKey<String> explainedStringKey(String name, String def, Function<String, String> problem,
                                                       String allowed, String doc) {
        return new ConfigKey<>(name, String.class, def, String::trim, v -> problem.apply(v) == null, problem, allowed,
                doc);
    }

    /** A string key restricted to a fixed set of choices. */
    public static ConfigKey<String> choiceKey(String name, String def, java.util.List<String> choices, String doc) {
        return new ConfigKey<>(name, String.class, def, String::trim, choices::contains,
                "one of " + String.join(", ", choices), doc);
    }

    private static String range(long min, long max) {
        return "an integer from " + min + " to " + max;
    }

    private static long parseLong(String s, long min, long max) {
        String t = s.trim().replace("_", "");
        long v;
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an integer");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException("out of range");
        }
        return v;
    }

    public String name() {
        return name;
    }

    public Class<T> type() {
        return type;
    }

    public T defaultValue() {
        return defaultValue;
    }

    public String allowed() {
        return allowed;
    }

    public String doc() {
        return doc;
    }

    /** Parses and validates a textual value; throws {@link ConfigException} naming key, value and what is allowed. */
    public T parse(String text, String source) {
        Objects.requireNonNull(text, "text");
        T value;
        try {
            value = parser.apply(text);
        } catch (RuntimeException e) {
            throw invalid(text, source);
        }
        if (!validator.test(value)) {
            throw invalid(text, source, reason.apply(value));
        }
        return value;
    }

    /** Validates a typed value. */
    public T check(T value, String source) {
        if (value == null || !type.isInstance(value)) {
            throw invalid(String.valueOf(value), source);
        }
        if (!validator.test(value)) {
            throw invalid(String.valueOf(value), source, reason.apply(value));
        }
        return value;
    }

    private ConfigException invalid(String text, String source) {
        return invalid(text, source, null);
    }

    private ConfigException invalid(String text, String source, String why) {
        return new ConfigException("bad value for " + name + ": '" + text + "'" + (source == null ? "" : " (from " + source + ")")
                + (why == null ? "" : ": " + why) + "; allowed: " + allowed);
    }

    @Override
    public String toString() {
        return name;
    }
}
