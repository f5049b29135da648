package dev.hangar.store.crash;

import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * What a disk would hold after a power cut: a shadow directory that receives, at each completed force the store
 * announces through {@link ForceEvents}, exactly the forced bytes of the live file. Anything written but never
 * forced (page cache only) never reaches the shadow, so reopening the shadow is reopening the store after the
 * power went off at the moment of {@link #cut()}.
 *
 * <p>The model of the file system (ext4/xfs in their default modes): a force of a file also makes its name and
 * its length durable; a file never forced does not exist after the cut; a deletion is not durable (a deleted file
 * may come back, which recovery must tolerate anyway). The shadow is pessimistic: a real disk may also hold some
 * unforced pages written back by the kernel, never fewer than the shadow.
 */
final class PowerCutDisk implements ForceEvents.Listener, AutoCloseable {
    private static final String COMMIT_LOG_DIR = "commitlog";

    private final Path live;
    private final Path shadow;
    private final List<String> errors = new ArrayList<>();
    private volatile boolean cut;
    private long durableCommitLogEnd;
    private long forces;

    PowerCutDisk(Path live, Path shadow) throws IOException {
        this.live = live.toAbsolutePath().normalize();
        this.shadow = shadow;
        Files.createDirectories(shadow);
        ForceEvents.install(this);
    }

    @Override
    public synchronized void rangeForced(Path file, long from, long to) {
        Path target = shadowOf(file);
        if (target == null || to <= from) {
            return;
        }
        forces++;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.allocate((int) (to - from));
            while (bytes.hasRemaining() && in.read(bytes, from + bytes.position()) >= 0) {
                // positional reads until the range is in
            }
            bytes.flip();
            out.write(bytes, from);
            long length = in.size();
            if (out.size() < length) {
                out.write(ByteBuffer.allocate(1), length - 1);
            }
        } catch (IOException e) {
            errors.add("copying forced range [" + from + ", " + to + ") of " + file + ": " + e);
            return;
        }
        if (file.getParent() != null && file.getParent().getFileName().toString().equals(COMMIT_LOG_DIR)) {
            durableCommitLogEnd = Math.max(durableCommitLogEnd, Long.parseLong(file.getFileName().toString()) + to);
        }
    }

    @Override
    public synchronized void fileForced(Path file) {
        Path target = shadowOf(file);
        if (target == null) {
            return;
        }
        forces++;
        try {
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            errors.add("copying forced file " + file + ": " + e);
        }
    }

    /** The shadow path of a live file, with its directories made; null after the cut or for other stores' files. */
    private Path shadowOf(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        if (cut || !absolute.startsWith(live)) {
            return null;
        }
        Path target = shadow.resolve(live.relativize(absolute).toString());
        try {
            Files.createDirectories(target.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /** The power goes off: nothing forced from now on reaches the disk. */
    synchronized void cut() {
        cut = true;
    }

    boolean isCut() {
        return cut;
    }

    /** One past the last CommitLog byte a completed force covered. */
    synchronized long durableCommitLogEnd() {
        return durableCommitLogEnd;
    }

    synchronized long forces() {
        return forces;
    }

    synchronized List<String> errors() {
        return List.copyOf(errors);
    }

    @Override
    public void close() {
        ForceEvents.uninstall(this);
    }
}
