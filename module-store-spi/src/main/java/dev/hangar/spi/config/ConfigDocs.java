package dev.hangar.spi.config;

/** Renders the key table of {@link StoreConfigKeys} for the README and {@code --help}. */
public final class ConfigDocs {
    private ConfigDocs() {
    }

    /** A Markdown table: key, default, allowed values, what it does. */
    public static String markdownTable() {
        StringBuilder sb = new StringBuilder();
        sb.append("| key | default | allowed | what it does |\n");
        sb.append("|---|---|---|---|\n");
        for (ConfigKey<?> k : StoreConfigKeys.all()) {
            String def = String.valueOf(k.defaultValue());
            sb.append("| `").append(k.name()).append("` | ")
                    .append(def.isEmpty() ? "(empty)" : "`" + def + "`").append(" | ")
                    .append(escape(k.allowed())).append(" | ")
                    .append(escape(k.doc())).append(" |\n");
        }
        StoreConfigKeys.PROVIDER_ALIASES.keySet().stream().sorted().forEach(alias -> {
            String[] a = StoreConfigKeys.PROVIDER_ALIASES.get(alias);
            sb.append("| `").append(alias).append("` | | true or false | RocketMQ alias: true means `")
                    .append(a[0]).append('=').append(a[1]).append("`, false `").append(a[0]).append('=')
                    .append(a[2]).append("` |\n");
        });
        return sb.toString();
    }

    private static String escape(String s) {
        return s.replace("|", "\\|");
    }
}
