package dev.hangar.store;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.ConfigKey;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The file sizes a store was written with, read from its files, so a store opens without repeating
 * {@code -DmappedFileSizeCommitLog} or {@code -DmappedFileSizeConsumeQueue} (RocketMQ 4.9 records them nowhere; the
 * files' lengths are the record). A size left at its default takes the files' size; a size set explicitly must agree
 * with the files, else {@link ConfigException} names both. A store without files keeps the configured sizes.
 */
public final class StoreGeometry {
    private static final Pattern FILE_NAME = Pattern.compile("\\d{20}");

    private StoreGeometry() {
    }

    /** {@code config} with the file sizes the store's existing files have; the same config when there are none. */
    public static StoreConfig resolve(StoreConfig config) {
        Path root = Path.of(config.get(StoreConfigKeys.STORE_PATH_ROOT_DIR));
        if (!Files.isDirectory(root)) {
            return config;
        }
        Optional<Path> commitLogFile = firstFile(root.resolve("commitlog"));
        Optional<Path> consumeQueueFile = firstConsumeQueueFile(root.resolve("consumequeue"));
        StoreConfig.Builder resolved = null;
        if (commitLogFile.isPresent()) {
            int found = size(commitLogFile.get());
            if (check(config, StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG, config.commitLogFileSize(), found,
                    root, commitLogFile.get(), "CommitLog")) {
                resolved = config.toBuilder().set(StoreConfigKeys.MAPPED_FILE_SIZE_COMMIT_LOG.name(),
                        Integer.toString(found), sourceOf(root, commitLogFile.get()));
            }
        }
        if (consumeQueueFile.isPresent()) {
            int found = size(consumeQueueFile.get());
            if (check(config, StoreConfigKeys.MAPPED_FILE_SIZE_CONSUME_QUEUE, config.consumeQueueFileSize(), found,
                    root, consumeQueueFile.get(), "ConsumeQueue")) {
                resolved = (resolved == null ? config.toBuilder() : resolved).set(
                        StoreConfigKeys.MAPPED_FILE_SIZE_CONSUME_QUEUE.name(), Integer.toString(found),
                        sourceOf(root, consumeQueueFile.get()));
            }
        }
        return resolved == null ? config : resolved.build();
    }

    /** True when the configured value should be replaced by the files' size; throws when it contradicts them. */
    private static boolean check(StoreConfig config, ConfigKey<Integer> key, int configured, int found, Path root,
                                 Path file, String what) {
        if (configured == found) {
            return false;
        }
        String source = config.source(key);
        if (!"default".equals(source)) {
            throw new ConfigException(key.name() + " is " + configured + " (from " + source + "), but the store at "
                    + root + " was written with " + what + " files of " + found + " bytes (" + root.relativize(file)
                    + "); drop the setting to use the files' size, or set " + key.name() + "=" + found);
        }
        return true;
    }

    private static String sourceOf(Path root, Path file) {
        return "the store's files (" + root.relativize(file) + ")";
    }

    private static int size(Path file) {
        try {
            long size = Files.size(file);
            return (int) Math.min(Integer.MAX_VALUE, size);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + file, e);
        }
    }

    /** The first non-empty file with a 20-digit name (an empty newest file is an interrupted creation). */
    private static Optional<Path> firstFile(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            Path first = null;
            for (Path f : files) {
                if (FILE_NAME.matcher(f.getFileName().toString()).matches() && Files.isRegularFile(f)
                        && Files.size(f) > 0 && (first == null || f.getFileName().compareTo(first.getFileName()) < 0)) {
                    first = f;
                }
            }
            return Optional.ofNullable(first);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** A file of the first queue that has one: consumequeue/TOPIC/QUEUE_ID/NNN. */
    private static Optional<Path> firstConsumeQueueFile(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> topics = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path topic : topics) {
                try (DirectoryStream<Path> queues = Files.newDirectoryStream(topic, Files::isDirectory)) {
                    for (Path queue : queues) {
                        Optional<Path> file = firstFile(queue);
                        if (file.isPresent()) {
                            return file;
                        }
                    }
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }
}
