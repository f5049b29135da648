package dev.hangar.mmap.file;

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
}
