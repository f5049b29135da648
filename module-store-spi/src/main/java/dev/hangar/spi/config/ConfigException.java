package dev.hangar.spi.config;

/** A configuration that cannot be used; the message names the key, the value and what is allowed. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
