package dev.hangar.mmap.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file channel a mapped-file variant keeps open after mapping, to write through it ({@link PooledMappedFile},
 * {@link CopyOnWriteMappedFile}) or to map again ({@link OnDemandMappedFile}); empty for the plain variant, which
 * closes it right after mapping so thousands of ConsumeQueue files cost no file descriptors.
 */
final class KeptChannel {
    private static final Logger LOG = LoggerFactory.getLogger(KeptChannel.class);
    private volatile FileChannel channel;

    /** @param channel the open channel to keep, or null for none */
    KeptChannel(FileChannel channel) {
        this.channel = channel;
    }

    /** The kept channel, or null. */
    FileChannel get() {
        return channel;
    }

    /** Hands the channel over to the caller, who closes it from now on; null when none is kept. */
    FileChannel take() {
        FileChannel open = channel;
        channel = null;
        return open;
    }

    /** Closes the kept channel, if any; a failure is logged naming the file. */
    void close(Path path) {
        FileChannel open = take();
        if (open != null) {
            try {
                open.close();
            } catch (IOException e) {
                LOG.warn("closing {} failed: {}", path, e.toString());
            }
        }
    }
}
