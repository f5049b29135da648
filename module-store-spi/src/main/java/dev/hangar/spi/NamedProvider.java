package dev.hangar.spi;

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
}
