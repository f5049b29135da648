package dev.hangar.store.service;

import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code abort} file in the store's root (RocketMQ's name): present while a writer has the store open, removed at
 * a clean shutdown. Found at start, it says the last shutdown was not clean and recovery must start from the
 * checkpoint.
 */
public final class AbortMarker {
    private static final Logger LOG = LoggerFactory.getLogger(AbortMarker.class);
    private static final String FILE_NAME = "abort";

    private final Path file;

    public AbortMarker(Path storeRoot) {
        this.file = storeRoot.resolve(FILE_NAME);
    }

    public Path path() {
        return file;
    }

    /** True when the marker is there: the last writer did not shut down cleanly. */
    public boolean present() {
        return Files.exists(file);
    }

    /**
     * Creates the marker durably (its length and its name in the root forced): if a power cut could take it away,
     * the next start would trust the files as after a clean shutdown.
     */
    public void create() {
        try {
            if (!Files.exists(file)) {
                Files.createFile(file);
                DurableFiles.forceCreation(file, List.of());
            }
            ForceEvents.fileForced(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the abort marker " + file, e);
        }
    }

    /**
     * Removes the marker after a clean shutdown. Not forced: should a power cut bring it back, the next start only
     * recovers as after a crash, which is always safe.
     */
    public void remove() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("cannot remove the abort marker: {}", e.toString());
        }
    }
}
