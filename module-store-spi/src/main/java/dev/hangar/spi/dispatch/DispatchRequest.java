package dev.hangar.spi.dispatch;

import dev.hangar.spi.message.MessageConst;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * One CommitLog record as the engine hands it to {@link CommitLogDispatcher#dispatch}.
 *
 * <h2>Lifetime: valid only during {@code dispatch()}</h2>
 * The engine hands each dispatcher a <em>reusable view</em> over the record's bytes in the CommitLog, so that
 * dispatching a record allocates nothing: once {@code dispatch()} returns, the same object describes the next
 * record. So:
 * <ul>
 *   <li>Read what you need during {@code dispatch()}. Do not keep the request itself, {@link #bytes()}, or the
 *       offsets into it.</li>
 *   <li>To keep something, keep what the String and Map accessors return ({@link #topic()}, {@link #keys()},
 *       {@link #uniqKey()}, {@link #property}, {@link #properties()}): those are immutable copies, built when first
 *       asked for, that never change afterwards. Or keep {@link #copy()}, a detached request holding every
 *       value.</li>
 *   <li>The primitive accessors (offsets, sizes, tags code, times, sysflag, queue id) allocate nothing; nor do
 *       the byte ranges of the topic, keys and unique key, nor {@link #forEachKey}.</li>
 * </ul>
 * Each reader of the CommitLog has its own view: the reput thread one for the built-in dispatchers, and every
 * third-party dispatcher's thread (with its own cursor) another. A view is never shared between threads, and a
 * dispatcher must not hand it to another thread.
 *
 * <p>Tests and tools build a detached request with {@link #of}.
 */
public interface DispatchRequest {

    /** The stored topic (an immutable String, cached by the engine for the few topics a store has). */
    String topic();

    /** The stored queue id. */
    int queueId();

    /** Physical offset of the record. */
    long commitLogOffset();

    /** Record size in bytes. */
    int msgSize();

    /** The tag's hash, or the deliver time for a delayed message on SCHEDULE_TOPIC_XXXX. */
    long tagsCode();

    /** Store time of the record. */
    long storeTimestamp();

    /** Queue offset assigned at append (0 for PREPARED/ROLLBACK). */
    long consumeQueueOffset();

    /** The record's sysflag. */
    int sysFlag();

    /** The prepared transaction offset. */
    long preparedTransactionOffset();

    /** Born time of the record. */
    long bornTimestamp();

    /** The KEYS property (space-separated), or null; a new immutable String, built on first call. */
    String keys();

    /** The UNIQ_KEY property, or null; a new immutable String, built on first call. */
    String uniqKey();

    /** All properties, unmodifiable; decoded on first call, so a dispatcher that never asks never pays. */
    Map<String, String> properties();

    /** One property's value, or null; cheaper than {@link #properties()} when only one is needed. */
    default String property(String name) {
        return properties().get(name);
    }

    /**
     * The record's bytes, read-only; read them with absolute gets at the offsets below ({@link #topicOffset()},
     * {@link #keysOffset()}, {@link #uniqKeyOffset()}). Valid only during {@code dispatch()}; never keep it.
     */
    ByteBuffer bytes();

    /** Index in {@link #bytes()} of the topic's UTF-8 bytes. */
    int topicOffset();

    /** Length of the topic's UTF-8 bytes. */
    int topicLength();

    /** Index in {@link #bytes()} of the KEYS value's UTF-8 bytes (meaningless when {@link #keysLength()} is 0). */
    int keysOffset();

    /** Length of the KEYS value's UTF-8 bytes; 0 when absent or empty. */
    int keysLength();

    /** Index in {@link #bytes()} of the UNIQ_KEY value (meaningless when {@link #uniqKeyLength()} is 0). */
    int uniqKeyOffset();

    /** Length of the UNIQ_KEY value's UTF-8 bytes; 0 when absent or empty. */
    int uniqKeyLength();

    /** Commit-log offset one past this record. */
    default long nextOffset() {
        return commitLogOffset() + msgSize();
    }

    /** Receives one byte range of {@link #bytes()}; valid only during the call. */
    @FunctionalInterface
    interface KeyVisitor {
        /** The key's UTF-8 bytes are {@code bytes[offset, offset + length)} (absolute indexes). */
        void key(ByteBuffer bytes, int offset, int length);
    }

    /**
     * Hands {@code visitor} each key of the KEYS property, in order: the non-empty runs between
     * {@link MessageConst#KEY_SEPARATOR} bytes, found in place (no split, no regex, no String).
     */
    default void forEachKey(KeyVisitor visitor) {
        int length = keysLength();
        if (length <= 0) {
            return;
        }
        ByteBuffer bytes = bytes();
        int end = keysOffset() + length;
        int start = keysOffset();
        for (int i = start; i <= end; i++) {
            if (i == end || bytes.get(i) == MessageConst.KEY_SEPARATOR) {
                if (i > start) {
                    visitor.key(bytes, start, i - start);
                }
                start = i + 1;
            }
        }
    }

    /** A detached request with the same values, safe to keep after {@code dispatch()} returns. */
    default DispatchRequest copy() {
        return of(topic(), queueId(), commitLogOffset(), msgSize(), tagsCode(), storeTimestamp(),
                consumeQueueOffset(), keys(), uniqKey(), sysFlag(), preparedTransactionOffset(), properties(),
                bornTimestamp());
    }

    /**
     * A detached, immutable request built from values (tests, tools, {@link #copy()}).
     *
     * @param keys       the KEYS property (space-separated), or null
     * @param uniqKey    the UNIQ_KEY property, or null
     * @param properties all properties (copied)
     */
    static DispatchRequest of(String topic, int queueId, long commitLogOffset, int msgSize, long tagsCode,
                              long storeTimestamp, long consumeQueueOffset, String keys, String uniqKey, int sysFlag,
                              long preparedTransactionOffset, Map<String, String> properties, long bornTimestamp) {
        return new DetachedDispatchRequest(topic, queueId, commitLogOffset, msgSize, tagsCode, storeTimestamp,
                consumeQueueOffset, keys, uniqKey, sysFlag, preparedTransactionOffset, properties, bornTimestamp);
    }
}
