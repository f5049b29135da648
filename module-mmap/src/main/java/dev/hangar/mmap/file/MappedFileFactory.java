package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.MappedFile;
import java.io.IOException;
import java.nio.file.Path;

/** Creates (or maps an existing) mapped file; one per variant. Implementations are thread-safe. */
@FunctionalInterface
public interface MappedFileFactory {

    /**
     * Maps {@code directory/<20-digit fileFromOffset>}, creating the file (and directory) when missing.
     *
     * @throws IOException the file could not be created or mapped; nothing is left mapped
     */
    MappedFile create(Path directory, long fileFromOffset, int fileSize) throws IOException;

    /**
     * Maps existing files {@code READ_ONLY} for a store opened read-only ({@link FileSpace#READ_ONLY}): a missing
     * file is an error, never created, and a write to a mapped one fails naming the file.
     */
    static MappedFileFactory readOnly(NativeMemory nativeMemory) {
        return (directory, fileFromOffset, fileSize) -> new DefaultMappedFile(directory, fileFromOffset, fileSize,
                nativeMemory, false, FileSpace.READ_ONLY, true);
    }
}
