package dev.hangar.spi.config;

/**
 * A configuration key a provider declares for itself (see {@code NamedProvider.configKeys()}), with who declared it.
 *
 * @param key        the key, named {@code <provider name>.<key>}
 * @param provider   the provider's name, the prefix of the key
 * @param declaredBy the module (or class-path jar) that holds the provider
 */
public record DeclaredKey(ConfigKey<?> key, String provider, String declaredBy) {
}
