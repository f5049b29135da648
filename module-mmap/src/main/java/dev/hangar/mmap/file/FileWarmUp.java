package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocketMQ's {@code warmMappedFile} for a whole new file: a zero into every page, so the kernel allocates the pages
 * before the file is written under the put lock, then {@code mlock}. Kept apart from {@link DefaultMappedFile}
 * because the built-in providers now use {@link CommitLogPretoucher}, which faults in only the pages just ahead of
 * the writer; {@code MappedFile.warmUp} stays for providers and tools that want the old behaviour.
 */
final class FileWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(FileWarmUp.class);

    private FileWarmUp() {
    }

    /**
     * Touches every page of {@code mapped} (the caller holds the file), forcing every {@code flushLeastPages} pages
     * (0 = never), stopping early when {@code abandon} turns true.
     *
     * @return true when the file ended up locked in memory
     */
    static boolean warm(Path path, MappedByteBuffer mapped, int fileSize, NativeMemory nativeMemory,
                        int flushLeastPages, BooleanSupplier abandon) {
        long begin = System.currentTimeMillis();
        long lastForcedPage = 0;
        // a long index: a counted int loop over a whole file would delay safepoints for seconds
        for (long position = 0, page = 0; position < fileSize; position += DirtyPages.OS_PAGE_SIZE, page++) {
            mapped.put((int) position, (byte) 0);
            if (flushLeastPages > 0 && page - lastForcedPage >= flushLeastPages) {
                lastForcedPage = page;
                forceQuietly(path, mapped);
            }
            if (abandon.getAsBoolean()) {
                LOG.info("warm-up of {} abandoned: the file is needed now", path);
                return false;
            }
        }
        if (flushLeastPages > 0) {
            forceQuietly(path, mapped);
        }
        boolean locked = nativeMemory.mlock(mapped, fileSize);
        if (locked) {
            nativeMemory.madvise(mapped, fileSize, LibC.MADV_WILLNEED);
        }
        LOG.info("warmed {} in {} ms (locked in memory: {})", path, System.currentTimeMillis() - begin, locked);
        return locked;
    }

    private static void forceQuietly(Path path, MappedByteBuffer mapped) {
        try {
            mapped.force();
        } catch (RuntimeException e) {
            LOG.warn("force during warm-up of {} failed: {}", path, e.toString());
        }
    }
}
