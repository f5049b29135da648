package dev.hangar.store.crash;

import dev.hangar.store.TestStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Which names of a store directory a power cut keeps, for {@link PowerCutDisk}: a name (file or directory, relative
 * to the store's root) is durable once its directory was forced after it appeared. At the cut, every name that is not
 * durable is kept or dropped by a draw, and a kept file whose length was never forced is empty; the store's root
 * itself is dropped (with everything in it) or kept the same way unless its own name was made durable.
 */
final class ShadowNames {
    private final Set<Path> durable = new HashSet<>();

    /** What {@link #applyCut} did: names dropped, files kept empty, undurable names kept. */
    record CutSummary(int dropped, int emptied, int keptUndurable, List<Path> emptiedFiles) {
        @Override
        public String toString() {
            return "the cut dropped " + dropped + " names never made durable, kept " + keptUndurable
                    + " of them, and left " + emptied + " files whose length was never forced empty"
                    + (emptiedFiles.isEmpty() ? "" : " " + emptiedFiles.subList(0, Math.min(5, emptiedFiles.size())));
        }
    }

    /** {@code name} (relative) is durable in its directory. */
    void markDurable(Path name) {
        durable.add(name);
    }

    /** Every one of {@code names} (relative) is durable. */
    void markDurable(Collection<Path> names) {
        durable.addAll(names);
    }

    /**
     * {@code directory} (relative; empty for the root) was forced with {@code names} in it, listed before the force:
     * they are durable. A name missing from the listing is not taken as durably deleted: two threads may force one
     * directory and announce their listings out of order, so a stale listing must not undo a newer one. Deletions
     * stay undurable (a deleted file may come back), as recovery must tolerate anyway.
     */
    void directoryForced(Path directory, Collection<String> names) {
        for (String name : names) {
            durable.add(directory.resolve(name));
        }
    }

    /** Applies the cut to the shadow: every name of the live or shadow tree that is not durable is kept or dropped. */
    CutSummary applyCut(Path live, Path shadow, Random random, boolean rootDurable) throws IOException {
        if (!rootDurable && random.nextBoolean()) {
            // the store's own directory never reached the disk: nothing of it is left
            TestStores.deleteTree(shadow);
            Files.createDirectories(shadow);
            return new CutSummary(1, 0, 0, List.of(shadow.getFileName()));
        }
        TreeSet<Path> all = new TreeSet<>(Comparator.comparing(Path::toString));
        all.addAll(relativeTree(live));
        all.addAll(relativeTree(shadow));
        List<Path> droppedDirectories = new ArrayList<>();
        List<Path> emptied = new ArrayList<>();
        int dropped = 0;
        int keptUndurable = 0;
        for (Path name : byDepth(all)) {
            if (droppedDirectories.stream().anyMatch(name::startsWith)) {
                continue;
            }
            Path inShadow = shadow.resolve(name.toString());
            boolean directory = Files.isDirectory(live.resolve(name.toString())) || Files.isDirectory(inShadow);
            if (!durable.contains(name)) {
                if (random.nextBoolean()) {
                    TestStores.deleteTree(inShadow);
                    dropped++;
                    if (directory) {
                        droppedDirectories.add(name);
                    }
                    continue;
                }
                keptUndurable++;
            }
            if (directory) {
                Files.createDirectories(inShadow);
            } else if (!Files.exists(inShadow)) {
                // its name reached the disk, its length never did
                Files.createDirectories(inShadow.getParent());
                Files.createFile(inShadow);
                emptied.add(name);
            }
        }
        return new CutSummary(dropped, emptied.size(), keptUndurable, emptied);
    }

    /** Parents before their children. */
    private static List<Path> byDepth(Collection<Path> names) {
        List<Path> sorted = new ArrayList<>(names);
        sorted.sort(Comparator.comparingInt(Path::getNameCount).thenComparing(Path::toString));
        return sorted;
    }

    private static List<Path> relativeTree(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(p -> !p.equals(root)).map(root::relativize).toList();
        } catch (java.io.UncheckedIOException e) {
            // a file deleted while the live tree is walked (the store still runs): walk again
            return relativeTree(root);
        }
    }
}
