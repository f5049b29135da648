package dev.hangar.spi.store;

/**
 * Computes the offset message id of the record at a commit-log offset (store host + port + offset, in hex). The
 * engine shares one per store, so an append result can name its ids without holding them: a put whose caller never
 * reads its msgId does not pay for the String. Thread-safe.
 */
@FunctionalInterface
public interface MessageIdSource {

    String idAt(long commitLogOffset);
}
