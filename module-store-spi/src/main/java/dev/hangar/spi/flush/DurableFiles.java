package dev.hangar.spi.flush;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Makes the creation of a file survive a power cut. POSIX promises neither a new file's length nor its name in its
 * directory until the file and then its directory are forced; a file system that keeps neither leaves a store with an
 * empty newest file, or without a file recovery counted on (ext4's ordered journal makes that unlikely, not
 * impossible). Every file whose presence recovery relies on - CommitLog, ConsumeQueue and index files, the
 * checkpoint, config files - is created through here before anything claims it holds data.
 *
 * <p>Each force is announced to {@link ForceEvents} after it returned, so the power-cut tests can model exactly this.
 * A deletion is not forced: recovery tolerates a deleted file that comes back.
 */
public final class DurableFiles {

    private DurableFiles() {
    }

    /**
     * Creates {@code directory} and its missing parents.
     *
     * @return the directories this call created, outermost first (each one's parent must be forced for it to last)
     */
    public static List<Path> createDirectories(Path directory) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path p = directory.toAbsolutePath(); p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.add(0, p);
        }
        Files.createDirectories(directory);
        return missing;
    }

    /**
     * Forces {@code file}'s length (fsync), then the directories that hold the names of the file and of
     * {@code createdDirectories} (as {@link #createDirectories} returned them), each once.
     */
    public static void forceCreation(Path file, Collection<Path> createdDirectories) throws IOException {
        long length;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            channel.force(true);
            length = channel.size();
        }
        ForceEvents.lengthForced(file, length);
        forceDirectories(parentsOf(List.of(file), createdDirectories));
    }

    /** The distinct directories holding the names of {@code files} and {@code createdDirectories}, innermost first. */
    public static Set<Path> parentsOf(Collection<Path> files, Collection<Path> createdDirectories) {
        Set<Path> parents = new LinkedHashSet<>();
        for (Path f : files) {
            parents.add(f.toAbsolutePath().getParent());
        }
        List<Path> dirs = new ArrayList<>(createdDirectories);
        for (int i = dirs.size() - 1; i >= 0; i--) {
            Path parent = dirs.get(i).toAbsolutePath().getParent();
            if (parent != null) {
                parents.add(parent);
            }
        }
        return parents;
    }

    /** Forces each directory (fsync of the directory), announcing its names as listed before its force. */
    public static void forceDirectories(Collection<Path> directories) throws IOException {
        for (Path directory : directories) {
            forceDirectory(directory);
        }
    }

    /** Forces one directory: the names created, renamed or deleted in it before the call are then on the disk. */
    public static void forceDirectory(Path directory) throws IOException {
        List<String> names = ForceEvents.listening() ? names(directory) : null;
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
        if (names != null) {
            ForceEvents.directoryForced(directory, names);
        }
    }

    /** The names in {@code directory} now: taken before a sync that covers them. */
    public static List<String> names(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        }
    }
}
