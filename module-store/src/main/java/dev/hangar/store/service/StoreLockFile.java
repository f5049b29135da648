package dev.hangar.store.service;

import dev.hangar.spi.flush.DurableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The {@code lock} file: an exclusive OS lock on its first byte, held while the store is open, so a second
 * process (or a second store in this JVM) on the same directory fails before touching any file.
 */
public final class StoreLockFile implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private StoreLockFile(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock or throws {@link IllegalStateException} saying the directory is in use. */
    public static StoreLockFile acquire(Path storeRoot) {
        Path file = storeRoot.resolve("lock");
        try {
            // a new store's directory is a name in its parent: forced, or a power cut may take the whole store
            List<Path> created = DurableFiles.createDirectories(storeRoot);
            DurableFiles.forceDirectories(DurableFiles.parentsOf(List.of(), created));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the store directory " + storeRoot, e);
        }
        StoreLockFile held = lock(file, false, "the store directory " + storeRoot.toAbsolutePath()
                + " is in use by another process (lock file " + file + " is held); stop it first",
                "cannot lock the store directory " + storeRoot);
        try {
            held.channel.write(ByteBuffer.wrap("lock".getBytes(StandardCharsets.US_ASCII)), 0);
            held.channel.force(true);
            return held;
        } catch (IOException e) {
            held.closeQuietly();
            throw new UncheckedIOException("cannot lock the store directory " + storeRoot, e);
        }
    }

    /**
     * A reader's lock: a shared OS lock on the same byte, so it fails while a writer (Hangar or RocketMQ, which lock
     * the first byte exclusively) has the store open, and a writer cannot open the store under a reader. Writes
     * nothing: a store without a lock file is read without a lock (nothing can be holding it).
     *
     * @return the lock, or null when there is no lock file
     */
    public static StoreLockFile acquireShared(Path storeRoot) {
        Path file = storeRoot.resolve("lock");
        if (!Files.exists(file)) {
            return null;
        }
        return lock(file, true, "the store directory " + storeRoot.toAbsolutePath()
                + " is open in another process (lock file " + file + " is held); read it through that process "
                + "(e.g. the HTTP API of serve) or stop it first",
                "cannot lock the store directory " + storeRoot + " for reading");
    }

    /**
     * Opens {@code file} and takes the OS lock on its first byte. A lock held elsewhere (another process, or another
     * channel of this JVM, which Java reports as an overlap) is an {@link IllegalStateException} saying {@code inUse}.
     */
    private static StoreLockFile lock(Path file, boolean shared, String inUse, String ioFailure) {
        FileChannel ch = null;
        try {
            ch = shared
                    ? FileChannel.open(file, StandardOpenOption.READ)
                    : FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                            StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = ch.tryLock(0, 1, shared);
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                ch.close();
                throw new IllegalStateException(inUse);
            }
            return new StoreLockFile(ch, l);
        } catch (IOException e) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // reporting the first failure
                }
            }
            throw new UncheckedIOException(ioFailure, e);
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (UncheckedIOException ignored) {
            // the caller reports the first failure
        }
    }

    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the store lock", e);
        }
    }
}
