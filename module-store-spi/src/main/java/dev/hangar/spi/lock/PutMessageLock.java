package dev.hangar.spi.lock;

/**
 * The lock around the append into the CommitLog's mapped file.
 *
 * <p>Contract: the engine calls {@link #lock()} / {@link #unlock()} from any put thread, strictly paired,
 * and holds it only around taking the queue offset, stamping the store time and copying an encoded record
 * into the mapped file - never around encoding, CRC, flush or waiting. It is not reentrant from the
 * engine's point of view. It has nothing to release at shutdown. It must not fail.
 */
public interface PutMessageLock {

    void lock();

    void unlock();
}
