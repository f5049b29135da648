package dev.hangar.store.assembly;

/**
 * One provider found by the registry.
 *
 * @param spi         simple name of the SPI interface, e.g. {@code PutMessageLockProvider}
 * @param name        the provider's configuration name
 * @param module      the module (or, on the class path, the jar) it came from
 * @param description the provider's one-line description
 * @param plugin      true when it came from the plugins folder
 */
public record ProviderInfo(String spi, String name, String module, String description, boolean plugin) {
}
