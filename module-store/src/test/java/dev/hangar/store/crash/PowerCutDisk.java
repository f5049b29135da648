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
import java.util.Collection;
import java.util.List;
import java.util.Random;

/**
 * What a disk would hold after a power cut: a shadow directory that receives, at each completed force the store
 * announces through {@link ForceEvents}, exactly what that force made durable. Anything written but never forced
 * (page cache only) never reaches the shadow, so reopening the shadow is reopening the store after the power went off
 * at the moment of {@link #cut()}.
 *
 * <p>The model of the file system is what POSIX promises, no more (ext4's ordered journal usually keeps more; other
 * file systems and devices may not):
 * <ul>
 *   <li>bytes of a file are durable once a force covered them ({@code rangeForced}, {@code fileForced}), and so is the
 *   file's length at that force ({@code msync}/{@code fdatasync} write the size a read needs); a length forced on its
 *   own ({@code lengthForced}, a new file's {@code fsync}) is durable with zeros for bytes never forced;</li>
 *   <li>a name in a directory is durable once the directory was forced after the name appeared
 *   ({@code directoryForced}), or when a {@code fileForced} says so; until then the cut may keep the file or drop
 *   it, and a file it keeps whose length was never forced is empty - the state that stopped a store from
 *   starting (two zero-length CommitLog files) before new files were created durably. Which way each undurable name
 *   goes is drawn from the round's seed;</li>
 *   <li>the store's root directory is a name in its parent like any other: a store created by the round lasts only
 *   once its parent was forced with it;</li>
 *   <li>a deletion is never durable: the file may come back with what was forced of it. The shadow keeps it (the
 *   pessimistic choice: recovery must tolerate it anyway).</li>
 * </ul>
 * The shadow is pessimistic: a real disk may also hold some unforced pages written back by the kernel.
 */
final class PowerCutDisk implements ForceEvents.Listener, AutoCloseable {
    private static final String COMMIT_LOG_DIR = "commitlog";

    private final Path live;
    private final Path shadow;
    private final Random random;
    /** The negative control: the creations the store forced are treated as never forced. */
    private final boolean ignoreCreationForces;
    private final ShadowNames names = new ShadowNames();
    private final List<String> errors = new ArrayList<>();
    private volatile boolean cut;
    /** The store's root directory was there before this disk, or its own name was forced into its parent since. */
    private boolean rootDurable;
    private long durableCommitLogEnd;
    private long forces;
    private ShadowNames.CutSummary cutSummary;

    /** @param random draws which undurable names the cut keeps */
    PowerCutDisk(Path live, Path shadow, Random random) throws IOException {
        this(live, shadow, random, false);
    }

    /**
     * @param ignoreCreationForces the negative control of durable creation: forces of new files' lengths and of
     *                             directories are ignored, as if the store never made them
     */
    PowerCutDisk(Path live, Path shadow, Random random, boolean ignoreCreationForces) throws IOException {
        this.live = live.toAbsolutePath().normalize();
        this.shadow = shadow;
        this.random = random;
        this.ignoreCreationForces = ignoreCreationForces;
        this.rootDurable = Files.isDirectory(this.live);
        // what is there before the disk is watched was on the disk already (a test may start from a copied store)
        names.markDurable(relativeTree(this.live));
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
        names.markDurable(relative(file));
    }

    @Override
    public synchronized void lengthForced(Path file, long length) {
        Path target = ignoreCreationForces ? null : shadowOf(file);
        if (target == null) {
            return;
        }
        forces++;
        try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            if (out.size() > length) {
                out.truncate(length);
            } else if (out.size() < length) {
                out.write(ByteBuffer.allocate(1), length - 1);
            }
        } catch (IOException e) {
            errors.add("sizing " + target + " to the forced length " + length + ": " + e);
        }
    }

    @Override
    public synchronized void directoryForced(Path directory, Collection<String> namesBeforeTheForce) {
        Path absolute = directory.toAbsolutePath().normalize();
        if (cut || ignoreCreationForces) {
            return;
        }
        if (absolute.equals(live.getParent()) && namesBeforeTheForce.contains(live.getFileName().toString())) {
            rootDurable = true;
            forces++;
        } else if (absolute.startsWith(live)) {
            forces++;
            names.directoryForced(live.relativize(absolute), namesBeforeTheForce);
        }
    }

    private static List<Path> relativeTree(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
            return paths.filter(p -> !p.equals(root)).map(root::relativize).toList();
        }
    }

    private Path relative(Path file) {
        return live.relativize(file.toAbsolutePath().normalize());
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

    /**
     * The power goes off: nothing forced from now on reaches the disk, and every name the store created without
     * forcing its directory is kept or dropped (see the class comment).
     */
    synchronized void cut() {
        cut = true;
        try {
            cutSummary = names.applyCut(live, shadow, random, rootDurable);
        } catch (IOException e) {
            errors.add("applying the cut to the names: " + e);
        }
    }

    boolean isCut() {
        return cut;
    }

    /** What the cut did with names the store never made durable: for the round's message when it fails. */
    synchronized String cutSummary() {
        return cutSummary == null ? "no cut" : cutSummary.toString();
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
