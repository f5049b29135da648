package dev.hangar.mmap.file;

import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToLongFunction;

/**
 * ConsumeQueue files created (sparse, with their length) whose length and directory entries are not yet forced:
 * {@link UnforcedFiles#forceAll()} makes them durable with the next full flush, before the checkpoint can claim a
 * unit in them. Forcing each at creation would put two {@code fsync}s per new queue on the dispatch thread; a store
 * that creates 100 000 queues gets one {@code syncfs} instead.
 *
 * <p>Thread-safety: {@link #add} from the dispatching thread, {@link #take} and {@link #giveBack} from the one
 * flushing thread.
 */
final class NewFiles {

    /**
     * A file created and the directories made for it (outermost first); {@code unforced} turns false once its length
     * and names were forced (the file's own flush reads it).
     */
    record NewFile(Path file, List<Path> createdDirectories, AtomicBoolean unforced) {
    }

    private final Set<NewFile> files = ConcurrentHashMap.newKeySet();

    NewFile add(Path file, List<Path> createdDirectories) {
        NewFile created = new NewFile(file, List.copyOf(createdDirectories), new AtomicBoolean(true));
        files.add(created);
        return created;
    }

    /** Takes one file off the list; false when another force took it first. */
    boolean remove(NewFile file) {
        return files.remove(file);
    }

    /** Takes every registered file off the list. */
    List<NewFile> take() {
        List<NewFile> taken = new ArrayList<>();
        for (Iterator<NewFile> it = files.iterator(); it.hasNext(); ) {
            taken.add(it.next());
            it.remove();
        }
        return taken;
    }

    /** Registers again files a failed force did not cover. */
    void giveBack(Collection<NewFile> notForced) {
        files.addAll(notForced);
    }

    int size() {
        return files.size();
    }

    /** One {@code fsync} per file, then one per directory holding a new name. */
    static void forceEach(List<NewFile> created) throws IOException {
        List<Path> paths = new ArrayList<>();
        List<Path> made = new ArrayList<>();
        for (NewFile f : created) {
            try (FileChannel channel = FileChannel.open(f.file(), StandardOpenOption.READ)) {
                channel.force(true);
                ForceEvents.lengthForced(f.file(), channel.size());
            } catch (NoSuchFileException e) {
                // deleted since (a queue truncated or cleaned before the flush): its directory is still forced
            }
            paths.add(f.file());
            made.addAll(f.createdDirectories());
        }
        for (Path directory : DurableFiles.parentsOf(paths, made)) {
            if (Files.isDirectory(directory)) {
                DurableFiles.forceDirectory(directory);
            }
        }
        created.forEach(f -> f.unforced().set(false));
    }

    /**
     * What a {@code syncfs} started after {@link #take} makes durable: the file systems it must cover, and (only while
     * a force listener is installed) the lengths and directory names as they were before it, to announce after it.
     *
     * @param fileSystems file-system id to a directory on it
     */
    record Snapshot(List<NewFile> created, Map<Long, Path> fileSystems, Map<Path, Long> lengths,
                    Map<Path, List<String>> names) {

        /**
         * @param fileSystemOf the id of a directory's file system with a syncfs handle open, or {@code noHandle}
         * @return null when a file system has no handle (the files are then forced one by one)
         */
        static Snapshot take(List<NewFile> created, ToLongFunction<Path> fileSystemOf, long noHandle)
                throws IOException {
            List<Path> paths = new ArrayList<>();
            List<Path> made = new ArrayList<>();
            for (NewFile f : created) {
                paths.add(f.file());
                made.addAll(f.createdDirectories());
            }
            Set<Path> directories = DurableFiles.parentsOf(paths, made);
            Map<Long, Path> fileSystems = new LinkedHashMap<>();
            for (Path directory : directories) {
                if (!Files.isDirectory(directory)) {
                    continue;
                }
                long id = fileSystemOf.applyAsLong(directory);
                if (id == noHandle) {
                    return null;
                }
                fileSystems.putIfAbsent(id, directory);
            }
            Map<Path, Long> lengths = new LinkedHashMap<>();
            Map<Path, List<String>> names = new LinkedHashMap<>();
            if (ForceEvents.listening()) {
                for (Path file : paths) {
                    if (Files.exists(file)) {
                        lengths.put(file, Files.size(file));
                    }
                }
                for (Path directory : directories) {
                    if (Files.isDirectory(directory)) {
                        names.put(directory, DurableFiles.names(directory));
                    }
                }
            }
            return new Snapshot(created, fileSystems, lengths, names);
        }

        /** Announces what the syncfs made durable. */
        void announce() {
            lengths.forEach(ForceEvents::lengthForced);
            names.forEach(ForceEvents::directoryForced);
            created.forEach(f -> f.unforced().set(false));
        }
    }
}
