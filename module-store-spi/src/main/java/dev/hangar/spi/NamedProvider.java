package dev.hangar.spi;

import dev.hangar.spi.config.ConfigKey;
import java.util.List;

/**
 * The common shape of every Hangar SPI provider: a stable, lower-case {@link #name()} by which configuration
 * selects it, and (in each sub-interface) a {@code create(context)} that builds the working object with its
 * dependencies handed in. Providers are cheap to instantiate: ServiceLoader creates every one it finds,
 * only the selected ones are asked to {@code create}.
 */
public interface NamedProvider {

    /** Stable, lower-case name used in configuration, e.g. {@code spin}. */
    String name();

    /** One line for {@code store-launcher plugins}: what this provider does. */
    default String description() {
        return "";
    }

    /**
     * The configuration keys this provider reads, each named {@code <name()>.<key>} (e.g. {@code tag-counter.topics}),
     * typed, with a default, a validator and a doc line ({@link ConfigKey#intKey}, {@link ConfigKey#stringKey}, ...).
     * The launcher accepts and validates them like its own keys (a misspelt one gets a did-you-mean),
     * {@code store-launcher config} lists them with the declaring module; read them with
     * {@code context.config().get(KEY)}.
     */
    default List<ConfigKey<?>> configKeys() {
        return List.of();
    }
}
