package dev.hangar.spi.lock;

/**
 * The lock around the append into the CommitLog's mapped file.
 *
 * <p>Contract: the engine calls {@link #lock()} / {@link #unlock()} from any put thread, strictly paired,
 * and holds it only around taking the queue offset, stamping the store time and copying an encoded record
 * into the mapped file ({@code appendMode=locked}), or only around taking the queue offset and the record's place in
 * the log, the copy following outside it ({@code appendMode=concurrent}) - never around encoding, CRC, flush or
 * waiting (except an exclusive append's wait for the copies in flight). It is not reentrant from the
 * engine's point of view. It has nothing to release at shutdown. It must not fail.
 */
public interface PutMessageLock {

    void lock();

    void unlock();
}
