package dev.hangar.launcher.http;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The query string of a request, decoded, with typed accessors that turn a bad value into a 400 naming the
 * parameter, the value and what is allowed. Immutable after {@link #parse}; thread-safe.
 */
final class QueryParameters {
    private final Map<String, List<String>> values;

    private QueryParameters(Map<String, List<String>> values) {
        this.values = values;
    }

    /** Parses a raw (still encoded) query string; null or empty gives no parameters. */
    static QueryParameters parse(String rawQuery) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = UriCodec.decode(eq < 0 ? pair : pair.substring(0, eq), true);
                String value = eq < 0 ? "" : UriCodec.decode(pair.substring(eq + 1), true);
                values.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            }
        }
        return new QueryParameters(values);
    }

    /** Refuses any parameter not in {@code allowed}: a typo such as {@code wiat=} must not be silently ignored. */
    void requireOnly(Collection<String> allowed) {
        for (String name : values.keySet()) {
            if (!allowed.contains(name)) {
                throw ApiException.badRequest("unknown query parameter '" + UriCodec.shorten(name) + "'"
                        + (allowed.isEmpty() ? "; this endpoint takes none" : "; allowed: " + String.join(", ", new TreeSet<>(allowed))));
            }
        }
    }

    /** Every value of a repeatable parameter, in order; empty when absent. */
    List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    /** The value of a parameter given at most once, or null when absent. */
    String single(String name) {
        List<String> list = values.get(name);
        if (list == null) {
            return null;
        }
        if (list.size() > 1) {
            throw ApiException.badRequest("query parameter '" + name + "' is given " + list.size() + " times; give it once");
        }
        return list.get(0);
    }

    /** A whole number in [min, max], or {@code absent} when the parameter is not given. */
    long longValue(String name, long absent, long min, long max) {
        String text = single(name);
        return text == null ? absent : parseLong(name, text, min, max);
    }

    int intValue(String name, int absent, int min, int max) {
        return (int) longValue(name, absent, min, max);
    }

    /** Parses {@code text} as a whole number in [min, max] or throws a 400 naming {@code what}. */
    static long parseLong(String what, String text, long min, long max) {
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(what + " must be a whole number, not '" + UriCodec.shorten(text) + "'");
        }
        if (value < min || value > max) {
            throw ApiException.badRequest(what + " must be from " + min + " to " + max + ", not " + value);
        }
        return value;
    }
}
