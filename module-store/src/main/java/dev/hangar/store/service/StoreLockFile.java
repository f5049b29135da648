package dev.hangar.store.service;

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
        FileChannel ch = null;
        try {
            Files.createDirectories(storeRoot);
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = ch.tryLock(0, 1, false);
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                ch.close();
                throw new IllegalStateException("the store directory " + storeRoot.toAbsolutePath()
                        + " is in use by another process (lock file " + file + " is held); stop it first");
            }
            ch.write(ByteBuffer.wrap("lock".getBytes(StandardCharsets.US_ASCII)), 0);
            ch.force(true);
            return new StoreLockFile(ch, l);
        } catch (IOException e) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } catch (IOException ignored) {
                // reporting the first failure
            }
            throw new UncheckedIOException("cannot lock the store directory " + storeRoot, e);
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
