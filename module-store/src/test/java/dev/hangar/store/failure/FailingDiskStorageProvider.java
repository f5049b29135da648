package dev.hangar.store.failure;

import dev.hangar.mmap.file.DefaultMappedFile;
import dev.hangar.mmap.file.MappedFileFactory;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.queue.DefaultMappedFileQueue;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.MappedStorageProvider;
import dev.hangar.spi.mapped.QueueRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The real {@code mmap} files (module-mmap's {@link DefaultMappedFile}) with a disk that fails on demand: CommitLog
 * forces throw as an msync hit by EIO would, and ConsumeQueue appends are refused as on a file that cannot grow.
 * Test only; the switches are static because the store builds its storage through the provider registry.
 */
public final class FailingDiskStorageProvider implements MappedStorageProvider {
    static final String NAME = "test-failing-disk";
    static final String FORCE_FAILURE = "injected EIO: the device refused the force";

    static final AtomicBoolean FAIL_COMMIT_LOG_FORCE = new AtomicBoolean();
    static final AtomicBoolean FAIL_CONSUME_QUEUE_APPEND = new AtomicBoolean();

    static void heal() {
        FAIL_COMMIT_LOG_FORCE.set(false);
        FAIL_CONSUME_QUEUE_APPEND.set(false);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Test only: mmap files whose CommitLog force and ConsumeQueue append fail on demand";
    }

    @Override
    public MappedStorage create(StoreConfig config) {
        return new MappedStorage() {
            @Override
            public MappedFileQueue openQueue(Path directory, int fileSize, QueueRole role) {
                MappedFileFactory files = (dir, offset, size) -> new FailingFile(dir, offset, size, role);
                return new DefaultMappedFileQueue(directory, fileSize, files, files, null);
            }

            @Override
            public boolean usesWriteBuffer() {
                return false;
            }

            @Override
            public void start() {
            }

            @Override
            public void shutdown() {
            }
        };
    }

    private static final class FailingFile extends DefaultMappedFile {
        private final QueueRole role;

        FailingFile(Path directory, long fileFromOffset, int fileSize, QueueRole role) throws IOException {
            super(directory, fileFromOffset, fileSize, NativeMemory.system());
            this.role = role;
        }

        @Override
        protected void forceToDisk(int from, int to) throws IOException {
            if (role == QueueRole.COMMIT_LOG && FAIL_COMMIT_LOG_FORCE.get()) {
                throw new IOException(FORCE_FAILURE + " of " + path() + " [" + from + ", " + to + ")");
            }
            super.forceToDisk(from, to);
        }

        @Override
        public boolean appendBytes(byte[] data, int offset, int length) {
            if (role == QueueRole.CONSUME_QUEUE && FAIL_CONSUME_QUEUE_APPEND.get()) {
                return false;
            }
            return super.appendBytes(data, offset, length);
        }
    }
}
